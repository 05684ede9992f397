/* BatchToSpace-2 as the specification's steps: reshape, transpose, reshape,
   then crop. Clauses: spec/batch_to_space_2.md; the checks it shares with
   SpaceToBatch-2 are in batch_space_common.c. */
#include <stdlib.h>

#include "common/checked.h"
#include "common/error.h"
#include "movconf/tensor.h"
#include "oracle/batch_space_common.h"

static const mc_batch_space_clauses b2s_clauses = {"B2S-V1", "B2S-V2", "B2S-V3",
                                                   "B2S-V4", "B2S-V5", "B2S-V6"};

/* B2S-V9, B2S-V10 with their MC-L3 checks; fills the output shape. */
static mc_status b2s_output_shape(const mc_tensor *data, const mc_side_values *sv,
                                  int64_t *out_shape, mc_error *err) {
  const int n = data->rank;
  int64_t block_product;
  if (!mc_product_i64(sv->block, n, &block_product))
    return mc_fail(err, MC_E_SHAPE_OVERFLOW, "MC-L3", "the product of block_shape overflows int64");
  if (data->shape[0] % block_product != 0)
    return mc_fail(err, MC_E_BATCH_NOT_DIVISIBLE, "B2S-V9",
                   "batch %lld is not divisible by the block product %lld",
                   (long long)data->shape[0], (long long)block_product);
  out_shape[0] = data->shape[0] / block_product;
  for (int i = 1; i < n; i++) {
    int64_t full, cropped;
    if (!mc_mul_i64(data->shape[i], sv->block[i], &full))
      return mc_fail(err, MC_E_SHAPE_OVERFLOW, "MC-L3", "D_%d * block_shape[%d] overflows int64", i,
                     i);
    /* A sum beyond int64 is beyond D_i * B_i too: the clause fails exactly. */
    if (!mc_add_i64(sv->begin[i], sv->end[i], &cropped) || cropped > full)
      return mc_fail(err, MC_E_CROP_EXCEEDS, "B2S-V10",
                     "crops_begin[%d] + crops_end[%d] exceeds D_%d * block_shape[%d] = %lld", i, i,
                     i, i, (long long)full);
    out_shape[i] = full - cropped;
  }
  return MC_OK;
}

mc_status mc_oracle_batch_to_space_2(const mc_request *req, size_t cap, mc_tensor *out,
                                     mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  const int n = data->rank;
  mc_side_values sv;
  int64_t out_shape[MC_MAX_RANK];
  mc_status s = mc_oracle_batch_space_shared(req, &b2s_clauses, &sv, err);
  if (s == MC_OK)
    s = mc_oracle_batch_space_amounts(req, &sv, MC_E_CROP_NEGATIVE, "B2S-V7",
                                      MC_E_CROP_FIRST_NOT_ZERO, "B2S-V8", err);
  if (s == MC_OK)
    s = b2s_output_shape(data, &sv, out_shape, err);
  if (s == MC_OK)
    s = mc_oracle_alloc_output(out, data->type, n, out_shape, cap, err);
  if (s != MC_OK)
    return s;

  /* B2S-S1: x' = reshape(data, [B_1..B_{N-1}, batch/prod(B), D_1..D_{N-1}]). */
  mc_shape x1 = {.rank = 2 * n - 1};
  for (int i = 1; i < n; i++) {
    x1.dim[i - 1] = sv.block[i];
    x1.dim[n - 1 + i] = data->shape[i];
  }
  x1.dim[n - 1] = out_shape[0];
  /* B2S-S2: x'' = transpose(x', [N-1, N, 0, N+1, 1, ..., 2N-2, N-2]) (errata E1). */
  int perm[MC_MAX_WORK_RANK];
  perm[0] = n - 1;
  for (int i = 1; i < n; i++) {
    perm[2 * i - 1] = n - 1 + i;
    perm[2 * i] = i - 1;
  }
  uint8_t *x2 = malloc(data->nbytes ? data->nbytes : 1);
  if (!x2) {
    mc_tensor_free(out);
    return mc_fail(err, MC_E_OUT_OF_MEMORY, NULL, "cannot allocate the transposed intermediate");
  }
  mc_transpose(data->type, &x1, data->data, perm, x2);
  /* B2S-S3: x''' = reshape(x'', [batch/prod(B), D_1*B_1, ..., D_{N-1}*B_{N-1}]). */
  mc_shape x3 = {.rank = n};
  x3.dim[0] = out_shape[0];
  for (int i = 1; i < n; i++)
    x3.dim[i] = data->shape[i] * sv.block[i]; /* checked in b2s_output_shape */
  /* B2S-S4: crop crops_begin[i] at the start, crops_end[i] at the end. */
  int64_t offset[MC_MAX_WORK_RANK] = {0};
  for (int i = 1; i < n; i++)
    offset[i] = sv.begin[i];
  mc_shape y = mc_shape_make(n, out_shape);
  mc_window(data->type, &x3, x2, offset, &y, out->data);
  free(x2);
  return MC_OK;
}
