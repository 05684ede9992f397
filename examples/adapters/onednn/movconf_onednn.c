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

   Element types: the six oneDNN has (f32, f16, bf16, s8, u8, s32), but f16
   for the shuffle, whose primitive descriptor oneDNN 2.6 refuses as
   unimplemented for f16; the others are declined. A data-movement primitive must copy them bit for
   bit. Validation is oneDNN's where its parameters carry it (the shuffle's
   axis and group_size, the descriptors' dimensions); what they cannot
   carry (a negative axis, a group that does not divide C, the block size
   and mode, which the reorder has no notion of, and int64 overflow of the
   view) is checked by the plugin, and the message says so. Rejections
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

static int block_output_shape(const movconf_plugin_request_v3 *r, movconf_plugin_output *o,
                              movconf_plugin_message *m) {
  const movconf_plugin_tensor *data = &r->inputs[0];
  struct view v;
  if (block_view(r, o->shape, &v, m) != MOVCONF_PLUGIN_OK)
    return MOVCONF_PLUGIN_REJECTED;
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
  if (shuffle ? rank < 1 || rank > DNNL_MAX_NDIMS
              : !blocks || !view_fits(rank) || blocks_first_mode(r->n_attrs, r->attrs) < 0)
    return reject(m, "operation %lld, its rank or mode was not claimed by supports()",
                  (long long)r->op);
  int status = shuffle ? shuffle_output_shape(r, o, m) : block_output_shape(r, o, m);
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
