/* SpaceToDepth-1 and DepthToSpace-1 without intermediates. A spatial row of
   the space side is split into (resp. merged from) bs rows of the depth
   side, one per block offset along the last axis. */
#include "optimized/kernels.h"

/* The output channel that holds block offset `offset` (mixed radix over the
   K block axes) of channel c among `channels` channels. */
static int64_t depth_channel(const mc_opt_plan *p, int64_t c, int64_t offset, int64_t channels,
                             int64_t block_volume) {
  return p->depth_first ? c * block_volume + offset : offset * channels + c;
}

/* For a row (n, c, x_1..x_{K-1}) of the space side: the mixed-radix block
   offset of (x_i % bs) and the element offset of (n, x_i / bs) on the depth
   side, whose strides are given. */
static void space_row_position(const mc_row_walk *w, int last, int64_t bs,
                               const int64_t *depth_stride, int64_t *offset, int64_t *spatial) {
  *offset = 0;
  *spatial = w->idx[0] * depth_stride[0];
  for (int i = 2; i < last; i++) {
    *offset = *offset * bs + w->idx[i] % bs;
    *spatial += w->idx[i] / bs * depth_stride[i];
  }
}

/* Driven by input rows (n, c, x_1..x_{K-1}) along x_K: element x_K goes to
   output row (n, channel(o_1..o_K, c), x_1/bs..x_{K-1}/bs) at x_K / bs. */
static void s2d_rows(void *ctx, int64_t begin, int64_t end) {
  const mc_kernel_job *j = ctx;
  const mc_opt_plan *p = j->plan;
  const int last = p->rank - 1, k = p->rank - 2;
  const int64_t bs = p->block_size, channels = p->in_shape[1];
  const int64_t volume = mc_kernel_power(bs, k), out_width = p->out_shape[last];
  mc_row_walk w;
  mc_row_walk_start(&w, last, p->in_shape, begin);
  for (int64_t row = begin; row < end; row++, mc_row_walk_next(&w)) {
    int64_t offset, spatial;
    space_row_position(&w, last, bs, j->out_stride, &offset, &spatial);
    int64_t dst[MC_MAX_WAYS];
    for (int64_t o = 0; o < bs; o++) {
      int64_t channel = depth_channel(
          p, w.idx[1],
          MC_MUTANT(s2d_block_offsets_reversed, offset * bs + o, o * (volume / bs) + offset),
          channels, volume);
      int64_t at = spatial + channel * j->out_stride[1];
      if (bs <= MC_MAX_WAYS)
        dst[o] = at;
      else
        mc_row_copy(&j->io, j->out, at, 1, j->in, row * p->in_shape[last] + o, bs, out_width);
    }
    if (bs <= MC_MAX_WAYS)
      mc_rows_deinterleave(&j->io, j->out, dst, j->in, row * p->in_shape[last], bs, out_width);
  }
}

void MC_KERNEL(mc_kernel_space_to_depth)(const mc_kernel_job *job) {
  const mc_opt_plan *p = job->plan;
  mc_parallel_for(job->threads, mc_kernel_rows(p->in_shape, p->rank - 1), 1, s2d_rows, (void *)job);
}

/* Driven by output rows (n, c, y_1..y_{K-1}) along y_K: position y_K =
   d*bs + o comes from input row (n, channel(o_1..o_K, c), y_i/bs) at d. */
static void d2s_rows(void *ctx, int64_t begin, int64_t end) {
  const mc_kernel_job *j = ctx;
  const mc_opt_plan *p = j->plan;
  const int last = p->rank - 1, k = p->rank - 2;
  const int64_t bs = p->block_size, channels = p->out_shape[1];
  const int64_t volume = mc_kernel_power(bs, k), in_width = p->in_shape[last];
  mc_row_walk w;
  mc_row_walk_start(&w, last, p->out_shape, begin);
  for (int64_t row = begin; row < end; row++, mc_row_walk_next(&w)) {
    int64_t offset, spatial;
    space_row_position(&w, last, bs, j->in_stride, &offset, &spatial);
    int64_t src[MC_MAX_WAYS];
    for (int64_t o = 0; o < bs; o++) {
      int64_t channel = depth_channel(
          p, w.idx[1],
          MC_MUTANT(d2s_block_offsets_reversed, offset * bs + o, o * (volume / bs) + offset),
          channels, volume);
      int64_t at = spatial + channel * j->in_stride[1];
      if (bs <= MC_MAX_WAYS)
        src[o] = at;
      else
        mc_row_copy(&j->io, j->out, row * p->out_shape[last] + o, bs, j->in, at, 1, in_width);
    }
    if (bs <= MC_MAX_WAYS)
      mc_rows_interleave(&j->io, j->out, row * p->out_shape[last], j->in, src, bs, in_width);
  }
}

void MC_KERNEL(mc_kernel_depth_to_space)(const mc_kernel_job *job) {
  const mc_opt_plan *p = job->plan;
  mc_parallel_for(job->threads, mc_kernel_rows(p->out_shape, p->rank - 1), 1, d2s_rows,
                  (void *)job);
}
