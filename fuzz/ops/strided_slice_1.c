/* Round trips of StridedSlice-1: the identity only (what it drops is gone). */
#include "movconf/tensor.h"
#include "roundtrip_ops.h"

/* No entries at all, and no mask bit set: every data axis kept whole. */
static bool is_identity(const mc_request *req) {
  if (req->inputs[1]->rank != 1 || req->inputs[1]->shape[0] != 0)
    return false;
  for (int a = 0; a < mc_op_attr_count(req->op); a++) {
    const mc_int_list *l = mc_attrs_list(&req->attrs, mc_op_attr(req->op, a));
    for (int k = 0; k < l->count && k < MC_MAX_ATTR_LEN; k++)
      if (l->v[k] != 0)
        return false;
  }
  return true;
}

const mc_roundtrip_op mc_roundtrip_strided_slice_1 = {is_identity, NULL};
