/* The operations movconf knows: one line per operation, in enum order (the
   numbers cross the plugin ABI and fuzz bytes: append, never reorder).
   MC_OP(NAME, slug) gives the enum suffix (MC_OP_<NAME>) and the slug that
   names every file of the operation and every hook of every layer's table
   (docs/adding-an-operation.md): mc_oracle_<slug>, mc_opt_validate_<slug>,
   mc_kernel_<slug>[_avx2], mc_gen_<slug>, mc_fuzz_<slug>,
   mc_fuzz_layout_<slug>, mc_roundtrip_<slug>. Each includer defines MC_OP
   for what it builds (the enum, declarations, a table's rows), includes
   this file and undefines MC_OP: no include guard, on purpose. */
#ifndef MC_OP
#error "define MC_OP(NAME, slug) before including movconf/op_list.h"
#endif
/* clang-format off */
MC_OP(BATCH_TO_SPACE, batch_to_space_2)
MC_OP(SPACE_TO_BATCH, space_to_batch_2)
MC_OP(SPACE_TO_DEPTH, space_to_depth_1)
MC_OP(DEPTH_TO_SPACE, depth_to_space_1)
MC_OP(EXTRACT_IMAGE_PATCHES, extract_image_patches_3)
MC_OP(SHUFFLE_CHANNELS, shuffle_channels_1)
MC_OP(SLICE, slice_8)
/* clang-format on */
