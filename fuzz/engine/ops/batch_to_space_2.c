/* movconf fuzz: BatchToSpace-2's large requests. */
#include "fuzz/engine/fuzz_ops.h"

/* Output [n, c, h*bh - crops, w*bw - crops]: crops stay within w*bw. */
static void crops(mc_rng *g, const int64_t block[4], const int64_t base[4], int64_t begin[4],
                  int64_t end[4], int64_t shape[4]) {
  begin[2] = (int64_t)mc_rng_below(g, (uint64_t)block[2]);
  begin[3] = (int64_t)mc_rng_below(g, (uint64_t)block[3]);
  end[3] = base[3] > 1 ? (int64_t)mc_rng_below(g, (uint64_t)block[3]) : 0;
  shape[0] = base[0] * block[2] * block[3];
  shape[1] = base[1], shape[2] = base[2], shape[3] = base[3];
}

static bool large(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  return mc_fuzz_large_batch(g, r, type, target, crops);
}

const mc_fuzz_op_desc mc_fuzz_batch_to_space_2 = {large};
