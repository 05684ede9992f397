/* movconf fuzz: Slice-8's large requests and shrinking moves. */
#include <string.h>

#include "fuzz/fuzz_ops.h"
#include "movconf/tensor.h"

enum { START = 1, STOP, STEP, AXES };
/* Entries the shrinking moves look at: a side input holds at most 64. */
enum { MAX_ENTRIES = 64 };

/* One axis of the large request: an output count from a data dimension
   read at step, from a margin of begin elements (from the start for a
   positive step, from the end for a negative one) and end more. The
   bounds are written as a kernel meets them: exactly, counted from the
   end, or as an int64 sentinel where they reach the edge. */
static void large_axis(mc_rng *g, int64_t count, int64_t step, int64_t *dim, int64_t *start,
                       int64_t *stop) {
  const int64_t m = step < 0 ? -step : step, begin = (int64_t)mc_rng_below(g, 3),
                end = (int64_t)mc_rng_below(g, 3);
  const int64_t span = (count - 1) * m + 1;
  *dim = begin + span + end;
  const bool from_end = mc_rng_below(g, 2) == 0;
  if (step > 0) {
    *start = from_end ? begin - *dim : begin;
    *stop = end == 0 && mc_rng_below(g, 2) == 0 ? INT64_MAX : begin + span;
  } else { /* first read: index dim - 1 - begin; the last: end */
    *start = from_end ? -1 - begin : *dim - 1 - begin;
    *stop = end == 0 ? INT64_MIN : end - 1;
  }
}

/* Output [n, c, h, w] (w innermost, at the kernels' widths): every axis
   read forwards or backwards, one of them (half the time) at a stride of
   2 or 3, so the data stays within three times the output. axes absent a
   third of the time, else the four axes in a drawn order, each counted
   from either end. */
static bool large(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  int64_t out[4] = {mc_fuzz_pick(g, MC_FUZZ_OUTER), mc_fuzz_pick(g, MC_FUZZ_CHANNELS), 0,
                    mc_fuzz_pick(g, MC_FUZZ_INNER)};
  out[2] = mc_fuzz_rows_for(target, out[0], out[1], out[3]);
  const int strided = mc_rng_below(g, 2) == 0 ? (int)mc_rng_below(g, 4) : -1;
  int64_t shape[4], start[4], stop[4], step[4], axes[4] = {0, 1, 2, 3};
  const bool named = mc_rng_below(g, 3) != 0;
  for (int i = 3; named && i > 0; i--) { /* Fisher-Yates */
    const int j = (int)mc_rng_below(g, (uint64_t)i + 1);
    const int64_t t = axes[i];
    axes[i] = axes[j];
    axes[j] = t;
  }
  for (int i = 0; i < 4; i++) {
    const int a = (int)axes[i];
    step[i] =
        (a == strided ? 2 + (int64_t)mc_rng_below(g, 2) : 1) * (mc_rng_below(g, 2) == 0 ? -1 : 1);
    large_axis(g, out[a], step[i], &shape[a], &start[i], &stop[i]);
    if (named && mc_rng_below(g, 2) == 0)
      axes[i] -= 4;
  }
  r->req.n_inputs = named ? 5 : 4;
  return mc_fuzz_side_input(r, START, start) && mc_fuzz_side_input(r, STOP, stop) &&
         mc_fuzz_side_input(r, STEP, step) && (!named || mc_fuzz_side_input(r, AXES, axes)) &&
         mc_fuzz_large_data(g, r, type, shape);
}

/* ---- shrinking ---- */

/* How many entries start has, and the axis entry i names (axes, or i
   when absent), normalised; false when it cannot be read or names none. */
static int64_t entries(const mc_owned_request *r) {
  return mc_tensor_elements(&r->tensors[START]);
}

static bool named_axis(const mc_owned_request *r, int64_t i, int64_t *axis) {
  const int64_t rank = r->tensors[0].rank;
  *axis = i;
  if (r->req.n_inputs > AXES && !mc_side_value(&r->tensors[AXES], i, axis))
    return false;
  if (*axis < 0)
    *axis += rank;
  return *axis >= 0 && *axis < rank;
}

/* Removes entry i from start, stop, step and axes. */
static bool drop_entry(mc_owned_request *r, int64_t i) {
  for (int k = START; k < r->req.n_inputs; k++)
    if (!mc_fuzz_drop_side_element(&r->tensors[k], (int)i))
      return false;
  mc_owned_request_link(r);
  return true;
}

/* Without data axis k: the entries that name it go, and the axes after it
   are renumbered (a negative one keeps its place from the end). Without
   axes, entry k names axis k and the later entries follow by themselves. */
static bool drop_axis(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const int64_t n = entries(cur), rank = cur->tensors[0].rank;
  bool names_k[MAX_ENTRIES] = {false};
  if (n > MAX_ENTRIES)
    return false;
  for (int64_t i = 0; i < n; i++) {
    int64_t a;
    if (!named_axis(cur, i, &a))
      return false;
    names_k[i] = a == k;
  }
  if (!mc_fuzz_clone(cur, cand))
    return false;
  for (int64_t i = 0; cur->req.n_inputs > AXES && i < n; i++) {
    int64_t a;
    mc_side_value(&cur->tensors[AXES], i, &a);
    if (a >= 0 ? a > k : a + rank < k)
      a += a >= 0 ? -1 : 1;
    mc_store_bits(cand->tensors[AXES].data, cand->tensors[AXES].type, i, (uint64_t)a);
  }
  for (int64_t i = n - 1; i >= 0; i--)
    if (names_k[i] && !drop_entry(cand, i)) {
      mc_owned_request_free(cand);
      return false;
    }
  return true;
}

/* Entry k goes: its axis is taken whole (without axes, the entries after
   it then name the axis before theirs, which may keep the failure too). */
static bool drop_entry_move(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  if (k >= entries(cur) || !mc_fuzz_clone(cur, cand))
    return false;
  if (!drop_entry(cand, k)) {
    mc_owned_request_free(cand);
    return false;
  }
  return true;
}

/* Step k / MC_FUZZ_VALUE_VARIANTS toward 1 in magnitude, its sign kept. */
static bool step_toward_one(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  return mc_fuzz_side_toward_unit(cur, STEP, k, cand);
}

/* Side input k + 1 as i64, its values kept: a readable type, and one that
   holds the bounds whole_axis writes (a negative step reads its axis whole
   only to a negative stop, which no unsigned type holds). */
static bool side_as_i64(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const int input = START + k;
  if (input >= cur->req.n_inputs || cur->tensors[input].type == MC_I64)
    return false;
  const mc_tensor *t = &cur->tensors[input];
  const int64_t n = mc_tensor_elements(t);
  int64_t v;
  for (int64_t i = 0; i < n; i++)
    if (!mc_side_value(t, i, &v)) /* a u64 above INT64_MAX */
      return false;
  if (!mc_fuzz_clone(cur, cand))
    return false;
  mc_tensor wide;
  if (mc_tensor_alloc(&wide, MC_I64, t->rank, t->shape, (size_t)-1) != MC_OK) {
    mc_owned_request_free(cand);
    return false;
  }
  for (int64_t i = 0; i < n; i++) {
    mc_side_value(t, i, &v);
    mc_store_bits(wide.data, MC_I64, i, (uint64_t)v);
  }
  mc_tensor_free(&cand->tensors[input]);
  cand->tensors[input] = wide;
  mc_owned_request_link(cand);
  return true;
}

/* Entry i's bound of input START or STOP reads its axis whole in its
   step's direction: a start at or before the first element read, a stop
   at or past the last (Python's clamping, SL-S2). */
static bool bound_whole(const mc_owned_request *r, int input, int64_t i, int64_t v) {
  int64_t step, axis;
  if (!mc_side_value(&r->tensors[STEP], i, &step) || step == 0 || !named_axis(r, i, &axis))
    return false;
  const int64_t d = r->tensors[0].shape[axis];
  if (input == START)
    return step > 0 ? v == 0 || v <= -d : v >= d - 1 || v == -1;
  return step > 0 ? v >= d : v <= -d - 1;
}

/* Neutral, for a failure's key: start and stop reading every named axis
   whole, steps of 1, axes naming 0..n-1 in order (what leaving them out
   means). */
static bool side_neutral(const mc_owned_request *r, int input) {
  if (!mc_type_is_side_integer(r->tensors[input].type)) /* refused: never neutral */
    return false;
  for (int64_t i = 0; i < mc_tensor_elements(&r->tensors[input]); i++) {
    int64_t v;
    if (!mc_side_value(&r->tensors[input], i, &v) || (input == STEP && v != 1) ||
        (input == AXES && v != i && v != i - r->tensors[0].rank) ||
        ((input == START || input == STOP) && !bound_whole(r, input, i, v)))
      return false;
  }
  return true;
}

/* The bound of input START or STOP of entry i that reads its axis whole
   most plainly: 0 and d forwards, -1 and -d - 1 backwards. */
static bool plain_whole_bound(const mc_owned_request *r, int input, int64_t i, int64_t *want) {
  int64_t step, axis;
  if (!mc_side_value(&r->tensors[STEP], i, &step) || !named_axis(r, i, &axis))
    return false;
  const int64_t d = r->tensors[0].shape[axis];
  *want = input == START ? (step > 0 ? 0 : -1) : (step > 0 ? d : -d - 1);
  return true;
}

/* The bound of entry k / 2 (start for k even, stop for k odd) made the
   plainest whole one (a whole read by another value, -256 say, becomes it
   too), when the side input's type holds it. */
static bool whole_axis(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const int input = k % 2 ? STOP : START;
  const int64_t i = k / 2;
  int64_t v, want;
  if (!mc_side_value(&cur->tensors[input], i, &v) || !plain_whole_bound(cur, input, i, &want) ||
      v == want || !mc_fuzz_clone(cur, cand))
    return false;
  if (!mc_fuzz_store_side(cand, input, i, want)) {
    mc_owned_request_free(cand);
    return false;
  }
  return true;
}

/* Data axis k of one element goes and its entry moves to the next axis
   (without axes, entry i names axis i, so the entries from k on each name
   the axis after theirs), a bound that read its axis whole reading the
   new one whole. drop_axis takes the entry with its axis, which loses a
   failure that needs the entry's step on an axis of more than one
   element: this keeps it, so that such a finding still reaches rank 1. */
static bool drop_unit_axis(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *d = &cur->tensors[0];
  const int64_t n = entries(cur);
  if (cur->req.n_inputs > AXES || k >= d->rank || d->shape[k] != 1 || k >= n || n >= d->rank)
    return false;
  int64_t shape[MC_TENSOR_MAX_RANK];
  const int rank = mc_fuzz_shape_without(d, k, shape);
  if (!mc_fuzz_clone(cur, cand))
    return false;
  bool made = mc_fuzz_refill(cand, d->type, rank, shape);
  for (int64_t i = k; made && i < n; i++)
    for (int input = START; made && input <= STOP; input++) {
      int64_t v, want;
      if (mc_side_value(&cur->tensors[input], i, &v) && bound_whole(cur, input, i, v))
        made = plain_whole_bound(cand, input, i, &want) && mc_fuzz_store_side(cand, input, i, want);
    }
  if (!made)
    mc_owned_request_free(cand);
  return made;
}

/* axes that name 0..n-1 in some order go: start, stop and step are put in
   axis order, as the default axes read them. */
static bool without_axes(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const int64_t n = entries(cur);
  int64_t order[MAX_ENTRIES];
  if (k > 0 || cur->req.n_inputs <= AXES || n > MAX_ENTRIES)
    return false;
  for (int s = START; s <= AXES; s++)
    if (cur->tensors[s].rank != 1 || cur->tensors[s].shape[0] != n)
      return false;
  for (int64_t i = 0; i < n; i++)
    order[i] = -1;
  for (int64_t i = 0; i < n; i++) {
    int64_t a;
    if (!named_axis(cur, i, &a) || a >= n || order[a] >= 0)
      return false;
    order[a] = i;
  }
  if (!mc_fuzz_clone(cur, cand))
    return false;
  for (int s = START; s < AXES; s++)
    for (int64_t a = 0; a < n; a++)
      mc_copy_element(cand->tensors[s].data, a, cur->tensors[s].data, order[a],
                      cur->tensors[s].type);
  mc_tensor_free(&cand->tensors[AXES]);
  memset(&cand->tensors[AXES], 0, sizeof cand->tensors[AXES]);
  cand->req.n_inputs = AXES;
  mc_owned_request_link(cand);
  return true;
}

static const mc_fuzz_move moves[] = {{without_axes, 1},
                                     {drop_entry_move, MC_TENSOR_MAX_RANK},
                                     {drop_unit_axis, MC_TENSOR_MAX_RANK},
                                     {side_as_i64, AXES - START + 1},
                                     {whole_axis, 2 * MC_TENSOR_MAX_RANK},
                                     {step_toward_one, MC_FUZZ_VALUE_VARIANTS *MC_TENSOR_MAX_RANK},
                                     {NULL, 0}};

const mc_fuzz_op_desc mc_fuzz_slice_8 = {.large = large,
                                         .min_rank = 1,
                                         .drop_axis = drop_axis,
                                         .moves = moves,
                                         .side_neutral = side_neutral};
