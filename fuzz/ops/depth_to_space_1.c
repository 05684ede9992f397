/* Round trips of DepthToSpace-1. */
#include "roundtrip_ops.h"

static bool is_identity(const mc_request *req) {
  return !mc_attrs_present(&req->attrs, MC_ATTR_BLOCK_SIZE) ||
         mc_attrs_int(&req->attrs, MC_ATTR_BLOCK_SIZE) == 1;
}

static bool inverse(const mc_request *req, mc_request *inv) {
  (void)req;
  inv->op = MC_OP_SPACE_TO_DEPTH; /* the same block size and mode */
  return true;
}

const mc_roundtrip_op mc_roundtrip_depth_to_space_1 = {is_identity, inverse};
