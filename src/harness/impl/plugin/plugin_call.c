/* Loading a plugin, presenting a request to it and checking the output it
   announces: see plugin_call.h. */
#include "harness/impl/plugin/plugin_call.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "movconf/tensor.h"

/* The ABI's numbers are movconf's own, so values cross unchanged. */
_Static_assert(MOVCONF_PLUGIN_MAX_RANK == MC_TENSOR_MAX_RANK, "rank limits differ");
_Static_assert(MOVCONF_PLUGIN_V3_MAX_INPUTS == MC_MAX_INPUTS, "input counts differ");
/* Versions 1 and 2 have room for fewer; they are never offered more. */
_Static_assert(MOVCONF_PLUGIN_MAX_INPUTS <= MC_MAX_INPUTS, "versions 1 and 2 hold more inputs");
_Static_assert((int)MOVCONF_PLUGIN_BATCH_TO_SPACE == (int)MC_OP_BATCH_TO_SPACE &&
                   (int)MOVCONF_PLUGIN_SPACE_TO_BATCH == (int)MC_OP_SPACE_TO_BATCH &&
                   (int)MOVCONF_PLUGIN_SPACE_TO_DEPTH == (int)MC_OP_SPACE_TO_DEPTH &&
                   (int)MOVCONF_PLUGIN_DEPTH_TO_SPACE == (int)MC_OP_DEPTH_TO_SPACE &&
                   (int)MOVCONF_PLUGIN_EXTRACT_IMAGE_PATCHES == (int)MC_OP_EXTRACT_IMAGE_PATCHES &&
                   (int)MOVCONF_PLUGIN_SHUFFLE_CHANNELS == (int)MC_OP_SHUFFLE_CHANNELS &&
                   (int)MOVCONF_PLUGIN_SLICE == (int)MC_OP_SLICE &&
                   (int)MOVCONF_PLUGIN_TRANSPOSE == (int)MC_OP_TRANSPOSE &&
                   (int)MOVCONF_PLUGIN_PAD == (int)MC_OP_PAD &&
                   (int)MOVCONF_PLUGIN_STRIDED_SLICE == (int)MC_OP_STRIDED_SLICE &&
                   (int)MOVCONF_PLUGIN_GATHER == (int)MC_OP_GATHER,
               "operation numbers differ");
_Static_assert(
    (int)MOVCONF_PLUGIN_BOOLEAN == (int)MC_BOOLEAN && (int)MOVCONF_PLUGIN_U8 == (int)MC_U8 &&
        (int)MOVCONF_PLUGIN_I8 == (int)MC_I8 && (int)MOVCONF_PLUGIN_U16 == (int)MC_U16 &&
        (int)MOVCONF_PLUGIN_I16 == (int)MC_I16 && (int)MOVCONF_PLUGIN_F16 == (int)MC_F16 &&
        (int)MOVCONF_PLUGIN_BF16 == (int)MC_BF16 && (int)MOVCONF_PLUGIN_U32 == (int)MC_U32 &&
        (int)MOVCONF_PLUGIN_I32 == (int)MC_I32 && (int)MOVCONF_PLUGIN_F32 == (int)MC_F32 &&
        (int)MOVCONF_PLUGIN_U64 == (int)MC_U64 && (int)MOVCONF_PLUGIN_I64 == (int)MC_I64 &&
        (int)MOVCONF_PLUGIN_F64 == (int)MC_F64 && (int)MOVCONF_PLUGIN_F8E4M3 == (int)MC_F8E4M3 &&
        (int)MOVCONF_PLUGIN_F8E5M2 == (int)MC_F8E5M2 && (int)MOVCONF_PLUGIN_U1 == (int)MC_U1 &&
        (int)MOVCONF_PLUGIN_U4 == (int)MC_U4 && (int)MOVCONF_PLUGIN_I4 == (int)MC_I4 &&
        MC_TYPE_COUNT == 18,
    "element type numbers differ");

/* t, the table the entry gave for version abi, once checked (its version,
   name, version and required functions), or NULL with a message in err.
   Every version's table is laid out alike, up to the functions' argument
   types. */
static const movconf_plugin_v3 *check_table(const movconf_plugin_v3 *t, uint32_t abi,
                                            const char *path, char *err, size_t errlen) {
  if (!t)
    snprintf(err, errlen,
             "%s does not speak plugin ABI version %u, %u or %u (its entry returned NULL)", path,
             MOVCONF_PLUGIN_ABI_V3, MOVCONF_PLUGIN_ABI_V2, MOVCONF_PLUGIN_ABI_V1);
  else if (t->abi_version != abi)
    snprintf(err, errlen, "%s returned a table of ABI version %u, not %u", path, t->abi_version,
             abi);
  else if (!t->name || !t->version || !t->output_shape || !t->run)
    snprintf(err, errlen, "%s returned a table without %s", path,
             !t->name      ? "a name"
             : !t->version ? "a version"
             : !t->run     ? "run()"
                           : "output_shape()");
  else
    return t;
  return NULL;
}

const mc_plugin *mc_plugin_load(const char *path, const char **phase, char *err, size_t errlen) {
  /* What case discovery refuses: dlopen would wait forever on a FIFO. A
     name without a slash is looked up by dlopen on the library path. */
  struct stat st;
  if (strchr(path, '/') && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "cannot load %s: not a regular file", path);
    return NULL;
  }
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(err, errlen, "cannot load %s: %s", path, dlerror());
    return NULL;
  }
  void *sym = dlsym(lib, MOVCONF_PLUGIN_ENTRY_NAME);
  if (!sym) {
    snprintf(err, errlen, "%s does not export %s()", path, MOVCONF_PLUGIN_ENTRY_NAME);
    return NULL;
  }
  movconf_plugin_entry_fn entry;
  memcpy(&entry, &sym, sizeof entry); /* object pointer to function pointer */
  /* A NULL answer to the newest version is a plugin written for an older one. */
  if (phase)
    *phase = MOVCONF_PLUGIN_ENTRY_NAME;
  uint32_t abi = MOVCONF_PLUGIN_ABI_V3;
  const void *table = entry(abi);
  if (!table)
    table = entry(abi = MOVCONF_PLUGIN_ABI_V2);
  if (!table)
    table = entry(abi = MOVCONF_PLUGIN_ABI_V1);
  if (phase)
    *phase = NULL;
  const movconf_plugin_v3 *t = check_table(table, abi, path, err, errlen);
  mc_plugin *p = t ? calloc(1, sizeof *p) : NULL;
  if (t && !p)
    snprintf(err, errlen, "out of memory");
  if (!p)
    return NULL;
  /* The same table, read with the argument types of its version. */
  *p = (mc_plugin){.abi = abi, .name = t->name, .version = t->version};
  if (abi == MOVCONF_PLUGIN_ABI_V3)
    p->v3 = t;
  else if (abi == MOVCONF_PLUGIN_ABI_V2)
    p->v2 = (const movconf_plugin_v2 *)(const void *)t;
  else
    p->v1 = (const movconf_plugin_v1 *)(const void *)t;
  return p;
}

/* An attribute list at its true length: values past the ones movconf keeps
   (MC_MAX_ATTR_LEN) reach the plugin as 0. */
static bool present_list(const mc_int_list *list, int64_t **values, movconf_plugin_ints *out) {
  int32_t count = list->count < 0 ? -1 : list->count;
  *out = (movconf_plugin_ints){count, NULL};
  if (count <= 0)
    return true;
  if (count > MC_PLUGIN_MAX_LIST || !(*values = calloc((size_t)count, sizeof **values)))
    return false;
  for (int k = 0; k < count && k < MC_MAX_ATTR_LEN; k++)
    (*values)[k] = list->v[k];
  out->values = *values;
  return true;
}

/* The ABI v1 field of each attribute (plugin.h names them), by kind; NULL
   for the attributes of operations v1 does not know. */
typedef struct v1_slot {
  int32_t *has_int;
  int64_t *int_value;
  const char **string;
  movconf_plugin_ints *list;
} v1_slot;

static v1_slot v1_slot_of(movconf_plugin_attrs *a, mc_attr id) {
  switch (id) {
  case MC_ATTR_BLOCK_SIZE:
    return (v1_slot){.has_int = &a->has_block_size, .int_value = &a->block_size};
  case MC_ATTR_MODE:
    return (v1_slot){.string = &a->mode};
  case MC_ATTR_SIZES:
    return (v1_slot){.list = &a->sizes};
  case MC_ATTR_STRIDES:
    return (v1_slot){.list = &a->strides};
  case MC_ATTR_RATES:
    return (v1_slot){.list = &a->rates};
  case MC_ATTR_AUTO_PAD:
    return (v1_slot){.string = &a->auto_pad};
  case MC_ATTR_AXIS:
  case MC_ATTR_GROUP:
  case MC_ATTR_PAD_MODE:
  case MC_ATTR_BEGIN_MASK:
  case MC_ATTR_END_MASK:
  case MC_ATTR_NEW_AXIS_MASK:
  case MC_ATTR_SHRINK_AXIS_MASK:
  case MC_ATTR_ELLIPSIS_MASK:
  case MC_ATTR_BATCH_DIMS:
  case MC_ATTR_COUNT:
    break;
  }
  return (v1_slot){0};
}

/* Attribute id of req as the list entry of version 2. */
static bool present_attr(mc_plugin_call *call, const mc_request *req, mc_attr id,
                         movconf_plugin_attr *out) {
  *out = (movconf_plugin_attr){.name = mc_attr_name(id)};
  switch (mc_attr_kind_of(id)) {
  case MC_ATTR_KIND_INT:
    out->kind = MOVCONF_PLUGIN_ATTR_INT;
    out->value.i = mc_attrs_int(&req->attrs, id);
    return true;
  case MC_ATTR_KIND_STRING:
    out->kind = MOVCONF_PLUGIN_ATTR_STRING;
    out->value.s = mc_attrs_string(&req->attrs, id);
    return true;
  case MC_ATTR_KIND_INT_LIST:
    out->kind = MOVCONF_PLUGIN_ATTR_INTS;
    return present_list(mc_attrs_list(&req->attrs, id), &call->lists[id], &out->value.ints);
  }
  return false;
}

/* The same attribute in its field of version 1, if version 1 has one. */
static void present_v1(movconf_plugin_attrs *a, mc_attr id, const movconf_plugin_attr *v) {
  v1_slot slot = v1_slot_of(a, id);
  if (slot.has_int) {
    *slot.has_int = 1;
    *slot.int_value = v->value.i;
  } else if (slot.string) {
    *slot.string = v->value.s;
  } else if (slot.list) {
    *slot.list = v->value.ints;
  }
}

/* Every attribute of the request's operation that the request sets, by the
   attribute table, in every version; the others stay absent. */
static bool present_attrs(mc_plugin_call *call, const mc_request *req) {
  movconf_plugin_attrs *a = &call->request.attrs;
  *a = (movconf_plugin_attrs){.sizes.count = -1, .strides.count = -1, .rates.count = -1};
  int n = 0;
  for (int i = 0; i < mc_op_attr_count(req->op); i++) {
    mc_attr id = mc_op_attr(req->op, i);
    if (!mc_attrs_present(&req->attrs, id))
      continue;
    if (!present_attr(call, req, id, &call->attrs[n]))
      return false;
    present_v1(a, id, &call->attrs[n++]);
  }
  call->query.mode = a->mode;
  call->query.auto_pad = a->auto_pad;
  call->request_v2.n_attrs = call->query_v2.n_attrs = n;
  call->request_v2.attrs = call->query_v2.attrs = n ? call->attrs : NULL;
  call->request_v3.n_attrs = call->query_v3.n_attrs = n;
  call->request_v3.attrs = call->query_v3.attrs = call->request_v2.attrs;
  return true;
}

/* The inputs as version 3's lists, and as versions 1 and 2 hold them: as
   many as their arrays have room for (they are never offered more). */
static void present_inputs(mc_plugin_call *call, const mc_request *req) {
  for (int i = 0; i < req->n_inputs && i < MC_MAX_INPUTS; i++) {
    const mc_tensor *t = req->inputs[i];
    call->inputs[i] = (movconf_plugin_tensor){
        .type = t->type, .rank = t->rank, .shape = t->shape, .data = t->data, .nbytes = t->nbytes};
    call->input_types[i] = t->type;
    call->input_ranks[i] = t->rank;
  }
  for (int i = 0; i < req->n_inputs && i < MOVCONF_PLUGIN_MAX_INPUTS; i++) {
    call->request.inputs[i] = call->request_v2.inputs[i] = call->inputs[i];
    call->query.input_types[i] = call->query_v2.input_types[i] = call->input_types[i];
    call->query.input_ranks[i] = call->query_v2.input_ranks[i] = call->input_ranks[i];
  }
}

bool mc_plugin_call_init(mc_plugin_call *call, const mc_request *req, uint64_t max_output_bytes) {
  memset(call, 0, sizeof *call);
  const char *name = mc_op_name(req->op);
  int32_t op = req->op, n = req->n_inputs;
  call->request =
      (movconf_plugin_request){.op = op, .n_inputs = n, .max_output_bytes = max_output_bytes};
  call->query = (movconf_plugin_query){.op = op, .n_inputs = n};
  call->request_v2 = (movconf_plugin_request_v2){
      .op = op, .op_name = name, .n_inputs = n, .max_output_bytes = max_output_bytes};
  call->query_v2 = (movconf_plugin_query_v2){.op = op, .op_name = name, .n_inputs = n};
  call->request_v3 = (movconf_plugin_request_v3){.op = op,
                                                 .op_name = name,
                                                 .n_inputs = n,
                                                 .inputs = call->inputs,
                                                 .max_output_bytes = max_output_bytes};
  call->query_v3 = (movconf_plugin_query_v3){.op = op,
                                             .op_name = name,
                                             .n_inputs = n,
                                             .input_types = call->input_types,
                                             .input_ranks = call->input_ranks};
  present_inputs(call, req);
  if (!present_attrs(call, req)) {
    mc_plugin_call_free(call);
    return false;
  }
  return true;
}

void mc_plugin_call_free(mc_plugin_call *call) {
  for (int i = 0; i < MC_ATTR_COUNT; i++) {
    free(call->lists[i]);
    call->lists[i] = NULL;
  }
}

/* Operations versions 1 and 2 know: the five first, and ShuffleChannels-1. */
#define V1_OPERATIONS 5
#define V2_OPERATIONS 6

/* Whether an older version can hold call at all: an operation it knows,
   inputs its arrays have room for. */
static bool older_can_hold(const mc_plugin_call *call, int operations) {
  return call->request.op >= 0 && call->request.op < operations &&
         call->request.n_inputs <= MOVCONF_PLUGIN_MAX_INPUTS;
}

int mc_plugin_supports(const mc_plugin *p, const mc_plugin_call *call) {
  if (p->v3)
    return !p->v3->supports || p->v3->supports(&call->query_v3);
  if (p->v2)
    return older_can_hold(call, V2_OPERATIONS) &&
           (!p->v2->supports || p->v2->supports(&call->query_v2));
  return older_can_hold(call, V1_OPERATIONS) && (!p->v1->supports || p->v1->supports(&call->query));
}

int mc_plugin_output_shape(const mc_plugin *p, const mc_plugin_call *call,
                           movconf_plugin_output *output, movconf_plugin_message *message) {
  return p->v3   ? p->v3->output_shape(&call->request_v3, output, message)
         : p->v2 ? p->v2->output_shape(&call->request_v2, output, message)
                 : p->v1->output_shape(&call->request, output, message);
}

int mc_plugin_run(const mc_plugin *p, const mc_plugin_call *call,
                  const movconf_plugin_output *output, movconf_plugin_message *message) {
  return p->v3   ? p->v3->run(&call->request_v3, output, message)
         : p->v2 ? p->v2->run(&call->request_v2, output, message)
                 : p->v1->run(&call->request, output, message);
}

static mc_plugin_announced announce(mc_plugin_announced kind, char *message, size_t messagelen,
                                    const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static mc_plugin_announced announce(mc_plugin_announced kind, char *message, size_t messagelen,
                                    const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, messagelen, fmt, ap);
  va_end(ap);
  return kind;
}

/* The suite's limits, applied on the plugin's behalf when the output it
   announced breaks them: MC-L3 (the element count, taken over the non-zero
   dimensions, fits int64) or MC-L4 (the byte cap). These are the suite's
   limits, not the operations', and movconf could not hold such an output. */
mc_plugin_announced mc_plugin_check_announced(const movconf_plugin_output *o, uint64_t cap,
                                              size_t *nbytes, char *error, size_t errorlen,
                                              char *message, size_t messagelen) {
  if (errorlen)
    error[0] = '\0';
  if (o->type < 0 || o->type >= MC_TYPE_COUNT)
    return announce(MC_PLUGIN_ANNOUNCED_FAULT, message, messagelen,
                    "output_shape() announced an unknown element type %d", (int)o->type);
  if (o->rank < 0 || o->rank > MOVCONF_PLUGIN_MAX_RANK)
    return announce(MC_PLUGIN_ANNOUNCED_FAULT, message, messagelen,
                    "output_shape() announced rank %d (allowed: 0 to %d)", (int)o->rank,
                    MOVCONF_PLUGIN_MAX_RANK);
  for (int d = 0; d < o->rank; d++)
    if (o->shape[d] < 0)
      return announce(MC_PLUGIN_ANNOUNCED_FAULT, message, messagelen,
                      "output_shape() announced a negative dimension (%lld at axis %d)",
                      (long long)o->shape[d], d);
  int64_t count;
  if (!mc_shape_elements(o->rank, o->shape, &count)) {
    snprintf(error, errorlen, "shape_overflow");
    return announce(MC_PLUGIN_ANNOUNCED_REJECTED, message, messagelen,
                    "the runner applied MC-L3: the plugin accepted the input, announcing an "
                    "output whose element count overflows int64");
  }
  if (!mc_storage_bytes((mc_type)o->type, count, nbytes) || *nbytes > cap) {
    snprintf(error, errorlen, "output_too_large");
    return announce(MC_PLUGIN_ANNOUNCED_REJECTED, message, messagelen,
                    "the runner applied MC-L4: the plugin accepted the input, announcing an "
                    "output of %lld %s elements, above the cap of %llu bytes",
                    (long long)count, mc_type_name((mc_type)o->type), (unsigned long long)cap);
  }
  return MC_PLUGIN_ANNOUNCED_OK;
}
