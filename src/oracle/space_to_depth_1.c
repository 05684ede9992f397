/* SpaceToDepth-1 as the specification's steps: reshape, transpose with the
   mode's permutation, reshape. Clauses: spec/space_to_depth_1.md; the
   attribute checks it shares with DepthToSpace-1 are in space_depth_common.c. */
#include "common/checked.h"
#include "common/error.h"
#include "movconf/tensor.h"
#include "oracle/space_depth_common.h"

static const char *const s2d_clauses[4] = {"S2D-V1", "S2D-V2", "S2D-V3", "S2D-V4"};

/* S2D-V5, then MC-L3 on bs^K and C*bs^K; fills the output shape. */
static mc_status s2d_output_shape(const mc_tensor *data, int64_t bs, int64_t *out_shape,
                                  mc_error *err) {
  const int k = data->rank - 2;
  for (int i = 0; i < k; i++)
    if (data->shape[2 + i] % bs != 0)
      return mc_fail(err, MC_E_SPATIAL_NOT_DIVISIBLE, "S2D-V5",
                     "spatial dimension D_%d = %lld is not divisible by block_size %lld", i + 1,
                     (long long)data->shape[2 + i], (long long)bs);
  int64_t block_volume;
  if (!mc_pow_i64(bs, k, &block_volume) || !mc_mul_i64(data->shape[1], block_volume, &out_shape[1]))
    return mc_fail(err, MC_E_SHAPE_OVERFLOW, "MC-L3", "C * block_size^%d overflows int64", k);
  out_shape[0] = data->shape[0];
  for (int i = 0; i < k; i++)
    out_shape[2 + i] = data->shape[2 + i] / bs;
  return MC_OK;
}

mc_status mc_oracle_space_to_depth_1(const mc_request *req, size_t cap, mc_tensor *out,
                                     mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  const int k = data->rank - 2;
  mc_depth_mode mode;
  int64_t bs, out_shape[MC_MAX_RANK];
  mc_status s = mc_oracle_space_depth_attributes(req, s2d_clauses, &mode, &bs, err);
  if (s == MC_OK)
    s = s2d_output_shape(data, bs, out_shape, err);
  if (s == MC_OK)
    s = mc_oracle_alloc_output(out, data->type, data->rank, out_shape, cap, err);
  if (s != MC_OK)
    return s;

  /* S2D-S1: x' = reshape(data, [N, C, D_1/bs, bs, ..., D_K/bs, bs]). */
  mc_shape x1 = {.rank = 2 * k + 2};
  x1.dim[0] = data->shape[0];
  x1.dim[1] = data->shape[1];
  for (int i = 0; i < k; i++) {
    x1.dim[2 + 2 * i] = out_shape[2 + i];
    x1.dim[3 + 2 * i] = bs;
  }
  /* S2D-S2: blocks_first [0, 3, 5, ..., 2K+1, 1, 2, 4, ..., 2K];
     depth_first [0, 1, 3, 5, ..., 2K+1, 2, 4, ..., 2K]. */
  int perm[MC_MAX_WORK_RANK];
  int next = 0;
  perm[next++] = 0;
  if (mode == MC_DEPTH_FIRST)
    perm[next++] = 1;
  for (int i = 0; i < k; i++)
    perm[next++] = 3 + 2 * i;
  if (mode == MC_BLOCKS_FIRST)
    perm[next++] = 1;
  for (int i = 0; i < k; i++)
    perm[next++] = 2 + 2 * i;
  /* S2D-S3's reshape to [N, C*bs^K, D_1/bs, ...] leaves the bytes as they are. */
  mc_transpose(data->type, &x1, data->data, perm, out->data);
  return MC_OK;
}
