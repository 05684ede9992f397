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
  mc_space_depth_rows(ctx, begin, end, false);
}

void MC_KERNEL(mc_kernel_depth_to_space_1)(const mc_kernel_job *job) {
  const mc_opt_plan *p = job->plan;
  mc_parallel_for(job->threads, mc_kernel_rows(p->out_shape, p->rank - 1), 1, d2s_rows,
                  (void *)job);
}
