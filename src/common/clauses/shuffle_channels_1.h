/* Clauses of ShuffleChannels-1, spec/shuffle_channels_1.md: rows of clause_table
   (src/common/clauses.c includes them through the generated
   clauses_ops.h). No include guard: a list of rows. */
/* clang-format off */
{"SC-V1", V, "data rank >= 1"},
{"SC-V2", V, "axis in [-rank, rank-1] (default 1)"},
{"SC-V3", V, "group >= 1 (default 1)"},
{"SC-V4", V, "d_axis is divisible by group"},
{"SC-S1", S, "reshape to [outer, group, C/group, inner]"},
{"SC-S2", S, "transpose [0, 2, 1, 3]"},
{"SC-S3", S, "reshape back to the input's shape"},
{"SC-O1", S, "output type and shape are the data's"},
    /* clang-format on */
