/* ShuffleChannels-1 as the specification's steps: reshape to the 4-D view
   [outer, group, C/group, inner], transpose [0, 2, 1, 3], reshape back.
   Clauses: spec/shuffle_channels_1.md. */
#include "common/error.h"
#include "movconf/tensor.h"
#include "oracle/oracle_ops.h"

/* SC-V1 to SC-V4 in order; yields the normalised axis and the group. */
static mc_status check_clauses(const mc_request *req, int *axis, int64_t *group, mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  const int rank = data->rank;
  if (rank < 1)
    return mc_fail(err, MC_E_DATA_RANK, "SC-V1", "data has rank %d; at least 1 is required", rank);
  const int64_t given_axis = mc_attrs_int(&req->attrs, MC_ATTR_AXIS); /* 1 when absent */
  if (given_axis < -(int64_t)rank || given_axis > (int64_t)rank - 1)
    return mc_fail(err, MC_E_AXIS_OUT_OF_RANGE, "SC-V2", "axis %lld is outside [%d, %d]",
                   (long long)given_axis, -rank, rank - 1);
  *axis = (int)(given_axis < 0 ? given_axis + rank : given_axis);
  *group = mc_attrs_int(&req->attrs, MC_ATTR_GROUP); /* 1 when absent */
  if (*group < 1)
    return mc_fail(err, MC_E_GROUP_BELOW_ONE, "SC-V3", "group is %lld; it must be >= 1",
                   (long long)*group);
  if (data->shape[*axis] % *group != 0)
    return mc_fail(err, MC_E_CHANNEL_NOT_DIVISIBLE, "SC-V4",
                   "d_%d = %lld is not divisible by group %lld", *axis,
                   (long long)data->shape[*axis], (long long)*group);
  return MC_OK;
}

/* x' = [outer, group, C/group, inner]. outer and inner are sub-products of
   the data's shape, whose product of non-zero dimensions passed MC-L3
   (check_tensor_form): they fit and need no check of their own, as in the
   optimized validation. */
static mc_shape view_shape(const mc_tensor *data, int axis, int64_t group) {
  int64_t outer = 1, inner = 1;
  for (int a = 0; a < axis; a++)
    outer *= data->shape[a];
  for (int a = axis + 1; a < data->rank; a++)
    inner *= data->shape[a];
  return mc_shape_make(4, (int64_t[]){outer, group, data->shape[axis] / group, inner});
}

mc_status mc_oracle_shuffle_channels_1(const mc_request *req, size_t cap, mc_tensor *out,
                                       mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  int axis = 0;
  int64_t group = 1;
  mc_status s = check_clauses(req, &axis, &group, err);
  if (s == MC_OK)
    s = mc_oracle_alloc_output(out, data->type, data->rank, data->shape, cap, err);
  if (s != MC_OK)
    return s;
  /* SC-S1 (x1 is the reshape, which moves no data), SC-S2: transpose
     [0, 2, 1, 3]; SC-S3's reshape back to data's shape moves none either. */
  const mc_shape x1 = view_shape(data, axis, group);
  mc_transpose(data->type, &x1, data->data, (const int[]){0, 2, 1, 3}, out->data);
  return MC_OK;
}
