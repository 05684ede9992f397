/* The generator's table of operations: a row per operation, its
   descriptor in src/gen/ops/<slug>.c. */
#include "gen/gen_build.h"

extern const mc_gen_op_desc mc_gen_batch_to_space_2, mc_gen_space_to_batch_2,
    mc_gen_space_to_depth_1, mc_gen_depth_to_space_1, mc_gen_extract_image_patches_3,
    mc_gen_shuffle_channels_1, mc_gen_slice_8;

/* A missing last row fails the build, a hole in the middle
   unit/test_op_tables ("generator parameters"). */
static const mc_gen_op_desc *const gen_ops[] = {
    [MC_OP_BATCH_TO_SPACE] = &mc_gen_batch_to_space_2,
    [MC_OP_SPACE_TO_BATCH] = &mc_gen_space_to_batch_2,
    [MC_OP_SPACE_TO_DEPTH] = &mc_gen_space_to_depth_1,
    [MC_OP_DEPTH_TO_SPACE] = &mc_gen_depth_to_space_1,
    [MC_OP_EXTRACT_IMAGE_PATCHES] = &mc_gen_extract_image_patches_3,
    [MC_OP_SHUFFLE_CHANNELS] = &mc_gen_shuffle_channels_1,
    [MC_OP_SLICE] = &mc_gen_slice_8,
};
_Static_assert(sizeof gen_ops / sizeof gen_ops[0] == MC_OP_COUNT, "gen_ops: a row per operation");

const mc_gen_op_desc *mc_gen_op_of(mc_op op) {
  return (int)op >= 0 && op < MC_OP_COUNT ? gen_ops[op] : NULL;
}

const char *const *mc_gen_param_names(mc_op op) {
  const mc_gen_op_desc *desc = mc_gen_op_of(op);
  return desc ? desc->param_names : NULL;
}
