/* Round trips of SpaceToDepth-1. */
#include "roundtrip_ops.h"

static bool is_identity(const mc_request *req) {
  return !mc_attrs_present(&req->attrs, MC_ATTR_BLOCK_SIZE) ||
         mc_attrs_int(&req->attrs, MC_ATTR_BLOCK_SIZE) == 1;
}

static bool inverse(const mc_request *req, mc_request *inv) {
  (void)req;
  inv->op = MC_OP_DEPTH_TO_SPACE; /* the same block size and mode */
  return true;
}

const mc_roundtrip_op mc_roundtrip_space_to_depth_1 = {is_identity, inverse};
