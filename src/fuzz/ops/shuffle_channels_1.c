/* movconf fuzz: ShuffleChannels-1's large requests and shrinking moves. */
#include <string.h>

#include "fuzz/fuzz_ops.h"

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

/* ShuffleChannels without axis k: the axis attribute follows its channel
   axis (counted from the same end); false when k is the channel axis or
   the axis names none. */
static bool shuffle_axis_without(const mc_owned_request *cur, int k, int64_t *axis) {
  const int rank = cur->tensors[0].rank;
  *axis = mc_attrs_int(&cur->req.attrs, MC_ATTR_AXIS);
  if (*axis < -rank || *axis >= rank || (*axis < 0 ? *axis + rank : *axis) == k)
    return false;
  const int64_t channel = *axis < 0 ? *axis + rank : *axis;
  *axis += *axis < 0 ? (k > channel) : -(k < channel);
  return true;
}

/* ShuffleChannels: the channel axis C = group * (C / group) shrunk in one
   factor, the other kept, so that group still divides it: variant k of the
   groups (k < MC_FUZZ_VALUE_VARIANTS) or of the channels per group, toward 1. */
static bool smaller_shuffle(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *d = &cur->tensors[0];
  const int64_t axis = mc_attrs_int(&cur->req.attrs, MC_ATTR_AXIS);
  const int64_t group = mc_attrs_int(&cur->req.attrs, MC_ATTR_GROUP);
  if (axis < -d->rank || axis >= d->rank || group < 1)
    return false;
  const int a = (int)(axis < 0 ? axis + d->rank : axis);
  const int64_t per_group = d->shape[a] / group;
  if (d->shape[a] % group != 0 || per_group == 0)
    return false;
  const bool groups = k < MC_FUZZ_VALUE_VARIANTS;
  int64_t want, shape[MC_TENSOR_MAX_RANK];
  if (!mc_fuzz_shrunk_value(groups ? group : per_group, 1, k % MC_FUZZ_VALUE_VARIANTS, &want) ||
      !mc_fuzz_clone(cur, cand))
    return false;
  memcpy(shape, d->shape, sizeof shape);
  shape[a] = groups ? want * per_group : group * want;
  if (groups)
    mc_attrs_set_int(&cand->req.attrs, MC_ATTR_GROUP, want);
  return mc_fuzz_refill(cand, d->type, d->rank, shape);
}

/* Without axis k the axis attribute follows its channel axis. */
static bool drop_axis(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  int64_t axis;
  if (!shuffle_axis_without(cur, k, &axis) || !mc_fuzz_clone(cur, cand))
    return false;
  mc_attrs_set_int(&cand->req.attrs, MC_ATTR_AXIS, axis);
  return true;
}

/* A negative axis counted from the front instead: kept only when the
   failure does not need the sign (a normalisation bug keeps its -1). */
static bool axis_from_front(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const int64_t axis = mc_attrs_int(&cur->req.attrs, MC_ATTR_AXIS), rank = cur->tensors[0].rank;
  if (k > 0 || !mc_attrs_present(&cur->req.attrs, MC_ATTR_AXIS) || axis >= 0 || axis < -rank ||
      !mc_fuzz_clone(cur, cand))
    return false;
  mc_attrs_set_int(&cand->req.attrs, MC_ATTR_AXIS, axis + rank);
  return true;
}

/* axis 0 of data of rank 1 names the one axis there is, as the default 1
   names the channels of the usual layouts: neutral too, so that a failure
   of [1, C] at axis 1 and one of [C] at axis 0 are one finding (the
   shrinker takes the first to the second). -1 stays not neutral: a sign is
   where axis normalisation goes wrong. */
static bool attribute_neutral(const mc_owned_request *r, mc_attr id) {
  const mc_attrs *a = &r->req.attrs;
  if (id == MC_ATTR_AXIS && mc_attrs_present(a, id) && r->tensors[0].rank == 1 &&
      mc_attrs_int(a, id) == 0)
    return true;
  return mc_fuzz_attribute_neutral(r->req.op, a, id);
}

static const mc_fuzz_move moves[] = {
    {axis_from_front, 1}, {smaller_shuffle, 2 * MC_FUZZ_VALUE_VARIANTS}, {NULL, 0}};

const mc_fuzz_op_desc mc_fuzz_shuffle_channels_1 = {.large = large,
                                                    .min_rank = 1,
                                                    .drop_axis = drop_axis,
                                                    .moves = moves,
                                                    .attribute_neutral = attribute_neutral};
