/* StridedSlice-1 as the specification reads: the kind of each entry
   (SS-S1), the walk over the data axes (SS-S2), Slice-8's slice on each
   ordinary entry's axis (SS-S3, the helpers of slice_common.h) and the read
   (SS-S4): the elements come out in the order of a Slice-8 of the data
   axes, the new and shrunk axes only give the output its shape. Clauses:
   spec/strided_slice_1.md; errata E60 to E73. */
#include "common/error.h"
#include "movconf/tensor.h"
#include "oracle/oracle_ops.h"
#include "oracle/slice_common.h"

enum { BEGIN = 1, END = 2, STRIDE = 3 };

typedef enum entry_kind { ORDINARY, SHRINK, NEW_AXIS, ELLIPSIS } entry_kind;

/* Bit i of a mask: element i when there is one, else 0 (E60). Elements past
   the MC_MAX_ATTR_LEN that movconf keeps read as 0. */
static bool bit(const mc_request *req, mc_attr id, int64_t i) {
  const mc_int_list *l = mc_attrs_list(&req->attrs, id);
  return i < l->count && i < MC_MAX_ATTR_LEN && l->v[i] == 1;
}

/* SS-S1: the first bit set of ellipsis, new axis, shrink (E63). */
static entry_kind kind_of(const mc_request *req, int64_t i) {
  if (bit(req, MC_ATTR_ELLIPSIS_MASK, i))
    return ELLIPSIS;
  if (bit(req, MC_ATTR_NEW_AXIS_MASK, i))
    return NEW_AXIS;
  return bit(req, MC_ATTR_SHRINK_AXIS_MASK, i) ? SHRINK : ORDINARY;
}

static int64_t entries(const mc_request *req) {
  return req->inputs[BEGIN]->shape[0];
}

/* stride[i], all ones when stride is absent (E68). */
static int64_t stride(const mc_request *req, int64_t i) {
  return req->n_inputs > STRIDE ? mc_slice_side(req, STRIDE, i) : 1;
}

/* SS-V1 to SS-V3: the side inputs' types, ranks, lengths. */
static mc_status check_form(const mc_request *req, mc_error *err) {
  for (int k = BEGIN; k < req->n_inputs; k++)
    if (!mc_type_is_side_integer(req->inputs[k]->type))
      return mc_fail(err, MC_E_SIDE_INPUT_TYPE, "SS-V1",
                     "%s has type %s; an integer type is required", mc_op_input_name(req->op, k),
                     mc_type_name(req->inputs[k]->type));
  for (int k = BEGIN; k < req->n_inputs; k++)
    if (req->inputs[k]->rank != 1)
      return mc_fail(err, MC_E_SIDE_INPUT_RANK, "SS-V2", "%s has rank %d; it must be 1-D",
                     mc_op_input_name(req->op, k), req->inputs[k]->rank);
  for (int k = END; k < req->n_inputs; k++)
    if (req->inputs[k]->shape[0] != entries(req))
      return mc_fail(err, MC_E_SIDE_INPUT_LENGTH, "SS-V3", "%s has %lld elements; begin has %lld",
                     mc_op_input_name(req->op, k), (long long)req->inputs[k]->shape[0],
                     (long long)entries(req));
  return MC_OK;
}

/* SS-V4 to SS-V6: mask values, one ellipsis, non-zero strides. */
static mc_status check_masks(const mc_request *req, mc_error *err) {
  for (int a = 0; a < mc_op_attr_count(req->op); a++) {
    const mc_attr id = mc_op_attr(req->op, a);
    const mc_int_list *l = mc_attrs_list(&req->attrs, id);
    for (int k = 0; k < l->count && k < MC_MAX_ATTR_LEN; k++)
      if (l->v[k] != 0 && l->v[k] != 1)
        return mc_fail(err, MC_E_MASK_INVALID, "SS-V4", "%s[%d] is %lld; a mask holds 0 or 1",
                       mc_attr_name(id), k, (long long)l->v[k]);
  }
  int64_t first = -1;
  for (int64_t i = 0; i < entries(req); i++) {
    if (!bit(req, MC_ATTR_ELLIPSIS_MASK, i))
      continue;
    if (first >= 0)
      return mc_fail(err, MC_E_MASK_INVALID, "SS-V5",
                     "ellipsis_mask has bits %lld and %lld; at most one is allowed",
                     (long long)first, (long long)i);
    first = i;
  }
  for (int64_t i = 0; i < entries(req); i++)
    if (stride(req, i) == 0)
      return mc_fail(err, MC_E_STEP_ZERO, "SS-V6", "stride[%lld] is 0; it must be non-zero",
                     (long long)i);
  return MC_OK;
}

/* SS-V7: C, the entries that read a data axis, at most r. */
static mc_status check_indices(const mc_request *req, int64_t *indexing, mc_error *err) {
  const int rank = req->inputs[0]->rank;
  *indexing = 0;
  for (int64_t i = 0; i < entries(req); i++)
    *indexing += kind_of(req, i) == ORDINARY || kind_of(req, i) == SHRINK;
  if (*indexing > rank)
    return mc_fail(err, MC_E_TOO_MANY_INDICES, "SS-V7", "%lld entries index data axes; data has %d",
                   (long long)*indexing, rank);
  return MC_OK;
}

/* SS-V8: shrink entry i reads index begin[i] (+ d when negative) of d. */
static mc_status shrink_axis(const mc_request *req, int64_t i, int64_t d, mc_axis_slice *plan,
                             mc_error *err) {
  int64_t b = mc_slice_side(req, BEGIN, i);
  if (b < 0)
    b += d; /* b < 0 <= d: no overflow */
  if (b < 0 || b >= d)
    return mc_fail(err, MC_E_INDEX_OUT_OF_RANGE, "SS-V8",
                   "shrink entry %lld reads index %lld of an axis of %lld", (long long)i,
                   (long long)mc_slice_side(req, BEGIN, i), (long long)d);
  *plan = (mc_axis_slice){.reversed = false, .begin = b, .step = 1, .count = 1};
  return MC_OK;
}

/* SS-S3: an ordinary entry's bounds, a masked one replaced by a value that
   SL-S2 clamps to the first element read or past the last (E66). */
static mc_axis_slice ordinary_axis(const mc_request *req, int64_t i, int64_t d) {
  const int64_t s = stride(req, i);
  int64_t b = mc_slice_side(req, BEGIN, i), e = mc_slice_side(req, END, i);
  if (bit(req, MC_ATTR_BEGIN_MASK, i))
    b = s > 0 ? 0 : INT64_MAX;
  if (bit(req, MC_ATTR_END_MASK, i))
    e = s > 0 ? INT64_MAX : INT64_MIN;
  return mc_slice_axis(b, e, s, d);
}

/* The walk of SS-S2: plan[k] for every data axis; the output's shape in
   out_shape when it is given, else only its rank in *out_rank. */
static mc_status walk(const mc_request *req, int64_t indexing, mc_axis_slice *plan,
                      int64_t *out_shape, int64_t *out_rank, mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  int k = 0;
  int64_t n = 0;
  for (int64_t i = 0; i < entries(req); i++) {
    switch (kind_of(req, i)) {
    case ELLIPSIS:
      for (int64_t e = 0; e < data->rank - indexing; e++, k++, n++) {
        plan[k] = mc_slice_whole(data->shape[k]);
        if (out_shape)
          out_shape[n] = data->shape[k];
      }
      break;
    case NEW_AXIS:
      if (out_shape)
        out_shape[n] = 1;
      n++;
      break;
    case SHRINK: {
      mc_status s = shrink_axis(req, i, data->shape[k], &plan[k], err);
      if (s != MC_OK)
        return s;
      k++;
      break;
    }
    default:
      plan[k] = ordinary_axis(req, i, data->shape[k]);
      if (out_shape)
        out_shape[n] = plan[k].count;
      k++;
      n++;
    }
  }
  for (; k < data->rank; k++, n++) { /* E73: the rest kept whole */
    plan[k] = mc_slice_whole(data->shape[k]);
    if (out_shape)
      out_shape[n] = data->shape[k];
  }
  *out_rank = n;
  return MC_OK;
}

mc_status mc_oracle_strided_slice_1(const mc_request *req, size_t cap, mc_tensor *out,
                                    mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  mc_axis_slice plan[MC_MAX_RANK];
  int64_t out_shape[MC_MAX_RANK], indexing = 0;
  int64_t out_rank = 0;
  mc_status s = check_form(req, err);
  if (s == MC_OK)
    s = check_masks(req, err);
  if (s == MC_OK)
    s = check_indices(req, &indexing, err);
  /* SS-V8 on the walk, then SS-V9 on the rank it counts. */
  if (s == MC_OK)
    s = walk(req, indexing, plan, NULL, &out_rank, err);
  if (s != MC_OK)
    return s;
  if (out_rank > MC_MAX_RANK)
    return mc_fail(err, MC_E_RANK_LIMIT, "SS-V9", "the output would have %lld axes, over %d",
                   (long long)out_rank, MC_MAX_RANK);
  walk(req, indexing, plan, out_shape, &out_rank, err);
  /* SS-O1: data's type, the walk's shape. */
  s = mc_oracle_alloc_output(out, data->type, (int)out_rank, out_shape, cap, err);
  if (s == MC_OK)
    s = mc_slice_data(data, plan, out->data, err);
  return s;
}
