/* Shrinking a failing request to a small readable one that fails the same
   way (like Hypothesis or QuickCheck): greedy, one simplification at a time
   - the output cap movconf run uses, index-filled data, a simpler element
   type, fewer axes, smaller dimensions, blocks, crops, pads and attributes
   toward 1 or 0 - keeping a step only when the failure keeps its cause
   (mc_fuzz_cause_kept: the same verdict, expected error and shape of the
   mismatch; rank, size class and the side inputs and attributes not
   neutral never more than before). */
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "harness/fuzz_request.h"
#include "movconf/tensor.h"

/* What a failure must keep to count as the same one: its cause key. */
typedef struct signature {
  mc_fuzz_outcome outcome;
  mc_fuzz_cause cause;
} signature;

static signature signature_of(mc_impl *impl, const mc_owned_request *r, char **detail) {
  signature s;
  mc_fuzz_judge(impl, r, detail, &s.outcome);
  mc_fuzz_cause_of(r, &s.outcome, &s.cause);
  return s;
}

/* A copy of r to change, keeping how its data was made. */
static bool clone(const mc_owned_request *r, mc_owned_request *out) {
  if (!mc_owned_request_copy(&r->req, r->max_output_bytes, out))
    return false;
  out->data_fill = r->data_fill;
  out->fill_start = r->fill_start;
  return true;
}

/* New index-filled data of this type and shape (the fill's start kept). */
static bool refill(mc_owned_request *r, mc_type type, int rank, const int64_t *shape) {
  int64_t start = r->data_fill == MC_PAYLOAD_FILL_COUNTER ? r->fill_start : 0;
  return mc_owned_request_set_data(r, type, rank, shape, start);
}

/* ---- the moves: each makes cand from cur in its variant k, or says it does
   not apply (without copying anything then: cur's data may be large) ---- */

/* Variant j of shrinking a value v toward floor: floor itself (j = 0), else
   v minus (v - floor) / 2^j, largest steps first, so that a boundary far
   from floor (a dimension just above 2^31, say) is found by bisection. */
static bool shrunk_value(int64_t v, int64_t floor_value, int j, int64_t *out) {
  if (v <= floor_value || j >= 63)
    return false;
  uint64_t span = (uint64_t)v - (uint64_t)floor_value;
  uint64_t step = j == 0 ? span : span >> j;
  if (step == 0 || (j > 0 && step == span))
    return false;
  *out = (int64_t)((uint64_t)v - step);
  return true;
}

#define VALUE_VARIANTS 63

/* The cap movconf run applies by default, so that the finding fails the
   same way when re-run without --max-output-bytes. */
static bool default_cap(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  if (k > 0 || cur->max_output_bytes == MC_DEFAULT_MAX_OUTPUT_BYTES || !clone(cur, cand))
    return false;
  cand->max_output_bytes = MC_DEFAULT_MAX_OUTPUT_BYTES;
  return true;
}

static bool data_from_zero(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  if (k > 0 || (cur->data_fill == MC_PAYLOAD_FILL_COUNTER && cur->fill_start == 0))
    return false;
  const mc_tensor *d = &cur->tensors[0];
  return clone(cur, cand) && mc_owned_request_set_data(cand, d->type, d->rank, d->shape, 0);
}

static bool simpler_type(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  static const mc_type order[] = {MC_U8, MC_I8, MC_U16, MC_F16, MC_U32, MC_F32};
  const mc_tensor *d = &cur->tensors[0];
  if (k >= (int)(sizeof order / sizeof *order))
    return false;
  for (int i = 0; i <= k; i++)
    if (d->type == order[i])
      return false; /* already as simple */
  return clone(cur, cand) && refill(cand, order[k], d->rank, d->shape);
}

/* Removes element k of a 1-D side input. */
static bool drop_side_element(mc_tensor *t, int k) {
  int64_t n = mc_tensor_elements(t);
  if (t->rank != 1 || k >= n)
    return false;
  mc_tensor smaller;
  int64_t shape[1] = {n - 1};
  if (mc_tensor_alloc(&smaller, t->type, 1, shape, (size_t)-1) != MC_OK)
    return false;
  for (int64_t i = 0, j = 0; i < n; i++)
    if (i != k)
      mc_copy_element(smaller.data, j++, t->data, i, t->type);
  mc_tensor_free(t);
  *t = smaller;
  return true;
}

static int min_rank(mc_op op) {
  if (op == MC_OP_SHUFFLE_CHANNELS)
    return 1;
  if (op == MC_OP_EXTRACT_IMAGE_PATCHES)
    return 4;
  return op == MC_OP_SPACE_TO_DEPTH || op == MC_OP_DEPTH_TO_SPACE ? 3 : 2;
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

static bool drop_axis(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *d = &cur->tensors[0];
  const bool shuffle = cur->req.op == MC_OP_SHUFFLE_CHANNELS;
  int64_t axis = 0;
  if (d->rank <= min_rank(cur->req.op) || k >= d->rank ||
      (shuffle && !shuffle_axis_without(cur, k, &axis)) || !clone(cur, cand))
    return false;
  if (shuffle)
    mc_attrs_set_int(&cand->req.attrs, MC_ATTR_AXIS, axis);
  int64_t shape[MC_TENSOR_MAX_RANK];
  int rank = 0;
  for (int a = 0; a < d->rank; a++)
    if (a != k)
      shape[rank++] = d->shape[a];
  for (int i = 1; i < cand->req.n_inputs; i++)
    if (!drop_side_element(&cand->tensors[i], k))
      return false;
  return refill(cand, d->type, rank, shape);
}

static bool batch_op(mc_op op) {
  return op == MC_OP_BATCH_TO_SPACE || op == MC_OP_SPACE_TO_BATCH;
}

/* Value i of side input `input` of a batch operation, or the neutral one. */
static int64_t side_at(const mc_owned_request *r, int input, int i) {
  int64_t v;
  return input < r->req.n_inputs && mc_side_value(&r->tensors[input], i, &v) ? v
                                                                             : (input == 1 ? 1 : 0);
}

/* BatchToSpace and SpaceToBatch: the block of axis k (> 0) made 1, its
   factor moved between that axis and the batch, so that the output keeps
   its shape (a bug that depends on the output's shape, a thread split say,
   then keeps failing without the block). */
static bool block_into_data(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *d = &cur->tensors[0];
  if (!batch_op(cur->req.op) || k < 1 || k >= d->rank || cur->req.n_inputs < 2)
    return false;
  int64_t b = side_at(cur, 1, k), shape[MC_TENSOR_MAX_RANK];
  memcpy(shape, d->shape, sizeof shape);
  if (b <= 1)
    return false;
  if (cur->req.op == MC_OP_BATCH_TO_SPACE) { /* [N, D] -> [N/b, D*b]: the output keeps its shape */
    if (shape[0] % b != 0)
      return false;
    shape[0] /= b;
    shape[k] *= b;
  } else { /* [N, D] -> [N*b, D/b], without pads on the axis */
    if (shape[k] % b != 0 || side_at(cur, 2, k) != 0 || side_at(cur, 3, k) != 0)
      return false;
    shape[0] *= b;
    shape[k] /= b;
  }
  if (!clone(cur, cand))
    return false;
  mc_store_bits(cand->tensors[1].data, cand->tensors[1].type, k, 1);
  return refill(cand, d->type, d->rank, shape);
}

/* BatchToSpace and SpaceToBatch: a crop (BatchToSpace: of a multiple of
   the axis's block) or pad made 0, the data's axis shortened or lengthened
   to match, so that the output keeps its shape. Variant k: crops or pads
   begin (k even) or end (k odd) of axis k / 2. */
static bool side_into_data(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *d = &cur->tensors[0];
  int input = 2 + k % 2, axis = k / 2;
  if (!batch_op(cur->req.op) || input >= cur->req.n_inputs || axis >= d->rank)
    return false;
  int64_t side = side_at(cur, input, axis), block = side_at(cur, 1, axis);
  int64_t shape[MC_TENSOR_MAX_RANK];
  memcpy(shape, d->shape, sizeof shape);
  if (side <= 0 || block <= 0)
    return false;
  if (cur->req.op == MC_OP_BATCH_TO_SPACE) { /* output D*B - crops */
    if (side % block != 0 || shape[axis] < side / block)
      return false;
    shape[axis] -= side / block;
  } else { /* output (D + pads) / B */
    shape[axis] += side;
  }
  if (!clone(cur, cand))
    return false;
  mc_store_bits(cand->tensors[input].data, cand->tensors[input].type, axis, 0);
  return refill(cand, d->type, d->rank, shape);
}

/* BatchToSpace and SpaceToBatch: axes k and k+1 (k + 1 not the last, both
   with block 1 and no crops or pads) merged into one: one rank less, the
   same output elements and rows. */
static bool merge_axes(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *d = &cur->tensors[0];
  if (!batch_op(cur->req.op) || k + 2 >= d->rank || d->rank <= min_rank(cur->req.op))
    return false;
  for (int a = k; a <= k + 1; a++)
    if (side_at(cur, 1, a) != 1 || side_at(cur, 2, a) != 0 || side_at(cur, 3, a) != 0)
      return false;
  int64_t shape[MC_TENSOR_MAX_RANK];
  int rank = 0;
  for (int a = 0; a < d->rank; a++)
    if (a != k + 1)
      shape[rank++] = a == k ? d->shape[k] * d->shape[k + 1] : d->shape[a];
  if (!clone(cur, cand))
    return false;
  for (int i = 1; i < cand->req.n_inputs; i++)
    if (!drop_side_element(&cand->tensors[i], k + 1))
      return false;
  return refill(cand, d->type, rank, shape);
}

/* Dimension k / VALUE_VARIANTS of the data, shrunk toward 1. */
static bool smaller_dim(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *d = &cur->tensors[0];
  int axis = k / VALUE_VARIANTS;
  int64_t want;
  if (axis >= d->rank || !shrunk_value(d->shape[axis], 1, k % VALUE_VARIANTS, &want))
    return false;
  int64_t shape[MC_TENSOR_MAX_RANK];
  memcpy(shape, d->shape, sizeof shape);
  shape[axis] = want;
  return clone(cur, cand) && refill(cand, d->type, d->rank, shape);
}

/* Element k / VALUE_VARIANTS of the side inputs counted one after another
   (block_shape, then crops or pads), shrunk toward 1 (blocks) or 0. */
static bool smaller_side_value(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  int flat = k / VALUE_VARIANTS;
  for (int i = 1; i < cur->req.n_inputs; i++) {
    const mc_tensor *t = &cur->tensors[i];
    int64_t n = mc_tensor_elements(t), v, want;
    if (flat >= n) {
      flat -= (int)n;
      continue;
    }
    if (!mc_side_value(t, flat, &v) ||
        !shrunk_value(v, i == 1 ? 1 : 0, k % VALUE_VARIANTS, &want) || !clone(cur, cand))
      return false;
    mc_store_bits(cand->tensors[i].data, t->type, flat, (uint64_t)want);
    return true;
  }
  return false;
}

/* Attribute value flat of a (each present integer, each list element, in
   the operation's attribute order): its attribute in *id and its index in
   a list in *index (-1: an integer). False when there is no such value. */
static bool attribute_value(mc_op op, const mc_attrs *a, int flat, mc_attr *id, int *index) {
  for (int i = 0; i < mc_op_attr_count(op); i++) {
    *id = mc_op_attr(op, i);
    *index = -1;
    if (mc_attr_kind_of(*id) == MC_ATTR_KIND_INT && mc_attrs_present(a, *id) && flat-- == 0)
      return true;
    if (mc_attr_kind_of(*id) == MC_ATTR_KIND_INT_LIST) {
      const mc_int_list *l = mc_attrs_list(a, *id);
      int n = l->count < 0 ? 0 : l->count > MC_MAX_ATTR_LEN ? MC_MAX_ATTR_LEN : l->count;
      if (flat < n) {
        *index = flat;
        return true;
      }
      flat -= n;
    }
  }
  return false;
}

/* String attribute k of the op made neutral: mode blocks_first, auto_pad valid. */
static bool neutral_string(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  if (k >= mc_op_attr_count(cur->req.op))
    return false;
  mc_attr id = mc_op_attr(cur->req.op, k);
  if (mc_attr_kind_of(id) != MC_ATTR_KIND_STRING)
    return false;
  const char *now = mc_attrs_string(&cur->req.attrs, id);
  const char *neutral = mc_fuzz_neutral_string(id);
  if (!now || strcmp(now, neutral) == 0 || !clone(cur, cand))
    return false;
  free(cand->strings[id]);
  cand->strings[id] = strdup(neutral);
  if (!cand->strings[id])
    return false;
  mc_owned_request_link(cand);
  return true;
}

/* Attribute value k / VALUE_VARIANTS, shrunk toward 1. */
static bool smaller_attribute(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_attrs *a = &cur->req.attrs;
  mc_attr id;
  int index;
  int64_t want;
  if (!attribute_value(cur->req.op, a, k / VALUE_VARIANTS, &id, &index))
    return false;
  int64_t now = index < 0 ? mc_attrs_int(a, id) : mc_attrs_list(a, id)->v[index];
  if (!shrunk_value(now, 1, k % VALUE_VARIANTS, &want) || !clone(cur, cand))
    return false;
  if (index < 0)
    mc_attrs_set_int(&cand->req.attrs, id, want);
  else
    mc_attrs_list_slot(&cand->req.attrs, id)->v[index] = want;
  return true;
}

/* ShuffleChannels: the channel axis C = group * (C / group) shrunk in one
   factor, the other kept, so that group still divides it: variant k of the
   groups (k < VALUE_VARIANTS) or of the channels per group, toward 1. */
static bool smaller_shuffle(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *d = &cur->tensors[0];
  const int64_t axis = mc_attrs_int(&cur->req.attrs, MC_ATTR_AXIS);
  const int64_t group = mc_attrs_int(&cur->req.attrs, MC_ATTR_GROUP);
  if (cur->req.op != MC_OP_SHUFFLE_CHANNELS || axis < -d->rank || axis >= d->rank || group < 1)
    return false;
  const int a = (int)(axis < 0 ? axis + d->rank : axis);
  const int64_t per_group = d->shape[a] / group;
  if (d->shape[a] % group != 0 || per_group == 0)
    return false;
  const bool groups = k < VALUE_VARIANTS;
  int64_t want, shape[MC_TENSOR_MAX_RANK];
  if (!shrunk_value(groups ? group : per_group, 1, k % VALUE_VARIANTS, &want) || !clone(cur, cand))
    return false;
  memcpy(shape, d->shape, sizeof shape);
  shape[a] = groups ? want * per_group : group * want;
  if (groups)
    mc_attrs_set_int(&cand->req.attrs, MC_ATTR_GROUP, want);
  return refill(cand, d->type, d->rank, shape);
}

typedef bool (*move_fn)(const mc_owned_request *cur, int k, mc_owned_request *cand);

static const struct {
  move_fn make;
  int variants;
} moves[] = {
    {default_cap, 1},
    {data_from_zero, 1},
    {simpler_type, 6},
    {drop_axis, MC_TENSOR_MAX_RANK},
    {block_into_data, MC_TENSOR_MAX_RANK},
    {side_into_data, 2 * MC_TENSOR_MAX_RANK},
    {merge_axes, MC_TENSOR_MAX_RANK},
    {smaller_shuffle, 2 * VALUE_VARIANTS},
    {smaller_dim, VALUE_VARIANTS *MC_TENSOR_MAX_RANK},
    {smaller_side_value, VALUE_VARIANTS * 3 * MC_TENSOR_MAX_RANK},
    {smaller_attribute, VALUE_VARIANTS *MC_ATTR_COUNT *MC_MAX_ATTR_LEN},
    {neutral_string, MC_ATTR_COUNT},
};

int mc_fuzz_shrink(mc_impl *impl, mc_owned_request *r, double deadline, char **detail,
                   mc_fuzz_outcome *outcome) {
  char *first = NULL;
  signature want = signature_of(impl, r, &first);
  *detail = first;
  *outcome = want.outcome;
  if (want.outcome.out_of_time || !mc_verdict_is_failure(want.outcome.verdict))
    return 0;
  int steps = 0;
  bool progress = true;
  while (progress && mc_now_seconds() < deadline) {
    progress = false;
    for (size_t m = 0; m < sizeof moves / sizeof *moves; m++) {
      for (int k = 0; k < moves[m].variants && mc_now_seconds() < deadline; k++) {
        mc_owned_request cand;
        memset(&cand, 0, sizeof cand);
        char *why = NULL;
        bool same = false;
        if (moves[m].make(r, k, &cand)) {
          signature got = signature_of(impl, &cand, &why);
          same = !got.outcome.out_of_time && mc_fuzz_cause_kept(&want.cause, &got.cause);
          if (same) {
            *outcome = got.outcome;
            want = got;
          }
        }
        if (same) {
          mc_owned_request_free(r);
          *r = cand;
          mc_owned_request_link(r);
          free(*detail);
          *detail = why;
          steps++;
          progress = true;
        } else {
          mc_owned_request_free(&cand);
          free(why);
        }
      }
    }
  }
  return steps;
}
