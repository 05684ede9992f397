/* movconf gen: SpaceToBatch-2: pads by policy (generators/space_to_batch_2.json). */
#include <string.h>

#include "gen/gen_build.h"

/* Pads of one axis of size d and block b (S2B-V9: d + begin + end divisible
   by b); r pads d up to the next multiple of b. */
static bool pad_policy(const char *policy, int64_t d, int64_t b, uint64_t random, int64_t *begin,
                       int64_t *end, char *err, size_t n) {
  if (b < 1 || b > INT32_MAX || d > INT32_MAX)
    return mc_gen_fail(err, n,
                       "block and spatial: rules take blocks in 1..2^31-1 and sizes below 2^31");
  int64_t r = (b - d % b) % b;
  *begin = *end = 0;
  if (strcmp(policy, "zero") == 0) {
    if (r)
      return mc_gen_fail(err, n, "pads: zero pads, but %lld is not divisible by %lld", (long long)d,
                         (long long)b);
  } else if (strcmp(policy, "minimal") == 0) {
    *end = r;
  } else if (strcmp(policy, "begin") == 0) {
    *begin = r;
  } else if (strcmp(policy, "split") == 0) {
    *begin = r / 2;
    *end = r - r / 2;
  } else if (strcmp(policy, "extra") == 0) {
    *begin = r + b;
    *end = b;
  } else if (strcmp(policy, "wide") == 0) {
    *begin = 2 * b + r;
    *end = 3 * b;
  } else if (strcmp(policy, "random") == 0) {
    int64_t total = r + b * (int64_t)(random % 3);
    *begin = (int64_t)((random >> 8) % ((uint64_t)total + 1));
    *end = total - *begin;
  } else {
    return mc_gen_fail(
        err, n, "pads: '%s' is not zero, minimal, begin, split, extra, wide or random", policy);
  }
  return true;
}

static const mc_gen_batch_rules rules = {
    {"block_shape", "pads_begin", "pads_end"}, "pads", "batch", pad_policy, 0xAD, false};

static bool build(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err, size_t n) {
  return mc_gen_batch_build(c, p, &rules, case_seed, err, n);
}

static const char *const param_names[] = {
    "type", "side_type",  "fill",        "fill_start", "spatial",  "block",       "batch",
    "pads", "data_shape", "block_shape", "pads_begin", "pads_end", "side_shapes", NULL};

const mc_gen_op_desc mc_gen_space_to_batch_2 = {param_names, build};
