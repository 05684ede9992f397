/* Slice-8's per-axis rule and strided crop, shared with StridedSlice-1
   (slice_common.h). Clauses: spec/slice_8.md SL-S2, SL-S3. */
#include "oracle/slice_common.h"

#include <assert.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/layout.h"
#include "movconf/tensor.h"

int64_t mc_slice_side(const mc_request *req, int k, int64_t i) {
  int64_t v = 0;
  bool read = mc_side_value_saturating(req->inputs[k], i, &v);
  assert(read);
  (void)read;
  return v;
}

mc_axis_slice mc_slice_whole(int64_t d) {
  return (mc_axis_slice){.reversed = false, .begin = 0, .step = 1, .count = d};
}

/* SL-S2's bound: counted from the end when negative (v < 0 <= d: the sum
   cannot overflow), then clamped into [lo, hi]. */
static int64_t clamp_bound(int64_t v, int64_t d, int64_t lo, int64_t hi) {
  if (v < 0)
    v += d;
  return v < lo ? lo : v > hi ? hi : v;
}

mc_axis_slice mc_slice_axis(int64_t start, int64_t stop, int64_t step, int64_t d) {
  mc_axis_slice s = {.reversed = step < 0};
  /* |step| in uint64: exact for INT64_MIN, whose negation int64 lacks. */
  s.step = step > 0 ? (uint64_t)step : 0 - (uint64_t)step;
  int64_t lo = s.reversed ? -1 : 0, hi = s.reversed ? d - 1 : d;
  int64_t first = clamp_bound(start, d, lo, hi), end = clamp_bound(stop, d, lo, hi);
  int64_t distance = s.reversed ? first - end : end - first; /* in [-d, d] */
  uint64_t span = distance > 0 ? (uint64_t)distance : 0;
  s.count = (int64_t)(span / s.step + (span % s.step != 0));
  /* In the reversed axis, index first of the original is d - 1 - first. */
  s.begin = s.reversed ? d - 1 - first : first;
  return s;
}

/* SL-S3: reverse the axes with a negative step (into a copy of data's
   size), then crop every step-th element from begin on every axis. */
mc_status mc_slice_data(const mc_tensor *data, const mc_axis_slice *plan, uint8_t *out,
                        mc_error *err) {
  mc_shape in_shape = mc_shape_make(data->rank, data->shape);
  int64_t counts[MC_MAX_RANK];
  bool reversed[MC_MAX_RANK], any_reversed = false;
  int64_t begin[MC_MAX_RANK];
  uint64_t step[MC_MAX_RANK];
  for (int a = 0; a < data->rank; a++) {
    counts[a] = plan[a].count;
    reversed[a] = plan[a].reversed;
    any_reversed = any_reversed || reversed[a];
    begin[a] = plan[a].begin;
    step[a] = plan[a].step;
  }
  mc_shape out_shape = mc_shape_make(data->rank, counts);
  uint8_t *backwards = NULL;
  if (any_reversed) {
    backwards = malloc(data->nbytes ? data->nbytes : 1);
    if (!backwards)
      return mc_fail(err, MC_E_OUT_OF_MEMORY, NULL, "cannot allocate the reversed intermediate");
    mc_reverse(data->type, &in_shape, data->data, reversed, backwards);
  }
  mc_strided_crop(data->type, &in_shape, any_reversed ? backwards : data->data, begin, step,
                  &out_shape, out);
  free(backwards);
  return MC_OK;
}
