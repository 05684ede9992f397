/* SpaceToBatch-2's part of the fuzz byte layout (fuzz/README.md): the side
   inputs' forms, block_shape, pads_begin and pads_end, then the data's
   dimensions (each padded extent a multiple of its block). */
#include "cases/bytes/fuzz_bytes_ops.h"
#include "common/checked.h"

static void take_space_to_batch_dims(mc_bytes_decoder *d) {
  for (int a = 0; a < d->rank; a++) {
    int64_t b, pb, pe, pads;
    bool known = a > 0 && mc_bytes_known_positive(&d->in->tensors[1], a, &b) && b <= d->budget &&
                 mc_bytes_side_value(&d->in->tensors[2], a, &pb) &&
                 mc_bytes_side_value(&d->in->tensors[3], a, &pe) && pb >= 0 && pe >= 0 &&
                 mc_add_i64(pb, pe, &pads) && pads <= MC_BYTES_P2(40);
    if (known) /* D = b*k - pads, the smallest k that keeps D >= 0 first */
      mc_bytes_take_dim(d, a, b, pads / b + (pads % b != 0), 3, -pads, true);
    else
      mc_bytes_take_dim(d, a, 1, 1, a == 0 ? 2 : d->span, 0, false);
  }
  mc_bytes_settle_dims(d);
}

static bool take_space_to_batch(mc_bytes_decoder *d) {
  if (!mc_bytes_take_side_forms(d))
    return false;
  mc_bytes_take_block_values(d);
  mc_bytes_take_amounts(d, false);
  take_space_to_batch_dims(d);
  return true;
}

static bool put_space_to_batch(mc_bytes_encoder *e) {
  if (!mc_bytes_put_side_forms(e))
    return false;
  mc_bytes_put_side_values(e, 1);
  mc_bytes_put_side_values(e, 2);
  mc_bytes_put_side_values(e, 3);
  mc_bytes_put_dims(e);
  return true;
}

const mc_bytes_op mc_bytes_space_to_batch_2 = {
    {2, 3, 3, 4, 4, 3, 5, 2}, take_space_to_batch, put_space_to_batch, NULL, 0};
