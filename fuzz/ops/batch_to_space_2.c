/* Round trips of BatchToSpace-2. */
#include "roundtrip_ops.h"

/* All-ones block, zero crops. */
static bool is_identity(const mc_request *req) {
  return mc_roundtrip_side_all(req->inputs[1], 1) && mc_roundtrip_side_all(req->inputs[2], 0) &&
         mc_roundtrip_side_all(req->inputs[3], 0);
}

/* With crops the data they cut is gone: only zero crops invert. */
static bool inverse(const mc_request *req, mc_request *inv) {
  if (!mc_roundtrip_side_all(req->inputs[2], 0) || !mc_roundtrip_side_all(req->inputs[3], 0))
    return false;
  inv->op = MC_OP_SPACE_TO_BATCH;
  return true;
}

const mc_roundtrip_op mc_roundtrip_batch_to_space_2 = {is_identity, inverse};
