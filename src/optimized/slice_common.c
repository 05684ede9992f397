/* Slice-8's bound reading and count, shared with StridedSlice-1
   (slice_common.h). Clauses: spec/slice_8.md SL-S2. */
#include "optimized/slice_common.h"

#include "movconf/tensor.h"

int64_t mc_opt_slice_value(const mc_tensor *t, int64_t k) {
  int64_t v;
  return mc_side_value(t, k, &v) ? v : INT64_MAX;
}

static int64_t slice_clamp(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* Exact: start + d is formed only for a negative start, the spans are at
   most d, and |step| is taken unsigned (INT64_MIN has none in int64). */
int64_t mc_opt_slice_count(int64_t d, int64_t start, int64_t stop, int64_t step, int64_t *first) {
  const int64_t lo = step > 0 ? 0 : -1, hi = step > 0 ? d : d - 1;
  const int64_t from = slice_clamp(start < 0 ? start + d : start, lo, hi);
  const int64_t to = slice_clamp(stop < 0 ? stop + d : stop, lo, hi);
  const int64_t span = step > 0 ? to - from : from - to;
  *first = from;
  if (span <= 0)
    return 0;
  const uint64_t magnitude = step > 0 ? (uint64_t)step : 0 - (uint64_t)step;
  return (int64_t)(1 + (uint64_t)(span - 1) / magnitude);
}
