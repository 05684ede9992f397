/* Round trips of ShuffleChannels-1. */
#include "roundtrip_ops.h"

/* The channel axis' length of an accepted request. */
static int64_t shuffled_channels(const mc_request *req) {
  const int rank = req->inputs[0]->rank;
  const int64_t axis = mc_attrs_int(&req->attrs, MC_ATTR_AXIS);
  return req->inputs[0]->shape[axis < 0 ? axis + rank : axis];
}

/* One group, or one channel per group. */
static bool is_identity(const mc_request *req) {
  return mc_attrs_int(&req->attrs, MC_ATTR_GROUP) == 1 ||
         mc_attrs_int(&req->attrs, MC_ATTR_GROUP) == shuffled_channels(req);
}

/* C / group groups undo group groups. */
static bool inverse(const mc_request *req, mc_request *inv) {
  if (shuffled_channels(req) == 0)
    return false;
  mc_attrs_set_int(&inv->attrs, MC_ATTR_GROUP,
                   shuffled_channels(req) / mc_attrs_int(&req->attrs, MC_ATTR_GROUP));
  return true;
}

const mc_roundtrip_op mc_roundtrip_shuffle_channels_1 = {is_identity, inverse};
