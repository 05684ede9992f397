/* movconf fuzz: Gather-8's large requests, the axes it can drop and what
   its side inputs change. */
#include "fuzz/fuzz_ops.h"
#include "movconf/tensor.h"

enum { INDICES = 1, AXIS = 2 };

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

/* Without data axis k: neither the gathered axis nor a batch axis (the
   indices share those); axis follows, counted from the front. */
static bool drop_axis(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  int64_t a, b;
  if (!axes_of(cur, &a, &b) || k == a || k < b || !mc_fuzz_clone(cur, cand))
    return false;
  mc_tensor *t = &cand->tensors[AXIS];
  mc_store_bits(t->data, t->type, 0, (uint64_t)(k < a ? a - 1 : a));
  mc_owned_request_link(cand);
  return true;
}

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

const mc_fuzz_op_desc mc_fuzz_gather_8 = {
    .large = large, .min_rank = 1, .drop_axis = drop_axis, .side_neutral = side_neutral};
