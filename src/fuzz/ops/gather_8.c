/* movconf fuzz: Gather-8's large requests, the axes it can drop and what
   its side inputs change. */
#include <string.h>

#include "fuzz/fuzz_ops.h"
#include "movconf/tensor.h"

enum { INDICES = 1, AXIS = 2 };
/* Indices the shrinking moves look at: a side input holds at most 64. */
enum { MAX_INDICES = 64 };

/* A scalar i64 axis. */
static bool scalar_axis(mc_owned_request *r, int64_t value) {
  mc_tensor *t = &r->tensors[AXIS];
  if (mc_tensor_alloc(t, MC_I64, 0, NULL, MC_FUZZ_LARGE_CAP) != MC_OK)
    return false;
  mc_store_bits(t->data, MC_I64, 0, (uint64_t)value);
  return true;
}

/* Output [n, c, h, w] at the kernels' widths with 4 indices on an axis
   drawn (its data extent 2 to 9), another axis grown to about target
   elements: repeats, one counted from the end and, some of the time, one
   out of range (a row of zeros). */
static bool large(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  int64_t shape[4] = {mc_fuzz_pick(g, MC_FUZZ_OUTER), mc_fuzz_pick(g, MC_FUZZ_CHANNELS), 1,
                      mc_fuzz_pick(g, MC_FUZZ_INNER)};
  const int axis = (int)mc_rng_below(g, 4), grown = axis == 2 ? 1 : 2;
  shape[axis] = 4;
  shape[grown] = 1;
  const int64_t rest = shape[0] * shape[1] * shape[2] * shape[3];
  shape[grown] = target / rest > 1 ? target / rest : 1;
  const int64_t d = 2 + (int64_t)mc_rng_below(g, 8);
  shape[axis] = d;
  int64_t idx[4] = {0, d - 1, -1, (int64_t)mc_rng_below(g, (uint64_t)d)};
  if (mc_rng_below(g, 4) == 0)
    idx[3] = d + (int64_t)mc_rng_below(g, 3);
  r->req.n_inputs = 3;
  return mc_fuzz_side_input(r, INDICES, idx) && scalar_axis(r, axis) &&
         mc_fuzz_large_data(g, r, type, shape);
}

/* The normalized axis and batch_dims of an accepted-looking request. */
static bool axes_of(const mc_owned_request *r, int64_t *a, int64_t *b) {
  const int64_t rank = r->tensors[0].rank, q = r->tensors[INDICES].rank;
  const int64_t c = mc_attrs_int(&r->req.attrs, MC_ATTR_BATCH_DIMS);
  int64_t x;
  if (mc_tensor_elements(&r->tensors[AXIS]) != 1 || !mc_side_value(&r->tensors[AXIS], 0, &x) ||
      x < -rank || x >= rank || c < -q || c > q)
    return false;
  *a = x < 0 ? x + rank : x;
  *b = c < 0 ? c + q : c;
  return true;
}

/* t's positions from .. from + count - 1 on axis, the axis left out when
   drop (count 1 then), in out. */
static bool part_of(const mc_tensor *t, int axis, int64_t from, int64_t count, bool drop,
                    mc_tensor *out) {
  int64_t shape[MC_TENSOR_MAX_RANK] = {0}, outer = 1, inner = 1;
  int rank = 0;
  for (int k = 0; k < t->rank; k++) {
    outer *= k < axis ? t->shape[k] : 1;
    inner *= k > axis ? t->shape[k] : 1;
    if (k != axis || !drop)
      shape[rank++] = k == axis ? count : t->shape[k];
  }
  if (mc_tensor_alloc(out, t->type, rank, shape, (size_t)-1) != MC_OK)
    return false;
  const int64_t n = t->shape[axis];
  for (int64_t o = 0; o < outer; o++)
    for (int64_t j = 0; j < count; j++)
      for (int64_t e = 0; e < inner; e++)
        mc_copy_element(out->data, (o * count + j) * inner + e, t->data,
                        (o * n + from + j) * inner + e, t->type);
  return true;
}

/* cand's indices replaced by part_of theirs; cand freed when that fails. */
static bool indices_part(mc_owned_request *cand, int axis, int64_t from, int64_t count, bool drop) {
  mc_tensor part;
  if (!part_of(&cand->tensors[INDICES], axis, from, count, drop, &part)) {
    mc_owned_request_free(cand);
    return false;
  }
  mc_tensor_free(&cand->tensors[INDICES]);
  cand->tensors[INDICES] = part;
  mc_owned_request_link(cand);
  return true;
}

/* Without data axis k, not the gathered one: axis follows, counted from
   the front; a batch axis goes from the indices too (their first slice on
   it kept) and batch_dims counts one fewer (a negative one, counted from
   the indices' rank, stays). */
static bool drop_axis(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  int64_t a, b;
  if (!axes_of(cur, &a, &b) || k == a || (k < b && cur->tensors[INDICES].shape[k] < 1) ||
      !mc_fuzz_clone(cur, cand))
    return false;
  mc_tensor *t = &cand->tensors[AXIS];
  mc_store_bits(t->data, t->type, 0, (uint64_t)(k < a ? a - 1 : a));
  mc_owned_request_link(cand);
  if (k >= b)
    return true;
  const int64_t c = mc_attrs_int(&cur->req.attrs, MC_ATTR_BATCH_DIMS);
  if (c > 0)
    mc_attrs_set_int(&cand->req.attrs, MC_ATTR_BATCH_DIMS, c - 1);
  return indices_part(cand, k, 0, 1, true);
}

/* Batch axis k / MC_FUZZ_VALUE_VARIANTS, shrunk toward 1 in the data and
   the indices together (GA-V8), its first positions kept. */
static bool smaller_batch(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const int axis = k / MC_FUZZ_VALUE_VARIANTS;
  const mc_tensor *d = &cur->tensors[0];
  int64_t a, b, want;
  if (!axes_of(cur, &a, &b) || axis >= b || d->shape[axis] != cur->tensors[INDICES].shape[axis] ||
      !mc_fuzz_shrunk_value(d->shape[axis], 1, k % MC_FUZZ_VALUE_VARIANTS, &want) ||
      !mc_fuzz_clone(cur, cand))
    return false;
  int64_t shape[MC_TENSOR_MAX_RANK];
  memcpy(shape, d->shape, sizeof shape);
  shape[axis] = want;
  if (!mc_fuzz_refill(cand, d->type, d->rank, shape)) {
    mc_owned_request_free(cand);
    return false;
  }
  return indices_part(cand, axis, 0, want, false);
}

/* Fewer indices on their axis j (not a batch one), shrunk toward 1:
   variant k is j, whether the first or the last positions stay, and how
   far (mc_fuzz_shrunk_value), so that a failure of one index keeps it. */
static bool fewer_indices(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const int j = k / (2 * MC_FUZZ_VALUE_VARIANTS);
  const bool last = (k / MC_FUZZ_VALUE_VARIANTS) % 2 == 1;
  const mc_tensor *t = &cur->tensors[INDICES];
  int64_t a, b, want;
  if (!axes_of(cur, &a, &b) || j < b || j >= t->rank ||
      !mc_fuzz_shrunk_value(t->shape[j], 1, k % MC_FUZZ_VALUE_VARIANTS, &want) ||
      !mc_fuzz_clone(cur, cand))
    return false;
  return indices_part(cand, j, last ? t->shape[j] - want : 0, want, false);
}

/* Index k / MC_FUZZ_VALUE_VARIANTS, when positive, shrunk toward 0, the
   first element of its axis (the generic move stops at 1); a u64 above
   INT64_MAX, which no other move reads, from INT64_MAX. */
static bool index_toward_zero(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  int64_t v, want;
  if (!mc_side_value_saturating(&cur->tensors[INDICES], k / MC_FUZZ_VALUE_VARIANTS, &v) ||
      !mc_fuzz_shrunk_value(v, 0, k % MC_FUZZ_VALUE_VARIANTS, &want) || !mc_fuzz_clone(cur, cand))
    return false;
  mc_fuzz_store_side(cand, INDICES, k / MC_FUZZ_VALUE_VARIANTS, want); /* any type holds it */
  return true;
}

/* Indices axis k (not a batch one) of one position goes: an output axis
   fewer. A negative batch_dims grows by one to name the same axes. */
static bool drop_index_axis(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *t = &cur->tensors[INDICES];
  int64_t a, b;
  if (!axes_of(cur, &a, &b) || k < b || k >= t->rank || t->shape[k] != 1 ||
      !mc_fuzz_clone(cur, cand))
    return false;
  const int64_t c = mc_attrs_int(&cur->req.attrs, MC_ATTR_BATCH_DIMS);
  if (c < 0)
    mc_attrs_set_int(&cand->req.attrs, MC_ATTR_BATCH_DIMS, c + 1);
  return indices_part(cand, k, 0, 1, true);
}

/* batch_dims as plain as it reads: a negative one counted from the front,
   a 0 left out. */
static bool plain_batch_dims(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  int64_t a, b;
  const mc_attrs *attrs = &cur->req.attrs;
  if (k > 0 || !mc_attrs_present(attrs, MC_ATTR_BATCH_DIMS) || !axes_of(cur, &a, &b) ||
      mc_attrs_int(attrs, MC_ATTR_BATCH_DIMS) > 0 || !mc_fuzz_clone(cur, cand))
    return false;
  if (b > 0)
    mc_attrs_set_int(&cand->req.attrs, MC_ATTR_BATCH_DIMS, b);
  else
    cand->req.attrs.by_id[MC_ATTR_BATCH_DIMS].present = false;
  return true;
}

/* axis as plain as it reads: a scalar (k = 0), counted from the front
   (k = 1), when its type holds that. */
static bool plain_axis(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *t = &cur->tensors[AXIS];
  int64_t a, b, x;
  if (k > 1 || !axes_of(cur, &a, &b) || !mc_side_value(t, 0, &x) ||
      (k == 0 ? t->rank == 0 : x == a) || !mc_fuzz_clone(cur, cand))
    return false;
  cand->tensors[AXIS].rank = k == 0 ? 0 : t->rank;
  if (!mc_fuzz_store_side(cand, AXIS, 0, k == 0 ? x : a)) {
    mc_owned_request_free(cand);
    return false;
  }
  mc_owned_request_link(cand);
  return true;
}

static const mc_fuzz_move moves[] = {
    {drop_index_axis, MC_TENSOR_MAX_RANK},
    {plain_batch_dims, 1},
    {plain_axis, 2},
    {smaller_batch, MC_FUZZ_VALUE_VARIANTS *MC_TENSOR_MAX_RANK},
    {fewer_indices, 2 * MC_FUZZ_VALUE_VARIANTS *MC_TENSOR_MAX_RANK},
    {index_toward_zero, MC_FUZZ_VALUE_VARIANTS *MAX_INDICES},
    {NULL, 0}};

/* Neutral, for a failure's key: indices 0..d-1 in order on the gathered
   axis without batch axes (the identity); axis never. */
static bool side_neutral(const mc_owned_request *r, int input) {
  int64_t a, b;
  const mc_tensor *t = &r->tensors[INDICES];
  if (input != INDICES || !mc_type_is_side_integer(t->type) || t->rank != 1 ||
      !axes_of(r, &a, &b) || b != 0 || t->shape[0] != r->tensors[0].shape[a])
    return false;
  for (int64_t i = 0; i < t->shape[0]; i++) {
    int64_t v;
    if (!mc_side_value(t, i, &v) || v != i)
      return false;
  }
  return true;
}

/* batch_dims changes nothing when it names no batch axis (0, -q or
   absent); the generic rule's 1 names one. */
static bool attribute_neutral(const mc_owned_request *r, mc_attr id) {
  const int64_t c = mc_attrs_int(&r->req.attrs, id), q = r->tensors[INDICES].rank;
  return id != MC_ATTR_BATCH_DIMS || c == 0 || c == -q;
}

const mc_fuzz_op_desc mc_fuzz_gather_8 = {.large = large,
                                          .min_rank = 1,
                                          .drop_axis = drop_axis,
                                          .moves = moves,
                                          .side_neutral = side_neutral,
                                          .attribute_neutral = attribute_neutral};
