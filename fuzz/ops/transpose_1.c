/* Round trips of Transpose-1. */
#include "movconf/tensor.h"
#include "roundtrip_ops.h"

/* Value k of an accepted input_order (TR-V4 held: it reads). */
static int order_at(const mc_request *req, int k) {
  int64_t v = 0;
  mc_side_value(req->inputs[1], k, &v);
  return (int)v;
}

/* input_order 0..r-1, or empty (reversed axes) on at most one axis. */
static bool is_identity(const mc_request *req) {
  const int rank = req->inputs[0]->rank;
  if (req->inputs[1]->shape[0] == 0)
    return rank <= 1;
  for (int k = 0; k < rank; k++)
    if (order_at(req, k) != k)
      return false;
  return true;
}

/* A permutation that is its own inverse undoes itself with the same
   input_order: the reversal (empty) always, else when p[p[k]] = k. */
static bool inverse(const mc_request *req, mc_request *inv) {
  (void)inv;
  if (req->inputs[1]->shape[0] == 0)
    return true;
  for (int k = 0; k < req->inputs[0]->rank; k++)
    if (order_at(req, order_at(req, k)) != k)
      return false;
  return true;
}

const mc_roundtrip_op mc_roundtrip_transpose_1 = {is_identity, inverse};
