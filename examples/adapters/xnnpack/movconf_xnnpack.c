/* A movconf plugin (spec/plugin-abi.md) over XNNPACK's depth-to-space
   operator for 32-bit elements, to test XNNPACK's own kernel.

   XNNPACK's operator is DCR (OpenVINO's blocks_first), 4-D and channels-last;
   OpenVINO's DepthToSpace-1 is channels-first. Built two ways from this file:

   - movconf_xnnpack.so: xnn_create_depth_to_space_nhwc_x32, with a transpose
     NCHW -> NHWC before it and NHWC -> NCHW after it;
   - movconf_xnnpack_nchw.so (XNNPACK_NCHW_INPUT defined):
     xnn_create_depth_to_space_nchw2nhwc_x32, which reads the NCHW input
     itself, with one transpose NHWC -> NCHW after it.

   The transposes and overflow checks are the plugin's own (transpose4_u32,
   mul_i64): an implementation under test must not share the oracle's helpers,
   or a bug in one would hide in both. The plugin
   claims blocks_first, rank 4, u32/i32/f32 and declines the rest, which
   XNNPACK cannot express. Validation is XNNPACK's (xnn_create_* and
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
#define PLUGIN_NAME "xnnpack-d2s-nhwc"
#endif

#ifndef XNNPACK_VERSION
#define XNNPACK_VERSION "unknown"
#endif

/* The operator output_shape() created and set up, kept for run(). */
static struct prepared {
  xnn_operator_t op;
  uint32_t *input_nhwc; /* NULL when the operator reads the NCHW input */
  uint32_t *output_nhwc;
  int64_t output_shape_nhwc[4];
} prepared;

static pthreadpool_t pool;
static enum xnn_status init_status = xnn_status_uninitialized;

static int supports(const movconf_plugin_query *q) {
  int32_t t = q->input_types[0];
  return q->op == MOVCONF_PLUGIN_DEPTH_TO_SPACE && q->input_ranks[0] == 4 && q->mode &&
         strcmp(q->mode, "blocks_first") == 0 &&
         (t == MOVCONF_PLUGIN_U32 || t == MOVCONF_PLUGIN_I32 || t == MOVCONF_PLUGIN_F32);
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
static int openvino_shape(const movconf_plugin_request *r, int64_t bs, int64_t out[4],
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
static int prepare(const movconf_plugin_request *r, int64_t bs, const int64_t out[4],
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

static int output_shape(const movconf_plugin_request *r, movconf_plugin_output *o,
                        movconf_plugin_message *m) {
  release_prepared();
  if (start_xnnpack() != xnn_status_success)
    return reject_xnn(m, "xnn_initialize", init_status);
  int64_t bs = r->attrs.has_block_size ? r->attrs.block_size : 1;
  int64_t out[4];
  if (openvino_shape(r, bs, out, m) != MOVCONF_PLUGIN_OK ||
      prepare(r, bs, out, m) != MOVCONF_PLUGIN_OK) {
    release_prepared();
    return MOVCONF_PLUGIN_REJECTED;
  }
  o->type = r->inputs[0].type;
  o->rank = 4;
  memcpy(o->shape, out, sizeof out);
  return MOVCONF_PLUGIN_OK;
}

static int run(const movconf_plugin_request *r, const movconf_plugin_output *o,
               movconf_plugin_message *m) {
  static const int nchw_to_nhwc[4] = {0, 2, 3, 1}, nhwc_to_nchw[4] = {0, 3, 1, 2};
  if (!prepared.op)
    return reject(m, "run() without a prepared operator", 0);
  if (prepared.input_nhwc)
    transpose4_u32(r->inputs[0].shape, r->inputs[0].data, nchw_to_nhwc, prepared.input_nhwc);
  enum xnn_status s = xnn_run_operator(prepared.op, pool);
  if (s != xnn_status_success) {
    release_prepared();
    return reject_xnn(m, "xnn_run_operator", s);
  }
  transpose4_u32(prepared.output_shape_nhwc, prepared.output_nhwc, nhwc_to_nchw, o->data);
  release_prepared();
  return MOVCONF_PLUGIN_OK;
}

static const movconf_plugin_v1 table = {
    .abi_version = MOVCONF_PLUGIN_ABI_VERSION,
    .name = PLUGIN_NAME,
    .version = XNNPACK_VERSION,
    .supports = supports,
    .output_shape = output_shape,
    .run = run,
};

const movconf_plugin_v1 *movconf_plugin_entry(uint32_t abi_version) {
  return abi_version == MOVCONF_PLUGIN_ABI_VERSION ? &table : NULL;
}
