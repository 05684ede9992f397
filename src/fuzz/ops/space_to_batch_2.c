/* movconf fuzz: SpaceToBatch-2's large requests and shrinking moves. */
#include "fuzz/fuzz_ops.h"

/* Pads make h and w multiples of the block. */
static void pads(mc_rng *g, const int64_t block[4], const int64_t base[4], int64_t begin[4],
                 int64_t end[4], int64_t shape[4]) {
  const int64_t bh = block[2], bw = block[3], h = base[2], w = base[3];
  begin[2] = (int64_t)mc_rng_below(g, (uint64_t)bh);
  end[2] = (bh - (h * bh + begin[2]) % bh) % bh;
  begin[3] = (int64_t)mc_rng_below(g, (uint64_t)bw);
  int64_t wide = w * bw - begin[3];
  end[3] = (bw - (wide + begin[3]) % bw) % bw;
  shape[0] = base[0], shape[1] = base[1], shape[2] = h * bh, shape[3] = wide;
}

static bool large(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  return mc_fuzz_large_batch(g, r, type, target, pads);
}

/* [N, D] -> [N*b, D/b], without pads on the axis. */
static bool block_into(const mc_owned_request *cur, int k, int64_t b, int64_t *shape) {
  if (shape[k] % b != 0 || mc_fuzz_side_at(cur, 2, k) != 0 || mc_fuzz_side_at(cur, 3, k) != 0)
    return false;
  shape[0] *= b;
  shape[k] /= b;
  return true;
}

/* Output (D + pads) / B. */
static bool side_into(int64_t side, int64_t block, int64_t *extent) {
  (void)block;
  *extent += side;
  return true;
}

static const mc_fuzz_batch_shape shape = {block_into, side_into};

const mc_fuzz_op_desc mc_fuzz_space_to_batch_2 = {.large = large,
                                                  .min_rank = 2,
                                                  .moves = mc_fuzz_batch_moves,
                                                  .family = &shape,
                                                  .side_neutral = mc_fuzz_batch_side_neutral};
