/* Clauses of Transpose-1, spec/transpose_1.md: rows of clause_table
   (src/common/clauses.c includes them through the generated
   clauses_ops.h). No include guard: a list of rows. */
/* clang-format off */
{"TR-V1", V, "input_order has a side-input integer type"},
{"TR-V2", V, "input_order has rank 1"},
{"TR-V3", V, "input_order has r elements, or none"},
{"TR-V4", V, "every order value in [0, r-1]"},
{"TR-V5", V, "the order values are distinct"},
{"TR-S1", S, "the permutation: input_order, or r-1, ..., 0 when empty"},
{"TR-S2", S, "output axis k walks input axis p_k"},
{"TR-O1", S, "output type is the data's; shape [d_{p_0}, ..., d_{p_{r-1}}]"},
    /* clang-format on */
