/* Clauses of ExtractImagePatches-3, spec/extract_image_patches_3.md: rows of clause_table
   (src/common/clauses.c includes them through the generated
   clauses_ops.h). No include guard: a list of rows. */
/* clang-format off */
{"EIP-V1", V, "data rank is 4: [batch, depth, in_rows, in_cols]"},
{"EIP-V2", V, "attributes sizes, strides, rates and auto_pad are given"},
{"EIP-V3", V, "sizes, strides and rates have exactly 2 values"},
{"EIP-V4", V, "sizes[i] >= 1"},
{"EIP-V5", V, "strides[i] >= 1"},
{"EIP-V6", V, "rates[i] >= 1"},
{"EIP-V7", V, "auto_pad is valid, same_upper or same_lower"},
{"EIP-S1", S, "effective patch size eff = (size - 1) * rate + 1"},
{"EIP-S2", S,
 "out = in >= eff ? (in - eff) / stride + 1 : 0 (valid); ceil(in / stride) (same_*)"},
{"EIP-S3", S,
 "pad = max(0, (out-1)*stride + eff - in); same_upper begins with floor(pad/2), same_lower "
 "with ceil(pad/2)"},
{"EIP-S4", S,
 "out[b, (r*size_cols + c)*depth + d, i, j] = padded[b, d, i*stride_r + r*rate_r, j*stride_c + "
 "c*rate_c]"},
{"EIP-O1", S,
 "output type is the data type; shape [batch, size_rows*size_cols*depth, out_rows, out_cols]"},
    /* clang-format on */
