/* movconf gen: the rules and raw style shared by BatchToSpace-2 and
   SpaceToBatch-2 (generators/README.md); each operation's file
   (src/gen/ops/) gives its side inputs, margin policy and batch rule. */
#include <string.h>

#include "common/checked.h"
#include "gen/gen_build.h"

/* The block of each spatial axis: one integer for all, a list, or "dim"
   (the axis' own size, at least 1). */
static bool rule_blocks(const mc_gen_params *p, const int64_t *spatial, int k, int64_t *block,
                        char *err, size_t n) {
  const cJSON *v = mc_gen_param(p, "block");
  if (!v) {
    for (int i = 0; i < k; i++)
      block[i] = 1;
    return true;
  }
  if (cJSON_IsString(v) && strcmp(v->valuestring, "dim") == 0) {
    for (int i = 0; i < k; i++)
      block[i] = spatial[i] > 0 ? spatial[i] : 1;
    return true;
  }
  if (cJSON_IsArray(v)) {
    int count;
    if (!mc_gen_read_i64_list(v, "block", block, MC_MAX_RANK, &count, err, n))
      return false;
    if (count != k)
      return mc_gen_fail(err, n, "block: %d values for %d spatial axes", count, k);
    return true;
  }
  int64_t b;
  if (!mc_gen_read_i64(v, "block", &b, err, n))
    return false;
  for (int i = 0; i < k; i++)
    block[i] = b;
  return true;
}

/* The margin policy of spatial axis i: one string for all, or a list. */
static bool policy_of(const mc_gen_params *p, const char *name, int axis, int k, const char **out,
                      char *err, size_t n) {
  const cJSON *v = mc_gen_param(p, name);
  if (!v) {
    *out = "zero";
    return true;
  }
  if (cJSON_IsArray(v)) {
    if (cJSON_GetArraySize(v) != k)
      return mc_gen_fail(err, n, "%s: %d policies for %d spatial axes", name, cJSON_GetArraySize(v),
                         k);
    v = cJSON_GetArrayItem(v, axis);
  }
  if (!cJSON_IsString(v))
    return mc_gen_fail(err, n, "%s: a policy name or a list of them", name);
  *out = v->valuestring;
  return true;
}

/* The raw style: data_shape and the three side inputs as given, with
   side_shapes replacing their 1-D shapes. */
static bool batch_raw(mc_gen_case *c, const mc_gen_params *p, const char *const names[3],
                      uint64_t case_seed, char *err, size_t n) {
  int64_t shape[MC_TENSOR_MAX_RANK];
  int rank;
  if (!mc_gen_read_i64_list(mc_gen_param(p, "data_shape"), "data_shape", shape, MC_TENSOR_MAX_RANK,
                            &rank, err, n) ||
      !mc_gen_make_data(c, p, rank, shape, case_seed, err, n))
    return false;
  mc_type types[3];
  if (!mc_gen_side_types(p, types, 3, err, n))
    return false;
  const cJSON *shapes = mc_gen_param(p, "side_shapes");
  if (shapes && (!cJSON_IsArray(shapes) || cJSON_GetArraySize(shapes) != 3))
    return mc_gen_fail(err, n, "side_shapes: an array of three shapes");
  for (int s = 0; s < 3; s++) {
    mc_int values[MC_GEN_MAX_SIDE];
    int count = 0;
    const cJSON *v = mc_gen_param(p, names[s]);
    if (!v)
      return mc_gen_fail(err, n, "%s: missing (data_shape given, so every input is given)",
                         names[s]);
    if (!mc_gen_read_list(v, names[s], values, MC_GEN_MAX_SIDE, &count, err, n))
      return false;
    int64_t side_shape[MC_TENSOR_MAX_RANK] = {count};
    int side_rank = 1;
    if (shapes && !mc_gen_read_i64_list(cJSON_GetArrayItem(shapes, s), "side_shapes", side_shape,
                                        MC_TENSOR_MAX_RANK, &side_rank, err, n))
      return false;
    if (!mc_gen_side_tensor(&c->tensors[1 + s], types[s], side_rank, side_shape, values, count,
                            names[s], err, n))
      return false;
  }
  return true;
}

/* By rules: spatial (D_1..D_{N-1}), block, the batch parameter and a
   margin policy per axis. */
static bool batch_by_rules(mc_gen_case *c, const mc_gen_params *p, const mc_gen_batch_rules *r,
                           uint64_t case_seed, char *err, size_t n) {
  int64_t spatial[MC_MAX_RANK], block[MC_MAX_RANK + 1] = {1}, begin[MC_MAX_RANK + 1] = {0},
                                                    end[MC_MAX_RANK + 1] = {0};
  int k;
  int64_t shape[MC_MAX_RANK] = {0};
  const cJSON *sp = mc_gen_param(p, "spatial");
  if (!sp)
    return mc_gen_fail(err, n, "spatial: missing (or give data_shape and the side inputs)");
  if (!mc_gen_read_i64_list(sp, "spatial", spatial, MC_MAX_RANK - 1, &k, err, n) ||
      !rule_blocks(p, spatial, k, block + 1, err, n) ||
      !mc_gen_get_i64(p, r->batch_param, 1, &shape[0], err, n))
    return false;
  const bool times_blocks = r->times_blocks;
  for (int i = 0; i < k; i++) {
    const char *policy = NULL;
    if (times_blocks && !mc_mul_i64(shape[0], block[1 + i], &shape[0]))
      return mc_gen_fail(err, n, "block: the batch overflows int64");
    if (!policy_of(p, r->margins, i, k, &policy, err, n) ||
        !r->margin(policy, spatial[i], block[1 + i],
                   mc_splitmix64(case_seed ^ r->salt, (uint64_t)i), &begin[1 + i], &end[1 + i], err,
                   n))
      return false;
    shape[1 + i] = spatial[i];
  }
  mc_type types[3];
  return mc_gen_make_data(c, p, k + 1, shape, case_seed, err, n) &&
         mc_gen_side_types(p, types, 3, err, n) &&
         mc_gen_side_vector(&c->tensors[1], types[0], block, k + 1, r->names[0], err, n) &&
         mc_gen_side_vector(&c->tensors[2], types[1], begin, k + 1, r->names[1], err, n) &&
         mc_gen_side_vector(&c->tensors[3], types[2], end, k + 1, r->names[2], err, n);
}

bool mc_gen_batch_build(mc_gen_case *c, const mc_gen_params *p, const mc_gen_batch_rules *r,
                        uint64_t case_seed, char *err, size_t n) {
  return mc_gen_param(p, "data_shape") ? batch_raw(c, p, r->names, case_seed, err, n)
                                       : batch_by_rules(c, p, r, case_seed, err, n);
}
