/* movconf fuzz: DepthToSpace-1's large requests. */
#include "fuzz/fuzz_ops.h"

/* Output [n, c, h*bs, w*bs]. */
static bool large(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  int64_t bs, o[4];
  if (!mc_fuzz_large_depth(g, r, target, &bs, o))
    return false;
  const int64_t shape[4] = {o[0], o[1] * bs * bs, o[2], o[3]};
  return mc_fuzz_large_data(g, r, type, shape);
}

const mc_fuzz_op_desc mc_fuzz_depth_to_space_1 = {
    .large = large, .min_rank = 3, .moves = mc_fuzz_depth_moves};
