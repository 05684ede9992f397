/* Round-trip properties: see roundtrip.h. Each operation's are in
   fuzz/ops/<slug>.c, a row of the table below. */
#include "roundtrip.h"

#include "movconf/tensor.h"
#include "roundtrip_ops.h"

extern const mc_roundtrip_op mc_roundtrip_batch_to_space_2, mc_roundtrip_space_to_batch_2,
    mc_roundtrip_space_to_depth_1, mc_roundtrip_depth_to_space_1,
    mc_roundtrip_extract_image_patches_3, mc_roundtrip_shuffle_channels_1, mc_roundtrip_slice_8;

/* A missing last row fails the build; a hole in the middle only weakens
   the target (no identity, no inverse checked). */
static const mc_roundtrip_op *const roundtrip_ops[] = {
    [MC_OP_BATCH_TO_SPACE] = &mc_roundtrip_batch_to_space_2,
    [MC_OP_SPACE_TO_BATCH] = &mc_roundtrip_space_to_batch_2,
    [MC_OP_SPACE_TO_DEPTH] = &mc_roundtrip_space_to_depth_1,
    [MC_OP_DEPTH_TO_SPACE] = &mc_roundtrip_depth_to_space_1,
    [MC_OP_EXTRACT_IMAGE_PATCHES] = &mc_roundtrip_extract_image_patches_3,
    [MC_OP_SHUFFLE_CHANNELS] = &mc_roundtrip_shuffle_channels_1,
    [MC_OP_SLICE] = &mc_roundtrip_slice_8,
};
_Static_assert(sizeof roundtrip_ops / sizeof roundtrip_ops[0] == MC_OP_COUNT,
               "roundtrip_ops: a row per operation");

static const mc_roundtrip_op *roundtrip_op(mc_op op) {
  return (int)op >= 0 && op < MC_OP_COUNT ? roundtrip_ops[op] : NULL;
}

bool mc_roundtrip_side_all(const mc_tensor *t, int64_t v) {
  int64_t n = t->shape[0];
  for (int64_t i = 0; i < n; i++) {
    int64_t x;
    if (!mc_side_value(t, i, &x) || x != v)
      return false;
  }
  return true;
}

bool mc_roundtrip_is_identity(const mc_request *req) {
  const mc_roundtrip_op *desc = roundtrip_op(req->op);
  return desc && desc->is_identity(req);
}

bool mc_roundtrip_inverse(const mc_request *req, const mc_tensor *forward, mc_request *inv) {
  const mc_roundtrip_op *desc = roundtrip_op(req->op);
  *inv = *req;
  inv->inputs[0] = forward;
  return desc && desc->inverse && desc->inverse(req, inv);
}
