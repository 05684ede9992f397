/* Gather-8 as the definition reads: output [P, I, R] is data [P, v', R]
   with v the index at [P's first b coordinates, I], or zero when v is out
   of range. One output element at a time, coordinates from an odometer.
   Clauses: spec/gather_8.md; errata E80 to E86. */
#include <assert.h>

#include "common/error.h"
#include "movconf/tensor.h"
#include "oracle/oracle_ops.h"

enum { INDICES = 1, AXIS = 2 };

/* Value i of an integer side input exactly, a u64 above INT64_MAX read as
   INT64_MAX: above every bound either way (E80). Its type passed. */
static int64_t side_at(const mc_tensor *t, int64_t i) {
  int64_t v = 0;
  bool read = mc_side_value_saturating(t, i, &v);
  assert(read);
  (void)read;
  return v;
}

/* GA-V1 to GA-V4: the types and the form of axis. */
static mc_status check_forms(const mc_request *req, mc_error *err) {
  const mc_tensor *indices = req->inputs[INDICES], *axis = req->inputs[AXIS];
  if (!mc_type_is_side_integer(indices->type))
    return mc_fail(err, MC_E_SIDE_INPUT_TYPE, "GA-V1",
                   "indices has type %s; an integer type is required", mc_type_name(indices->type));
  if (!mc_type_is_side_integer(axis->type))
    return mc_fail(err, MC_E_SIDE_INPUT_TYPE, "GA-V2",
                   "axis has type %s; an integer type is required", mc_type_name(axis->type));
  if (axis->rank > 1)
    return mc_fail(err, MC_E_SIDE_INPUT_RANK, "GA-V3", "axis has rank %d; it must be 0 or 1",
                   axis->rank);
  if (axis->rank == 1 && axis->shape[0] != 1)
    return mc_fail(err, MC_E_SIDE_INPUT_LENGTH, "GA-V4",
                   "axis has %lld elements; a 1-D axis holds exactly one",
                   (long long)axis->shape[0]);
  return MC_OK;
}

/* GA-V5 to GA-V8: the normalized axis *a and batch_dims *b. */
static mc_status check_axes(const mc_request *req, int *a, int *b, mc_error *err) {
  const mc_tensor *data = req->inputs[0], *indices = req->inputs[INDICES];
  const int64_t r = data->rank, q = indices->rank;
  const int64_t x = side_at(req->inputs[AXIS], 0);
  if (x < -r || x > r - 1)
    return mc_fail(err, MC_E_AXIS_OUT_OF_RANGE, "GA-V5", "axis %lld is not in [%lld, %lld]",
                   (long long)x, (long long)-r, (long long)(r - 1));
  *a = (int)(x < 0 ? x + r : x);
  const int64_t c = mc_attrs_int(&req->attrs, MC_ATTR_BATCH_DIMS);
  if (c < -q || c > q)
    return mc_fail(err, MC_E_AXIS_OUT_OF_RANGE, "GA-V6", "batch_dims %lld is not in [%lld, %lld]",
                   (long long)c, (long long)-q, (long long)q);
  *b = (int)(c < 0 ? c + q : c);
  if (*b > *a)
    return mc_fail(err, MC_E_AXIS_OUT_OF_RANGE, "GA-V7",
                   "batch_dims %d (normalized) is above axis %d (normalized)", *b, *a);
  for (int i = 0; i < *b; i++)
    if (data->shape[i] != indices->shape[i])
      return mc_fail(err, MC_E_BATCH_MISMATCH, "GA-V8",
                     "batch axis %d: data has %lld, indices %lld", i, (long long)data->shape[i],
                     (long long)indices->shape[i]);
  return MC_OK;
}

/* GA-L1 and GA-O1: data.shape[:a] + indices.shape[b:] + data.shape[a+1:]. */
static mc_status output_shape(const mc_request *req, int a, int b, int *rank, int64_t *shape,
                              mc_error *err) {
  const mc_tensor *data = req->inputs[0], *indices = req->inputs[INDICES];
  *rank = data->rank - 1 + indices->rank - b;
  if (*rank > MC_MAX_RANK)
    return mc_fail(err, MC_E_RANK_LIMIT, "GA-L1", "the output would have %d axes, more than %d",
                   *rank, MC_MAX_RANK);
  int k = 0;
  for (int i = 0; i < a; i++)
    shape[k++] = data->shape[i];
  for (int i = b; i < indices->rank; i++)
    shape[k++] = indices->shape[i];
  for (int i = a + 1; i < data->rank; i++)
    shape[k++] = data->shape[i];
  return MC_OK;
}

/* Row-major flat index of coordinates c over shape[0..n). */
static int64_t flat_index(const int64_t *c, const int64_t *shape, int n) {
  int64_t at = 0;
  for (int i = 0; i < n; i++)
    at = at * shape[i] + c[i];
  return at;
}

/* GA-S1: v' for an index value v on an axis of d elements, or -1 when v is
   out of range. */
static int64_t normalized_index(int64_t v, int64_t d) {
  if (v >= -d && v <= -1)
    return v + d;
  if (v >= 0 && v < d)
    return v;
  return -1;
}

/* GA-S2 for the output element at coordinates o. */
static void gather_element(const mc_request *req, int a, int b, const int64_t *o, mc_tensor *out,
                           int64_t at) {
  const mc_tensor *data = req->inputs[0], *indices = req->inputs[INDICES];
  const int q_rest = indices->rank - b;
  int64_t ic[MC_TENSOR_MAX_RANK], dc[MC_TENSOR_MAX_RANK];
  for (int i = 0; i < b; i++)
    ic[i] = o[i];
  for (int i = 0; i < q_rest; i++)
    ic[b + i] = o[a + i];
  const int64_t v = side_at(indices, flat_index(ic, indices->shape, indices->rank));
  const int64_t w = normalized_index(v, data->shape[a]);
  if (w < 0) {
    mc_store_bits(out->data, out->type, at, 0);
    return;
  }
  for (int i = 0; i < a; i++)
    dc[i] = o[i];
  dc[a] = w;
  for (int i = a + 1; i < data->rank; i++)
    dc[i] = o[i - 1 + q_rest];
  mc_copy_element(out->data, at, data->data, flat_index(dc, data->shape, data->rank), data->type);
}

mc_status mc_oracle_gather_8(const mc_request *req, size_t cap, mc_tensor *out, mc_error *err) {
  int a = 0, b = 0, rank = 0;
  int64_t shape[MC_TENSOR_MAX_RANK];
  mc_status s = check_forms(req, err);
  if (s == MC_OK)
    s = check_axes(req, &a, &b, err);
  if (s == MC_OK)
    s = output_shape(req, a, b, &rank, shape, err);
  if (s == MC_OK)
    s = mc_oracle_alloc_output(out, req->inputs[0]->type, rank, shape, cap, err);
  if (s != MC_OK)
    return s;
  const int64_t count = mc_tensor_elements(out);
  int64_t o[MC_TENSOR_MAX_RANK] = {0};
  for (int64_t at = 0; at < count; at++) {
    gather_element(req, a, b, o, out, at);
    for (int k = rank - 1; k >= 0 && ++o[k] == shape[k]; k--)
      o[k] = 0;
  }
  return MC_OK;
}
