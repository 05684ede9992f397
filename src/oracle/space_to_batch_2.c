/* SpaceToBatch-2 as the specification's steps: zero-pad, then reshape,
   transpose, reshape. Clauses: spec/space_to_batch_2.md; the checks it
   shares with BatchToSpace-2 are in batch_space_common.c. */
#include "common/checked.h"
#include "common/error.h"
#include "movconf/tensor.h"
#include "oracle/batch_space_common.h"

static const mc_batch_space_clauses s2b_clauses = {"S2B-V1", "S2B-V2", "S2B-V3",
                                                   "S2B-V4", "S2B-V5", "S2B-V6"};

/* S2B-V9 with its MC-L3 checks, then the output batch batch*B_1*...*B_{N-1}
   (left to right, so batch 0 never overflows). Fills padded and out shapes. */
static mc_status s2b_output_shape(const mc_tensor *data, const mc_side_values *sv, int64_t *padded,
                                  int64_t *out_shape, mc_error *err) {
  const int n = data->rank;
  padded[0] = data->shape[0];
  for (int i = 1; i < n; i++) {
    if (!mc_add_i64(data->shape[i], sv->begin[i], &padded[i]) ||
        !mc_add_i64(padded[i], sv->end[i], &padded[i]))
      return mc_fail(err, MC_E_SHAPE_OVERFLOW, "MC-L3",
                     "D_%d + pads_begin[%d] + pads_end[%d] overflows int64", i, i, i);
    if (padded[i] % sv->block[i] != 0)
      return mc_fail(err, MC_E_PADDED_NOT_DIVISIBLE, "S2B-V9",
                     "D_%d + pads_begin[%d] + pads_end[%d] = %lld is not divisible by "
                     "block_shape[%d] = %lld",
                     i, i, i, (long long)padded[i], i, (long long)sv->block[i]);
    out_shape[i] = padded[i] / sv->block[i];
  }
  out_shape[0] = data->shape[0];
  for (int i = 1; i < n; i++)
    if (!mc_mul_i64(out_shape[0], sv->block[i], &out_shape[0]))
      return mc_fail(err, MC_E_SHAPE_OVERFLOW, "MC-L3",
                     "batch * product(block_shape) overflows int64");
  return MC_OK;
}

mc_status mc_oracle_space_to_batch_2(const mc_request *req, size_t cap, mc_tensor *out,
                                     mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  const int n = data->rank;
  mc_side_values sv;
  int64_t padded_shape[MC_MAX_RANK], out_shape[MC_MAX_RANK];
  mc_status s = mc_oracle_batch_space_shared(req, &s2b_clauses, &sv, err);
  if (s == MC_OK)
    s = mc_oracle_batch_space_amounts(req, &sv, MC_E_PAD_NEGATIVE, "S2B-V7",
                                      MC_E_PAD_FIRST_NOT_ZERO, "S2B-V8", err);
  if (s == MC_OK)
    s = s2b_output_shape(data, &sv, padded_shape, out_shape, err);
  if (s == MC_OK)
    s = mc_oracle_alloc_output(out, data->type, n, out_shape, cap, err);
  if (s != MC_OK || mc_tensor_elements(out) == 0)
    return s; /* an empty output needs no padded intermediate */

  /* S2B-S1: zero-pad; the padded tensor has exactly the output's size. */
  mc_tensor x;
  if (mc_tensor_alloc(&x, data->type, n, padded_shape, cap) != MC_OK) {
    mc_tensor_free(out);
    return mc_fail(err, MC_E_OUT_OF_MEMORY, NULL, "cannot allocate the padded intermediate");
  }
  int64_t offset[MC_MAX_WORK_RANK] = {0};
  for (int i = 1; i < n; i++)
    offset[i] = -sv.begin[i];
  mc_shape in_shape = mc_shape_make(n, data->shape);
  mc_shape x_shape = mc_shape_make(n, padded_shape);
  mc_window(data->type, &in_shape, data->data, offset, &x_shape, x.data);
  /* S2B-S2: x' = reshape(x, [batch, (D_1+P_1)/B_1, B_1, ..., (D_{N-1}+P_{N-1})/B_{N-1}, B_{N-1}]).
   */
  mc_shape x1 = {.rank = 2 * n - 1};
  x1.dim[0] = data->shape[0];
  for (int i = 1; i < n; i++) {
    x1.dim[2 * i - 1] = out_shape[i];
    x1.dim[2 * i] = sv.block[i];
  }
  /* S2B-S3: transpose(x', [2, 4, ..., 2N-2, 0, 1, 3, ..., 2N-3]) (errata E2);
     S2B-S4's reshape to the output shape is the identity on the bytes. */
  int perm[MC_MAX_WORK_RANK];
  for (int i = 1; i < n; i++) {
    perm[i - 1] = 2 * i;
    perm[n - 1 + i] = 2 * i - 1;
  }
  perm[n - 1] = 0;
  mc_transpose(data->type, &x1, x.data, perm, out->data);
  mc_tensor_free(&x);
  return MC_OK;
}
