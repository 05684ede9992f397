/* Clauses of Slice-8, spec/slice_8.md: rows of clause_table
   (src/common/clauses.c includes them through the generated
   clauses_ops.h). No include guard: a list of rows. */
/* clang-format off */
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
    /* clang-format on */
