/* movconf gen: DepthToSpace-1 (generators/depth_to_space_1.json). */
#include "gen/gen_build.h"

/* DepthToSpace-1 by rules: channels are the output's channels. */
static bool build(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err, size_t n) {
  int64_t bs;
  return mc_gen_depth_attrs(c, p, &bs, err, n) &&
         mc_gen_depth_data(c, p, "spatial", 1, bs, true, case_seed, err, n);
}

static const char *const param_names[] = {"type",       "fill",    "fill_start", "batch",
                                          "channels",   "spatial", "block_size", "mode",
                                          "data_shape", NULL};

const mc_gen_op_desc mc_gen_depth_to_space_1 = {param_names, build};
