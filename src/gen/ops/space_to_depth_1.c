/* movconf gen: SpaceToDepth-1 (generators/space_to_depth_1.json). */
#include "gen/gen_build.h"

/* SpaceToDepth-1 by rules: blocks are the output's spatial sizes. */
static bool build(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err, size_t n) {
  int64_t bs;
  return mc_gen_depth_attrs(c, p, &bs, err, n) &&
         mc_gen_depth_data(c, p, "blocks", bs, bs, false, case_seed, err, n);
}

static const char *const param_names[] = {"type",       "fill",   "fill_start", "batch",
                                          "channels",   "blocks", "block_size", "mode",
                                          "data_shape", NULL};

const mc_gen_op_desc mc_gen_space_to_depth_1 = {param_names, build};
