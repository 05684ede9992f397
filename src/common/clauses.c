/* The clause registry. Each id here has a paragraph in spec/; the test
   test_clauses.c checks that both lists are the same. */
#include "common/clauses.h"

#include <string.h>

#define V MC_CLAUSE_VALIDITY
#define S MC_CLAUSE_STEP
#define L MC_CLAUSE_LIMIT

static const mc_clause clause_table[] = {
    /* Common to every operation: spec/common.md */
    {"MC-T1", V, "data has one of the supported element types"},
    {"MC-L1", L, "every tensor has rank at most 16 (suite limit)"},
    {"MC-L2", L, "every side-input value is representable as int64"},
    {"MC-L3", L, "every dimension, product and intermediate size is representable as int64"},
    {"MC-L4", L, "the output fits the configured byte cap (default 1 GiB)"},
    {"MC-S1", S, "output elements are bit-exact copies of input elements"},
    {"MC-S2", S, "padding elements have all bits zero"},
    {"MC-S3", S,
     "sub-byte types are packed: u1 element 0 in bit 7, u4/i4 element 0 in the low nibble"},

    /* BatchToSpace-2: spec/batch_to_space_2.md */
    {"B2S-V1", V, "data rank N >= 2"},
    {"B2S-V2", V, "block_shape, crops_begin, crops_end have an integer element type"},
    {"B2S-V3", V, "block_shape, crops_begin, crops_end are 1-D"},
    {"B2S-V4", V, "block_shape, crops_begin, crops_end have N elements"},
    {"B2S-V5", V, "block_shape[i] >= 1"},
    {"B2S-V6", V, "block_shape[0] == 1"},
    {"B2S-V7", V, "crops_begin[i] >= 0 and crops_end[i] >= 0"},
    {"B2S-V8", V, "crops_begin[0] == 0 and crops_end[0] == 0"},
    {"B2S-V9", V, "batch is divisible by the product of block_shape"},
    {"B2S-V10", V, "crops_begin[i] + crops_end[i] <= D_i * block_shape[i]"},
    {"B2S-S1", S, "reshape to [B_1..B_{N-1}, batch/prod(B), D_1..D_{N-1}]"},
    {"B2S-S2", S, "transpose with [N-1, N, 0, N+1, 1, ..., 2N-2, N-2]"},
    {"B2S-S3", S, "reshape to [batch/prod(B), D_1*B_1, ..., D_{N-1}*B_{N-1}]"},
    {"B2S-S4", S, "crop crops_begin[i] at the start and crops_end[i] at the end of axis i"},
    {"B2S-O1", S, "output type is the data type; shape [batch/prod(B), D_i*B_i - CB_i - CE_i]"},

    /* SpaceToBatch-2: spec/space_to_batch_2.md */
    {"S2B-V1", V, "data rank N >= 2"},
    {"S2B-V2", V, "block_shape, pads_begin, pads_end have an integer element type"},
    {"S2B-V3", V, "block_shape, pads_begin, pads_end are 1-D"},
    {"S2B-V4", V, "block_shape, pads_begin, pads_end have N elements"},
    {"S2B-V5", V, "block_shape[i] >= 1"},
    {"S2B-V6", V, "block_shape[0] == 1"},
    {"S2B-V7", V, "pads_begin[i] >= 0 and pads_end[i] >= 0"},
    {"S2B-V8", V, "pads_begin[0] == 0 and pads_end[0] == 0"},
    {"S2B-V9", V, "D_i + pads_begin[i] + pads_end[i] is divisible by block_shape[i]"},
    {"S2B-S1", S, "zero-pad pads_begin[i] before and pads_end[i] after axis i"},
    {"S2B-S2", S,
     "reshape to [batch, (D_1+P_1)/B_1, B_1, ..., (D_{N-1}+P_{N-1})/B_{N-1}, B_{N-1}]"},
    {"S2B-S3", S, "transpose with [2, 4, ..., 2N-2, 0, 1, 3, ..., 2N-3]"},
    {"S2B-S4", S, "reshape to [batch*prod(B), (D_1+P_1)/B_1, ..., (D_{N-1}+P_{N-1})/B_{N-1}]"},
    {"S2B-O1", S, "output type is the data type; shape [batch*prod(B), (D_i+P_i)/B_i]"},

    /* SpaceToDepth-1: spec/space_to_depth_1.md */
    {"S2D-V1", V, "data rank >= 3: [N, C, D_1..D_K]"},
    {"S2D-V2", V, "attribute mode is given"},
    {"S2D-V3", V, "mode is blocks_first or depth_first"},
    {"S2D-V4", V, "block_size >= 1 (default 1)"},
    {"S2D-V5", V, "every D_i is divisible by block_size"},
    {"S2D-S1", S, "reshape to [N, C, D_1/bs, bs, ..., D_K/bs, bs]"},
    {"S2D-S2", S,
     "transpose: blocks_first [0, 3, 5, ..., 2K+1, 1, 2, 4, ..., 2K]; depth_first [0, 1, 3, 5, "
     "..., 2K+1, 2, 4, ..., 2K]"},
    {"S2D-S3", S, "reshape to [N, C*bs^K, D_1/bs, ..., D_K/bs]"},
    {"S2D-O1", S, "output type is the data type; shape [N, C*bs^K, D_1/bs, ..., D_K/bs]"},

    /* DepthToSpace-1: spec/depth_to_space_1.md */
    {"D2S-V1", V, "data rank >= 3: [N, C, D_1..D_K]"},
    {"D2S-V2", V, "attribute mode is given"},
    {"D2S-V3", V, "mode is blocks_first or depth_first"},
    {"D2S-V4", V, "block_size >= 1 (default 1)"},
    {"D2S-V5", V, "C is divisible by bs^K"},
    {"D2S-S1", S,
     "reshape: blocks_first [N, bs..bs, C/bs^K, D_1..D_K]; depth_first [N, C/bs^K, bs..bs, "
     "D_1..D_K]"},
    {"D2S-S2", S,
     "transpose: blocks_first [0, K+1, K+2, 1, ..., 2K+1, K]; depth_first [0, 1, K+2, 2, ..., "
     "2K+1, K+1]"},
    {"D2S-S3", S, "reshape to [N, C/bs^K, D_1*bs, ..., D_K*bs]"},
    {"D2S-O1", S, "output type is the data type; shape [N, C/bs^K, D_1*bs, ..., D_K*bs]"},

    /* ExtractImagePatches-3: spec/extract_image_patches_3.md */
    {"EIP-V1", V, "data rank is 4: [batch, depth, in_rows, in_cols]"},
    {"EIP-V2", V, "attributes sizes, strides, rates and auto_pad are given"},
    {"EIP-V3", V, "sizes, strides and rates have exactly 2 values"},
    {"EIP-V4", V, "sizes[i] >= 1"},
    {"EIP-V5", V, "strides[i] >= 1"},
    {"EIP-V6", V, "rates[i] >= 1"},
    {"EIP-V7", V, "auto_pad is valid, same_upper or same_lower"},
    {"EIP-S1", S, "effective patch size eff = (size - 1) * rate + 1"},
    {"EIP-S2", S,
     "out = in >= eff ? (in - eff) / stride + 1 : 0 (valid); ceil(in / stride) (same_*)"},
    {"EIP-S3", S,
     "pad = max(0, (out-1)*stride + eff - in); same_upper begins with floor(pad/2), same_lower "
     "with ceil(pad/2)"},
    {"EIP-S4", S,
     "out[b, (r*size_cols + c)*depth + d, i, j] = padded[b, d, i*stride_r + r*rate_r, j*stride_c + "
     "c*rate_c]"},
    {"EIP-O1", S,
     "output type is the data type; shape [batch, size_rows*size_cols*depth, out_rows, out_cols]"},

    /* ShuffleChannels-1: spec/shuffle_channels_1.md */
    {"SC-V1", V, "data rank >= 1"},
    {"SC-V2", V, "axis in [-rank, rank-1] (default 1)"},
    {"SC-V3", V, "group >= 1 (default 1)"},
    {"SC-V4", V, "d_axis is divisible by group"},
    {"SC-S1", S, "reshape to [outer, group, C/group, inner]"},
    {"SC-S2", S, "transpose [0, 2, 1, 3]"},
    {"SC-S3", S, "reshape back to the input's shape"},
    {"SC-O1", S, "output type and shape are the data's"},

    /* Slice-8: spec/slice_8.md */
    {"SL-V1", V, "data rank >= 1"},
    {"SL-V2", V, "start, stop, step, axes have side-input integer types"},
    {"SL-V3", V, "start, stop, step, axes have rank 1"},
    {"SL-V4", V, "stop, step, axes have the length of start"},
    {"SL-V5", V, "every step is non-zero"},
    {"SL-V6", V, "every axis in [-rank, rank-1] (default 0..n-1)"},
    {"SL-V7", V, "the normalised axes are distinct"},
    {"SL-S1", S, "normalise the axes; unnamed axes are taken whole"},
    {"SL-S2", S, "per named axis, Python's clamping of start and stop and the count"},
    {"SL-S3", S, "y[j] = data[start' + j * step] on every axis"},
    {"SL-O1", S, "output type is the data's; shape [count_0, ..., count_{r-1}]"},
    {NULL, V, NULL},
};

#undef V
#undef S
#undef L

const mc_clause *mc_clause_table(void) {
  return clause_table;
}

const mc_clause *mc_clause_find(const char *id) {
  if (!id)
    return NULL;
  for (const mc_clause *c = clause_table; c->id; c++)
    if (strcmp(c->id, id) == 0)
      return c;
  return NULL;
}
