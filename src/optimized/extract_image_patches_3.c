/* ExtractImagePatches-3: validation from the output formula (EIP-O1) and
   the kernel, without a padded copy: output row (b, channel, i) takes input
   row i*stride_r + r*rate_r - pad_top of plane (b, d) at columns
   j*stride_c + c*rate_c - pad_left; positions in the padding are zero. */
#include <string.h>

#include "common/checked.h"
#include "common/error.h"
#include "optimized/kernels.h"

/* ---- Validation: compiled once (kernels_avx2.c includes this file again,
   for the kernel alone) ---- */
#ifndef MC_KERNELS_AVX2

typedef enum pad_kind { PAD_VALID, PAD_SAME_UPPER, PAD_SAME_LOWER } pad_kind;

static mc_status check_patch_attrs_given(const mc_attrs *a, mc_error *err) {
  const mc_int_list *lists[3] = {mc_attrs_list(a, MC_ATTR_SIZES), mc_attrs_list(a, MC_ATTR_STRIDES),
                                 mc_attrs_list(a, MC_ATTR_RATES)};
  static const char *const names[3] = {"sizes", "strides", "rates"};
  for (int k = 0; k < 3; k++)
    if (lists[k]->count < 0)
      return mc_fail(err, MC_E_ATTRIBUTE_MISSING, "EIP-V2", "attribute %s is not given", names[k]);
  if (!mc_attrs_present(a, MC_ATTR_AUTO_PAD))
    return mc_fail(err, MC_E_ATTRIBUTE_MISSING, "EIP-V2", "attribute auto_pad is not given");
  for (int k = 0; k < 3; k++)
    if (lists[k]->count != 2)
      return mc_fail(err, MC_E_ATTRIBUTE_LENGTH, "EIP-V3", "%s has %d values instead of 2",
                     names[k], lists[k]->count);
  return MC_OK;
}

/* V4, V5, V6: each list needs both values >= 1, sizes first. */
static mc_status check_patch_values(const mc_attrs *a, mc_error *err) {
  const mc_int_list *lists[3] = {mc_attrs_list(a, MC_ATTR_SIZES), mc_attrs_list(a, MC_ATTR_STRIDES),
                                 mc_attrs_list(a, MC_ATTR_RATES)};
  static const char *const names[3] = {"sizes", "strides", "rates"};
  static const char *const ids[3] = {"EIP-V4", "EIP-V5", "EIP-V6"};
  static const mc_status codes[3] = {MC_E_SIZES_BELOW_ONE, MC_E_STRIDES_BELOW_ONE,
                                     MC_E_RATES_BELOW_ONE};
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 2; i++)
      if (lists[k]->v[i] < 1)
        return mc_fail(err, codes[k], ids[k], "%s[%d] = %lld is below 1", names[k], i,
                       (long long)lists[k]->v[i]);
  return MC_OK;
}

static mc_status parse_auto_pad(const char *text, pad_kind *kind, mc_error *err) {
  if (strcmp(text, "valid") == 0)
    *kind = PAD_VALID;
  else if (strcmp(text, "same_upper") == 0)
    *kind = PAD_SAME_UPPER;
  else if (strcmp(text, "same_lower") == 0)
    *kind = PAD_SAME_LOWER;
  else
    return mc_fail(err, MC_E_AUTO_PAD_INVALID, "EIP-V7",
                   "auto_pad must be valid, same_upper or same_lower exactly");
  return MC_OK;
}

/* One axis: window span, window count and leading padding (EIP-S1..S3). */
static mc_status patch_axis(int64_t in, int64_t size, int64_t stride, int64_t rate, pad_kind kind,
                            int64_t *count, int64_t *pad_begin, mc_error *err) {
  int64_t span;
  if (!mc_mul_i64(size - 1, rate, &span) || !mc_add_i64(span, 1, &span))
    return mc_opt_overflow(err, "the effective patch size (size - 1) * rate + 1");
  *pad_begin = 0;
  if (kind == PAD_VALID) {
    *count = in >= span ? (in - span) / stride + 1 : 0;
    return MC_OK;
  }
  *count = in / stride + (in % stride != 0);
  if (*count == 0)
    return MC_OK;
  /* (count-1)*stride lies in [in - stride, in), so the total padding
     (count-1)*stride + span - in equals span - reach with reach in
     (0, stride]: it always fits, and computing it this way never overflows. */
  int64_t reach = in - (*count - 1) * stride;
  int64_t total = span > reach ? span - reach : 0;
  bool upper = kind == PAD_SAME_UPPER;
  *pad_begin = upper ? total / 2 : total - total / 2;
  return MC_OK;
}

mc_status mc_opt_validate_extract_image_patches_3(const mc_request *req, mc_opt_plan *plan,
                                                  mc_error *err) {
  if (plan->rank != 4)
    return mc_fail(err, MC_E_DATA_RANK, "EIP-V1", "data has rank %d; exactly 4 is needed",
                   plan->rank);
  const mc_attrs *a = &req->attrs;
  pad_kind kind = PAD_VALID;
  mc_status s = check_patch_attrs_given(a, err);
  if (s == MC_OK)
    s = check_patch_values(a, err);
  if (s == MC_OK)
    s = parse_auto_pad(mc_attrs_string(a, MC_ATTR_AUTO_PAD), &kind, err);
  if (s != MC_OK)
    return s;
  for (int i = 0; i < 2; i++) {
    plan->size[i] = mc_attrs_list(a, MC_ATTR_SIZES)->v[i];
    plan->stride[i] = mc_attrs_list(a, MC_ATTR_STRIDES)->v[i];
    plan->rate[i] = mc_attrs_list(a, MC_ATTR_RATES)->v[i];
    s = patch_axis(plan->in_shape[2 + i], plan->size[i], plan->stride[i], plan->rate[i], kind,
                   &plan->out_shape[2 + i], &plan->pad_begin[i], err);
    if (s != MC_OK)
      return s;
  }
  int64_t depth;
  if (!mc_mul_i64(plan->in_shape[1], plan->size[0], &depth) ||
      !mc_mul_i64(depth, plan->size[1], &depth))
    return mc_opt_overflow(err, "the output depth depth * size_rows * size_cols");
  plan->out_shape[0] = plan->in_shape[0];
  plan->out_shape[1] = depth;
  /* Streams only with unit column strides, where each piece of an output
     row is a contiguous part of an input row that its run (stream.h)
     streams straight from the input. */
  plan->never_streams = plan->stride[1] != 1;
  return MC_OK;
}

#endif /* MC_KERNELS_AVX2 */

/* ---- Kernel ---- */

/* What every output row of one channel shares: input channel d and patch
   row r, and the output columns [lo, hi) whose input column j*stride +
   shift lies inside the row (patch column c gives the shift). Decoded once
   per channel: it takes divisions. */
typedef struct patch_channel {
  int64_t d, r, shift, lo, hi;
} patch_channel;

static patch_channel decode_channel(const mc_opt_plan *p, int64_t ch, int64_t stride) {
  /* channel = (r*size_cols + c)*depth + d */
  const int64_t depth = p->in_shape[1];
  patch_channel k;
  k.d = ch % depth;
  k.r = ch / depth / p->size[1];
  const int64_t c = ch / depth % p->size[1];
  k.shift = c * p->rate[1] - p->pad_begin[1];
  mc_strided_inside(k.shift, stride, p->in_shape[3], p->out_shape[3], &k.lo, &k.hi);
  return k;
}

/* Where a row's pieces go: the row primitives at output element `at`, or,
   streaming, the thread's run (stream.h), which takes the pieces in output
   order straight from the input rows (streams() picks this only for unit
   column strides). */
static void patch_zero(const mc_kernel_job *j, mc_stream_run *run, int64_t at, int64_t n) {
  if (run)
    mc_stream_put(run, NULL, (size_t)n * j->io.esize);
  else
    mc_row_zero(&j->io, j->out, at, 1, n);
}

static void patch_copy(const mc_kernel_job *j, mc_stream_run *run, int64_t at, int64_t src,
                       int64_t stride, int64_t n) {
  if (run)
    mc_stream_put(run, j->in + src * (int64_t)j->io.esize, (size_t)n * j->io.esize);
  else
    mc_row_copy(&j->io, j->out, at, 1, j->in, src, stride, n);
}

/* One output channel of one image, in what its rows need: read once from
   the plan into a local (the rows' byte stores may alias the plan, so the
   compiler would read it again for every row). Output row i reads input
   row i*row_stride + row_offset at element src0 + in_row*cols. */
typedef struct patch_rows {
  patch_channel k;
  int64_t rows, cols, width, stride, row_stride, row_offset, src0;
} patch_rows;

static patch_rows patch_rows_of(const mc_opt_plan *p, int64_t b, int64_t ch) {
  patch_rows g;
  g.stride = p->stride[1];
  g.k = decode_channel(p, ch, g.stride);
  g.rows = p->in_shape[2];
  g.cols = p->in_shape[3];
  g.width = p->out_shape[3];
  g.row_stride = p->stride[0];
  /* Offset r*rate - pad first: the padded row itself may exceed int64. */
  g.row_offset = g.k.r * p->rate[0] - p->pad_begin[0];
  /* only with hi > lo is column lo*stride + shift inside: stride may be huge */
  g.src0 = g.k.hi > g.k.lo
               ? (b * p->in_shape[1] + g.k.d) * g.rows * g.cols + g.k.lo * g.stride + g.k.shift
               : 0;
  return g;
}

/* Output row i of one channel, at output element out0. */
static void patch_row(const mc_kernel_job *j, mc_stream_run *run, const patch_rows *g, int64_t i,
                      int64_t out0) {
  const int64_t in_row = i * g->row_stride + g->row_offset;
  if (in_row < 0 || in_row >= g->rows) {
    patch_zero(j, run, out0, g->width);
    return;
  }
  patch_zero(j, run, out0, g->k.lo);
  if (g->k.hi > g->k.lo)
    patch_copy(j, run, out0 + g->k.lo, g->src0 + in_row * g->cols, g->stride, g->k.hi - g->k.lo);
  patch_zero(j, run, out0 + g->k.hi, g->width - g->k.hi);
}

/* The work is split by input plane (batch b, channel d): the size_rows *
   size_cols output channels that read plane d are written one after the
   other, each a contiguous run, while the plane stays in cache (written row
   by row in output order instead, every plane would be fetched once per
   patch position). */
static void patch_planes(void *ctx, int64_t begin, int64_t end) {
  const mc_kernel_job *j = ctx;
  const mc_opt_plan *p = j->plan;
  const int64_t depth = p->in_shape[1], positions = p->size[0] * p->size[1];
  const int64_t height = p->out_shape[2], width = p->out_shape[3];
  mc_stream_run streamed, *run = j->io.stream ? &streamed : NULL;
  for (int64_t plane = begin; plane < end; plane++) {
    const int64_t b = plane / depth, d = plane % depth;
    for (int64_t pos = 0; pos < positions; pos++) {
      const patch_rows g = patch_rows_of(p, b, pos * depth + d);
      const int64_t first = (b * p->out_shape[1] + pos * depth + d) * height;
      if (run)
        mc_stream_run_begin(run, j->out + first * width * (int64_t)j->io.esize);
      for (int64_t i = 0; i < height; i++)
        patch_row(j, run, &g, i, (first + i) * width);
      if (run)
        mc_stream_run_end(run);
    }
  }
}

void MC_KERNEL(mc_kernel_extract_image_patches_3)(const mc_kernel_job *job) {
  const int64_t *in = job->plan->in_shape;
  mc_parallel_for(job->threads, in[0] * in[1], 1, patch_planes, (void *)job);
}
