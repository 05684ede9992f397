/* What Slice-8 and StridedSlice-1 share in the oracle: one axis's slice by
   Python's rule (SL-S2, errata E32 to E34) and the strided crop that reads
   it (SL-S3). StridedSlice-1's ordinary entries are Slice-8's slices
   (SS-S3); its new and shrunk axes only reshape the same elements. */
#ifndef MOVCONF_ORACLE_SLICE_COMMON_H
#define MOVCONF_ORACLE_SLICE_COMMON_H

#include "movconf/ops.h"

/* One axis in the form SL-S3 reads it: reversed or not, then every
   step-th element from begin, count of them. */
typedef struct mc_axis_slice {
  bool reversed;
  int64_t begin; /* in the axis as read (reversed or not) */
  uint64_t step; /* |step|: 2^63 for INT64_MIN (E33) */
  int64_t count;
} mc_axis_slice;

/* Element i of side input k as an exact integer, a u64 above INT64_MAX read
   as INT64_MAX (E34). The input's type, rank and length were checked. */
int64_t mc_slice_side(const mc_request *req, int k, int64_t i);

/* The whole axis of dimension d: begin 0, step 1, d elements. */
mc_axis_slice mc_slice_whole(int64_t d);

/* SL-S2 on one axis of dimension d, step != 0: Python's rule, in exact
   arithmetic. */
mc_axis_slice mc_slice_axis(int64_t start, int64_t stop, int64_t step, int64_t d);

/* SL-S3: with plan[a] for every axis of data, writes the elements read, in
   row-major order of the counts, to out (room for their product). */
mc_status mc_slice_data(const mc_tensor *data, const mc_axis_slice *plan, uint8_t *out,
                        mc_error *err);

#endif
