/* What BatchToSpace-2 and SpaceToBatch-2 share in movconf fuzz: their
   neutral side values, their large requests and their shrinking moves
   (blocks and margins folded into the data's shape, neutral axes merged).
   Each operation's file (src/fuzz/ops/) says how its shape follows. */
#include <string.h>

#include "fuzz/fuzz_ops.h"
#include "movconf/tensor.h"

/* The value a side input has when it changes nothing: a block of 1, a
   crop or pad of 0. */
static int64_t neutral_side_value(int input) {
  return input == 1 ? 1 : 0;
}

int64_t mc_fuzz_side_at(const mc_owned_request *r, int input, int i) {
  int64_t v;
  return input < r->req.n_inputs && mc_side_value(&r->tensors[input], i, &v)
             ? v
             : neutral_side_value(input);
}

bool mc_fuzz_batch_side_neutral(const mc_owned_request *r, int input) {
  const mc_tensor *t = &r->tensors[input];
  if (!mc_type_is_side_integer(t->type)) /* refused: never neutral */
    return false;
  for (int64_t i = 0; i < mc_tensor_elements(t); i++) {
    int64_t v;
    if (!mc_side_value(t, i, &v) || v != neutral_side_value(input))
      return false;
  }
  return true;
}

/* The block of axis k (> 0) made 1, its factor moved between that axis and
   the batch, so that the output keeps its shape (a bug that depends on the
   output's shape, a thread split say, then keeps failing without the
   block). */
static bool block_into_data(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_fuzz_batch_shape *family = mc_fuzz_op_of(cur->req.op)->family;
  const mc_tensor *d = &cur->tensors[0];
  if (k < 1 || k >= d->rank || cur->req.n_inputs < 2)
    return false;
  int64_t b = mc_fuzz_side_at(cur, 1, k), shape[MC_TENSOR_MAX_RANK];
  memcpy(shape, d->shape, sizeof shape);
  if (b <= 1 || !family->block_into(cur, k, b, shape) || !mc_fuzz_clone(cur, cand))
    return false;
  mc_store_bits(cand->tensors[1].data, cand->tensors[1].type, k, 1);
  return mc_fuzz_refill(cand, d->type, d->rank, shape);
}

/* A crop or pad made 0, the data's axis shortened or lengthened to match,
   so that the output keeps its shape. Variant k: begin (k even) or end (k
   odd) of axis k / 2. */
static bool side_into_data(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_fuzz_batch_shape *family = mc_fuzz_op_of(cur->req.op)->family;
  const mc_tensor *d = &cur->tensors[0];
  int input = 2 + k % 2, axis = k / 2;
  if (input >= cur->req.n_inputs || axis >= d->rank)
    return false;
  int64_t side = mc_fuzz_side_at(cur, input, axis), block = mc_fuzz_side_at(cur, 1, axis);
  int64_t shape[MC_TENSOR_MAX_RANK];
  memcpy(shape, d->shape, sizeof shape);
  if (side <= 0 || block <= 0 || !family->side_into(side, block, &shape[axis]) ||
      !mc_fuzz_clone(cur, cand))
    return false;
  mc_store_bits(cand->tensors[input].data, cand->tensors[input].type, axis, 0);
  return mc_fuzz_refill(cand, d->type, d->rank, shape);
}

/* Axes k and k+1 (k + 1 not the last, both with block 1 and no crops or
   pads) merged into one: one rank less, the same output elements and
   rows. */
static bool merge_axes(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *d = &cur->tensors[0];
  if (k + 2 >= d->rank || d->rank <= mc_fuzz_op_of(cur->req.op)->min_rank)
    return false;
  for (int a = k; a <= k + 1; a++)
    if (mc_fuzz_side_at(cur, 1, a) != 1 || mc_fuzz_side_at(cur, 2, a) != 0 ||
        mc_fuzz_side_at(cur, 3, a) != 0)
      return false;
  int64_t shape[MC_TENSOR_MAX_RANK];
  int rank = 0;
  for (int a = 0; a < d->rank; a++)
    if (a != k + 1)
      shape[rank++] = a == k ? d->shape[k] * d->shape[k + 1] : d->shape[a];
  if (!mc_fuzz_clone(cur, cand))
    return false;
  for (int i = 1; i < cand->req.n_inputs; i++)
    if (!mc_fuzz_drop_side_element(&cand->tensors[i], k + 1))
      return false;
  return mc_fuzz_refill(cand, d->type, rank, shape);
}

const mc_fuzz_move mc_fuzz_batch_moves[] = {{block_into_data, MC_TENSOR_MAX_RANK},
                                            {side_into_data, 2 * MC_TENSOR_MAX_RANK},
                                            {merge_axes, MC_TENSOR_MAX_RANK},
                                            {NULL, 0}};

/* Large requests: block, margins and shape at the kernels' boundaries. */
bool mc_fuzz_large_batch(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target,
                         mc_fuzz_margins_fn *margins) {
  int64_t bh = mc_fuzz_pick(g, MC_FUZZ_BLOCK), bw = mc_fuzz_pick(g, MC_FUZZ_BLOCK);
  int64_t n = mc_fuzz_pick(g, MC_FUZZ_OUTER), c = mc_fuzz_pick(g, MC_FUZZ_CHANNELS),
          w = mc_fuzz_pick(g, MC_FUZZ_INNER);
  int64_t h = mc_fuzz_rows_for(target, n * bh * bw, c, w); /* n*bh*bw*c*h*w elements */
  int64_t block[4] = {1, 1, bh, bw}, base[4] = {n, c, h, w}, begin[4] = {0}, end[4] = {0};
  int64_t shape[4];
  margins(g, block, base, begin, end, shape);
  r->req.n_inputs = 4;
  return mc_fuzz_side_input(r, 1, block) && mc_fuzz_side_input(r, 2, begin) &&
         mc_fuzz_side_input(r, 3, end) && mc_fuzz_large_data(g, r, type, shape);
}
