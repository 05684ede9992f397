/* Clauses of BatchToSpace-2, spec/batch_to_space_2.md: rows of clause_table
   (src/common/clauses.c includes them through the generated
   clauses_ops.h). No include guard: a list of rows. */
/* clang-format off */
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
    /* clang-format on */
