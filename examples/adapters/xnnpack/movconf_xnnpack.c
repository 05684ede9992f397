/* A movconf plugin (spec/plugin-abi.md, ABI version 3) over XNNPACK's
   depth-to-space operator for 32-bit elements, its channel shuffle
   operator for 8- and 32-bit elements and its constant pad for 8-, 16-
   and 32-bit elements (Pad-12, constant mode; movconf_xnnpack.so only),
   to test XNNPACK's own kernels.

   XNNPACK's operator is DCR (OpenVINO's blocks_first), 4-D and channels-last;
   OpenVINO's DepthToSpace-1 is channels-first. Built two ways from this file:

   - movconf_xnnpack.so: xnn_create_depth_to_space_nhwc_x32, with a transpose
     NCHW -> NHWC before it and NHWC -> NCHW after it;
   - movconf_xnnpack_nchw.so (XNNPACK_NCHW_INPUT defined):
     xnn_create_depth_to_space_nchw2nhwc_x32, which reads the NCHW input
     itself, with one transpose NHWC -> NCHW after it. It claims
     DepthToSpace-1 only: its channel shuffle would be movconf_xnnpack.so's.

   ShuffleChannels-1 (movconf_xnnpack.so): xnn_create_channel_shuffle_nc_x8
   or _x32 shuffles the last axis of rows of channels (NC). OpenVINO's axis
   may have axes after it: the data is viewed as [outer, C, inner] and, when
   inner > 1, transposed to channels-last [outer, inner, C] before the
   operator (outer * inner rows) and back after it, as depth-to-space's data
   is transposed to NHWC. XNNPACK takes groups and group_channels (C /
   group) and has no axis: an axis out of range, a group below 1 and a group
   that does not divide C are rejected by the plugin, saying so.

   The transposes and overflow checks are the plugin's own (transpose4_u32,
   swap_inner_axes, mul_i64): an implementation under test must not share the oracle's helpers,
   or a bug in one would hide in both. The plugin
   claims DepthToSpace-1 blocks_first, rank 4, u32/i32/f32, and
   ShuffleChannels-1 of rank 1 and more for the 8- and 32-bit types, and
   declines the rest, which XNNPACK cannot express. Validation is XNNPACK's (xnn_create_* and
   xnn_setup_* are called in output_shape(), their status is the rejection),
   except what its parameters cannot carry: a block_size outside uint32_t, a
   depth that block_size^2 does not divide (XNNPACK takes the output channel
   count, not the input depth) and shapes that overflow int64 are rejected by
   the plugin, and the message says so. Rejections carry no error names.

   MOVCONF_XNNPACK_THREADS (default 1) sets the pthreadpool's thread count. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthreadpool.h>
#include <xnnpack.h>

#include "movconf/plugin.h"

#ifdef XNNPACK_NCHW_INPUT
#define PLUGIN_NAME "xnnpack-d2s-nchw2nhwc"
#else
#define PLUGIN_NAME "xnnpack-nhwc"
#endif

#ifndef XNNPACK_VERSION
#define XNNPACK_VERSION "unknown"
#endif

struct shuffle_operator;

/* The operator output_shape() created and set up, kept for run(). */
static struct prepared {
  xnn_operator_t op;
  int shuffle;          /* channel shuffle; else depth-to-space */
  uint32_t *input_nhwc; /* NULL when the operator reads the NCHW input */
  uint32_t *output_nhwc;
  int64_t output_shape_nhwc[4];
  /* Channel shuffle: [outer, C, inner] elements of element_size bytes;
     channels_last is the input transposed to [outer, inner, C], NULL when
     inner is 1 and the operator reads the data itself. */
  void *channels_last, *shuffled;
  int64_t outer, channels, inner;
  size_t element_size, rows;
  const struct shuffle_operator *api;
  /* Pad-12 (constant): XNNPACK's setup needs the output, so it is called in
     run() with these; pad_setup is the x8, x16 or x32 setup. */
  int pad;
  size_t pad_rank, pad_shape[XNN_MAX_TENSOR_DIMS], pre[XNN_MAX_TENSOR_DIMS],
      post[XNN_MAX_TENSOR_DIMS];
  enum xnn_status (*pad_setup)(xnn_operator_t, size_t, const size_t *, const size_t *,
                               const size_t *, const void *, void *, pthreadpool_t);
} prepared;

static pthreadpool_t pool;
static enum xnn_status init_status = xnn_status_uninitialized;

/* Bytes per element of the types XNNPACK's x8 and x32 operators move; 0
   for the others. */
static size_t element_size(int32_t type) {
  switch (type) {
  case MOVCONF_PLUGIN_BOOLEAN:
  case MOVCONF_PLUGIN_U8:
  case MOVCONF_PLUGIN_I8:
  case MOVCONF_PLUGIN_F8E4M3:
  case MOVCONF_PLUGIN_F8E5M2:
    return 1;
  case MOVCONF_PLUGIN_U32:
  case MOVCONF_PLUGIN_I32:
  case MOVCONF_PLUGIN_F32:
    return 4;
  default:
    return 0;
  }
}

/* The integer attribute name, or fallback when it is absent (the case
   format gives these attributes as integers only). */
static int64_t int_attr(int32_t n, const movconf_plugin_attr *attrs, const char *name,
                        int64_t fallback) {
  const movconf_plugin_attr *a = movconf_plugin_find_attr(n, attrs, name);
  return a && a->kind == MOVCONF_PLUGIN_ATTR_INT ? a->value.i : fallback;
}

static int supports_depth_to_space(const movconf_plugin_query_v3 *q) {
  const movconf_plugin_attr *mode = movconf_plugin_find_attr(q->n_attrs, q->attrs, "mode");
  return q->input_ranks[0] == 4 && mode && mode->kind == MOVCONF_PLUGIN_ATTR_STRING &&
         strcmp(mode->value.s, "blocks_first") == 0 && element_size(q->input_types[0]) == 4;
}

/* Bytes per element of the types the constant pad's x8, x16 and x32
   operators move; 0 for the others. */
static size_t pad_element_size(int32_t type) {
  switch (type) {
  case MOVCONF_PLUGIN_I16:
  case MOVCONF_PLUGIN_U16:
  case MOVCONF_PLUGIN_F16:
  case MOVCONF_PLUGIN_BF16:
    return 2;
  default:
    return element_size(type);
  }
}

#ifndef XNNPACK_NCHW_INPUT
static int is_side_integer(int32_t t) {
  return t == MOVCONF_PLUGIN_I8 || t == MOVCONF_PLUGIN_U8 || t == MOVCONF_PLUGIN_I16 ||
         t == MOVCONF_PLUGIN_U16 || t == MOVCONF_PLUGIN_I32 || t == MOVCONF_PLUGIN_U32 ||
         t == MOVCONF_PLUGIN_I64 || t == MOVCONF_PLUGIN_U64;
}

/* Pad-12 in constant mode (XNNPACK has no other), data of rank 1 to
   XNN_MAX_TENSOR_DIMS, 1-D integer pads. */
static int supports_pad(const movconf_plugin_query_v3 *q) {
  const movconf_plugin_attr *mode = movconf_plugin_find_attr(q->n_attrs, q->attrs, "pad_mode");
  return mode && mode->kind == MOVCONF_PLUGIN_ATTR_STRING &&
         strcmp(mode->value.s, "constant") == 0 && q->input_ranks[0] >= 1 &&
         q->input_ranks[0] <= XNN_MAX_TENSOR_DIMS && pad_element_size(q->input_types[0]) > 0 &&
         q->input_ranks[1] == 1 && q->input_ranks[2] == 1 && is_side_integer(q->input_types[1]) &&
         is_side_integer(q->input_types[2]);
}

#endif

static int supports(const movconf_plugin_query_v3 *q) {
  if (q->op == MOVCONF_PLUGIN_DEPTH_TO_SPACE)
    return supports_depth_to_space(q);
#ifndef XNNPACK_NCHW_INPUT
  if (q->op == MOVCONF_PLUGIN_PAD)
    return supports_pad(q);
#endif
#ifndef XNNPACK_NCHW_INPUT
  /* A scalar has no axis to map onto the operator's channels. */
  if (q->op == MOVCONF_PLUGIN_SHUFFLE_CHANNELS)
    return q->input_ranks[0] >= 1 && element_size(q->input_types[0]) > 0;
#endif
  return 0;
}

/* a * b into *out; 0 when it overflows int64. */
static int mul_i64(int64_t a, int64_t b, int64_t *out) {
  return !__builtin_mul_overflow(a, b, out);
}

/* Copies a 4-D tensor of 32-bit elements with its axes permuted: axis i of
   dst is axis perm[i] of src. */
static void transpose4_u32(const int64_t src_shape[4], const uint32_t *src, const int perm[4],
                           uint32_t *dst) {
  int64_t src_stride[4], dst_shape[4], step[4];
  src_stride[3] = 1;
  for (int i = 2; i >= 0; i--)
    src_stride[i] = src_stride[i + 1] * src_shape[i + 1];
  for (int i = 0; i < 4; i++) {
    dst_shape[i] = src_shape[perm[i]];
    step[i] = src_stride[perm[i]];
  }
  for (int64_t a = 0; a < dst_shape[0]; a++)
    for (int64_t b = 0; b < dst_shape[1]; b++)
      for (int64_t c = 0; c < dst_shape[2]; c++)
        for (int64_t d = 0; d < dst_shape[3]; d++)
          *dst++ = src[a * step[0] + b * step[1] + c * step[2] + d * step[3]];
}

static int reject(movconf_plugin_message *m, const char *format, long long value) {
  snprintf(m->text, sizeof m->text, format, value);
  return MOVCONF_PLUGIN_REJECTED;
}

static const char *status_name(enum xnn_status s) {
  switch (s) {
  case xnn_status_uninitialized:
    return "uninitialized";
  case xnn_status_invalid_parameter:
    return "invalid_parameter";
  case xnn_status_invalid_state:
    return "invalid_state";
  case xnn_status_unsupported_parameter:
    return "unsupported_parameter";
  case xnn_status_unsupported_hardware:
    return "unsupported_hardware";
  case xnn_status_out_of_memory:
    return "out_of_memory";
  default:
    return "another status";
  }
}

static int reject_xnn(movconf_plugin_message *m, const char *call, enum xnn_status s) {
  snprintf(m->text, sizeof m->text, "XNNPACK: %s returned xnn_status_%s (%d)", call, status_name(s),
           (int)s);
  return MOVCONF_PLUGIN_REJECTED;
}

static void release_prepared(void) {
  if (prepared.op)
    xnn_delete_operator(prepared.op);
  free(prepared.input_nhwc);
  free(prepared.output_nhwc);
  free(prepared.channels_last);
  free(prepared.shuffled);
  memset(&prepared, 0, sizeof prepared);
}

/* XNNPACK initialised once per process, with the thread pool it runs on. */
static enum xnn_status start_xnnpack(void) {
  if (init_status == xnn_status_uninitialized) {
    init_status = xnn_initialize(NULL);
    const char *env = getenv("MOVCONF_XNNPACK_THREADS");
    long threads = env ? strtol(env, NULL, 10) : 1;
    if (threads > 1)
      pool = pthreadpool_create((size_t)threads);
  }
  return init_status;
}

/* Scratch buffer of count 32-bit elements; at least one, so never NULL. */
static uint32_t *scratch(int64_t count) {
  return malloc((size_t)(count > 0 ? count : 1) * sizeof(uint32_t));
}

/* The OpenVINO output shape [N, C / bs^2, H * bs, W * bs]: the checks
   XNNPACK's parameters cannot carry. */
static int openvino_shape(const movconf_plugin_request_v3 *r, int64_t bs, int64_t out[4],
                          movconf_plugin_message *m) {
  const int64_t *in = r->inputs[0].shape;
  int64_t cells;
  if (bs < 0 || bs > (int64_t)UINT32_MAX)
    return reject(m,
                  "block_size %lld does not fit XNNPACK's uint32_t block_size (checked by "
                  "the plugin)",
                  (long long)bs);
  if (!mul_i64(bs, bs, &cells))
    return reject(m, "block_size^2 overflows int64 (checked by the plugin)", (long long)bs);
  if (cells == 0 || in[1] % cells != 0)
    return reject(m,
                  "depth %lld is not divisible by block_size^2 (checked by the plugin: "
                  "XNNPACK takes the output channel count)",
                  (long long)in[1]);
  out[0] = in[0];
  out[1] = in[1] / cells;
  if (!mul_i64(in[2], bs, &out[2]) || !mul_i64(in[3], bs, &out[3]))
    return reject(m,
                  "a spatial size times block_size %lld overflows int64 (checked by the "
                  "plugin)",
                  (long long)bs);
  int64_t count = 4; /* bytes */
  for (int i = 0; i < 4; i++)
    if (!mul_i64(count, out[i], &count))
      count = -1;
  if (count < 0)
    return reject(m, "the output byte size overflows int64 (checked by the plugin)", 0);
  return MOVCONF_PLUGIN_OK;
}

/* Creates and sets up XNNPACK's operator for the request (its validation). */
static int prepare(const movconf_plugin_request_v3 *r, int64_t bs, const int64_t out[4],
                   movconf_plugin_message *m) {
  const int64_t *in = r->inputs[0].shape;
  size_t oc = (size_t)out[1], ic = (size_t)in[1];
  const int64_t nhwc_out[4] = {out[0], out[2], out[3], out[1]};
  memcpy(prepared.output_shape_nhwc, nhwc_out, sizeof nhwc_out);
  int64_t count = (int64_t)(r->inputs[0].nbytes / 4);
  prepared.output_nhwc = scratch(count);
#ifndef XNNPACK_NCHW_INPUT
  prepared.input_nhwc = scratch(count);
  if (!prepared.input_nhwc)
    return reject(m, "out of memory for the plugin's scratch buffers", 0);
#endif
  if (!prepared.output_nhwc)
    return reject(m, "out of memory for the plugin's scratch buffers", 0);
  enum xnn_status s;
#ifdef XNNPACK_NCHW_INPUT
  s = xnn_create_depth_to_space_nchw2nhwc_x32(oc, ic, oc, (uint32_t)bs, 0, &prepared.op);
  if (s != xnn_status_success)
    return reject_xnn(m, "xnn_create_depth_to_space_nchw2nhwc_x32", s);
  s = xnn_setup_depth_to_space_nchw2nhwc_x32(prepared.op, (size_t)in[0], (size_t)in[2],
                                             (size_t)in[3], r->inputs[0].data, prepared.output_nhwc,
                                             pool);
  if (s != xnn_status_success)
    return reject_xnn(m, "xnn_setup_depth_to_space_nchw2nhwc_x32", s);
#else
  s = xnn_create_depth_to_space_nhwc_x32(oc, ic, oc, (uint32_t)bs, 0, &prepared.op);
  if (s != xnn_status_success)
    return reject_xnn(m, "xnn_create_depth_to_space_nhwc_x32", s);
  s = xnn_setup_depth_to_space_nhwc_x32(prepared.op, (size_t)in[0], (size_t)in[2], (size_t)in[3],
                                        prepared.input_nhwc, prepared.output_nhwc, pool);
  if (s != xnn_status_success)
    return reject_xnn(m, "xnn_setup_depth_to_space_nhwc_x32", s);
#endif
  return MOVCONF_PLUGIN_OK;
}

static int output_shape_depth_to_space(const movconf_plugin_request_v3 *r, movconf_plugin_output *o,
                                       movconf_plugin_message *m) {
  int64_t bs = int_attr(r->n_attrs, r->attrs, "block_size", 1);
  int64_t out[4];
  if (openvino_shape(r, bs, out, m) != MOVCONF_PLUGIN_OK ||
      prepare(r, bs, out, m) != MOVCONF_PLUGIN_OK)
    return MOVCONF_PLUGIN_REJECTED;
  o->type = r->inputs[0].type;
  o->rank = 4;
  memcpy(o->shape, out, sizeof out);
  return MOVCONF_PLUGIN_OK;
}

/* Copies rows x cols blocks, outer of them, each transposed to cols x rows:
   [outer, rows, cols] to [outer, cols, rows], elements of size bytes. An
   empty block returns at once: outer may be 2^40 when nothing is copied. */
static void swap_inner_axes(const void *src, void *dst, int64_t outer, int64_t rows, int64_t cols,
                            size_t size) {
  if (rows == 0 || cols == 0)
    return;
  const char *from = src;
  char *to = dst;
  for (int64_t o = 0; o < outer; o++, from += rows * cols * size)
    for (int64_t j = 0; j < cols; j++)
      for (int64_t i = 0; i < rows; i++, to += size)
        memcpy(to, from + (i * cols + j) * size, size);
}

/* [outer, C, inner] of the request's axis: the checks XNNPACK's parameters
   cannot carry (it has no axis). */
static int shuffle_view(const movconf_plugin_tensor *data, int64_t axis,
                        movconf_plugin_message *m) {
  int32_t rank = data->rank;
  if (axis < -rank || axis >= rank)
    return reject(m,
                  "axis %lld is outside [-rank, rank - 1] (checked by the plugin: XNNPACK "
                  "has no axis)",
                  (long long)axis);
  int32_t at = (int32_t)(axis < 0 ? axis + rank : axis);
  prepared.outer = prepared.inner = 1;
  for (int32_t i = 0; i < rank; i++)
    if (i != at && !mul_i64(i < at ? prepared.outer : prepared.inner, data->shape[i],
                            i < at ? &prepared.outer : &prepared.inner))
      return reject(m,
                    "the axes before or after the channel axis overflow int64 (checked "
                    "by the plugin)",
                    0);
  prepared.channels = data->shape[at];
  return MOVCONF_PLUGIN_OK;
}

/* XNNPACK's channel shuffle operators of 8- and 32-bit elements, which
   take the same parameters. */
static const struct shuffle_operator {
  enum xnn_status (*create)(size_t groups, size_t group_channels, size_t input_stride,
                            size_t output_stride, uint32_t flags, xnn_operator_t *op);
  enum xnn_status (*setup)(xnn_operator_t op, size_t batch_size, const void *input, void *output,
                           pthreadpool_t threadpool);
  const char *create_name, *setup_name;
} shuffle_x8 = {xnn_create_channel_shuffle_nc_x8, xnn_setup_channel_shuffle_nc_x8,
                "xnn_create_channel_shuffle_nc_x8", "xnn_setup_channel_shuffle_nc_x8"},
  shuffle_x32 = {xnn_create_channel_shuffle_nc_x32, xnn_setup_channel_shuffle_nc_x32,
                 "xnn_create_channel_shuffle_nc_x32", "xnn_setup_channel_shuffle_nc_x32"};

/* Creates and sets up the channel shuffle operator: rows of C channels,
   outer * inner of them, channels-last. */
static int prepare_shuffle(const movconf_plugin_tensor *data, int64_t group,
                           movconf_plugin_message *m) {
  size_t size = element_size(data->type);
  int64_t rows;
  if (!mul_i64(prepared.outer, prepared.inner, &rows))
    return reject(m, "outer * inner overflows int64 (checked by the plugin)", 0);
  prepared.shuffle = 1;
  prepared.element_size = size;
  prepared.shuffled = malloc(data->nbytes ? data->nbytes : 1);
  if (prepared.inner > 1)
    prepared.channels_last = malloc(data->nbytes ? data->nbytes : 1);
  if (!prepared.shuffled || (prepared.inner > 1 && !prepared.channels_last))
    return reject(m, "out of memory for the plugin's scratch buffers", 0);
  size_t groups = (size_t)group, group_channels = (size_t)(prepared.channels / group);
  size_t stride = (size_t)prepared.channels;
  const void *input = prepared.channels_last ? prepared.channels_last : data->data;
  const struct shuffle_operator *api = size == 1 ? &shuffle_x8 : &shuffle_x32;
  prepared.api = api;
  prepared.rows = (size_t)rows;
  enum xnn_status s = api->create(groups, group_channels, stride, stride, 0, &prepared.op);
  if (s != xnn_status_success)
    return reject_xnn(m, api->create_name, s);
  s = api->setup(prepared.op, prepared.rows, input, prepared.shuffled, pool);
  return s == xnn_status_success ? MOVCONF_PLUGIN_OK : reject_xnn(m, api->setup_name, s);
}

static int output_shape_shuffle(const movconf_plugin_request_v3 *r, movconf_plugin_output *o,
                                movconf_plugin_message *m) {
  const movconf_plugin_tensor *data = &r->inputs[0];
  int64_t group = int_attr(r->n_attrs, r->attrs, "group", 1);
  if (shuffle_view(data, int_attr(r->n_attrs, r->attrs, "axis", 1), m) != MOVCONF_PLUGIN_OK)
    return MOVCONF_PLUGIN_REJECTED;
  if (group < 1)
    return reject(m,
                  "group %lld is below 1 (checked by the plugin: XNNPACK takes C / group "
                  "channels per group)",
                  (long long)group);
  if (prepared.channels % group != 0)
    return reject(m,
                  "C is not divisible by group %lld (checked by the plugin: XNNPACK takes "
                  "C / group channels per group)",
                  (long long)group);
  if (prepare_shuffle(data, group, m) != MOVCONF_PLUGIN_OK)
    return MOVCONF_PLUGIN_REJECTED;
  o->type = data->type;
  o->rank = data->rank;
  memcpy(o->shape, data->shape, (size_t)data->rank * sizeof *data->shape);
  return MOVCONF_PLUGIN_OK;
}

/* Side input i's value k as an exact integer; 0 when a u64 above INT64_MAX
   (then *big is set). */
static int64_t side_value(const movconf_plugin_tensor *t, int64_t k, int *big) {
  size_t size = pad_element_size(t->type) ? pad_element_size(t->type) : 8;
  const unsigned char *p = (const unsigned char *)t->data + (size_t)k * size;
  uint64_t raw = 0;
  for (size_t b = 0; b < size; b++)
    raw |= (uint64_t)p[b] << (8 * b);
  int is_signed = t->type == MOVCONF_PLUGIN_I8 || t->type == MOVCONF_PLUGIN_I16 ||
                  t->type == MOVCONF_PLUGIN_I32 || t->type == MOVCONF_PLUGIN_I64;
  if (is_signed && size < 8 && ((raw >> (8 * size - 1)) & 1))
    raw |= ~0ULL << (8 * size);
  if (!is_signed && raw > (uint64_t)INT64_MAX) {
    *big = 1;
    return 0;
  }
  return (int64_t)raw;
}

/* Constant pad: xnn_create_constant_pad_nd_x8/x16/x32 with pad_value's bits
   (zero bits when absent). The plugin rejects, saying so, what XNNPACK's
   size_t paddings cannot carry: negative pads (a crop), pads of another
   length than the rank, a pad_value that is not a scalar of the data's
   type, and sizes that overflow int64. */
static int output_shape_pad(const movconf_plugin_request_v3 *r, movconf_plugin_output *o,
                            movconf_plugin_message *m) {
  const movconf_plugin_tensor *data = &r->inputs[0];
  size_t size = pad_element_size(data->type);
  if (r->inputs[1].shape[0] != data->rank || r->inputs[2].shape[0] != data->rank)
    return reject(m,
                  "pads of another length than the rank %lld (checked by the plugin: "
                  "XNNPACK takes one pair per axis)",
                  (long long)data->rank);
  uint32_t value = 0;
  if (r->n_inputs > 3) {
    const movconf_plugin_tensor *v = &r->inputs[3];
    if (v->type != data->type || v->rank != 0)
      return reject(m,
                    "pad_value of type %lld is not a scalar of the data's type (checked by "
                    "the plugin: XNNPACK takes the padding value's bits)",
                    (long long)v->type);
    memcpy(&value, v->data, size);
  }
  int64_t count = 1;
  for (int32_t a = 0; a < data->rank; a++) {
    int big = 0;
    int64_t b = side_value(&r->inputs[1], a, &big), e = side_value(&r->inputs[2], a, &big);
    if (big || b < 0 || e < 0)
      return reject(m,
                    "a negative or huge pad on axis %lld (checked by the plugin: XNNPACK's "
                    "paddings are size_t, it has no crop)",
                    (long long)a);
    int64_t d;
    if (__builtin_add_overflow(data->shape[a], b, &d) || __builtin_add_overflow(d, e, &d) ||
        !mul_i64(count, d, &count))
      return reject(m, "the output size overflows int64 on axis %lld (checked by the plugin)",
                    (long long)a);
    o->shape[a] = d;
    prepared.pad_shape[a] = (size_t)data->shape[a];
    prepared.pre[a] = (size_t)b;
    prepared.post[a] = (size_t)e;
  }
  enum xnn_status s;
  if (size == 1) {
    s = xnn_create_constant_pad_nd_x8(&value, 0, &prepared.op);
    prepared.pad_setup = xnn_setup_constant_pad_nd_x8;
  } else if (size == 2) {
    s = xnn_create_constant_pad_nd_x16(&value, 0, &prepared.op);
    prepared.pad_setup = xnn_setup_constant_pad_nd_x16;
  } else {
    s = xnn_create_constant_pad_nd_x32(&value, 0, &prepared.op);
    prepared.pad_setup = xnn_setup_constant_pad_nd_x32;
  }
  if (s != xnn_status_success)
    return reject_xnn(m, "xnn_create_constant_pad_nd", s);
  prepared.pad = 1;
  prepared.pad_rank = (size_t)data->rank;
  o->type = data->type;
  o->rank = data->rank;
  return MOVCONF_PLUGIN_OK;
}

static int output_shape(const movconf_plugin_request_v3 *r, movconf_plugin_output *o,
                        movconf_plugin_message *m) {
  release_prepared();
  if (start_xnnpack() != xnn_status_success)
    return reject_xnn(m, "xnn_initialize", init_status);
  int status = r->op == MOVCONF_PLUGIN_DEPTH_TO_SPACE ? output_shape_depth_to_space(r, o, m)
               : r->op == MOVCONF_PLUGIN_PAD          ? output_shape_pad(r, o, m)
                                                      : output_shape_shuffle(r, o, m);
  if (status != MOVCONF_PLUGIN_OK)
    release_prepared();
  return status;
}

static int run(const movconf_plugin_request_v3 *r, const movconf_plugin_output *o,
               movconf_plugin_message *m) {
  static const int nchw_to_nhwc[4] = {0, 2, 3, 1}, nhwc_to_nchw[4] = {0, 3, 1, 2};
  struct prepared *p = &prepared;
  if (!p->op)
    return reject(m, "run() without a prepared operator", 0);
  if (p->pad) {
    enum xnn_status s = p->pad_setup(p->op, p->pad_rank, p->pad_shape, p->pre, p->post,
                                     r->inputs[0].data, o->data, pool);
    if (s == xnn_status_success)
      s = xnn_run_operator(p->op, pool);
    release_prepared();
    return s == xnn_status_success ? MOVCONF_PLUGIN_OK
                                   : reject_xnn(m, "xnn_setup_constant_pad_nd or run", s);
  }
  if (p->channels_last) /* [outer, C, inner] -> [outer, inner, C] */
    swap_inner_axes(r->inputs[0].data, p->channels_last, p->outer, p->channels, p->inner,
                    p->element_size);
  if (p->input_nhwc)
    transpose4_u32(r->inputs[0].shape, r->inputs[0].data, nchw_to_nhwc, p->input_nhwc);
  enum xnn_status s = xnn_status_success;
  if (p->shuffle && !p->channels_last) /* the channel axis is last: no copy around it */
    s = p->api->setup(p->op, p->rows, r->inputs[0].data, o->data, pool);
  if (s == xnn_status_success)
    s = xnn_run_operator(p->op, pool);
  if (s != xnn_status_success) {
    release_prepared();
    return reject_xnn(m, "xnn_setup or xnn_run_operator", s);
  }
  if (p->channels_last) /* [outer, inner, C] -> [outer, C, inner] */
    swap_inner_axes(p->shuffled, o->data, p->outer, p->inner, p->channels, p->element_size);
  else if (!p->shuffle)
    transpose4_u32(p->output_shape_nhwc, p->output_nhwc, nhwc_to_nchw, o->data);
  release_prepared();
  return MOVCONF_PLUGIN_OK;
}

static const movconf_plugin_v3 table = {
    .abi_version = MOVCONF_PLUGIN_ABI_V3,
    .name = PLUGIN_NAME,
    .version = XNNPACK_VERSION,
    .supports = supports,
    .output_shape = output_shape,
    .run = run,
};

const void *movconf_plugin_entry(uint32_t abi_version) {
  return abi_version == MOVCONF_PLUGIN_ABI_V3 ? &table : NULL;
}
