/* SpaceToDepth-1's part of the fuzz byte layout (fuzz/README.md): the
   data's dimensions, the spatial ones multiples of block_size. */
#include "cases/bytes/fuzz_bytes_ops.h"

static bool take_space_to_depth(mc_bytes_decoder *d) {
  mc_bytes_take_depth_dims(d, false);
  return true;
}

const mc_bytes_op mc_bytes_space_to_depth_1 = {
    {3, 4, 4, 5, 3, 4, 5, 4}, take_space_to_depth, mc_bytes_put_data_dims, mc_bytes_depth_attrs, 2};
