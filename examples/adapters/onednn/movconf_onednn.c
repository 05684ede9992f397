/* A movconf plugin (spec/plugin-abi.md, ABI version 3) over oneDNN's CPU
   primitives, through its C API (dnnl.h), to test oneDNN's own kernels:

   - ShuffleChannels-1: the shuffle primitive (dnnl_shuffle_forward_desc_init,
     forward inference) on the data's own shape and axis. oneDNN's
     group_size is the size of one group, OpenVINO's group the number of
     groups: group_size = C / group (README.md, "Mapping").
   - SpaceToDepth-1 and DepthToSpace-1: one reorder (a strided copy) of the
     spec's reshape and transpose. The destination is the transposed view
     x'' (2K + 2 axes, dense: the output's bytes); the source is the same
     logical tensor over the input's bytes, each axis with the stride of
     the reshaped input's axis it comes from. Exact for every mode and K,
     as far as oneDNN's DNNL_MAX_NDIMS (12) reaches: rank 7 at most.
   - Transpose-1: the same reorder with the view the data itself and the
     permutation input_order (or the reversed axes), rank 1 to 12.

   Element types: the six oneDNN has (f32, f16, bf16, s8, u8, s32), but f16
   for the shuffle, whose primitive descriptor oneDNN 2.6 refuses as
   unimplemented for f16; the others are declined. A data-movement primitive must copy them bit for
   bit. Validation is oneDNN's where its parameters carry it (the shuffle's
   axis and group_size, the descriptors' dimensions); what they cannot
   carry (a negative axis, a group that does not divide C, the block size
   and mode, which the reorder has no notion of, int64 overflow of the
   view, and input_order's type, rank, length and values, which reach
   oneDNN only as the permuted strides) is checked by the plugin, and the
   message says so. Rejections
   carry no error names.

   The stride and overflow arithmetic is the plugin's own: an
   implementation under test must not share the oracle's helpers. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_debug.h>

#include "movconf/plugin.h"

#ifndef ONEDNN_PACKAGE_VERSION
#define ONEDNN_PACKAGE_VERSION "unknown"
#endif

/* The primitive output_shape() created, kept for run(). */
static struct prepared {
  dnnl_primitive_t primitive;
  dnnl_memory_desc_t src_md, dst_md;
} prepared;

static dnnl_engine_t engine;
static dnnl_stream_t stream;

/* The oneDNN type of a movconf type; dnnl_data_type_undef for the others. */
static dnnl_data_type_t onednn_type(int32_t type) {
  switch (type) {
  case MOVCONF_PLUGIN_F32:
    return dnnl_f32;
  case MOVCONF_PLUGIN_F16:
    return dnnl_f16;
  case MOVCONF_PLUGIN_BF16:
    return dnnl_bf16;
  case MOVCONF_PLUGIN_I8:
    return dnnl_s8;
  case MOVCONF_PLUGIN_U8:
    return dnnl_u8;
  case MOVCONF_PLUGIN_I32:
    return dnnl_s32;
  default:
    return dnnl_data_type_undef;
  }
}

/* The attribute name as an integer, or fallback when it is absent (the
   case format gives these attributes as integers only). */
static int64_t int_attr(const movconf_plugin_request_v3 *r, const char *name, int64_t fallback) {
  const movconf_plugin_attr *a = movconf_plugin_find_attr(r->n_attrs, r->attrs, name);
  return a && a->kind == MOVCONF_PLUGIN_ATTR_INT ? a->value.i : fallback;
}

/* 1 for blocks_first, 0 for depth_first, -1 for anything else. */
static int blocks_first_mode(int32_t n, const movconf_plugin_attr *attrs) {
  const movconf_plugin_attr *mode = movconf_plugin_find_attr(n, attrs, "mode");
  if (!mode || mode->kind != MOVCONF_PLUGIN_ATTR_STRING)
    return -1;
  if (strcmp(mode->value.s, "blocks_first") == 0)
    return 1;
  return strcmp(mode->value.s, "depth_first") == 0 ? 0 : -1;
}

/* SpaceToDepth/DepthToSpace have 2K + 2 view axes for rank K + 2. */
static int view_fits(int32_t rank) {
  return rank >= 3 && 2 * (rank - 2) + 2 <= DNNL_MAX_NDIMS;
}

/* Transpose-1: data and input_order, data of a rank a reorder holds
   (rank 0 has no oneDNN memory descriptor). */
static int transpose_fits(int32_t n_inputs, int32_t rank) {
  return n_inputs == 2 && rank >= 1 && rank <= DNNL_MAX_NDIMS;
}

static int supports(const movconf_plugin_query_v3 *q) {
  if (q->n_inputs < 1 || onednn_type(q->input_types[0]) == dnnl_data_type_undef)
    return 0;
  switch (q->op) {
  case MOVCONF_PLUGIN_SHUFFLE_CHANNELS: /* f16: no shuffle implementation (unimplemented) */
    return q->input_ranks[0] >= 1 && q->input_ranks[0] <= DNNL_MAX_NDIMS &&
           q->input_types[0] != MOVCONF_PLUGIN_F16;
  case MOVCONF_PLUGIN_SPACE_TO_DEPTH:
  case MOVCONF_PLUGIN_DEPTH_TO_SPACE:
    return view_fits(q->input_ranks[0]) && blocks_first_mode(q->n_attrs, q->attrs) >= 0;
  case MOVCONF_PLUGIN_TRANSPOSE:
    return transpose_fits(q->n_inputs, q->input_ranks[0]);
  default:
    return 0;
  }
}

/* a * b into *out; 0 when it overflows int64. */
static int mul_i64(int64_t a, int64_t b, int64_t *out) {
  return !__builtin_mul_overflow(a, b, out);
}

static int reject(movconf_plugin_message *m, const char *format, long long value) {
  snprintf(m->text, sizeof m->text, format, value);
  return MOVCONF_PLUGIN_REJECTED;
}

static int reject_dnnl(movconf_plugin_message *m, const char *call, dnnl_status_t s) {
  snprintf(m->text, sizeof m->text, "oneDNN: %s returned %s (%d)", call, dnnl_status2str(s),
           (int)s);
  return MOVCONF_PLUGIN_REJECTED;
}

static void release_prepared(void) {
  if (prepared.primitive)
    dnnl_primitive_destroy(prepared.primitive);
  memset(&prepared, 0, sizeof prepared);
}

/* The CPU engine and its stream, created once per process. */
static dnnl_status_t start_onednn(void) {
  dnnl_status_t s = dnnl_success;
  if (!engine)
    s = dnnl_engine_create(&engine, dnnl_cpu, 0);
  if (s == dnnl_success && !stream)
    s = dnnl_stream_create(&stream, engine, dnnl_stream_default_flags);
  return s;
}

/* The primitive of a primitive descriptor, kept; the descriptor is freed. */
static int create_primitive(dnnl_primitive_desc_t pd, movconf_plugin_message *m) {
  dnnl_status_t s = dnnl_primitive_create(&prepared.primitive, pd);
  dnnl_primitive_desc_destroy(pd);
  return s == dnnl_success ? MOVCONF_PLUGIN_OK : reject_dnnl(m, "dnnl_primitive_create", s);
}

/* ---- ShuffleChannels-1 ---- */

static int shuffle_output_shape(const movconf_plugin_request_v3 *r, movconf_plugin_output *o,
                                movconf_plugin_message *m) {
  const movconf_plugin_tensor *data = &r->inputs[0];
  int64_t axis = int_attr(r, "axis", 1), group = int_attr(r, "group", 1);
  /* oneDNN's axis counts from 0; its own range check sees the rest. */
  if (axis < 0 && axis >= -(int64_t)data->rank)
    axis += data->rank;
  if (axis < INT32_MIN || axis > INT32_MAX)
    return reject(m, "axis %lld does not fit oneDNN's int axis (checked by the plugin)",
                  (long long)axis);
  int64_t channels = axis >= 0 && axis < data->rank ? data->shape[axis] : 0;
  if (group < 1 || channels % group != 0)
    return reject(m,
                  "group %lld is below 1 or does not divide C (checked by the plugin: oneDNN "
                  "takes group_size = C / group)",
                  (long long)group);
  dnnl_dims_t dims;
  memcpy(dims, data->shape, (size_t)data->rank * sizeof *dims);
  dnnl_status_t s = dnnl_memory_desc_init_by_strides(&prepared.src_md, data->rank, dims,
                                                     onednn_type(data->type), NULL);
  if (s != dnnl_success)
    return reject_dnnl(m, "dnnl_memory_desc_init_by_strides", s);
  dnnl_shuffle_desc_t desc;
  s = dnnl_shuffle_forward_desc_init(&desc, dnnl_forward_inference, &prepared.src_md, (int)axis,
                                     channels / group);
  if (s != dnnl_success)
    return reject_dnnl(m, "dnnl_shuffle_forward_desc_init", s);
  dnnl_primitive_desc_t pd;
  s = dnnl_primitive_desc_create(&pd, &desc, NULL, engine, NULL);
  if (s != dnnl_success)
    return reject_dnnl(m, "dnnl_primitive_desc_create (shuffle)", s);
  prepared.dst_md = *dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
  if (!dnnl_memory_desc_equal(&prepared.dst_md, &prepared.src_md)) {
    dnnl_primitive_desc_destroy(pd);
    return reject(m, "oneDNN's shuffle chose a destination layout other than the dense one", 0);
  }
  o->type = data->type;
  o->rank = data->rank;
  memcpy(o->shape, data->shape, (size_t)data->rank * sizeof *data->shape);
  return create_primitive(pd, m);
}

/* ---- SpaceToDepth-1 and DepthToSpace-1 as one reorder ---- */

/* The spec's reshaped input x' (shape, dense strides) and transpose
   (perm): the reorder copies x'[perm] into a dense x''. */
struct view {
  int n;
  dnnl_dims_t shape, perm;
};

/* x' and the permutation of S2D-S1/S2 for K spatial axes. */
static void space_to_depth_view(const int64_t *in, int k, int64_t bs, int blocks_first,
                                struct view *v) {
  v->n = 2 * k + 2;
  v->shape[0] = in[0];
  v->shape[1] = in[1];
  for (int i = 1; i <= k; i++) {
    v->shape[2 * i] = in[i + 1] / bs;
    v->shape[2 * i + 1] = bs;
  }
  int at = 0;
  v->perm[at++] = 0;
  if (!blocks_first)
    v->perm[at++] = 1;
  for (int i = 1; i <= k; i++)
    v->perm[at++] = 2 * i + 1;
  if (blocks_first)
    v->perm[at++] = 1;
  for (int i = 1; i <= k; i++)
    v->perm[at++] = 2 * i;
}

/* x' and the permutation of D2S-S1/S2 for K spatial axes; channels is
   C / bs^K. */
static void depth_to_space_view(const int64_t *in, int k, int64_t bs, int64_t channels,
                                int blocks_first, struct view *v) {
  v->n = 2 * k + 2;
  v->shape[0] = in[0];
  int channel_axis = blocks_first ? k + 1 : 1;
  for (int i = 1; i <= k; i++) {
    v->shape[blocks_first ? i : i + 1] = bs;
    v->shape[k + 1 + i] = in[i + 1];
  }
  v->shape[channel_axis] = channels;
  v->perm[0] = 0;
  v->perm[1] = channel_axis;
  for (int i = 1; i <= k; i++) {
    v->perm[2 * i] = k + 1 + i;
    v->perm[2 * i + 1] = blocks_first ? i : i + 1;
  }
}

/* bs^k; 0 when it overflows int64. */
static int64_t block_count(int64_t bs, int k) {
  int64_t cells = 1;
  for (int i = 0; i < k; i++)
    if (!mul_i64(cells, bs, &cells))
      return 0;
  return cells;
}

/* The output shape of SpaceToDepth/DepthToSpace and the view of the
   reorder: the checks the reorder cannot carry (it has no block size). */
static int block_view(const movconf_plugin_request_v3 *r, int64_t out[], struct view *v,
                      movconf_plugin_message *m) {
  const movconf_plugin_tensor *data = &r->inputs[0];
  const int64_t *in = data->shape;
  int k = data->rank - 2, to_depth = r->op == MOVCONF_PLUGIN_SPACE_TO_DEPTH;
  int blocks_first = blocks_first_mode(r->n_attrs, r->attrs);
  int64_t bs = int_attr(r, "block_size", 1);
  if (bs < 1)
    return reject(m, "block_size %lld is below 1 (checked by the plugin)", (long long)bs);
  int64_t cells = block_count(bs, k);
  if (cells == 0)
    return reject(m, "block_size^K overflows int64 (checked by the plugin)", (long long)bs);
  out[0] = in[0];
  for (int i = 2; i < data->rank; i++) {
    if (to_depth && in[i] % bs != 0)
      return reject(m, "a spatial size is not divisible by block_size %lld (checked by the plugin)",
                    (long long)bs);
    if (!to_depth && !mul_i64(in[i], bs, &out[i]))
      return reject(m, "a spatial size times block_size overflows int64 (checked by the plugin)",
                    0);
    if (to_depth)
      out[i] = in[i] / bs;
  }
  if (to_depth && !mul_i64(in[1], cells, &out[1]))
    return reject(m, "C * block_size^K overflows int64 (checked by the plugin)", 0);
  if (!to_depth && in[1] % cells != 0)
    return reject(m, "C is not divisible by block_size^K (checked by the plugin)", 0);
  if (!to_depth)
    out[1] = in[1] / cells;
  int64_t count = 1; /* the output's elements, over its non-zero sizes */
  for (int i = 0; i < data->rank; i++)
    if (out[i] != 0 && !mul_i64(count, out[i], &count))
      return reject(m, "the output's element count overflows int64 (checked by the plugin)", 0);
  if (to_depth)
    space_to_depth_view(in, k, bs, blocks_first, v);
  else
    depth_to_space_view(in, k, bs, out[1], blocks_first, v);
  return MOVCONF_PLUGIN_OK;
}

/* The reorder's descriptors: dst the dense x'', src the same logical
   tensor over the input's bytes (x''s axis i has x''s stride perm[i]). */
static dnnl_status_t reorder_descs(const struct view *v, dnnl_data_type_t type) {
  dnnl_dims_t dense, dims, src_strides, dst_strides;
  int64_t stride = 1;
  for (int i = v->n - 1; i >= 0; i--) {
    dense[i] = stride;
    stride *= v->shape[i] ? v->shape[i] : 1; /* checked by the caller */
  }
  for (int i = 0; i < v->n; i++) {
    dims[i] = v->shape[v->perm[i]];
    src_strides[i] = dense[v->perm[i]];
  }
  stride = 1;
  for (int i = v->n - 1; i >= 0; i--) {
    dst_strides[i] = stride;
    stride *= dims[i] ? dims[i] : 1;
  }
  dnnl_status_t s =
      dnnl_memory_desc_init_by_strides(&prepared.src_md, v->n, dims, type, src_strides);
  if (s == dnnl_success)
    s = dnnl_memory_desc_init_by_strides(&prepared.dst_md, v->n, dims, type, dst_strides);
  return s;
}

/* ---- Transpose-1 as one reorder ---- */

/* The bytes of a side-input integer type (TR-V1); 0 for the others. */
static int side_integer_bytes(int32_t type) {
  switch (type) {
  case MOVCONF_PLUGIN_I8:
  case MOVCONF_PLUGIN_U8:
    return 1;
  case MOVCONF_PLUGIN_I16:
  case MOVCONF_PLUGIN_U16:
    return 2;
  case MOVCONF_PLUGIN_I32:
  case MOVCONF_PLUGIN_U32:
    return 4;
  case MOVCONF_PLUGIN_I64:
  case MOVCONF_PLUGIN_U64:
    return 8;
  default:
    return 0;
  }
}

/* Value i of an integer side input; 0 when the type is not an integer
   one or the value (a u64) does not fit int64. Side inputs are aligned
   only as far as their size allows: read through memcpy. */
static int side_value(const movconf_plugin_tensor *t, int64_t i, int64_t *out) {
  union {
    int8_t i8;
    uint8_t u8;
    int16_t i16;
    uint16_t u16;
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    uint64_t u64;
  } v;
  int bytes = side_integer_bytes(t->type);
  if (!bytes)
    return 0;
  memcpy(&v, (const unsigned char *)t->data + bytes * i, (size_t)bytes);
  int is_signed = t->type == MOVCONF_PLUGIN_I8 || t->type == MOVCONF_PLUGIN_I16 ||
                  t->type == MOVCONF_PLUGIN_I32 || t->type == MOVCONF_PLUGIN_I64;
  switch (bytes) {
  case 1:
    *out = is_signed ? v.i8 : v.u8;
    return 1;
  case 2:
    *out = is_signed ? v.i16 : v.u16;
    return 1;
  case 4:
    *out = is_signed ? v.i32 : (int64_t)v.u32;
    return 1;
  default:
    *out = v.i64;
    return is_signed || v.u64 <= INT64_MAX;
  }
}

/* The view of a transpose: the data's shape and the permutation, from
   input_order (TR-V1..V5 and TR-S1, the checks the reorder cannot carry). */
static int transpose_view(const movconf_plugin_request_v3 *r, struct view *v,
                          movconf_plugin_message *m) {
  const movconf_plugin_tensor *data = &r->inputs[0], *order = &r->inputs[1];
  int32_t rank = data->rank;
  if (!side_integer_bytes(order->type))
    return reject(m, "input_order's type %lld is not an integer one (checked by the plugin)",
                  (long long)order->type);
  if (order->rank != 1)
    return reject(m, "input_order has rank %lld, not 1 (checked by the plugin)",
                  (long long)order->rank);
  int64_t count = order->shape[0];
  if (count != 0 && count != rank)
    return reject(m, "input_order has %lld values, neither the rank nor 0 (checked by the plugin)",
                  (long long)count);
  int seen[DNNL_MAX_NDIMS] = {0};
  v->n = rank;
  for (int i = 0; i < rank; i++) {
    int64_t axis = rank - 1 - i;
    if (count != 0 && !side_value(order, i, &axis))
      return reject(m, "input_order value %lld is not an integer in int64 (checked by the plugin)",
                    (long long)i);
    if (axis < 0 || axis >= rank)
      return reject(m, "input_order value %lld is out of [0, rank - 1] (checked by the plugin)",
                    (long long)axis);
    v->shape[i] = data->shape[i];
    v->perm[i] = axis;
  }
  for (int i = 0; i < rank; i++)
    if (seen[v->perm[i]]++)
      return reject(m, "input_order repeats axis %lld (checked by the plugin)",
                    (long long)v->perm[i]);
  return MOVCONF_PLUGIN_OK;
}

static int reorder_output_shape(const movconf_plugin_request_v3 *r, movconf_plugin_output *o,
                                movconf_plugin_message *m) {
  const movconf_plugin_tensor *data = &r->inputs[0];
  struct view v;
  int transpose = r->op == MOVCONF_PLUGIN_TRANSPOSE;
  if ((transpose ? transpose_view(r, &v, m) : block_view(r, o->shape, &v, m)) != MOVCONF_PLUGIN_OK)
    return MOVCONF_PLUGIN_REJECTED;
  for (int i = 0; transpose && i < v.n; i++)
    o->shape[i] = v.shape[v.perm[i]];
  /* The dense strides of the view multiply its non-zero sizes, the input's
     element count: it fits int64, as the input's shape passed MC-L3. */
  dnnl_status_t s = reorder_descs(&v, onednn_type(data->type));
  if (s != dnnl_success)
    return reject_dnnl(m, "dnnl_memory_desc_init_by_strides", s);
  dnnl_primitive_desc_t pd;
  s = dnnl_reorder_primitive_desc_create(&pd, &prepared.src_md, engine, &prepared.dst_md, engine,
                                         NULL);
  if (s != dnnl_success)
    return reject_dnnl(m, "dnnl_reorder_primitive_desc_create", s);
  o->type = data->type;
  o->rank = data->rank;
  return create_primitive(pd, m);
}

/* ---- the table ---- */

static int output_shape(const movconf_plugin_request_v3 *r, movconf_plugin_output *o,
                        movconf_plugin_message *m) {
  release_prepared();
  dnnl_status_t s = start_onednn();
  if (s != dnnl_success)
    return reject_dnnl(m, "dnnl_engine_create or dnnl_stream_create", s);
  /* Only what supports() claimed has a mapping onto oneDNN. */
  int32_t rank = r->inputs[0].rank;
  int shuffle = r->op == MOVCONF_PLUGIN_SHUFFLE_CHANNELS;
  int blocks = r->op == MOVCONF_PLUGIN_SPACE_TO_DEPTH || r->op == MOVCONF_PLUGIN_DEPTH_TO_SPACE;
  int claimed = shuffle  ? rank >= 1 && rank <= DNNL_MAX_NDIMS
                : blocks ? view_fits(rank) && blocks_first_mode(r->n_attrs, r->attrs) >= 0
                         : r->op == MOVCONF_PLUGIN_TRANSPOSE && transpose_fits(r->n_inputs, rank);
  if (!claimed)
    return reject(m, "operation %lld, its rank or mode was not claimed by supports()",
                  (long long)r->op);
  int status = shuffle ? shuffle_output_shape(r, o, m) : reorder_output_shape(r, o, m);
  if (status != MOVCONF_PLUGIN_OK)
    release_prepared();
  return status;
}

/* Runs the prepared primitive from the input's bytes into the output's:
   one source and one destination (shuffle and reorder alike). */
static int run(const movconf_plugin_request_v3 *r, const movconf_plugin_output *o,
               movconf_plugin_message *m) {
  if (!prepared.primitive)
    return reject(m, "run() without a prepared primitive", 0);
  dnnl_memory_t src = NULL, dst = NULL;
  /* oneDNN's handle is not const; the source is only read (a write would
     fault: movconf maps the input read-only). */
  dnnl_status_t s = dnnl_memory_create(&src, &prepared.src_md, engine, (void *)r->inputs[0].data);
  if (s == dnnl_success)
    s = dnnl_memory_create(&dst, &prepared.dst_md, engine, o->data);
  if (s == dnnl_success) {
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
    s = dnnl_primitive_execute(prepared.primitive, stream, 2, args);
  }
  if (s == dnnl_success)
    s = dnnl_stream_wait(stream);
  dnnl_memory_destroy(src);
  dnnl_memory_destroy(dst);
  release_prepared();
  return s == dnnl_success ? MOVCONF_PLUGIN_OK
                           : reject_dnnl(m, "dnnl_memory_create or dnnl_primitive_execute", s);
}

static const movconf_plugin_v3 table = {
    .abi_version = MOVCONF_PLUGIN_ABI_V3,
    .name = "onednn",
    .version = ONEDNN_PACKAGE_VERSION,
    .supports = supports,
    .output_shape = output_shape,
    .run = run,
};

const void *movconf_plugin_entry(uint32_t abi_version) {
  return abi_version == MOVCONF_PLUGIN_ABI_V3 ? &table : NULL;
}
