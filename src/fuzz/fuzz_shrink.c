/* Shrinking a failing request to a small readable one that fails the same
   way (like Hypothesis or QuickCheck): greedy, one simplification at a time
   - the output cap movconf run uses or else a smaller one, index-filled data, a simpler element
   type, fewer axes, smaller dimensions, blocks, crops, pads and attributes
   toward 1 or 0 - keeping a step only when the failure keeps its cause
   (mc_fuzz_cause_kept: the same verdict, expected error and shape of the
   mismatch; rank, size class and the side inputs and attributes not
   neutral never more than before). */
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "fuzz/fuzz_ops.h"
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
bool mc_fuzz_clone(const mc_owned_request *r, mc_owned_request *out) {
  if (!mc_owned_request_copy(&r->req, r->max_output_bytes, out))
    return false;
  out->data_fill = r->data_fill;
  out->fill_start = r->fill_start;
  return true;
}

/* New index-filled data of this type and shape (the fill's start kept). */
bool mc_fuzz_refill(mc_owned_request *r, mc_type type, int rank, const int64_t *shape) {
  int64_t start = r->data_fill == MC_PAYLOAD_FILL_COUNTER ? r->fill_start : 0;
  return mc_owned_request_set_data(r, type, rank, shape, start);
}

/* ---- the moves: each makes cand from cur in its variant k, or says it does
   not apply (without copying anything then: cur's data may be large) ---- */

/* Variant j of shrinking a value v toward floor: floor itself (j = 0), else
   v minus (v - floor) / 2^j, largest steps first, so that a boundary far
   from floor (a dimension just above 2^31, say) is found by bisection. */
bool mc_fuzz_shrunk_value(int64_t v, int64_t floor_value, int j, int64_t *out) {
  if (v <= floor_value || j >= 63)
    return false;
  uint64_t span = (uint64_t)v - (uint64_t)floor_value;
  uint64_t step = j == 0 ? span : span >> j;
  if (step == 0 || (j > 0 && step == span))
    return false;
  *out = (int64_t)((uint64_t)v - step);
  return true;
}

/* The cap movconf run applies by default, so that the finding fails the
   same way when re-run without --max-output-bytes. */
static bool default_cap(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  if (k > 0 || cur->max_output_bytes == MC_DEFAULT_MAX_OUTPUT_BYTES || !mc_fuzz_clone(cur, cand))
    return false;
  cand->max_output_bytes = MC_DEFAULT_MAX_OUTPUT_BYTES;
  return true;
}

/* A cap of its own, variant k of shrinking it toward 0 bytes: a failure
   that needs the output above the cap (a missing MC-L4 check) keeps it
   while the output shrinks too, where the cap the campaign drew would let
   the smaller output fit and fail otherwise (issue 39). */
static bool smaller_cap(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  int64_t want;
  if (cur->max_output_bytes == MC_DEFAULT_MAX_OUTPUT_BYTES ||
      !mc_fuzz_shrunk_value((int64_t)cur->max_output_bytes, 0, k, &want) ||
      !mc_fuzz_clone(cur, cand))
    return false;
  cand->max_output_bytes = (size_t)want;
  return true;
}

static bool data_from_zero(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  if (k > 0 || (cur->data_fill == MC_PAYLOAD_FILL_COUNTER && cur->fill_start == 0))
    return false;
  const mc_tensor *d = &cur->tensors[0];
  return mc_fuzz_clone(cur, cand) && mc_owned_request_set_data(cand, d->type, d->rank, d->shape, 0);
}

static bool simpler_type(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  static const mc_type order[] = {MC_U8, MC_I8, MC_U16, MC_F16, MC_U32, MC_F32};
  const mc_tensor *d = &cur->tensors[0];
  if (k >= (int)(sizeof order / sizeof *order))
    return false;
  for (int i = 0; i <= k; i++)
    if (d->type == order[i])
      return false; /* already as simple */
  return mc_fuzz_clone(cur, cand) && mc_fuzz_refill(cand, order[k], d->rank, d->shape);
}

/* t's values as type, or false when one does not fit in it. */
static bool side_as(const mc_tensor *t, mc_type type, mc_tensor *out) {
  if (mc_tensor_alloc(out, type, t->rank, t->shape, (size_t)-1) != MC_OK)
    return false;
  for (int64_t i = 0; i < mc_tensor_elements(t); i++) {
    int64_t v, back;
    bool fits = mc_side_value(t, i, &v);
    if (fits)
      mc_store_bits(out->data, type, i, (uint64_t)v);
    if (!fits || !mc_side_value(out, i, &back) || back != v) {
      mc_tensor_free(out);
      return false;
    }
  }
  return true;
}

/* Every side input in one type, its values kept: i64 (k = 0), i32 (k =
   1), else the type of side input k - 1, so that a failure of mixed side
   types that is not about the mix becomes one of a single type, and one of
   any narrow type one of i32 (a key's -sides-<type>, issue 39). */
static bool sides_one_type(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  if (cur->req.n_inputs < 2 || k > cur->req.n_inputs)
    return false;
  const mc_type type = k == 0 ? MC_I64 : k == 1 ? MC_I32 : cur->tensors[k - 1].type;
  if (mc_fuzz_side_types(cur) == (type == MC_I64 ? MC_FUZZ_SIDES_I64 : (int)type) ||
      !mc_fuzz_clone(cur, cand))
    return false;
  for (int i = 1; i < cur->req.n_inputs; i++) {
    mc_tensor t;
    if (!side_as(&cur->tensors[i], type, &t)) {
      mc_owned_request_free(cand);
      return false;
    }
    mc_tensor_free(&cand->tensors[i]);
    cand->tensors[i] = t;
  }
  mc_owned_request_link(cand);
  return true;
}

/* Removes element k of a 1-D side input. */
bool mc_fuzz_drop_side_element(mc_tensor *t, int k) {
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

bool mc_fuzz_store_side(mc_owned_request *r, int input, int64_t i, int64_t v) {
  mc_tensor *t = &r->tensors[input];
  int64_t back;
  mc_store_bits(t->data, t->type, i, (uint64_t)v);
  return mc_side_value(t, i, &back) && back == v;
}

/* INT64_MIN's magnitude is taken as INT64_MAX, so that it shrinks too. */
bool mc_fuzz_side_toward_unit(const mc_owned_request *cur, int input, int k,
                              mc_owned_request *cand) {
  const int entry = k / MC_FUZZ_VALUE_VARIANTS;
  int64_t s, want;
  if (input >= cur->req.n_inputs || !mc_side_value(&cur->tensors[input], entry, &s) ||
      !mc_fuzz_shrunk_value(s == INT64_MIN ? INT64_MAX
                            : s < 0        ? -s
                                           : s,
                            1, k % MC_FUZZ_VALUE_VARIANTS, &want) ||
      !mc_fuzz_clone(cur, cand))
    return false;
  mc_store_bits(cand->tensors[input].data, cand->tensors[input].type, entry,
                (uint64_t)(s < 0 ? -want : want));
  return true;
}

int mc_fuzz_shape_without(const mc_tensor *t, int k, int64_t shape[MC_TENSOR_MAX_RANK]) {
  int rank = 0;
  for (int a = 0; a < t->rank; a++)
    if (a != k)
      shape[rank++] = t->shape[a];
  return rank;
}

static bool drop_axis(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *d = &cur->tensors[0];
  const mc_fuzz_op_desc *op = mc_fuzz_op_of(cur->req.op);
  if (!op || d->rank <= op->min_rank || k >= d->rank ||
      (op->drop_axis ? !op->drop_axis(cur, k, cand) : !mc_fuzz_clone(cur, cand)))
    return false;
  int64_t shape[MC_TENSOR_MAX_RANK];
  const int rank = mc_fuzz_shape_without(d, k, shape);
  /* A scalar of the data's type (Pad-12's pad_value) names no axis. */
  for (int i = 1; !op->drop_axis && i < cand->req.n_inputs; i++)
    if (!mc_op_input_is_data_scalar(cur->req.op, i) &&
        !mc_fuzz_drop_side_element(&cand->tensors[i], k))
      return false;
  return mc_fuzz_refill(cand, d->type, rank, shape);
}

/* Dimension k / MC_FUZZ_VALUE_VARIANTS of the data, shrunk toward 1. */
static bool smaller_dim(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *d = &cur->tensors[0];
  int axis = k / MC_FUZZ_VALUE_VARIANTS;
  int64_t want;
  if (axis >= d->rank ||
      !mc_fuzz_shrunk_value(d->shape[axis], 1, k % MC_FUZZ_VALUE_VARIANTS, &want))
    return false;
  int64_t shape[MC_TENSOR_MAX_RANK];
  memcpy(shape, d->shape, sizeof shape);
  shape[axis] = want;
  return mc_fuzz_clone(cur, cand) && mc_fuzz_refill(cand, d->type, d->rank, shape);
}

/* Variant j of shrinking v toward target from above, or a negative v
   toward 0 in magnitude (Slice's start -2^63 + 1 comes down to the -2 that
   keeps a failure, issue 39); never to a magnitude as large (-1 to 1
   would only go round with the moves that write -1). */
static bool shrunk_magnitude(int64_t v, int64_t target, int j, int64_t *out) {
  if (v >= 0)
    return mc_fuzz_shrunk_value(v, target, j, out);
  if (j >= 63)
    return false;
  uint64_t span = 0 - (uint64_t)v; /* |v|, INT64_MIN's too */
  uint64_t step = j == 0 ? span : span >> j;
  if (step == 0 || (j > 0 && step == span))
    return false;
  *out = (int64_t)((uint64_t)v + step);
  return true;
}

/* Element k / MC_FUZZ_VALUE_VARIANTS of the side inputs counted one after another
   (block_shape, then crops or pads), shrunk toward 1 (blocks) or 0, a
   negative one toward 0. */
static bool smaller_side_value(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  int flat = k / MC_FUZZ_VALUE_VARIANTS;
  for (int i = 1; i < cur->req.n_inputs; i++) {
    const mc_tensor *t = &cur->tensors[i];
    int64_t n = mc_tensor_elements(t), v, want;
    if (flat >= n) {
      flat -= (int)n;
      continue;
    }
    if (!mc_side_value(t, flat, &v) ||
        !shrunk_magnitude(v, i == 1 ? 1 : 0, k % MC_FUZZ_VALUE_VARIANTS, &want) ||
        !mc_fuzz_clone(cur, cand))
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
  const char *neutral = mc_fuzz_neutral_string(cur->req.op, id);
  if (!now || strcmp(now, neutral) == 0 || !mc_fuzz_clone(cur, cand))
    return false;
  free(cand->strings[id]);
  cand->strings[id] = strdup(neutral);
  if (!cand->strings[id])
    return false;
  mc_owned_request_link(cand);
  return true;
}

/* Attribute value k / MC_FUZZ_VALUE_VARIANTS, shrunk toward 1. */
static bool smaller_attribute(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_attrs *a = &cur->req.attrs;
  mc_attr id;
  int index;
  int64_t want;
  if (!attribute_value(cur->req.op, a, k / MC_FUZZ_VALUE_VARIANTS, &id, &index))
    return false;
  int64_t now = index < 0 ? mc_attrs_int(a, id) : mc_attrs_list(a, id)->v[index];
  if (!mc_fuzz_shrunk_value(now, 1, k % MC_FUZZ_VALUE_VARIANTS, &want) || !mc_fuzz_clone(cur, cand))
    return false;
  if (index < 0)
    mc_attrs_set_int(&cand->req.attrs, id, want);
  else
    mc_attrs_list_slot(&cand->req.attrs, id)->v[index] = want;
  return true;
}

/* The generic moves, in order: the operation's own (mc_fuzz_op_desc)
   run between the first four and the rest. */
static const mc_fuzz_move first_moves[] = {
    {default_cap, 1},    {smaller_cap, MC_FUZZ_VALUE_VARIANTS},
    {data_from_zero, 1}, {sides_one_type, MC_MAX_INPUTS + 1},
    {simpler_type, 6},   {drop_axis, MC_TENSOR_MAX_RANK},
};
static const mc_fuzz_move last_moves[] = {
    {smaller_dim, MC_FUZZ_VALUE_VARIANTS *MC_TENSOR_MAX_RANK},
    {smaller_side_value, MC_FUZZ_VALUE_VARIANTS * 3 * MC_TENSOR_MAX_RANK},
    {smaller_attribute, MC_FUZZ_VALUE_VARIANTS *MC_ATTR_COUNT *MC_MAX_ATTR_LEN},
    {neutral_string, MC_ATTR_COUNT},
};
#define MAX_MOVES 20

/* The moves of op, in the order they are tried; returns their count. */
static size_t moves_of(mc_op op, mc_fuzz_move moves[MAX_MOVES]) {
  const mc_fuzz_op_desc *desc = mc_fuzz_op_of(op);
  size_t n = 0;
  for (size_t i = 0; i < sizeof first_moves / sizeof *first_moves; i++)
    moves[n++] = first_moves[i];
  for (size_t i = 0; desc && desc->moves && desc->moves[i].make && n < MAX_MOVES - 4; i++)
    moves[n++] = desc->moves[i];
  for (size_t i = 0; i < sizeof last_moves / sizeof *last_moves; i++)
    moves[n++] = last_moves[i];
  return n;
}

int mc_fuzz_shrink(mc_impl *impl, mc_owned_request *r, double deadline, char **detail,
                   mc_fuzz_outcome *outcome, bool *cut_short) {
  char *first = NULL;
  signature want = signature_of(impl, r, &first);
  *detail = first;
  *outcome = want.outcome;
  *cut_short = want.outcome.out_of_time;
  if (want.outcome.out_of_time || !mc_verdict_is_failure(want.outcome.verdict))
    return 0;
  mc_fuzz_move moves[MAX_MOVES];
  const size_t n_moves = moves_of(r->req.op, moves);
  int steps = 0;
  bool progress = true;
  while (progress && !*cut_short) {
    progress = false;
    for (size_t m = 0; m < n_moves && !*cut_short; m++) {
      for (int k = 0; k < moves[m].variants; k++) {
        if (mc_now_seconds() >= deadline) {
          *cut_short = true;
          break;
        }
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
