/* BatchToSpace-2's part of the fuzz byte layout (fuzz/README.md): the side
   inputs' forms, block_shape, the data's dimensions (axis 0 a multiple of
   the blocks' product), then crops_begin and crops_end. */
#include "cases/bytes/fuzz_bytes_ops.h"
#include "common/checked.h"

static void take_batch_to_space_dims(mc_bytes_decoder *d) {
  int64_t product = 1;
  bool known = true;
  for (int a = 0; a < d->rank && known; a++) {
    int64_t b;
    known = mc_bytes_known_positive(&d->in->tensors[1], a, &b) && mc_mul_i64(product, b, &product);
  }
  for (int a = 0; a < d->rank; a++) {
    if (a == 0 && known && product <= d->budget)
      mc_bytes_take_dim(d, a, product, 1, 2, 0, true);
    else
      mc_bytes_take_dim(d, a, 1, 1, d->span, 0, false);
  }
  mc_bytes_settle_dims(d);
}

static bool take_batch_to_space(mc_bytes_decoder *d) {
  if (!mc_bytes_take_side_forms(d))
    return false;
  mc_bytes_take_block_values(d);
  take_batch_to_space_dims(d);
  mc_bytes_take_amounts(d, true);
  return true;
}

static bool put_batch_to_space(mc_bytes_encoder *e) {
  if (!mc_bytes_put_side_forms(e))
    return false;
  mc_bytes_put_side_values(e, 1);
  mc_bytes_put_dims(e);
  mc_bytes_put_side_values(e, 2);
  mc_bytes_put_side_values(e, 3);
  return true;
}

const mc_bytes_op mc_bytes_batch_to_space_2 = {
    {2, 3, 3, 4, 4, 3, 5, 2}, take_batch_to_space, put_batch_to_space, NULL, 0};
