/* movconf fuzz: SpaceToDepth-1's large requests. */
#include "fuzz/fuzz_ops.h"

/* Output [n, c*bs^2, h, w]. */
static bool large(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  int64_t bs, o[4];
  if (!mc_fuzz_large_depth(g, r, target, &bs, o))
    return false;
  const int64_t shape[4] = {o[0], o[1], o[2] * bs, o[3] * bs};
  return mc_fuzz_large_data(g, r, type, shape);
}

const mc_fuzz_op_desc mc_fuzz_space_to_depth_1 = {
    .large = large, .min_rank = 3, .moves = mc_fuzz_depth_moves};
