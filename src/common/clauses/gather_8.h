/* Clauses of Gather-8, spec/gather_8.md: rows of clause_table
   (src/common/clauses.c includes them through the generated
   clauses_ops.h). No include guard: a list of rows. */
/* clang-format off */
{"GA-V1", V, "indices has a side-input integer type"},
{"GA-V2", V, "axis has a side-input integer type"},
{"GA-V3", V, "axis is a scalar or 1-D"},
{"GA-V4", V, "a 1-D axis has one element"},
{"GA-V5", V, "axis in [-r, r-1]"},
{"GA-V6", V, "batch_dims in [-q, q]"},
{"GA-V7", V, "normalized batch_dims <= normalized axis"},
{"GA-V8", V, "the batch axes of data and indices agree"},
{"GA-L1", L, "output rank r - 1 + q - b at most 16"},
{"GA-S1", S, "an index in [-d, -1] counts from the end; outside [-d, d-1] it is out of range"},
{"GA-S2", S, "output[P, I, R] = data[P, v', R], or zero for an out-of-range index"},
{"GA-O1", S, "output type is the data's; shape data[:a] + indices[b:] + data[a+1:]"},
    /* clang-format on */
