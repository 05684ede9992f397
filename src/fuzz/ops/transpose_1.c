/* movconf fuzz: Transpose-1's large requests and shrinking moves. */
#include <string.h>

#include "fuzz/fuzz_ops.h"
#include "movconf/tensor.h"

enum { ORDER = 1 };

/* The permutations the kernels take different paths for: channels last
   and back (the tiled last-two-axes swap after merging), a swap of the
   inner two, of the outer two (row copies), and the full reversal. */
static const int64_t large_orders[5][4] = {
    {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 1, 3, 2}, {1, 0, 2, 3}, {3, 2, 1, 0}};

/* Output [n, c, h, w] (w at the kernels' widths), data its permuted shape. */
static bool large(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  int64_t out[4] = {mc_fuzz_pick(g, MC_FUZZ_OUTER), mc_fuzz_pick(g, MC_FUZZ_CHANNELS), 0,
                    mc_fuzz_pick(g, MC_FUZZ_INNER)};
  out[2] = mc_fuzz_rows_for(target, out[0], out[1], out[3]);
  const int64_t *order = large_orders[mc_rng_below(g, 5)];
  int64_t shape[4];
  for (int k = 0; k < 4; k++)
    shape[order[k]] = out[k];
  r->req.n_inputs = 2;
  return mc_fuzz_side_input(r, ORDER, order) && mc_fuzz_large_data(g, r, type, shape);
}

/* Without data axis k: the value k leaves input_order and the values above
   it close the gap; an empty input_order stays empty (the reversal of the
   axes left). False when input_order is not a permutation of the axes. */
static bool drop_axis(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *order = &cur->tensors[ORDER];
  const int64_t n = mc_tensor_elements(order);
  if (order->rank != 1 || (n != 0 && n != cur->tensors[0].rank))
    return false;
  int at = -1;
  for (int64_t i = 0; i < n; i++) {
    int64_t v;
    if (!mc_side_value(order, i, &v) || v < 0 || v >= n)
      return false;
    at = v == k ? (int)i : at;
  }
  if ((n != 0 && at < 0) || !mc_fuzz_clone(cur, cand))
    return false;
  mc_tensor *t = &cand->tensors[ORDER];
  for (int64_t i = 0; i < n; i++) {
    int64_t v;
    mc_side_value(order, i, &v);
    mc_store_bits(t->data, t->type, i, (uint64_t)(v > k ? v - 1 : v));
  }
  if (n != 0 && !mc_fuzz_drop_side_element(t, at)) {
    mc_owned_request_free(cand);
    return false;
  }
  mc_owned_request_link(cand);
  return true;
}

/* Neutral, for a failure's key: input_order naming 0..r-1 in order. */
static bool side_neutral(const mc_owned_request *r, int input) {
  const mc_tensor *t = &r->tensors[input];
  if (!mc_type_is_side_integer(t->type) || t->rank != 1 ||
      mc_tensor_elements(t) != r->tensors[0].rank)
    return false;
  for (int64_t i = 0; i < mc_tensor_elements(t); i++) {
    int64_t v;
    if (!mc_side_value(t, i, &v) || v != i)
      return false;
  }
  return true;
}

const mc_fuzz_op_desc mc_fuzz_transpose_1 = {
    .large = large, .min_rank = 1, .drop_axis = drop_axis, .side_neutral = side_neutral};
