/* Transpose-1 as the definition reads: output axis k walks input axis p_k,
   with p = input_order, or the axes reversed when input_order is empty.
   The shared transpose helper does the walk. Clauses: spec/transpose_1.md;
   errata E39 to E44. */
#include <assert.h>
#include <stdio.h>

#include "common/error.h"
#include "common/layout.h"
#include "movconf/tensor.h"
#include "oracle/oracle_ops.h"

enum { ORDER = 1 };

/* Element i of input_order as an exact integer, a u64 above INT64_MAX read
   as INT64_MAX: out of range either way (E42). TR-V1 to TR-V3 hold, so the
   read cannot fail. */
static int64_t order_value(const mc_tensor *order, int64_t i) {
  int64_t v = 0;
  bool read = mc_side_value_saturating(order, i, &v);
  assert(read);
  (void)read;
  return v;
}

/* Element i of input_order as stored, for messages. */
static void order_text(const mc_tensor *order, int64_t i, char *buf, size_t len) {
  if (mc_type_get(order->type)->is_signed)
    snprintf(buf, len, "%lld", (long long)order_value(order, i));
  else
    snprintf(buf, len, "%llu", (unsigned long long)mc_load_bits(order->data, order->type, i));
}

/* TR-V1 to TR-V3: the form of input_order. */
static mc_status check_form(const mc_request *req, mc_error *err) {
  const int rank = req->inputs[0]->rank;
  const mc_tensor *order = req->inputs[ORDER];
  if (!mc_type_is_side_integer(order->type))
    return mc_fail(err, MC_E_SIDE_INPUT_TYPE, "TR-V1",
                   "input_order has type %s; an integer type is required",
                   mc_type_name(order->type));
  if (order->rank != 1)
    return mc_fail(err, MC_E_SIDE_INPUT_RANK, "TR-V2", "input_order has rank %d; it must be 1-D",
                   order->rank);
  if (order->shape[0] != rank && order->shape[0] != 0)
    return mc_fail(err, MC_E_SIDE_INPUT_LENGTH, "TR-V3",
                   "input_order has %lld elements; data has rank %d (or 0 for reversed axes)",
                   (long long)order->shape[0], rank);
  return MC_OK;
}

/* TR-V4, TR-V5 and TR-S1: every value in range before any repeat is looked
   for; fills perm. */
static mc_status check_values(const mc_request *req, int *perm, mc_error *err) {
  const int rank = req->inputs[0]->rank;
  const mc_tensor *order = req->inputs[ORDER];
  char text[24];
  if (order->shape[0] == 0) { /* TR-S1: reversed axes */
    for (int k = 0; k < rank; k++)
      perm[k] = rank - 1 - k;
    return MC_OK;
  }
  for (int k = 0; k < rank; k++) {
    const int64_t v = order_value(order, k);
    if (v >= 0 && v < rank)
      continue;
    order_text(order, k, text, sizeof text);
    return mc_fail(err, MC_E_AXIS_OUT_OF_RANGE, "TR-V4",
                   "input_order[%d] is %s; it must be in [0, %d]", k, text, rank - 1);
  }
  int first_index[MC_MAX_RANK];
  for (int a = 0; a < rank; a++)
    first_index[a] = -1;
  for (int k = 0; k < rank; k++) {
    const int a = (int)order_value(order, k);
    if (first_index[a] >= 0)
      return mc_fail(err, MC_E_AXES_NOT_UNIQUE, "TR-V5",
                     "input_order[%d] and input_order[%d] both name axis %d", first_index[a], k, a);
    first_index[a] = k;
    perm[k] = a;
  }
  return MC_OK;
}

mc_status mc_oracle_transpose_1(const mc_request *req, size_t cap, mc_tensor *out, mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  int perm[MC_MAX_RANK];
  mc_status s = check_form(req, err);
  if (s == MC_OK)
    s = check_values(req, perm, err);
  if (s != MC_OK)
    return s;
  /* TR-O1: out.dim[k] = data.dim[p_k]. */
  const mc_shape in_shape = mc_shape_make(data->rank, data->shape);
  const mc_shape out_shape = mc_transpose_shape(&in_shape, perm);
  s = mc_oracle_alloc_output(out, data->type, out_shape.rank, out_shape.dim, cap, err);
  if (s == MC_OK) /* TR-S2 */
    mc_transpose(data->type, &in_shape, data->data, perm, out->data);
  return s;
}
