/* Clauses of Pad-12, spec/pad_12.md: rows of clause_table
   (src/common/clauses.c includes them through the generated
   clauses_ops.h). No include guard: a list of rows. */
/* clang-format off */
{"PAD-V1", V, "data rank >= 1"},
{"PAD-V2", V, "pad_mode is present"},
{"PAD-V3", V, "pad_mode is constant, edge, reflect or symmetric"},
{"PAD-V4", V, "pads_begin, pads_end have side-input integer types"},
{"PAD-V5", V, "pads_begin, pads_end have rank 1"},
{"PAD-V6", V, "pads_begin, pads_end have one element per data axis"},
{"PAD-V7", V, "constant mode: pad_value has the data's element type"},
{"PAD-V8", V, "constant mode: pad_value is a scalar"},
{"PAD-V9", V, "edge, reflect, symmetric: positive pads within the axis"},
{"PAD-S1", S, "position j of an axis reads data position j - pads_begin, folded by mode"},
{"PAD-S2", S, "negative pads crop: the output keeps only the positions it has"},
{"PAD-O1", S, "output type is the data's; dim max(pads_begin + d + pads_end, 0)"},
    /* clang-format on */
