/* The fuzz engine's table of operations: a row per operation, its
   descriptor in fuzz/engine/ops/<slug>.c. */
#include "fuzz/engine/fuzz_ops.h"

extern const mc_fuzz_op_desc mc_fuzz_batch_to_space_2, mc_fuzz_space_to_batch_2,
    mc_fuzz_space_to_depth_1, mc_fuzz_depth_to_space_1, mc_fuzz_extract_image_patches_3,
    mc_fuzz_shuffle_channels_1, mc_fuzz_slice_8;

/* A missing last row fails the build, a hole in the middle
   unit/test_op_tables ("fuzz engine"). */
static const mc_fuzz_op_desc *const fuzz_ops[] = {
    [MC_OP_BATCH_TO_SPACE] = &mc_fuzz_batch_to_space_2,
    [MC_OP_SPACE_TO_BATCH] = &mc_fuzz_space_to_batch_2,
    [MC_OP_SPACE_TO_DEPTH] = &mc_fuzz_space_to_depth_1,
    [MC_OP_DEPTH_TO_SPACE] = &mc_fuzz_depth_to_space_1,
    [MC_OP_EXTRACT_IMAGE_PATCHES] = &mc_fuzz_extract_image_patches_3,
    [MC_OP_SHUFFLE_CHANNELS] = &mc_fuzz_shuffle_channels_1,
    [MC_OP_SLICE] = &mc_fuzz_slice_8,
};
_Static_assert(sizeof fuzz_ops / sizeof fuzz_ops[0] == MC_OP_COUNT,
               "fuzz_ops: a row per operation");

const mc_fuzz_op_desc *mc_fuzz_op_of(mc_op op) {
  return (int)op >= 0 && op < MC_OP_COUNT ? fuzz_ops[op] : NULL;
}
