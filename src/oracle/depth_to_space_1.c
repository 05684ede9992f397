/* DepthToSpace-1 as the specification's steps: reshape with the mode's
   layout, transpose, reshape. Clauses: spec/depth_to_space_1.md; the
   attribute checks it shares with SpaceToDepth-1 are in space_depth_common.c. */
#include "common/checked.h"
#include "common/error.h"
#include "movconf/tensor.h"
#include "oracle/space_depth_common.h"

static const char *const d2s_clauses[4] = {"D2S-V1", "D2S-V2", "D2S-V3", "D2S-V4"};

/* MC-L3 on bs^K, D2S-V5, then MC-L3 on D_i*bs; fills the output shape. */
static mc_status d2s_output_shape(const mc_tensor *data, int64_t bs, int64_t *out_shape,
                                  mc_error *err) {
  const int k = data->rank - 2;
  int64_t block_volume;
  if (!mc_pow_i64(bs, k, &block_volume))
    return mc_fail(err, MC_E_SHAPE_OVERFLOW, "MC-L3", "block_size^%d overflows int64", k);
  if (data->shape[1] % block_volume != 0)
    return mc_fail(err, MC_E_DEPTH_NOT_DIVISIBLE, "D2S-V5",
                   "depth C = %lld is not divisible by block_size^%d = %lld",
                   (long long)data->shape[1], k, (long long)block_volume);
  out_shape[0] = data->shape[0];
  out_shape[1] = data->shape[1] / block_volume;
  for (int i = 0; i < k; i++)
    if (!mc_mul_i64(data->shape[2 + i], bs, &out_shape[2 + i]))
      return mc_fail(err, MC_E_SHAPE_OVERFLOW, "MC-L3", "D_%d * block_size overflows int64", i + 1);
  return MC_OK;
}

mc_status mc_oracle_depth_to_space_1(const mc_request *req, size_t cap, mc_tensor *out,
                                     mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  const int k = data->rank - 2;
  mc_depth_mode mode;
  int64_t bs, out_shape[MC_MAX_RANK];
  mc_status s = mc_oracle_space_depth_attributes(req, d2s_clauses, &mode, &bs, err);
  if (s == MC_OK)
    s = d2s_output_shape(data, bs, out_shape, err);
  if (s == MC_OK)
    s = mc_oracle_alloc_output(out, data->type, data->rank, out_shape, cap, err);
  if (s != MC_OK)
    return s;

  /* D2S-S1: blocks_first x' = reshape(data, [N, bs, ..., bs, C/bs^K, D_1..D_K]);
     depth_first x' = reshape(data, [N, C/bs^K, bs, ..., bs, D_1..D_K]). */
  mc_shape x1 = {.rank = 2 * k + 2};
  x1.dim[0] = data->shape[0];
  const int depth_axis = mode == MC_BLOCKS_FIRST ? k + 1 : 1;
  const int first_block_axis = mode == MC_BLOCKS_FIRST ? 1 : 2;
  x1.dim[depth_axis] = out_shape[1];
  for (int i = 0; i < k; i++) {
    x1.dim[first_block_axis + i] = bs;
    x1.dim[k + 2 + i] = data->shape[2 + i];
  }
  /* D2S-S2: blocks_first [0, K+1, K+2, 1, K+3, 2, ..., 2K+1, K];
     depth_first [0, 1, K+2, 2, K+3, 3, ..., 2K+1, K+1]: depth, then (D_i, block_i) pairs. */
  int perm[MC_MAX_WORK_RANK];
  perm[0] = 0;
  perm[1] = depth_axis;
  for (int i = 0; i < k; i++) {
    perm[2 + 2 * i] = k + 2 + i;
    perm[3 + 2 * i] = first_block_axis + i;
  }
  /* D2S-S3's reshape to [N, C/bs^K, D_1*bs, ...] leaves the bytes as they are. */
  mc_transpose(data->type, &x1, data->data, perm, out->data);
  return MC_OK;
}
