/* What SpaceToDepth-1 and DepthToSpace-1 (inverse operations) share: the
   attribute checks of their validation, and the kernels' mapping between a
   spatial row and its channels on the depth side. A spatial row of the space
   side is split into (resp. merged from) bs rows of the depth side, one per
   block offset along the last axis. */
#ifndef MOVCONF_OPTIMIZED_SPACE_DEPTH_COMMON_H
#define MOVCONF_OPTIMIZED_SPACE_DEPTH_COMMON_H

#include "optimized/kernels.h"

/* V1 to V4 of both operations; ids holds the four clause ids of the op.
   Fills plan->depth_first and plan->block_size. */
mc_status mc_opt_check_depth_space_attrs(const mc_request *req, mc_opt_plan *plan,
                                         const char *const ids[4], mc_error *err);

/* The output channel that holds block offset `offset` (mixed radix over the
   K block axes) of channel c among `channels` channels. */
static inline int64_t mc_depth_channel(const mc_opt_plan *p, int64_t c, int64_t offset,
                                       int64_t channels, int64_t block_volume) {
  return p->depth_first ? c * block_volume + offset : offset * channels + c;
}

/* For a row (n, c, x_1..x_{K-1}) of the space side: the mixed-radix block
   offset of (x_i % bs) and the element offset of (n, x_i / bs) on the depth
   side, whose strides are given. */
static inline void mc_space_row_position(const mc_row_walk *w, int last, int64_t bs,
                                         const int64_t *depth_stride, int64_t *offset,
                                         int64_t *spatial) {
  *offset = 0;
  *spatial = w->idx[0] * depth_stride[0];
  for (int i = 2; i < last; i++) {
    *offset = *offset * bs + w->idx[i] % bs;
    *spatial += w->idx[i] / bs * depth_stride[i];
  }
}

/* Rows [begin, end) of the space side, (n, c, x_1..x_{K-1}) along x_K, for
   both operations: to_depth (SpaceToDepth) splits each input row into bs
   rows of the depth side, one per block offset o along the last axis
   (elements o, o + bs, ...); otherwise (DepthToSpace) each output row is
   merged from them. Here, not in space_depth_common.c, so that it is
   compiled into each kernel's baseline and AVX2 builds. */
static inline void mc_space_depth_rows(const mc_kernel_job *j, int64_t begin, int64_t end,
                                       bool to_depth) {
  const mc_opt_plan *p = j->plan;
  const int last = p->rank - 1, k = p->rank - 2;
  const int64_t *space = to_depth ? p->in_shape : p->out_shape;
  const int64_t *depth_stride = to_depth ? j->out_stride : j->in_stride;
  const int64_t bs = p->block_size, channels = space[1], volume = mc_kernel_power(bs, k);
  const int64_t width = to_depth ? p->out_shape[last] : p->in_shape[last]; /* a depth row */
  mc_row_walk w;
  mc_row_walk_start(&w, last, space, begin);
  for (int64_t row = begin; row < end; row++, mc_row_walk_next(&w)) {
    int64_t offset, spatial;
    mc_space_row_position(&w, last, bs, depth_stride, &offset, &spatial);
    const int64_t space_at = row * space[last];
    int64_t depth_at[MC_MAX_WAYS];
    for (int64_t o = 0; o < bs; o++) {
      int64_t channel = mc_depth_channel(p, w.idx[1], offset * bs + o, channels, volume);
      int64_t at = spatial + channel * depth_stride[1];
      if (bs <= MC_MAX_WAYS)
        depth_at[o] = at;
      else if (to_depth)
        mc_row_copy(&j->io, j->out, at, 1, j->in, space_at + o, bs, width);
      else
        mc_row_copy(&j->io, j->out, space_at + o, bs, j->in, at, 1, width);
    }
    if (bs > MC_MAX_WAYS)
      continue;
    if (to_depth)
      mc_rows_deinterleave(&j->io, j->out, depth_at, j->in, space_at, bs, width);
    else
      mc_rows_interleave(&j->io, j->out, space_at, j->in, depth_at, bs, width);
  }
}

#endif
