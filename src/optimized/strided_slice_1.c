/* StridedSlice-1 as a Slice-8 of the data axes: the validation reads the
   entries into a Slice-8 plan (per data axis the first index, the signed
   step and the count; a shrunk axis one element at its index, a whole axis
   step 1) and the output's own shape beside it (new axes of 1, shrunk axes
   gone), which holds the same elements in the same order. The kernel is
   Slice-8's on that plan. The validation is compiled once; the kernel
   twice, like the others (kernels_avx2.c). Clauses:
   spec/strided_slice_1.md. */
#include "optimized/kernels.h"

#ifndef MC_KERNELS_AVX2
#include "common/error.h"
#include "movconf/tensor.h"
#include "optimized/slice_common.h"

enum { SS_BEGIN = 1, SS_END, SS_STRIDE };

/* The five masks' bits for one entry, read once. */
typedef struct ss_bits {
  bool begin, end, new_axis, shrink, ellipsis;
} ss_bits;

/* Element i of the mask, 0 past its end (E60, and past the values kept). */
static bool ss_mask(const mc_request *req, mc_attr id, int64_t i) {
  const mc_int_list *l = mc_attrs_list(&req->attrs, id);
  return i < l->count && i < MC_MAX_ATTR_LEN && l->v[i] != 0;
}

static ss_bits ss_bits_of(const mc_request *req, int64_t i) {
  return (ss_bits){ss_mask(req, MC_ATTR_BEGIN_MASK, i), ss_mask(req, MC_ATTR_END_MASK, i),
                   ss_mask(req, MC_ATTR_NEW_AXIS_MASK, i),
                   ss_mask(req, MC_ATTR_SHRINK_AXIS_MASK, i),
                   ss_mask(req, MC_ATTR_ELLIPSIS_MASK, i)};
}

/* Entries with a data axis of their own: neither the ellipsis nor a new
   axis (SS-S1's precedence). */
static bool ss_indexes(ss_bits b) {
  return !b.ellipsis && !b.new_axis;
}

static int64_t ss_stride(const mc_request *req, int64_t i) {
  return req->n_inputs > SS_STRIDE ? mc_opt_slice_value(req->inputs[SS_STRIDE], i) : 1;
}

/* SS-V1 to SS-V3, each over every side input present. */
static mc_status ss_check_side_form(const mc_request *req, int64_t m, mc_error *err) {
  for (int i = SS_BEGIN; i < req->n_inputs; i++)
    if (!mc_type_is_side_integer(req->inputs[i]->type))
      return mc_fail(err, MC_E_SIDE_INPUT_TYPE, "SS-V1", "%s has type %s, not a side-input integer",
                     mc_op_input_name(req->op, i), mc_type_name(req->inputs[i]->type));
  for (int i = SS_BEGIN; i < req->n_inputs; i++)
    if (req->inputs[i]->rank != 1)
      return mc_fail(err, MC_E_SIDE_INPUT_RANK, "SS-V2", "%s has rank %d, it must be 1-D",
                     mc_op_input_name(req->op, i), req->inputs[i]->rank);
  for (int i = SS_END; i < req->n_inputs; i++)
    if (req->inputs[i]->shape[0] != m)
      return mc_fail(err, MC_E_SIDE_INPUT_LENGTH, "SS-V3", "%s has %lld values, begin has %lld",
                     mc_op_input_name(req->op, i), (long long)req->inputs[i]->shape[0],
                     (long long)m);
  return MC_OK;
}

/* SS-V4 to SS-V7; *indexing is C. */
static mc_status ss_check_values(const mc_request *req, int64_t m, int64_t *indexing,
                                 mc_error *err) {
  for (int a = 0; a < mc_op_attr_count(req->op); a++) {
    const mc_int_list *l = mc_attrs_list(&req->attrs, mc_op_attr(req->op, a));
    for (int k = 0; k < l->count && k < MC_MAX_ATTR_LEN; k++)
      if ((uint64_t)l->v[k] > 1)
        return mc_fail(err, MC_E_MASK_INVALID, "SS-V4", "%s holds %lld, not 0 or 1",
                       mc_attr_name(mc_op_attr(req->op, a)), (long long)l->v[k]);
  }
  int64_t ellipses = 0;
  for (int64_t i = 0; i < m; i++)
    if ((ellipses += ss_mask(req, MC_ATTR_ELLIPSIS_MASK, i)) > 1)
      return mc_fail(err, MC_E_MASK_INVALID, "SS-V5", "a second ellipsis bit at entry %lld",
                     (long long)i);
  for (int64_t i = 0; i < m; i++)
    if (ss_stride(req, i) == 0)
      return mc_fail(err, MC_E_STEP_ZERO, "SS-V6", "stride[%lld] is 0", (long long)i);
  *indexing = 0;
  for (int64_t i = 0; i < m; i++)
    *indexing += ss_indexes(ss_bits_of(req, i));
  return MC_OK;
}

/* One data axis of the plan: count elements from first by step. */
static void ss_axis(mc_opt_plan *plan, int a, int64_t first, int64_t step, int64_t count) {
  plan->out_shape[a] = count;
  plan->first[a] = count == 0 ? 0 : first;
  plan->step[a] = count > 1 ? step : 1;
}

/* SS-S3: an ordinary entry on data axis a, masked bounds replaced (E66). */
static void ss_ordinary(const mc_request *req, mc_opt_plan *plan, int a, int64_t i, ss_bits b) {
  const int64_t step = ss_stride(req, i);
  int64_t begin = mc_opt_slice_value(req->inputs[SS_BEGIN], i);
  int64_t end = mc_opt_slice_value(req->inputs[SS_END], i);
  if (b.begin)
    begin = step > 0 ? 0 : INT64_MAX;
  if (b.end)
    end = step > 0 ? INT64_MAX : INT64_MIN;
  int64_t first = 0;
  const int64_t count = mc_opt_slice_count(plan->in_shape[a], begin, end, step, &first);
  ss_axis(plan, a, first, step, count);
}

/* SS-V8: the shrink index of entry i on data axis a. */
static mc_status ss_shrink(const mc_request *req, mc_opt_plan *plan, int a, int64_t i,
                           mc_error *err) {
  const int64_t d = plan->in_shape[a], given = mc_opt_slice_value(req->inputs[SS_BEGIN], i);
  const int64_t index = given < 0 ? given + d : given;
  if (index < 0 || index >= d)
    return mc_fail(err, MC_E_INDEX_OUT_OF_RANGE, "SS-V8",
                   "shrink entry %lld: index %lld outside an axis of %lld", (long long)i,
                   (long long)given, (long long)d);
  ss_axis(plan, a, index, 1, 1);
  return MC_OK;
}

/* An output axis of the view; counted past MC_MAX_RANK for SS-V9. */
static void ss_view_axis(mc_opt_plan *plan, int64_t *n, int64_t size) {
  if (*n < MC_MAX_RANK)
    plan->view_shape[*n] = size;
  (*n)++;
}

/* SS-S2: the entries in order over the data axes, then the rest whole. */
static mc_status ss_walk(const mc_request *req, mc_opt_plan *plan, int64_t m, int64_t indexing,
                         int64_t *n, mc_error *err) {
  int a = 0;
  for (int64_t i = 0; i < m; i++) {
    const ss_bits b = ss_bits_of(req, i);
    if (b.ellipsis) {
      for (int64_t e = 0; e < plan->rank - indexing; e++, a++)
        ss_view_axis(plan, n, plan->in_shape[a]);
    } else if (b.new_axis) {
      ss_view_axis(plan, n, 1);
    } else if (b.shrink) {
      mc_status s = ss_shrink(req, plan, a++, i, err);
      if (s != MC_OK)
        return s;
    } else {
      ss_ordinary(req, plan, a, i, b);
      ss_view_axis(plan, n, plan->out_shape[a++]);
    }
  }
  for (; a < plan->rank; a++)
    ss_view_axis(plan, n, plan->in_shape[a]);
  return MC_OK;
}

mc_status mc_opt_validate_strided_slice_1(const mc_request *req, mc_opt_plan *plan, mc_error *err) {
  const int64_t m = req->inputs[SS_BEGIN]->rank == 1 ? req->inputs[SS_BEGIN]->shape[0] : 0;
  mc_status s = ss_check_side_form(req, m, err);
  int64_t indexing = 0, n = 0;
  if (s == MC_OK)
    s = ss_check_values(req, m, &indexing, err);
  if (s == MC_OK && indexing > plan->rank)
    s = mc_fail(err, MC_E_TOO_MANY_INDICES, "SS-V7", "%lld indexing entries for %d data axes",
                (long long)indexing, plan->rank);
  if (s != MC_OK)
    return s;
  /* Whole axes (the ellipsis's and the rest) keep these. */
  for (int a = 0; a < plan->rank; a++)
    ss_axis(plan, a, 0, 1, plan->in_shape[a]);
  s = ss_walk(req, plan, m, indexing, &n, err);
  if (s == MC_OK && n > MC_MAX_RANK)
    s = mc_fail(err, MC_E_RANK_LIMIT, "SS-V9", "an output of %lld axes, over %d", (long long)n,
                MC_MAX_RANK);
  plan->view = true;
  plan->view_rank = (int)n;
  plan->stream_counts_reads = true; /* as Slice-8: it reads what it writes */
  return s;
}
#endif

/* Slice-8's kernel on the plan of the data axes. */
void MC_KERNEL(mc_kernel_strided_slice_1)(const mc_kernel_job *job) {
  MC_KERNEL(mc_kernel_slice_8)(job);
}
