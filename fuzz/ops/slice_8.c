/* Round trips of Slice-8. Placeholder of the registration commit: the fuzz
   helper replaces it. */
#include "roundtrip_ops.h"

static bool is_identity(const mc_request *req) {
  (void)req;
  return false;
}

const mc_roundtrip_op mc_roundtrip_slice_8 = {is_identity, NULL};
