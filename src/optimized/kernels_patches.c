/* ExtractImagePatches-3 without a padded copy: output row (b, channel, i)
   takes input row i*stride_r + r*rate_r - pad_top of plane (b, d) at columns
   j*stride_c + c*rate_c - pad_left; positions in the padding are zero. */
#include "optimized/kernels.h"

/* What every output row of one channel shares: input channel d and patch
   row r, and the output columns [lo, hi) whose input column j*stride +
   shift lies inside the row (patch column c gives the shift). Decoded once
   per channel: it takes divisions. */
typedef struct patch_channel {
  int64_t d, r, shift, lo, hi;
} patch_channel;

static patch_channel decode_channel(const mc_opt_plan *p, int64_t ch, int64_t stride) {
  /* channel = (r*size_cols + c)*depth + d; the faulty order is
     (d*size_rows + r)*size_cols + c */
  const int64_t depth = p->in_shape[1];
  patch_channel k;
  k.d = MC_MUTANT(eip_channel_order_depth_major, ch % depth, ch / (p->size[0] * p->size[1]));
  k.r = MC_MUTANT(eip_channel_order_depth_major, ch / depth / p->size[1],
                  ch / p->size[1] % p->size[0]);
  const int64_t c =
      MC_MUTANT(eip_channel_order_depth_major, ch / depth % p->size[1], ch % p->size[1]);
  k.shift = c * p->rate[1] - p->pad_begin[1];
  mc_strided_inside(k.shift, stride, p->in_shape[3], p->out_shape[3], &k.lo, &k.hi);
  return k;
}

static void patch_rows(void *ctx, int64_t begin, int64_t end) {
  const mc_kernel_job *j = ctx;
  const mc_opt_plan *p = j->plan;
  const int64_t depth = p->in_shape[1], rows = p->in_shape[2], cols = p->in_shape[3];
  const int64_t width = p->out_shape[3];
  const int64_t stride = p->stride[MC_MUTANT(eip_column_stride_from_rows, 1, 0)];
  /* Offset r*rate - pad first: the padded row itself may exceed int64. */
  const int64_t row_rate = MC_MUTANT(eip_row_rate_ignored, p->rate[0], 1);
  patch_channel k = {0, 0, 0, 0, 0};
  int64_t decoded = -1;
  mc_row_walk w;
  mc_row_walk_start(&w, 3, p->out_shape, begin);
  for (int64_t row = begin; row < end; row++, mc_row_walk_next(&w)) {
    if (w.idx[1] != decoded) {
      k = decode_channel(p, w.idx[1], stride);
      decoded = w.idx[1];
    }
    const int64_t in_row = w.idx[2] * p->stride[0] + (k.r * row_rate - p->pad_begin[0]);
    const int64_t out0 = row * width;
    if (in_row < 0 || in_row >= rows) {
      mc_row_zero(&j->io, j->out, out0, 1, MC_MUTANT(eip_padded_rows_unzeroed, width, 0));
      continue;
    }
    mc_row_zero(&j->io, j->out, out0, 1, k.lo);
    if (k.hi > k.lo) { /* only then is column lo*stride + shift inside: stride may be huge */
      const int64_t src =
          ((w.idx[0] * depth + k.d) * rows + in_row) * cols + k.lo * stride + k.shift;
      mc_row_copy(&j->io, j->out, out0 + k.lo, 1, j->in, src, stride, k.hi - k.lo);
    }
    mc_row_zero(&j->io, j->out, out0 + k.hi, 1, width - k.hi);
  }
}

void MC_KERNEL(mc_kernel_extract_image_patches)(const mc_kernel_job *job) {
  mc_parallel_for(job->threads, mc_kernel_rows(job->plan->out_shape, 3), 1, patch_rows,
                  (void *)job);
}
