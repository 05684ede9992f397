/* A plugin built from movconf's own optimized kernels with two planted
   faults of the kind real kernels have on paths only large inputs take
   (tests/planted_faults.sh runs the shipped suite against it and expects
   the large tier, conformance-large/, to catch both):

   - BatchToSpace-2, outputs above 4,096 elements: the last quarter of the
     output is shifted by one element, as a thread split whose last worker
     starts one element early would leave it.
   - SpaceToDepth-1, data with a channel count that is a multiple of 16 and
     outputs above 2^16 elements: when the innermost output extent is not a
     multiple of 16, the last element of the output (the tail of the last
     vector row) repeats the one before it.

   Small outputs take the correct path, so the default conformance run
   passes: that is the blind spot the large tier closes. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "movconf/optimized.h"
#include "movconf/plugin.h"

/* Where the planted faults switch on. */
#define B2S_FAULT_MIN_ELEMENTS 4096
#define S2D_FAULT_MIN_ELEMENTS 65536
#define S2D_FAULT_CHANNEL_MULTIPLE 16
#define S2D_FAULT_VECTOR 16

/* The request as movconf's own types; tensors point into the plugin's. */
typedef struct request_view {
  mc_tensor inputs[MC_MAX_INPUTS];
  mc_request req;
} request_view;

static void copy_ints(const movconf_plugin_ints *in, mc_int_list *out) {
  memset(out, 0, sizeof *out);
  out->count = in->count < 0 ? -1 : in->count;
  for (int i = 0; i < in->count && i < MC_MAX_ATTR_LEN; i++)
    out->v[i] = in->values[i];
}

static void view_request(const movconf_plugin_request *p, request_view *v) {
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
    m->data = (uint8_t *)(uintptr_t)t->data; /* read only */
    m->nbytes = (size_t)t->nbytes;
    v->req.inputs[i] = m;
  }
  mc_attrs *a = &v->req.attrs;
  *a = mc_attrs_none();
  a->has_block_size = p->attrs.has_block_size != 0;
  a->block_size = p->attrs.block_size;
  a->mode = p->attrs.mode;
  a->auto_pad = p->attrs.auto_pad;
  copy_ints(&p->attrs.sizes, &a->sizes);
  copy_ints(&p->attrs.strides, &a->strides);
  copy_ints(&p->attrs.rates, &a->rates);
}

static int reject(const mc_error *err, movconf_plugin_message *message) {
  snprintf(message->error, sizeof message->error, "%s", mc_status_name(err->status));
  snprintf(message->text, sizeof message->text, "[%s] %s", err->clause ? err->clause : "-",
           err->message);
  return MOVCONF_PLUGIN_REJECTED;
}

static int output_shape(const movconf_plugin_request *request, movconf_plugin_output *output,
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

/* Elements of the output, and the size of one in bytes (0 for the packed
   types, which the faults leave alone: they only touch whole bytes). */
static int64_t output_elements(const movconf_plugin_output *o, size_t *element_bytes) {
  int64_t n = 1;
  for (int d = 0; d < o->rank; d++)
    n *= o->shape[d]; /* the kernels have checked the product */
  unsigned bits = mc_type_bits((mc_type)o->type);
  *element_bytes = bits % 8 == 0 ? bits / 8 : 0;
  return n;
}

/* The wrong thread split: elements [n - n/4, n) take the value of the
   element before them. */
static void plant_b2s_fault(const movconf_plugin_output *o) {
  size_t size;
  int64_t n = output_elements(o, &size);
  if (n <= B2S_FAULT_MIN_ELEMENTS || size == 0)
    return;
  int64_t start = n - n / 4;
  uint8_t *bytes = o->data;
  memmove(bytes + (size_t)start * size, bytes + (size_t)(start - 1) * size,
          (size_t)(n - start) * size);
}

/* The wrong vector tail: the last element repeats the one before it. */
static void plant_s2d_fault(const mc_request *req, const movconf_plugin_output *o) {
  size_t size;
  int64_t n = output_elements(o, &size);
  const mc_tensor *data = req->inputs[0];
  if (n <= S2D_FAULT_MIN_ELEMENTS || size == 0 || data->rank < 3 ||
      data->shape[1] % S2D_FAULT_CHANNEL_MULTIPLE != 0 ||
      o->shape[o->rank - 1] % S2D_FAULT_VECTOR == 0)
    return;
  uint8_t *bytes = o->data;
  memcpy(bytes + (size_t)(n - 1) * size, bytes + (size_t)(n - 2) * size, size);
}

static int run(const movconf_plugin_request *request, const movconf_plugin_output *output,
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
  if (v.req.op == MC_OP_BATCH_TO_SPACE)
    plant_b2s_fault(output);
  else if (v.req.op == MC_OP_SPACE_TO_DEPTH)
    plant_s2d_fault(&v.req, output);
  return MOVCONF_PLUGIN_OK;
}

static const movconf_plugin_v1 table = {
    .abi_version = MOVCONF_PLUGIN_ABI_VERSION,
    .name = "movconf-optimized-planted-faults",
    .version = "1",
    .supports = NULL, /* every case */
    .output_shape = output_shape,
    .run = run,
};

const movconf_plugin_v1 *movconf_plugin_entry(uint32_t abi_version) {
  return abi_version == MOVCONF_PLUGIN_ABI_VERSION ? &table : NULL;
}
