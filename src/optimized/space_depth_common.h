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

/* The rows of the space side in order, (n, c, x_1..x_{K-1}) along x_K, with
   the depth-side element that the first block offset along x_K of each
   maps to. Each spatial axis x_i is walked as (x_i / bs, x_i % bs), whose
   depth-side strides are constant, so that the next row's position is one
   addition away (carries aside); the other block offsets o along x_K are
   `step` apart: at + o * step. */
typedef struct mc_depth_walk {
  int axes;
  int64_t dim[MC_MAX_WORK_RANK];
  int64_t idx[MC_MAX_WORK_RANK];
  int64_t stride[MC_MAX_WORK_RANK];
  int64_t at, step;
  int64_t inner_idx, inner_dim, inner_stride; /* of axis axes - 1 */
} mc_depth_walk;

/* The walk's axes (outermost first) for a space side of shape `space`, the
   depth side's strides `depth_stride`, from space row `row` on. Channel c's
   block offset b (mixed radix over the K block axes, x_K's least
   significant) is depth channel c * bs^K + b (depth_first) or b * C + c. */
static inline void mc_depth_walk_start(mc_depth_walk *w, const mc_opt_plan *p, const int64_t *space,
                                       const int64_t *depth_stride, int64_t row) {
  const int last = p->rank - 1;
  const int64_t bs = p->block_size;
  int64_t block_step = p->depth_first ? depth_stride[1] : space[1] * depth_stride[1];
  w->step = block_step;
  int64_t volume = 1; /* bs^K, built below from x_K up */
  int64_t inner[MC_MAX_RANK];
  for (int i = last; i >= 2; i--) {
    inner[i] = block_step; /* weight of x_i % bs */
    block_step *= bs;
    volume *= bs;
  }
  w->axes = 0;
  w->dim[w->axes] = space[0], w->stride[w->axes++] = depth_stride[0];
  w->dim[w->axes] = space[1];
  w->stride[w->axes++] = p->depth_first ? volume * depth_stride[1] : depth_stride[1];
  for (int i = 2; i < last; i++) {
    w->dim[w->axes] = space[i] / bs, w->stride[w->axes++] = depth_stride[i];
    w->dim[w->axes] = bs, w->stride[w->axes++] = inner[i];
  }
  w->at = 0;
  for (int a = w->axes - 1; a >= 0; a--) {
    w->idx[a] = w->dim[a] ? row % w->dim[a] : 0;
    row = w->dim[a] ? row / w->dim[a] : 0;
    w->at += w->idx[a] * w->stride[a];
  }
  w->inner_idx = w->idx[w->axes - 1];
  w->inner_dim = w->dim[w->axes - 1];
  w->inner_stride = w->stride[w->axes - 1];
}

/* Moves to the next row. The innermost axis's index and stride are copied
   into scalars, which compilers keep in registers. */
static inline void mc_depth_walk_next(mc_depth_walk *w) {
  w->at += w->inner_stride;
  if (++w->inner_idx < w->inner_dim)
    return;
  w->at -= w->inner_dim * w->inner_stride;
  w->inner_idx = 0;
  for (int a = w->axes - 2; a >= 0; a--) {
    w->at += w->stride[a];
    if (++w->idx[a] < w->dim[a])
      return;
    w->at -= w->dim[a] * w->stride[a];
    w->idx[a] = 0;
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
  const int last = p->rank - 1;
  const int64_t *space = to_depth ? p->in_shape : p->out_shape;
  const int64_t bs = p->block_size, length = space[last];
  const int64_t width = to_depth ? p->out_shape[last] : p->in_shape[last]; /* a depth row */
  mc_depth_walk w;
  mc_depth_walk_start(&w, p, space, to_depth ? j->out_stride : j->in_stride, begin);
  int64_t offset[MC_MAX_WAYS]; /* of block offset o's depth row from o = 0's */
  for (int64_t o = 0; o < bs && o < MC_MAX_WAYS; o++)
    offset[o] = o * w.step;
  for (int64_t row = begin; row < end; row++, mc_depth_walk_next(&w)) {
    const int64_t space_at = row * length;
    if (bs <= MC_MAX_WAYS && to_depth)
      mc_rows_deinterleave_at(&j->io, j->out, w.at, offset, j->in, space_at, bs, width);
    else if (bs <= MC_MAX_WAYS)
      mc_rows_interleave_at(&j->io, j->out, space_at, j->in, w.at, offset, bs, width);
    else
      for (int64_t o = 0; o < bs; o++)
        if (to_depth)
          mc_row_copy(&j->io, j->out, w.at + o * w.step, 1, j->in, space_at + o, bs, width);
        else
          mc_row_copy(&j->io, j->out, space_at + o, bs, j->in, w.at + o * w.step, 1, width);
  }
}

#endif
