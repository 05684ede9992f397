/* Round trips of Gather-8. */
#include "movconf/tensor.h"
#include "roundtrip_ops.h"

/* batch_dims 0 and 1-D indices 0..d-1 on the gathered axis (accepted:
   GA-V5 held, so axis reads). */
static bool is_identity(const mc_request *req) {
  const mc_tensor *data = req->inputs[0], *indices = req->inputs[1];
  int64_t x = 0;
  mc_side_value(req->inputs[2], 0, &x);
  const int64_t a = x < 0 ? x + data->rank : x;
  if (mc_attrs_int(&req->attrs, MC_ATTR_BATCH_DIMS) != 0 || indices->rank != 1 ||
      indices->shape[0] != data->shape[a])
    return false;
  for (int64_t i = 0; i < indices->shape[0]; i++) {
    int64_t v = -1;
    mc_side_value(indices, i, &v);
    if (v != i)
      return false;
  }
  return true;
}

const mc_roundtrip_op mc_roundtrip_gather_8 = {is_identity, NULL};
