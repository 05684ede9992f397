/* StridedSlice-1's part of the fuzz byte layout (fuzz/README.md): the
   masks are attributes (lists of 0 and 1 when natural, before this part);
   then how many entries begin, end, stride have, whether stride is there,
   the side inputs' forms, the data's dimensions, then the values of begin,
   end and stride, each read as Slice-8's are (ops/slice_8.c). */
#include "cases/bytes/fuzz_bytes_ops.h"

/* StridedSlice's stride byte: absent below, present from here. */
#define SS_STRIDE_PRESENT 0x20

/* Naturally 0 or 1 (a list of two when natural: the first two entries);
   the edges bring values other than 0 and 1 (SS-V4). */
static const mc_bytes_attr ss_attrs[] = {
    {MC_ATTR_BEGIN_MASK, .list_span = 2, .list_from_zero = true},
    {MC_ATTR_END_MASK, .list_span = 2, .list_from_zero = true},
    {MC_ATTR_NEW_AXIS_MASK, .list_span = 2, .list_from_zero = true},
    {MC_ATTR_SHRINK_AXIS_MASK, .list_span = 2, .list_from_zero = true},
    {MC_ATTR_ELLIPSIS_MASK, .list_span = 2, .list_from_zero = true},
};

/* How many entries: the rank most often, fewer (the rest kept whole),
   one more (room for a new axis), none; edges past the rank. */
static int64_t take_ss_count(mc_bytes_decoder *d) {
  const int64_t r = d->rank;
  const int64_t natural[8] = {r, r, r + 1, r > 0 ? r - 1 : 0, r, 1, r, 0};
  const int64_t edges[16] = {0, 1, 2, 3, r + 1, r + 2, 2 * r, 16, 17, 32, 33, 64, r, r, 1, 0};
  mc_bytes_pick p = mc_bytes_take_pick(d, edges);
  if (p.kind == MC_BYTES_PICK_VALUE)
    return (int64_t)((uint64_t)p.value % (MC_FUZZ_MAX_SIDE_ELEMENTS + 2));
  return natural[p.sel % 8];
}

static bool take_ss(mc_bytes_decoder *d) {
  const int64_t count = take_ss_count(d);
  d->n_inputs = mc_bytes_take_byte(d) < SS_STRIDE_PRESENT ? 3 : 4;
  for (int k = 1; k < d->n_inputs; k++)
    if (!mc_bytes_take_side_form(d, &d->in->tensors[k], count))
      return false;
  for (int a = 0; a < d->rank; a++)
    mc_bytes_take_dim(d, a, 1, 1, d->span, 0, false);
  mc_bytes_settle_dims(d);
  for (int k = 1; k < d->n_inputs; k++) {
    mc_tensor *t = &d->in->tensors[k];
    for (int64_t i = 0; i < mc_bytes_side_count(t); i++) {
      /* Entry i's axis when the masks add or take none: close enough. */
      const int64_t d_i = i < d->rank ? d->in->tensors[0].shape[i] : 1;
      mc_bytes_take_slice_value(d, t, i, d_i >= 0 ? d_i : 1, k == 3);
    }
  }
  return true;
}

/* take_ss's order; the count field says begin's length. */
static bool put_ss(mc_bytes_encoder *e) {
  const mc_request *req = mc_bytes_put_request(e);
  const int64_t count = req->inputs[1]->rank == 1 ? req->inputs[1]->shape[0] : 0;
  mc_bytes_put_exact(e, (uint64_t)(count >= 0 && count <= MC_FUZZ_MAX_SIDE_ELEMENTS ? count : 0));
  mc_bytes_put_raw_byte(e, req->n_inputs == 4 ? SS_STRIDE_PRESENT : 0);
  for (int k = 1; k < req->n_inputs; k++)
    if (!mc_bytes_put_side_form(e, k))
      return false;
  mc_bytes_put_dims(e);
  for (int k = 1; k < req->n_inputs; k++)
    mc_bytes_put_side_values(e, k);
  return true;
}

const mc_bytes_op mc_bytes_strided_slice_1 = {
    {1, 2, 3, 4, 2, 3, 5, 0}, take_ss, put_ss, ss_attrs, 5};
