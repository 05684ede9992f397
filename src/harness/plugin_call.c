/* Loading a plugin, presenting a request to it and checking the output it
   announces: see plugin_call.h. */
#include "harness/plugin_call.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "movconf/tensor.h"

/* The ABI's numbers are movconf's own, so values cross unchanged. */
_Static_assert(MOVCONF_PLUGIN_MAX_RANK == MC_TENSOR_MAX_RANK, "rank limits differ");
_Static_assert(MOVCONF_PLUGIN_MAX_INPUTS == MC_MAX_INPUTS, "input counts differ");
_Static_assert((int)MOVCONF_PLUGIN_BATCH_TO_SPACE == (int)MC_OP_BATCH_TO_SPACE &&
                   (int)MOVCONF_PLUGIN_SPACE_TO_BATCH == (int)MC_OP_SPACE_TO_BATCH &&
                   (int)MOVCONF_PLUGIN_SPACE_TO_DEPTH == (int)MC_OP_SPACE_TO_DEPTH &&
                   (int)MOVCONF_PLUGIN_DEPTH_TO_SPACE == (int)MC_OP_DEPTH_TO_SPACE &&
                   (int)MOVCONF_PLUGIN_EXTRACT_IMAGE_PATCHES == (int)MC_OP_EXTRACT_IMAGE_PATCHES,
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

const movconf_plugin_v1 *mc_plugin_load(const char *path, const char **phase, char *err,
                                        size_t errlen) {
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
  if (phase)
    *phase = MOVCONF_PLUGIN_ENTRY_NAME;
  const movconf_plugin_v1 *t = entry(MOVCONF_PLUGIN_ABI_VERSION);
  if (phase)
    *phase = NULL;
  if (!t)
    snprintf(err, errlen, "%s does not speak plugin ABI version %u (its entry returned NULL)", path,
             MOVCONF_PLUGIN_ABI_VERSION);
  else if (t->abi_version != MOVCONF_PLUGIN_ABI_VERSION)
    snprintf(err, errlen, "%s returned a table of ABI version %u, not %u", path, t->abi_version,
             MOVCONF_PLUGIN_ABI_VERSION);
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
  case MC_ATTR_COUNT:
    break;
  }
  return (v1_slot){0};
}

/* Every attribute of the request's operation that the request sets, by the
   attribute table; the others stay absent. */
static bool present_attrs(mc_plugin_call *call, const mc_request *req) {
  movconf_plugin_attrs *a = &call->request.attrs;
  *a = (movconf_plugin_attrs){.sizes.count = -1, .strides.count = -1, .rates.count = -1};
  int lists = 0;
  for (int i = 0; i < mc_op_attr_count(req->op); i++) {
    mc_attr id = mc_op_attr(req->op, i);
    if (!mc_attrs_present(&req->attrs, id))
      continue;
    v1_slot slot = v1_slot_of(a, id);
    if (slot.has_int) {
      *slot.has_int = 1;
      *slot.int_value = mc_attrs_int(&req->attrs, id);
    } else if (slot.string) {
      *slot.string = mc_attrs_string(&req->attrs, id);
    } else if (slot.list &&
               !present_list(mc_attrs_list(&req->attrs, id), &call->lists[lists++], slot.list)) {
      return false;
    }
  }
  call->query.mode = a->mode;
  call->query.auto_pad = a->auto_pad;
  return true;
}

bool mc_plugin_call_init(mc_plugin_call *call, const mc_request *req, uint64_t max_output_bytes) {
  memset(call, 0, sizeof *call);
  movconf_plugin_request *r = &call->request;
  r->op = req->op;
  r->n_inputs = req->n_inputs;
  r->max_output_bytes = max_output_bytes;
  call->query = (movconf_plugin_query){.op = req->op, .n_inputs = req->n_inputs};
  for (int i = 0; i < req->n_inputs && i < MC_MAX_INPUTS; i++) {
    const mc_tensor *t = req->inputs[i];
    r->inputs[i] = (movconf_plugin_tensor){
        .type = t->type, .rank = t->rank, .shape = t->shape, .data = t->data, .nbytes = t->nbytes};
    call->query.input_types[i] = t->type;
    call->query.input_ranks[i] = t->rank;
  }
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
