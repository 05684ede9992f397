/* SpaceToDepth-1: validation from the output formula (S2D-O1) and the
   kernel, without intermediates: each spatial row is split into bs rows of
   the depth side (space_depth_common.h). */
#include "common/checked.h"
#include "common/error.h"
#include "optimized/kernels.h"
#include "optimized/space_depth_common.h"

/* ---- Validation: compiled once (kernels_avx2.c includes this file again,
   for the kernel alone) ---- */
#ifndef MC_KERNELS_AVX2

mc_status mc_opt_validate_space_to_depth_1(const mc_request *req, mc_opt_plan *plan,
                                           mc_error *err) {
  static const char *const ids[4] = {"S2D-V1", "S2D-V2", "S2D-V3", "S2D-V4"};
  mc_status s = mc_opt_check_depth_space_attrs(req, plan, ids, err);
  if (s != MC_OK)
    return s;
  int64_t bs = plan->block_size;
  for (int i = 2; i < plan->rank; i++) {
    if (plan->in_shape[i] % bs != 0)
      return mc_fail(err, MC_E_SPATIAL_NOT_DIVISIBLE, "S2D-V5",
                     "spatial axis %d of length %lld is not a multiple of block_size %lld", i,
                     (long long)plan->in_shape[i], (long long)bs);
    plan->out_shape[i] = plan->in_shape[i] / bs;
  }
  int64_t grid, depth;
  if (!mc_pow_i64(bs, plan->rank - 2, &grid))
    return mc_opt_overflow(err, "block_size^K");
  if (!mc_mul_i64(plan->in_shape[1], grid, &depth))
    return mc_opt_overflow(err, "C * block_size^K");
  plan->out_shape[0] = plan->in_shape[0];
  plan->out_shape[1] = depth;
  return MC_OK;
}

#endif /* MC_KERNELS_AVX2 */

/* ---- Kernel ---- */

/* Driven by input rows (n, c, x_1..x_{K-1}) along x_K: element x_K goes to
   output row (n, channel(o_1..o_K, c), x_1/bs..x_{K-1}/bs) at x_K / bs. */
static void s2d_rows(void *ctx, int64_t begin, int64_t end) {
  mc_space_depth_rows(ctx, begin, end, true);
}

void MC_KERNEL(mc_kernel_space_to_depth_1)(const mc_kernel_job *job) {
  const mc_opt_plan *p = job->plan;
  mc_parallel_for(job->threads, mc_kernel_rows(p->in_shape, p->rank - 1), 1, s2d_rows, (void *)job);
}
