/* Clauses of StridedSlice-1, spec/strided_slice_1.md: rows of clause_table
   (src/common/clauses.c includes them through the generated
   clauses_ops.h). No include guard: a list of rows. */
/* clang-format off */
{"SS-V1", V, "begin, end, stride have side-input integer types"},
{"SS-V2", V, "begin, end, stride have rank 1"},
{"SS-V3", V, "end and stride have the length of begin"},
{"SS-V4", V, "every mask element is 0 or 1"},
{"SS-V5", V, "at most one ellipsis bit among the entries"},
{"SS-V6", V, "every stride is non-zero"},
{"SS-V7", V, "no more indexing entries than data axes"},
{"SS-V8", V, "a shrink index lies inside its axis"},
{"SS-V9", V, "the output rank is at most 16"},
{"SS-S1", S, "the kind of each entry: ellipsis, new axis, shrink, ordinary"},
{"SS-S2", S, "the walk over the data axes; the rest kept whole"},
{"SS-S3", S, "an ordinary entry is Slice-8's slice, masked bounds replaced"},
{"SS-S4", S, "read positions b'' + j * s, shrink indices, whole axes"},
{"SS-O1", S, "output type is the data's; shape from the walk"},
    /* clang-format on */
