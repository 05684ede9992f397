/* Slice-8 without intermediates (spec/slice_8.md). Placeholder of the
   registration commit: the kernel helper replaces it. Compiled twice like
   the other kernels (kernels_avx2.c includes this file). */
#include "optimized/kernels.h"

#ifndef MC_KERNELS_AVX2
#include "common/error.h"

mc_status mc_opt_validate_slice(const mc_request *req, mc_opt_plan *plan, mc_error *err) {
  (void)req;
  (void)plan;
  return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "Slice-8 is not implemented yet");
}
#endif

void MC_KERNEL(mc_kernel_slice)(const mc_kernel_job *job) {
  (void)job;
}
