/* SpaceToDepth-1 and DepthToSpace-1 as the specification's steps:
   reshape, transpose with the mode's permutation, reshape.
   Clauses: spec/space_to_depth_1.md, spec/depth_to_space_1.md. */
#include <string.h>

#include "common/checked.h"
#include "common/error.h"
#include "movconf/tensor.h"
#include "oracle/oracle_ops.h"

/* V1-V4 of either operation (prefix "S2D" or "D2S"); yields mode and block size. */
static mc_status check_attributes(const mc_request *req, const char *const clause[4],
                                  mc_depth_mode *mode, int64_t *block, mc_error *err) {
  const mc_attrs *a = &req->attrs;
  if (req->inputs[0]->rank < 3)
    return mc_fail(err, MC_E_DATA_RANK, clause[0], "data has rank %d; at least 3 is required",
                   req->inputs[0]->rank);
  const char *mode_text = mc_attrs_string(a, MC_ATTR_MODE);
  if (!mode_text)
    return mc_fail(err, MC_E_MODE_MISSING, clause[1], "the mode attribute is required");
  if (strcmp(mode_text, "blocks_first") == 0)
    *mode = MC_BLOCKS_FIRST;
  else if (strcmp(mode_text, "depth_first") == 0)
    *mode = MC_DEPTH_FIRST;
  else
    return mc_fail(err, MC_E_MODE_INVALID, clause[2],
                   "mode \"%.64s\" is neither blocks_first nor depth_first", mode_text);
  *block = mc_attrs_int(a, MC_ATTR_BLOCK_SIZE); /* 1 when absent */
  if (*block < 1)
    return mc_fail(err, MC_E_BLOCK_SIZE_BELOW_ONE, clause[3], "block_size is %lld; it must be >= 1",
                   (long long)*block);
  return MC_OK;
}

static const char *const s2d_clauses[4] = {"S2D-V1", "S2D-V2", "S2D-V3", "S2D-V4"};
static const char *const d2s_clauses[4] = {"D2S-V1", "D2S-V2", "D2S-V3", "D2S-V4"};

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

mc_status mc_oracle_space_to_depth(const mc_request *req, size_t cap, mc_tensor *out,
                                   mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  const int k = data->rank - 2;
  mc_depth_mode mode;
  int64_t bs, out_shape[MC_MAX_RANK];
  mc_status s = check_attributes(req, s2d_clauses, &mode, &bs, err);
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

mc_status mc_oracle_depth_to_space(const mc_request *req, size_t cap, mc_tensor *out,
                                   mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  const int k = data->rank - 2;
  mc_depth_mode mode;
  int64_t bs, out_shape[MC_MAX_RANK];
  mc_status s = check_attributes(req, d2s_clauses, &mode, &bs, err);
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
