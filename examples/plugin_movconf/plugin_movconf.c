/* A plugin wrapping movconf's own optimized kernels: the reference for the
   plugin ABI (include/movconf/plugin.h, spec/plugin-abi.md) and the proof
   that `movconf run --impl plugin:...` passes a correct implementation.

   output_shape() is mc_optimized_output_shape(); run() is
   mc_optimized_run_into(), which writes straight into the buffer movconf
   provides. Rejections carry movconf's error names, so the runner compares
   them exactly. */
#include <stdio.h>
#include <string.h>

#include "movconf/optimized.h"
#include "movconf/plugin.h"

#ifndef PLUGIN_MOVCONF_VERSION
#define PLUGIN_MOVCONF_VERSION "unknown"
#endif

/* The request as movconf's own types; tensors point into the plugin's. */
typedef struct request_view {
  mc_tensor inputs[MC_MAX_INPUTS];
  mc_request req;
} request_view;

/* Attribute a of the request as movconf holds it, by its name; an
   attribute the operation does not have is left out (movconf sends none). */
static void view_attr(const movconf_plugin_attr *a, mc_op op, mc_attrs *attrs) {
  int id = mc_op_attr_from_name(op, a->name);
  if (id < 0)
    return;
  if (a->kind == MOVCONF_PLUGIN_ATTR_INT) {
    mc_attrs_set_int(attrs, (mc_attr)id, a->value.i);
  } else if (a->kind == MOVCONF_PLUGIN_ATTR_STRING) {
    mc_attrs_set_string(attrs, (mc_attr)id, a->value.s);
  } else if (a->kind == MOVCONF_PLUGIN_ATTR_INTS) {
    mc_int_list *l = mc_attrs_list_slot(attrs, (mc_attr)id);
    l->count = a->value.ints.count;
    for (int i = 0; i < l->count && i < MC_MAX_ATTR_LEN; i++)
      l->v[i] = a->value.ints.values[i];
  }
}

static void view_request(const movconf_plugin_request_v3 *p, request_view *v) {
  memset(v, 0, sizeof *v);
  v->req.op = (mc_op)p->op;
  v->req.n_inputs = p->n_inputs < 0 ? 0 : p->n_inputs > MC_MAX_INPUTS ? MC_MAX_INPUTS : p->n_inputs;
  for (int i = 0; i < v->req.n_inputs; i++) {
    const movconf_plugin_tensor *t = &p->inputs[i];
    mc_tensor *m = &v->inputs[i];
    m->type = (mc_type)t->type;
    m->rank = t->rank;
    for (int d = 0; d < t->rank && d < MC_TENSOR_MAX_RANK; d++)
      m->shape[d] = t->shape[d];
    m->data = (uint8_t *)(uintptr_t)t->data; /* the kernels only read inputs */
    m->nbytes = (size_t)t->nbytes;
    v->req.inputs[i] = m;
  }
  v->req.attrs = mc_attrs_none();
  for (int k = 0; k < p->n_attrs; k++)
    view_attr(&p->attrs[k], v->req.op, &v->req.attrs);
}

static int reject(const mc_error *err, movconf_plugin_message *message) {
  snprintf(message->error, sizeof message->error, "%s", mc_status_name(err->status));
  snprintf(message->text, sizeof message->text, "[%s] %s", err->clause ? err->clause : "-",
           err->message);
  return MOVCONF_PLUGIN_REJECTED;
}

static int output_shape(const movconf_plugin_request_v3 *request, movconf_plugin_output *output,
                        movconf_plugin_message *message) {
  request_view v;
  view_request(request, &v);
  mc_type type;
  int rank;
  int64_t shape[MC_TENSOR_MAX_RANK];
  mc_error err;
  if (mc_optimized_output_shape(&v.req, (size_t)request->max_output_bytes, &type, &rank, shape,
                                &err) != MC_OK)
    return reject(&err, message);
  output->type = type;
  output->rank = rank;
  for (int d = 0; d < rank; d++)
    output->shape[d] = shape[d];
  return MOVCONF_PLUGIN_OK;
}

static int run(const movconf_plugin_request_v3 *request, const movconf_plugin_output *output,
               movconf_plugin_message *message) {
  request_view v;
  view_request(request, &v);
  mc_tensor out;
  memset(&out, 0, sizeof out);
  out.type = (mc_type)output->type;
  out.rank = output->rank;
  for (int d = 0; d < output->rank; d++)
    out.shape[d] = output->shape[d];
  out.data = output->data;
  out.nbytes = (size_t)output->nbytes;
  mc_error err;
  if (mc_optimized_run_into(&v.req, 0, &out, &err) != MC_OK)
    return reject(&err, message);
  return MOVCONF_PLUGIN_OK;
}

static const movconf_plugin_v3 table = {
    .abi_version = MOVCONF_PLUGIN_ABI_V3,
    .name = "movconf-optimized",
    .version = PLUGIN_MOVCONF_VERSION,
    .supports = NULL, /* every case */
    .output_shape = output_shape,
    .run = run,
};

const void *movconf_plugin_entry(uint32_t abi_version) {
  return abi_version == MOVCONF_PLUGIN_ABI_V3 ? &table : NULL;
}
