/* The attribute checks SpaceToDepth-1 and DepthToSpace-1 share
   (space_depth_common.h). */
#include "optimized/space_depth_common.h"

#include <string.h>

#include "common/error.h"

/* V1 to V4 of both operations; ids holds the four clause ids of the op. */
mc_status mc_opt_check_depth_space_attrs(const mc_request *req, mc_opt_plan *plan,
                                         const char *const ids[4], mc_error *err) {
  if (plan->rank < 3)
    return mc_fail(err, MC_E_DATA_RANK, ids[0], "data has rank %d; at least 3 is needed",
                   plan->rank);
  const char *mode = mc_attrs_string(&req->attrs, MC_ATTR_MODE);
  if (!mode)
    return mc_fail(err, MC_E_MODE_MISSING, ids[1], "the mode attribute is not given");
  if (strcmp(mode, "depth_first") == 0)
    plan->depth_first = true;
  else if (strcmp(mode, "blocks_first") == 0)
    plan->depth_first = false;
  else
    return mc_fail(err, MC_E_MODE_INVALID, ids[2],
                   "mode must be blocks_first or depth_first exactly");
  plan->block_size = mc_attrs_int(&req->attrs, MC_ATTR_BLOCK_SIZE); /* 1 when absent */
  if (plan->block_size < 1)
    return mc_fail(err, MC_E_BLOCK_SIZE_BELOW_ONE, ids[3], "block_size %lld is below 1",
                   (long long)plan->block_size);
  return MC_OK;
}
