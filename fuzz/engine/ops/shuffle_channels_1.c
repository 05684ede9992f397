/* movconf fuzz: ShuffleChannels-1's large requests. */
#include "fuzz/engine/fuzz_ops.h"

/* A divisor of c drawn at random (1 and c included). */
static int64_t draw_divisor(mc_rng *g, int64_t c) {
  int64_t divisors[64], n = 0;
  for (int64_t d = 1; d <= c && n < 64; d++)
    if (c % d == 0)
      divisors[n++] = d;
  return divisors[mc_rng_below(g, (uint64_t)n)];
}

/* Channels first ([n, c, h, w], the tiled path when w is short) or last
   ([n, h, w, c]: inner 1), the axis counted from either end. */
static bool large(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  int64_t n = mc_fuzz_pick(g, MC_FUZZ_OUTER), c = mc_fuzz_pick(g, MC_FUZZ_CHANNELS),
          w = mc_fuzz_pick(g, MC_FUZZ_INNER);
  int64_t h = mc_fuzz_rows_for(target, n, c, w);
  bool last = mc_rng_below(g, 3) == 0, from_end = mc_rng_below(g, 2) == 0;
  int64_t axis = last ? 3 : 1;
  mc_attrs_set_int(&r->req.attrs, MC_ATTR_AXIS, from_end ? axis - 4 : axis);
  mc_attrs_set_int(&r->req.attrs, MC_ATTR_GROUP, draw_divisor(g, c));
  r->req.n_inputs = 1;
  const int64_t first[4] = {n, c, h, w}, channels_last[4] = {n, h, w, c};
  return mc_fuzz_large_data(g, r, type, last ? channels_last : first);
}

const mc_fuzz_op_desc mc_fuzz_shuffle_channels_1 = {large};
