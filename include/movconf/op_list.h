/* The operations movconf knows: one row per operation, in enum order (the
   numbers cross the plugin ABI and fuzz bytes: append, never reorder).

   MC_OP_ROW(NAME, slug, name, prefix, inputs, required, attrs, traits):
     NAME      the enum suffix, MC_OP_<NAME>
     slug      names every file of the operation and every hook of every
               layer's table (docs/adding-an-operation.md): mc_oracle_<slug>,
               mc_opt_validate_<slug>, mc_kernel_<slug>[_avx2], mc_gen_<slug>,
               mc_bytes_<slug>, mc_fuzz_<slug>, mc_roundtrip_<slug>
     name      OpenVINO's name and opset version: case files, the adapter
               protocol, the plugin ABI, reports
     prefix    of its clause ids (B2S-V1) and, in lower case, its case ids
     inputs    its input names in order, in parentheses
     required  how many of them a request must have; the rest, trailing,
               are optional (absent means the default)
     attrs     its attribute ids (enum mc_attr, ops.h) in parentheses, () for
               none
     traits    0, or what generic code must know of it (ops.h):
               MC_OP_PADS_ZEROS when output elements may come from no data
               element (zeros), MC_OP_DATA_SCALAR(k) when input k is a scalar
               of the data's element type (Pad-12's pad_value), or'ed

   Each includer defines MC_OP_ROW, or only MC_OP(NAME, slug) when the enum
   suffix and slug are all it needs, for what it builds (the enum,
   declarations, a table's rows), includes this file and undefines what it
   defined: no include guard, on purpose. `movconf help operations --json`
   prints the list; tools/check_op_list.py checks the tables outside C
   against it. */
#ifndef MC_OP_ROW
#ifndef MC_OP
#error "define MC_OP(NAME, slug) or MC_OP_ROW(...) before including movconf/op_list.h"
#endif
#define MC_OP_ROW(NAME, slug, name, prefix, inputs, required, attrs, traits) MC_OP(NAME, slug)
#define MC_OP_ROW_FROM_MC_OP
#endif
/* clang-format off */
MC_OP_ROW(BATCH_TO_SPACE, batch_to_space_2, "BatchToSpace-2", "B2S",
          ("data", "block_shape", "crops_begin", "crops_end"), 4, (), 0)
MC_OP_ROW(SPACE_TO_BATCH, space_to_batch_2, "SpaceToBatch-2", "S2B",
          ("data", "block_shape", "pads_begin", "pads_end"), 4, (), MC_OP_PADS_ZEROS)
MC_OP_ROW(SPACE_TO_DEPTH, space_to_depth_1, "SpaceToDepth-1", "S2D",
          ("data"), 1, (MC_ATTR_BLOCK_SIZE, MC_ATTR_MODE), 0)
MC_OP_ROW(DEPTH_TO_SPACE, depth_to_space_1, "DepthToSpace-1", "D2S",
          ("data"), 1, (MC_ATTR_BLOCK_SIZE, MC_ATTR_MODE), 0)
MC_OP_ROW(EXTRACT_IMAGE_PATCHES, extract_image_patches_3, "ExtractImagePatches-3", "EIP",
          ("data"), 1, (MC_ATTR_SIZES, MC_ATTR_STRIDES, MC_ATTR_RATES, MC_ATTR_AUTO_PAD),
          MC_OP_PADS_ZEROS)
MC_OP_ROW(SHUFFLE_CHANNELS, shuffle_channels_1, "ShuffleChannels-1", "SC",
          ("data"), 1, (MC_ATTR_AXIS, MC_ATTR_GROUP), 0)
MC_OP_ROW(SLICE, slice_8, "Slice-8", "SL",
          ("data", "start", "stop", "step", "axes"), 4, (), 0)
MC_OP_ROW(TRANSPOSE, transpose_1, "Transpose-1", "TR",
          ("data", "input_order"), 2, (), 0)
MC_OP_ROW(PAD, pad_12, "Pad-12", "PAD",
          ("data", "pads_begin", "pads_end", "pad_value"), 3, (MC_ATTR_PAD_MODE),
          MC_OP_PADS_ZEROS | MC_OP_DATA_SCALAR(3))
MC_OP_ROW(STRIDED_SLICE, strided_slice_1, "StridedSlice-1", "SS",
          ("data", "begin", "end", "stride"), 3,
          (MC_ATTR_BEGIN_MASK, MC_ATTR_END_MASK, MC_ATTR_NEW_AXIS_MASK, MC_ATTR_SHRINK_AXIS_MASK,
           MC_ATTR_ELLIPSIS_MASK), 0)
MC_OP_ROW(GATHER, gather_8, "Gather-8", "GA",
          ("data", "indices", "axis"), 3, (MC_ATTR_BATCH_DIMS), MC_OP_PADS_ZEROS)
/* clang-format on */
#ifdef MC_OP_ROW_FROM_MC_OP
#undef MC_OP_ROW
#undef MC_OP_ROW_FROM_MC_OP
#endif
