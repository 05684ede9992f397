/* movconf fuzz: BatchToSpace-2's large requests and shrinking moves. */
#include "fuzz/fuzz_ops.h"

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

/* [N, D] -> [N/b, D*b]: the output keeps its shape. */
static bool block_into(const mc_owned_request *cur, int k, int64_t b, int64_t *shape) {
  (void)cur;
  if (shape[0] % b != 0)
    return false;
  shape[0] /= b;
  shape[k] *= b;
  return true;
}

/* Output D*B - crops: a crop of a multiple of the block. */
static bool side_into(int64_t side, int64_t block, int64_t *extent) {
  if (side % block != 0 || *extent < side / block)
    return false;
  *extent -= side / block;
  return true;
}

static const mc_fuzz_batch_shape shape = {block_into, side_into};

const mc_fuzz_op_desc mc_fuzz_batch_to_space_2 = {.large = large,
                                                  .min_rank = 2,
                                                  .moves = mc_fuzz_batch_moves,
                                                  .family = &shape,
                                                  .side_neutral = mc_fuzz_batch_side_neutral};
