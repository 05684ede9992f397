/* Transpose-1's part of the fuzz byte layout (fuzz/README.md): how many
   values input_order has, its form, its values, then the data's
   dimensions. */
#include "cases/bytes/fuzz_bytes_ops.h"

/* The length of input_order: the rank most often, 0 (reversed axes) some
   of the time; edges: one off either side, and up to the 64 a side input
   holds. */
static int64_t take_order_count(mc_bytes_decoder *d) {
  const int64_t r = d->rank;
  const int64_t natural[8] = {r, r, r, 0, r, r, r, 0};
  const int64_t edges[16] = {0, 1, 2, 3, r > 0 ? r - 1 : 0, r + 1, 2 * r, 16, 17, 32, 64, 65,
                             r, r, 0, 1};
  mc_bytes_pick p = mc_bytes_take_pick(d, edges);
  if (p.kind == MC_BYTES_PICK_VALUE)
    return (int64_t)((uint64_t)p.value % (MC_FUZZ_MAX_SIDE_ELEMENTS + 2));
  return natural[p.sel % 8];
}

/* Values: naturally a permutation, each value drawn from the axes not
   named yet; edges: negative (counted from the end elsewhere, not here),
   the rank, a repeat of the previous value, the int64 extremes, 2^32 plus
   a valid axis (a truncation to 32 bits would accept it), -1 (UINT64_MAX
   in a u64). */
static void take_order_values(mc_bytes_decoder *d) {
  mc_tensor *t = &d->in->tensors[1];
  const int64_t r = d->rank, count = mc_bytes_side_count(t);
  int64_t unused[MC_TENSOR_MAX_RANK];
  int64_t left = r;
  for (int64_t a = 0; a < r; a++)
    unused[a] = a;
  for (int64_t i = 0; i < count; i++) {
    const int64_t prev = mc_bytes_previous_side_value(t, i);
    const int64_t edges[16] = {0,
                               -1,
                               r,
                               r - 1,
                               -r,
                               i,
                               prev,
                               INT64_MAX,
                               INT64_MIN,
                               MC_BYTES_P2(32),
                               MC_BYTES_P2(32) + i,
                               r - 1 - i,
                               i + 1,
                               -2,
                               MC_BYTES_P2(8) + i,
                               MC_BYTES_P2(16) + i};
    mc_bytes_pick p = mc_bytes_take_pick(d, edges);
    int64_t natural = i;
    if (left > 0) {
      const int64_t at = p.sel % left;
      natural = unused[at];
      unused[at] = unused[--left];
    }
    mc_bytes_store_side(t, i, mc_bytes_pick_or(p, natural));
  }
}

/* The count, input_order's form and values, then every dimension
   1 + s % span. */
static bool take_transpose(mc_bytes_decoder *d) {
  const int64_t count = take_order_count(d);
  if (!mc_bytes_take_side_form(d, &d->in->tensors[1], count))
    return false;
  take_order_values(d);
  for (int a = 0; a < d->rank; a++)
    mc_bytes_take_dim(d, a, 1, 1, d->span, 0, false);
  mc_bytes_settle_dims(d);
  return true;
}

/* take_transpose's order; the count field says input_order's length. */
static bool put_transpose(mc_bytes_encoder *e) {
  const mc_request *req = mc_bytes_put_request(e);
  const int64_t count = req->inputs[1]->rank == 1 ? req->inputs[1]->shape[0] : 0;
  mc_bytes_put_exact(e, (uint64_t)(count >= 0 && count <= MC_FUZZ_MAX_SIDE_ELEMENTS ? count : 0));
  if (!mc_bytes_put_side_form(e, 1))
    return false;
  mc_bytes_put_side_values(e, 1);
  mc_bytes_put_dims(e);
  return true;
}

const mc_bytes_op mc_bytes_transpose_1 = {
    {2, 3, 4, 3, 2, 4, 5, 6}, take_transpose, put_transpose, NULL, 0};
