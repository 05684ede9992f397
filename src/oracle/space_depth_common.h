/* What the oracles of SpaceToDepth-1 and DepthToSpace-1 (inverse
   operations) share: the mode attribute and the attribute clauses V1 to V4,
   under each operation's own clause ids. */
#ifndef MOVCONF_ORACLE_SPACE_DEPTH_COMMON_H
#define MOVCONF_ORACLE_SPACE_DEPTH_COMMON_H

#include "oracle/oracle_ops.h"

/* The mode attribute of SpaceToDepth/DepthToSpace after V2/V3. */
typedef enum mc_depth_mode { MC_BLOCKS_FIRST, MC_DEPTH_FIRST } mc_depth_mode;

/* V1-V4 of either operation (clause: its four ids); yields mode and block size. */
mc_status mc_oracle_space_depth_attributes(const mc_request *req, const char *const clause[4],
                                           mc_depth_mode *mode, int64_t *block, mc_error *err);

#endif
