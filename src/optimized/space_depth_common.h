/* What SpaceToDepth-1 and DepthToSpace-1 (inverse operations) share: the
   attribute checks of their validation, and the kernels' mapping between a
   spatial row and its channels on the depth side. A spatial row of the space
   side is split into (resp. merged from) bs rows of the depth side, one per
   block offset along the last axis. */
#ifndef MOVCONF_OPTIMIZED_SPACE_DEPTH_COMMON_H
#define MOVCONF_OPTIMIZED_SPACE_DEPTH_COMMON_H

#include "optimized/plan.h"
#include "optimized/rows.h"

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

#endif
