/* movconf gen: BatchToSpace-2, crops by policy and batch = sub_batch *
   prod(block) (generators/batch_to_space_2.json). */
#include <string.h>

#include "common/checked.h"
#include "gen/gen_build.h"

/* Crops of one axis of size d and block b, on the stretched size s = d * b
   (B2S-V10: begin + end <= s). */
static bool crop_policy(const char *policy, int64_t d, int64_t b, uint64_t random, int64_t *begin,
                        int64_t *end, char *err, size_t n) {
  int64_t s;
  if (!mc_mul_i64(d, b, &s))
    return mc_gen_fail(err, n, "block: D * B overflows int64");
  int64_t one = s > 0 ? 1 : 0;
  *begin = *end = 0;
  if (strcmp(policy, "zero") == 0) {
  } else if (strcmp(policy, "begin") == 0) {
    *begin = one;
  } else if (strcmp(policy, "end") == 0) {
    *end = one;
  } else if (strcmp(policy, "mid") == 0) {
    *begin = s / 4;
    *end = s / 4;
  } else if (strcmp(policy, "max_begin") == 0) {
    *begin = s;
  } else if (strcmp(policy, "max_end") == 0) {
    *end = s;
  } else if (strcmp(policy, "max") == 0) {
    *begin = s / 2;
    *end = s - s / 2;
  } else if (strcmp(policy, "random") == 0) {
    *begin = (int64_t)(random % ((uint64_t)s + 1));
    *end = (int64_t)((random >> 32) % ((uint64_t)(s - *begin) + 1));
  } else {
    return mc_gen_fail(
        err, n, "crops: '%s' is not zero, begin, end, mid, max_begin, max_end, max or random",
        policy);
  }
  return true;
}

static const mc_gen_batch_rules rules = {
    {"block_shape", "crops_begin", "crops_end"}, "crops", "sub_batch", crop_policy, 0xC0, true};

static bool build(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err, size_t n) {
  return mc_gen_batch_build(c, p, &rules, case_seed, err, n);
}

static const char *const param_names[] = {
    "type",  "side_type",  "fill",        "fill_start",  "spatial",   "block",       "sub_batch",
    "crops", "data_shape", "block_shape", "crops_begin", "crops_end", "side_shapes", NULL};

const mc_gen_op_desc mc_gen_batch_to_space_2 = {param_names, build};
