/* The attribute clauses SpaceToDepth-1 and DepthToSpace-1 share
   (space_depth_common.h). Clauses: spec/space_to_depth_1.md,
   spec/depth_to_space_1.md. */
#include "oracle/space_depth_common.h"

#include <string.h>

#include "common/error.h"
#include "movconf/tensor.h"

mc_status mc_oracle_space_depth_attributes(const mc_request *req, const char *const clause[4],
                                           mc_depth_mode *mode, int64_t *block, mc_error *err) {
  const mc_attrs *a = &req->attrs;
  if (req->inputs[0]->rank < 3)
    return mc_fail(err, MC_E_DATA_RANK, clause[0], "data has rank %d; at least 3 is required",
                   req->inputs[0]->rank);
  const char *mode_text = mc_attrs_string(a, MC_ATTR_MODE);
  if (!mode_text)
    return mc_fail(err, MC_E_MODE_MISSING, clause[1], "the mode attribute is required");
  if (strcmp(mode_text, "blocks_first") == 0)
    *mode = MC_BLOCKS_FIRST;
  else if (strcmp(mode_text, "depth_first") == 0)
    *mode = MC_DEPTH_FIRST;
  else
    return mc_fail(err, MC_E_MODE_INVALID, clause[2],
                   "mode \"%.64s\" is neither blocks_first nor depth_first", mode_text);
  *block = mc_attrs_int(a, MC_ATTR_BLOCK_SIZE); /* 1 when absent */
  if (*block < 1)
    return mc_fail(err, MC_E_BLOCK_SIZE_BELOW_ONE, clause[3], "block_size is %lld; it must be >= 1",
                   (long long)*block);
  return MC_OK;
}
