/* What Slice-8 and StridedSlice-1 share in the optimized validation: the
   exact reading of a bound and SL-S2's count (errata E32 to E34). The
   kernel is Slice-8's: StridedSlice-1's plan is a Slice-8 plan of the data
   axes (slice_8.c). */
#ifndef MOVCONF_OPTIMIZED_SLICE_COMMON_H
#define MOVCONF_OPTIMIZED_SLICE_COMMON_H

#include "movconf/ops.h"

/* Value k of a start, stop or step input as an exact integer; a u64 above
   INT64_MAX reads as INT64_MAX, which clamps the same (SL-S2, E34). */
int64_t mc_opt_slice_value(const mc_tensor *t, int64_t k);

/* SL-S2 on one axis of length d with step != 0: the output count, and in
 *first the first index read. */
int64_t mc_opt_slice_count(int64_t d, int64_t start, int64_t stop, int64_t step, int64_t *first);

#endif
