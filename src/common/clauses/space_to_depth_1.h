/* Clauses of SpaceToDepth-1, spec/space_to_depth_1.md: rows of clause_table
   (src/common/clauses.c includes them through the generated
   clauses_ops.h). No include guard: a list of rows. */
/* clang-format off */
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
    /* clang-format on */
