/* movconf gen: ShuffleChannels-1 (generators/shuffle_channels_1.json). */
#include "common/checked.h"
#include "gen/gen_build.h"

/* By rules: data [before..., group * per_group, after...]; axis, when not
   given, names the channel axis (counted from the end with negative_axis).
   Raw: data_shape, and axis and group as given. */
static bool build(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err, size_t n) {
  if (!mc_gen_int_attr(c, p, "axis", MC_ATTR_AXIS, err, n) ||
      !mc_gen_int_attr(c, p, "group", MC_ATTR_GROUP, err, n))
    return false;
  int64_t shape[MC_TENSOR_MAX_RANK];
  int rank, before, after;
  const cJSON *raw = mc_gen_param(p, "data_shape");
  if (raw)
    return mc_gen_raw_data(c, p, raw, case_seed, err, n);
  const cJSON *b = mc_gen_param(p, "before"), *a = mc_gen_param(p, "after"),
              *neg = mc_gen_param(p, "negative_axis");
  int64_t per_group;
  if ((b && !mc_gen_read_i64_list(b, "before", shape, MC_MAX_RANK - 1, &before, err, n)) ||
      !mc_gen_get_i64(p, "per_group", 1, &per_group, err, n))
    return false;
  before = b ? before : 0;
  if (a && !mc_gen_read_i64_list(a, "after", shape + before + 1, MC_MAX_RANK - 1 - before, &after,
                                 err, n))
    return false;
  after = a ? after : 0;
  rank = before + 1 + after;
  const int64_t group = mc_attrs_int(&c->req.attrs, MC_ATTR_GROUP);
  if (group < 1 || !mc_mul_i64(group, per_group, &shape[before]))
    return mc_gen_fail(err, n,
                       "group: rules need a group of at least 1 and group * per_group in int64");
  if (neg && !cJSON_IsBool(neg))
    return mc_gen_fail(err, n, "negative_axis: true or false");
  if (!mc_gen_param(p, "axis"))
    mc_attrs_set_int(&c->req.attrs, MC_ATTR_AXIS,
                     cJSON_IsTrue(neg) ? before - rank : (int64_t)before);
  return mc_gen_make_data(c, p, rank, shape, case_seed, err, n);
}

static const char *const param_names[] = {
    "type",          "fill",       "fill_start", "before", "per_group", "after",
    "negative_axis", "data_shape", "axis",       "group",  NULL};

const mc_gen_op_desc mc_gen_shuffle_channels_1 = {param_names, build};
