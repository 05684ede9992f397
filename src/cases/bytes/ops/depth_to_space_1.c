/* DepthToSpace-1's part of the fuzz byte layout (fuzz/README.md): the
   data's dimensions, the depth a multiple of block_size^K. */
#include "cases/bytes/fuzz_bytes_ops.h"

static bool take_depth_to_space(mc_bytes_decoder *d) {
  mc_bytes_take_depth_dims(d, true);
  return true;
}

const mc_bytes_op mc_bytes_depth_to_space_1 = {
    {3, 4, 4, 5, 3, 4, 5, 4}, take_depth_to_space, mc_bytes_put_data_dims, mc_bytes_depth_attrs, 2};
