/* Round trips of Slice-8: the identity only (what it drops is gone). */
#include "movconf/tensor.h"
#include "roundtrip_ops.h"

/* Every named axis read whole, forwards: step 1 from 0 (or from -d or
   before, which clamps to 0) to d or past it. A value mc_side_value
   cannot read (u64 above INT64_MAX, which clamps to the end) is no
   identity. */
static bool is_identity(const mc_request *req) {
  const mc_tensor *data = req->inputs[0];
  const int64_t n = req->inputs[1]->shape[0];
  for (int64_t i = 0; i < n; i++) {
    int64_t axis = i, start, stop, step;
    if ((req->n_inputs > 4 && !mc_side_value(req->inputs[4], i, &axis)) ||
        !mc_side_value(req->inputs[1], i, &start) || !mc_side_value(req->inputs[2], i, &stop) ||
        !mc_side_value(req->inputs[3], i, &step))
      return false;
    const int64_t d = data->shape[axis < 0 ? axis + data->rank : axis];
    if (step != 1 || (start != 0 && start > -d) || stop < d)
      return false;
  }
  return true;
}

const mc_roundtrip_op mc_roundtrip_slice_8 = {is_identity, NULL};
