/* Round-trip properties: see roundtrip.h. */
#include "roundtrip.h"

#include "movconf/tensor.h"

/* Every value of side input t equals v (t was accepted: integer, 1-D). */
static bool side_all(const mc_tensor *t, int64_t v) {
  int64_t n = t->shape[0];
  for (int64_t i = 0; i < n; i++) {
    int64_t x;
    if (!mc_side_value(t, i, &x) || x != v)
      return false;
  }
  return true;
}

static bool list_is(const mc_int_list *l, int64_t a, int64_t b) {
  return l->count == 2 && l->v[0] == a && l->v[1] == b;
}

/* The channel axis' length of an accepted ShuffleChannels request. */
static int64_t shuffled_channels(const mc_request *req) {
  const int rank = req->inputs[0]->rank;
  const int64_t axis = mc_attrs_int(&req->attrs, MC_ATTR_AXIS);
  return req->inputs[0]->shape[axis < 0 ? axis + rank : axis];
}

bool mc_roundtrip_is_identity(const mc_request *req) {
  switch (req->op) {
  case MC_OP_BATCH_TO_SPACE:
  case MC_OP_SPACE_TO_BATCH:
    return side_all(req->inputs[1], 1) && side_all(req->inputs[2], 0) &&
           side_all(req->inputs[3], 0);
  case MC_OP_SPACE_TO_DEPTH:
  case MC_OP_DEPTH_TO_SPACE:
    return !mc_attrs_present(&req->attrs, MC_ATTR_BLOCK_SIZE) ||
           mc_attrs_int(&req->attrs, MC_ATTR_BLOCK_SIZE) == 1;
  case MC_OP_EXTRACT_IMAGE_PATCHES:
    /* 1x1 patches at stride 1: out = ceil(in / 1) = in and pad = 0 for
       every auto_pad, whatever the rates. */
    return list_is(mc_attrs_list(&req->attrs, MC_ATTR_SIZES), 1, 1) &&
           list_is(mc_attrs_list(&req->attrs, MC_ATTR_STRIDES), 1, 1);
  case MC_OP_SHUFFLE_CHANNELS: /* one group, or one channel per group */
    return mc_attrs_int(&req->attrs, MC_ATTR_GROUP) == 1 ||
           mc_attrs_int(&req->attrs, MC_ATTR_GROUP) == shuffled_channels(req);
  case MC_OP_INVALID:
  case MC_OP_COUNT:
    break;
  }
  return false;
}

bool mc_roundtrip_inverse(const mc_request *req, const mc_tensor *forward, mc_request *inv) {
  *inv = *req;
  inv->inputs[0] = forward;
  switch (req->op) {
  case MC_OP_SPACE_TO_BATCH:
    inv->op = MC_OP_BATCH_TO_SPACE; /* crops = pads */
    return true;
  case MC_OP_BATCH_TO_SPACE:
    /* With crops the data they cut is gone: only zero crops invert. */
    if (!side_all(req->inputs[2], 0) || !side_all(req->inputs[3], 0))
      return false;
    inv->op = MC_OP_SPACE_TO_BATCH;
    return true;
  case MC_OP_SPACE_TO_DEPTH:
    inv->op = MC_OP_DEPTH_TO_SPACE;
    return true;
  case MC_OP_DEPTH_TO_SPACE:
    inv->op = MC_OP_SPACE_TO_DEPTH;
    return true;
  case MC_OP_SHUFFLE_CHANNELS: /* C / group groups undo group groups */
    if (shuffled_channels(req) == 0)
      return false;
    mc_attrs_set_int(&inv->attrs, MC_ATTR_GROUP,
                     shuffled_channels(req) / mc_attrs_int(&req->attrs, MC_ATTR_GROUP));
    return true;
  case MC_OP_EXTRACT_IMAGE_PATCHES: /* no inverse */
  case MC_OP_INVALID:
  case MC_OP_COUNT:
    break;
  }
  return false;
}
