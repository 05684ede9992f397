/* The registry of deliberate faults for mutation testing (docs/mutation.md).
   Building with -DMOVCONF_MUTANT=<name> compiles the optimized kernels with
   that one fault: CMake asks tools/mutation.py (--id NAME), the one reader of
   the list below, for the mutant's position and passes it as
   MOVCONF_MUTANT_ID. Without it the id is 0 and every site compiles to its
   correct expression alone.

   A site is MC_MUTANT(name, correct, faulty): the real expression first, so
   that the code reads as what it does; a condition site's correct value is
   the real condition. A name that is not listed here fails to compile. Keep
   one entry per line, X(name, "description"), without ';' in the text. */
#ifndef MOVCONF_OPTIMIZED_MUTANTS_H
#define MOVCONF_OPTIMIZED_MUTANTS_H

/* clang-format off */
#define MC_MUTANT_LIST(X) \
  X(b2s_inner_crop_ignored, "BatchToSpace: crops_begin ignored on the axes between batch and last") \
  X(b2s_first_group_floor, "BatchToSpace: first whole group rounded down (floor, not ceil, of crops_begin / B): writes before the row") \
  X(b2s_last_element_dropped, "BatchToSpace: trailing partial group ends one element early (last element of such rows unwritten)") \
  X(b2s_batch_split_order, "BatchToSpace: input batch taken as b * B_prod + offset instead of offset * batch' + b") \
  X(b2s_wide_crop_sign, "BatchToSpace, block > 64 on the last axis: first position of an offset computed with +crop instead of -crop") \
  X(s2b_inner_pad_rows_unzeroed, "SpaceToBatch: output rows lying in the padding of an inner axis are not zero-filled") \
  X(s2b_trailing_pad_unzeroed, "SpaceToBatch: zeros after the data at the end of a row (pads_end side) are not written") \
  X(s2b_row_shift_from_pads_end, "SpaceToBatch: the ends of each row shifted by pads_end instead of pads_begin") \
  X(s2b_inner_pad_ignored, "SpaceToBatch: pads_begin ignored on the axes between batch and last") \
  X(s2b_batch_split_order, "SpaceToBatch: output batch taken as b * B_prod + offset instead of offset * batch + b") \
  X(s2d_block_offsets_reversed, "SpaceToDepth: block offset of the last axis most significant instead of least") \
  X(d2s_block_offsets_reversed, "DepthToSpace: block offset of the last axis most significant instead of least") \
  X(s2d_modes_swapped, "SpaceToDepth: blocks_first and depth_first exchanged") \
  X(d2s_modes_swapped, "DepthToSpace: blocks_first and depth_first exchanged") \
  X(d2s_depth_divisible_by_block, "DepthToSpace: depth checked against block_size instead of block_size^K (D2S-V5)") \
  X(s2d_divisibility_last_axis_only, "SpaceToDepth: only the last spatial axis checked for divisibility (S2D-V5)") \
  X(eip_row_rate_ignored, "ExtractImagePatches: rates[0] ignored (rows of a patch taken adjacent)") \
  X(eip_column_stride_from_rows, "ExtractImagePatches: strides[0] used for the columns too") \
  X(eip_padded_rows_unzeroed, "ExtractImagePatches: output rows that fall into the top/bottom padding are not zero-filled") \
  X(eip_channel_order_depth_major, "ExtractImagePatches: output depth ordered (d, r, c) instead of (r, c, d)") \
  X(eip_same_upper_lower_swapped, "ExtractImagePatches: same_upper puts the odd padding element at the start, same_lower at the end") \
  X(eip_valid_count_truncating, "ExtractImagePatches: valid count (D - span) / stride + 1 without the guard, truncating to 1 for patches larger than the input") \
  X(eip_same_count_floor, "ExtractImagePatches: same_* output size floor(D / stride) instead of ceil") \
  X(eip_rates_unchecked, "ExtractImagePatches: rates not checked for >= 1 (EIP-V6)") \
  X(b2s_crops_sum_strict, "BatchToSpace: crops_begin + crops_end == D * B rejected (strict < instead of <=, B2S-V10)") \
  X(b2s_divisibility_unchecked, "BatchToSpace: batch divisibility by the block product not checked (B2S-V9)") \
  X(batch_first_block_unchecked, "BatchToSpace/SpaceToBatch: block_shape[0] == 1 not checked (V6)") \
  X(batch_end_negative_unchecked, "BatchToSpace/SpaceToBatch: crops_end/pads_end not checked for negative values (V7)") \
  X(rank_limit_off_by_one, "all: rank 16 rejected as over the limit (>= instead of >, MC-L1)") \
  X(side_u64_wraps, "BatchToSpace/SpaceToBatch: u64 side values above INT64_MAX read as negative int64 (MC-L2)") \
  X(rows_strided_2byte_as_1byte, "all: strided copies of 2-byte types move 1 byte per element at 1-byte steps") \
  X(rows_nibbles_swapped, "all: packed u4/i4 elements read high nibble first") \
  X(rows_u1_bits_reversed, "all: packed u1 elements read from bit 0 first instead of bit 7") \
  X(pool_last_range_short, "thread pool: the last range ends one row early (gap at the end)") \
  X(pool_range_start_skipped, "thread pool: every range but the first starts one row late (gaps between chunks)") \
  X(stream_tail_dropped, "streaming stores: the bytes after a run's last whole line are not written") \
  X(s2b_staged_pad_end_unzeroed, "SpaceToBatch, streaming: the pads_end part of the staged padded row keeps stale bytes") \
  X(avx2_unweave_tail_dropped, "AVX2 kernels, 2-way de-interleave of 1- and 2-byte elements: the groups after the last whole vector are not written") \
  X(avx2_weave4_quarters_swapped, "AVX2 kernels, 4-way interleave of 1- and 2-byte elements: the first two 16-byte quarters of each step exchanged")
/* clang-format on */

enum {
  MC_MUTANT_ID_none_,
#define MC_MUTANT_ENUM_(name, description) MC_MUTANT_ID_##name,
  MC_MUTANT_LIST(MC_MUTANT_ENUM_)
#undef MC_MUTANT_ENUM_
};

#ifndef MOVCONF_MUTANT_ID
#define MOVCONF_MUTANT_ID 0
#endif

#define MC_MUTANT(name, correct, faulty)                                                           \
  (MOVCONF_MUTANT_ID == MC_MUTANT_ID_##name ? (faulty) : (correct))

#endif
