/* Clauses of DepthToSpace-1, spec/depth_to_space_1.md: rows of clause_table
   (src/common/clauses.c includes them through the generated
   clauses_ops.h). No include guard: a list of rows. */
/* clang-format off */
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
    /* clang-format on */
