/* DepthToSpace-1: validation from the output formula (D2S-O1) and the
   kernel, without intermediates: each spatial row is merged from bs rows of
   the depth side (space_depth_common.h). */
#include "common/checked.h"
#include "common/error.h"
#include "optimized/kernels.h"
#include "optimized/space_depth_common.h"

/* ---- Validation: compiled once (kernels_avx2.c includes this file again,
   for the kernel alone) ---- */
#ifndef MC_KERNELS_AVX2

mc_status mc_opt_validate_depth_to_space_1(const mc_request *req, mc_opt_plan *plan,
                                           mc_error *err) {
  static const char *const ids[4] = {"D2S-V1", "D2S-V2", "D2S-V3", "D2S-V4"};
  mc_status s = mc_opt_check_depth_space_attrs(req, plan, ids, err);
  if (s != MC_OK)
    return s;
  int64_t bs = plan->block_size;
  int64_t grid;
  if (!mc_pow_i64(bs, plan->rank - 2, &grid))
    return mc_opt_overflow(err, "block_size^K");
  if (plan->in_shape[1] % grid != 0)
    return mc_fail(err, MC_E_DEPTH_NOT_DIVISIBLE, "D2S-V5",
                   "depth %lld is not a multiple of block_size^K = %lld",
                   (long long)plan->in_shape[1], (long long)grid);
  plan->out_shape[0] = plan->in_shape[0];
  plan->out_shape[1] = plan->in_shape[1] / grid;
  for (int i = 2; i < plan->rank; i++)
    if (!mc_mul_i64(plan->in_shape[i], bs, &plan->out_shape[i]))
      return mc_opt_overflow(err, "D_i * block_size");
  return MC_OK;
}

#endif /* MC_KERNELS_AVX2 */

/* ---- Kernel ---- */

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
    mc_space_row_position(&w, last, bs, j->in_stride, &offset, &spatial);
    int64_t src[MC_MAX_WAYS];
    for (int64_t o = 0; o < bs; o++) {
      int64_t channel = mc_depth_channel(p, w.idx[1], offset * bs + o, channels, volume);
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

void MC_KERNEL(mc_kernel_depth_to_space_1)(const mc_kernel_job *job) {
  const mc_opt_plan *p = job->plan;
  mc_parallel_for(job->threads, mc_kernel_rows(p->out_shape, p->rank - 1), 1, d2s_rows,
                  (void *)job);
}
