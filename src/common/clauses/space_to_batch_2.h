/* Clauses of SpaceToBatch-2, spec/space_to_batch_2.md: rows of clause_table
   (src/common/clauses.c includes them through the generated
   clauses_ops.h). No include guard: a list of rows. */
/* clang-format off */
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
    /* clang-format on */
