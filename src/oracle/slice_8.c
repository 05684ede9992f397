/* Slice-8 as the specification reads: per named axis, normalise the axis
   (SL-S1) and clamp start and stop Python's way (SL-S2), then a strided crop
   (SL-S3): a reverse of the axes with a negative step, then a crop with
   positive steps. Clauses: spec/slice_8.md; errata E31 to E38. */
#include <stdio.h>

#include "common/error.h"
#include "common/layout.h"
#include "movconf/tensor.h"
#include "oracle/oracle_ops.h"
#include "oracle/slice_common.h"

enum { START = 1, STOP = 2, STEP = 3, AXES = 4 };

/* Element i of side input k as stored, for messages: a u64 above INT64_MAX
   prints as itself, not as its saturated reading. */
static void side_text(const mc_request *req, int k, int64_t i, char *buf, size_t len) {
  const mc_tensor *t = req->inputs[k];
  if (mc_type_get(t->type)->is_signed)
    snprintf(buf, len, "%lld", (long long)mc_slice_side(req, k, i));
  else
    snprintf(buf, len, "%llu", (unsigned long long)mc_load_bits(t->data, t->type, i));
}

/* SL-V1 to SL-V4: data rank, then the side inputs' types, ranks, lengths. */
static mc_status check_form(const mc_request *req, mc_error *err) {
  const int rank = req->inputs[0]->rank;
  if (rank < 1)
    return mc_fail(err, MC_E_DATA_RANK, "SL-V1", "data has rank %d; at least 1 is required", rank);
  for (int k = START; k < req->n_inputs; k++)
    if (!mc_type_is_side_integer(req->inputs[k]->type))
      return mc_fail(err, MC_E_SIDE_INPUT_TYPE, "SL-V2",
                     "%s has type %s; an integer type is required", mc_op_input_name(req->op, k),
                     mc_type_name(req->inputs[k]->type));
  for (int k = START; k < req->n_inputs; k++)
    if (req->inputs[k]->rank != 1)
      return mc_fail(err, MC_E_SIDE_INPUT_RANK, "SL-V3", "%s has rank %d; it must be 1-D",
                     mc_op_input_name(req->op, k), req->inputs[k]->rank);
  const int64_t n = req->inputs[START]->shape[0];
  for (int k = STOP; k < req->n_inputs; k++)
    if (req->inputs[k]->shape[0] != n)
      return mc_fail(err, MC_E_SIDE_INPUT_LENGTH, "SL-V4", "%s has %lld elements; start has %lld",
                     mc_op_input_name(req->op, k), (long long)req->inputs[k]->shape[0],
                     (long long)n);
  return MC_OK;
}

/* Axis i as given: axes[i], or i when axes is absent. */
static int64_t given_axis(const mc_request *req, int64_t i) {
  return req->n_inputs > AXES ? mc_slice_side(req, AXES, i) : i;
}

/* SL-V5 to SL-V7 over the n entries; fills axis[i], the normalised axes.
   The values are read one by one: n may exceed the rank until SL-V7. */
static mc_status check_values(const mc_request *req, int *axis, mc_error *err) {
  const int rank = req->inputs[0]->rank;
  const int64_t n = req->inputs[START]->shape[0];
  char text[24];
  for (int64_t i = 0; i < n; i++)
    if (mc_slice_side(req, STEP, i) == 0)
      return mc_fail(err, MC_E_STEP_ZERO, "SL-V5", "step[%lld] is 0; it must be non-zero",
                     (long long)i);
  for (int64_t i = 0; i < n; i++) {
    int64_t a = given_axis(req, i);
    if (a >= -(int64_t)rank && a <= (int64_t)rank - 1)
      continue;
    if (req->n_inputs <= AXES)
      return mc_fail(err, MC_E_AXIS_OUT_OF_RANGE, "SL-V6",
                     "axes is absent, so start's %lld entries name axes 0..%lld; axis %lld is "
                     "outside [%d, %d]",
                     (long long)n, (long long)(n - 1), (long long)a, -rank, rank - 1);
    side_text(req, AXES, i, text, sizeof text);
    return mc_fail(err, MC_E_AXIS_OUT_OF_RANGE, "SL-V6", "axes[%lld] is %s; it must be in [%d, %d]",
                   (long long)i, text, -rank, rank - 1);
  }
  int first_index[MC_MAX_RANK];
  for (int a = 0; a < rank; a++)
    first_index[a] = -1;
  /* Every axis is in range: by pigeonhole a repeat shows by i = rank. */
  for (int i = 0; i < n; i++) {
    int64_t a = given_axis(req, i);
    int normal = (int)(a < 0 ? a + rank : a);
    if (first_index[normal] >= 0)
      return mc_fail(err, MC_E_AXES_NOT_UNIQUE, "SL-V7",
                     "axes[%d] = %lld and axes[%d] = %lld both name axis %d", first_index[normal],
                     (long long)given_axis(req, first_index[normal]), i, (long long)a, normal);
    first_index[normal] = i;
    axis[i] = normal;
  }
  return MC_OK;
}

/* SL-S1 and SL-S2: every axis whole (begin 0, step 1) but the named ones. */
static void plan_axes(const mc_request *req, const int *axis, mc_axis_slice *plan) {
  const mc_tensor *data = req->inputs[0];
  for (int a = 0; a < data->rank; a++)
    plan[a] = mc_slice_whole(data->shape[a]);
  for (int i = 0; i < req->inputs[START]->shape[0]; i++)
    plan[axis[i]] = mc_slice_axis(mc_slice_side(req, START, i), mc_slice_side(req, STOP, i),
                                  mc_slice_side(req, STEP, i), data->shape[axis[i]]);
}

mc_status mc_oracle_slice_8(const mc_request *req, size_t cap, mc_tensor *out, mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  int axis[MC_MAX_RANK];
  mc_axis_slice plan[MC_MAX_RANK];
  int64_t out_shape[MC_MAX_RANK];
  mc_status s = check_form(req, err);
  if (s == MC_OK)
    s = check_values(req, axis, err);
  if (s != MC_OK)
    return s;
  plan_axes(req, axis, plan);
  /* SL-O1: data's type, rank r, shape [count_0, ..., count_{r-1}]. */
  for (int a = 0; a < data->rank; a++)
    out_shape[a] = plan[a].count;
  s = mc_oracle_alloc_output(out, data->type, data->rank, out_shape, cap, err);
  if (s == MC_OK)
    s = mc_slice_data(data, plan, out->data, err);
  return s;
}
