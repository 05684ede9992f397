/* ExtractImagePatches-3 as its definition reads: for every patch position
   and every sample inside the patch, copy the (zero-padded) input element.
   Clauses: spec/extract_image_patches_3.md. */
#include <string.h>

#include "common/checked.h"
#include "common/error.h"
#include "movconf/tensor.h"
#include "oracle/oracle_ops.h"

/* One spatial axis (rows or columns) after validation. */
typedef struct patch_axis {
  int64_t in, size, stride, rate;
  int64_t eff;       /* EIP-S1 */
  int64_t out;       /* EIP-S2 */
  int64_t pad_begin; /* EIP-S3 */
} patch_axis;

typedef enum pad_kind { PAD_VALID, PAD_SAME_UPPER, PAD_SAME_LOWER, PAD_UNKNOWN } pad_kind;

static pad_kind pad_kind_from(const char *name) {
  if (strcmp(name, "valid") == 0)
    return PAD_VALID;
  if (strcmp(name, "same_upper") == 0)
    return PAD_SAME_UPPER;
  if (strcmp(name, "same_lower") == 0)
    return PAD_SAME_LOWER;
  return PAD_UNKNOWN;
}

/* EIP-V4..V6: every value of one list >= 1. */
static mc_status check_positive(const mc_int_list *list, const char *name, mc_status status,
                                const char *clause, mc_error *err) {
  for (int i = 0; i < 2; i++)
    if (list->v[i] < 1)
      return mc_fail(err, status, clause, "%s[%d] is %lld; it must be >= 1", name, i,
                     (long long)list->v[i]);
  return MC_OK;
}

static mc_status check_attributes(const mc_request *req, pad_kind *pad, mc_error *err) {
  const mc_attrs *a = &req->attrs;
  if (req->inputs[0]->rank != 4)
    return mc_fail(err, MC_E_DATA_RANK, "EIP-V1", "data has rank %d; it must be 4",
                   req->inputs[0]->rank);
  const mc_int_list *lists[3] = {mc_attrs_list(a, MC_ATTR_SIZES), mc_attrs_list(a, MC_ATTR_STRIDES),
                                 mc_attrs_list(a, MC_ATTR_RATES)};
  static const char *const names[3] = {"sizes", "strides", "rates"};
  for (int i = 0; i < 3; i++)
    if (lists[i]->count < 0)
      return mc_fail(err, MC_E_ATTRIBUTE_MISSING, "EIP-V2", "attribute %s is required", names[i]);
  const char *auto_pad = mc_attrs_string(a, MC_ATTR_AUTO_PAD);
  if (!auto_pad)
    return mc_fail(err, MC_E_ATTRIBUTE_MISSING, "EIP-V2", "attribute auto_pad is required");
  for (int i = 0; i < 3; i++)
    if (lists[i]->count != 2)
      return mc_fail(err, MC_E_ATTRIBUTE_LENGTH, "EIP-V3", "%s has %d values; it must have 2",
                     names[i], lists[i]->count);
  static const mc_status below_one[3] = {MC_E_SIZES_BELOW_ONE, MC_E_STRIDES_BELOW_ONE,
                                         MC_E_RATES_BELOW_ONE};
  static const char *const clauses[3] = {"EIP-V4", "EIP-V5", "EIP-V6"};
  for (int i = 0; i < 3; i++) {
    mc_status s = check_positive(lists[i], names[i], below_one[i], clauses[i], err);
    if (s != MC_OK)
      return s;
  }
  *pad = pad_kind_from(auto_pad);
  if (*pad == PAD_UNKNOWN)
    return mc_fail(err, MC_E_AUTO_PAD_INVALID, "EIP-V7",
                   "auto_pad \"%.64s\" is not valid, same_upper or same_lower", auto_pad);
  return MC_OK;
}

/* EIP-S1..S3 for one axis, every step under MC-L3. */
static bool plan_axis(patch_axis *ax, pad_kind pad) {
  if (!mc_mul_i64(ax->size - 1, ax->rate, &ax->eff) || !mc_add_i64(ax->eff, 1, &ax->eff))
    return false;
  if (pad == PAD_VALID)
    ax->out = ax->in >= ax->eff ? (ax->in - ax->eff) / ax->stride + 1 : 0;
  else
    ax->out = ax->in == 0 ? 0 : (ax->in - 1) / ax->stride + 1; /* ceil(in / stride) */
  ax->pad_begin = 0;
  if (pad == PAD_VALID || ax->out == 0)
    return true;
  /* (out-1)*stride + eff - in, in an order that cannot overflow: under
     same_* the last window starts inside the input, (out-1)*stride < in. */
  int64_t total = ax->eff - (ax->in - (ax->out - 1) * ax->stride);
  if (total < 0)
    total = 0;
  ax->pad_begin = pad == PAD_SAME_UPPER ? total / 2 : total - total / 2;
  return true;
}

/* Position i*stride + k*rate of the padded axis (EIP-S3), as an index into
   the unpadded input: sampled offset k*rate - pad first, because the padded
   position itself may exceed int64 when rate and pad are huge (errata E25). */
static int64_t unpadded_position(const patch_axis *ax, int64_t i, int64_t k) {
  return i * ax->stride + (k * ax->rate - ax->pad_begin);
}

/* The input element at (row, col) of one channel plane, or -1 where the
   position lies in the zero padding. */
static int64_t padded_index(const patch_axis *rows, const patch_axis *cols, int64_t plane,
                            int64_t r, int64_t c) {
  if (r < 0 || r >= rows->in || c < 0 || c >= cols->in)
    return -1;
  return (plane * rows->in + r) * cols->in + c;
}

mc_status mc_oracle_extract_image_patches_3(const mc_request *req, size_t cap, mc_tensor *out,
                                            mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  const mc_attrs *a = &req->attrs;
  const int64_t *sizes = mc_attrs_list(a, MC_ATTR_SIZES)->v;
  const int64_t *strides = mc_attrs_list(a, MC_ATTR_STRIDES)->v;
  const int64_t *rates = mc_attrs_list(a, MC_ATTR_RATES)->v;
  pad_kind pad;
  mc_status s = check_attributes(req, &pad, err);
  if (s != MC_OK)
    return s;
  patch_axis rows = {
      .in = data->shape[2], .size = sizes[0], .stride = strides[0], .rate = rates[0]};
  patch_axis cols = {
      .in = data->shape[3], .size = sizes[1], .stride = strides[1], .rate = rates[1]};
  const int64_t batch = data->shape[0], depth = data->shape[1];
  int64_t out_shape[4] = {batch, 0, 0, 0};
  if (!plan_axis(&rows, pad) || !plan_axis(&cols, pad) ||
      !mc_mul_i64(depth, rows.size, &out_shape[1]) ||
      !mc_mul_i64(out_shape[1], cols.size, &out_shape[1]))
    return mc_fail(err, MC_E_SHAPE_OVERFLOW, "MC-L3",
                   "patch sizes, rates or the output depth overflow int64");
  out_shape[2] = rows.out;
  out_shape[3] = cols.out;
  s = mc_oracle_alloc_output(out, data->type, 4, out_shape, cap, err);
  if (s != MC_OK || mc_tensor_elements(out) == 0)
    return s; /* an empty output must not walk huge patch loops */

  /* EIP-S4: out[b, (r*size_cols + c)*depth + d, i, j] =
     padded[b, d, i*stride_r + r*rate_r, j*stride_c + c*rate_c]. The output is
     walked in row-major order, so its index simply counts up. */
  int64_t o = 0;
  for (int64_t b = 0; b < batch; b++)
    for (int64_t r = 0; r < rows.size; r++)
      for (int64_t c = 0; c < cols.size; c++)
        for (int64_t d = 0; d < depth; d++)
          for (int64_t i = 0; i < rows.out; i++)
            for (int64_t j = 0; j < cols.out; j++, o++) {
              int64_t src =
                  padded_index(&rows, &cols, b * depth + d, unpadded_position(&rows, i, r),
                               unpadded_position(&cols, j, c));
              if (src >= 0)
                mc_copy_element(out->data, o, data->data, src, data->type);
              /* MC-S2: padding stays all-zero bits (the output starts zeroed). */
            }
  return MC_OK;
}
