/* Slice-8 as the specification reads (spec/slice_8.md). Placeholder of the
   registration commit: the oracle helper replaces it. */
#include "common/error.h"
#include "oracle/oracle_ops.h"

mc_status mc_oracle_slice(const mc_request *req, size_t cap, mc_tensor *out, mc_error *err) {
  (void)req;
  (void)cap;
  (void)out;
  return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "Slice-8 is not implemented yet");
}
