/* What the optimized validation hands the kernels: every value already
   checked and every size computed with checked arithmetic. Written from the
   output-shape formulas directly, not from the oracle's step shapes. */
#ifndef MOVCONF_OPTIMIZED_PLAN_H
#define MOVCONF_OPTIMIZED_PLAN_H

#include "movconf/ops.h"

typedef struct mc_opt_plan {
  mc_op op;
  mc_type type;
  int rank;     /* data rank N */
  int out_rank; /* the output's: N, unless the validator sets another (Gather) */
  int64_t in_shape[MC_MAX_RANK];
  int64_t out_shape[MC_MAX_RANK];
  int64_t out_elements;
  size_t out_bytes;
  /* Streaming stores (optimized.c), as the operation's validator sets
     them: never_streams when its kernel's rows cannot stream, or are too
     short to gain from it (zero is "may stream"); stream_counts_reads when the bytes it reads count
     toward the threshold beside those it writes. */
  bool never_streams;
  bool stream_counts_reads;
  /* BatchToSpace / SpaceToBatch: block_shape and crops or pads, [0] included. */
  int64_t block[MC_MAX_RANK];
  int64_t begin[MC_MAX_RANK];
  int64_t end[MC_MAX_RANK];
  /* SpaceToDepth / DepthToSpace */
  int64_t block_size;
  bool depth_first;
  /* ExtractImagePatches: [rows, cols] */
  int64_t size[2], stride[2], rate[2];
  int64_t pad_begin[2]; /* zero padding before the first row / column */
  /* ShuffleChannels: the normalised axis */
  int channel_axis;
  int64_t group;
  /* Slice: per axis the first input index read and the signed step between
     reads, 1 on axes of at most one output element (whose step never
     matters, and may be INT64_MIN). */
  int64_t first[MC_MAX_RANK];
  int64_t step[MC_MAX_RANK];
  /* Transpose: output axis k reads input axis perm[k] (the reversed axes
     for an empty input_order). */
  int perm[MC_MAX_RANK];
  /* Pad: begin[] holds pads_begin; the mode (0 constant, 1 edge, 2 reflect,
     3 symmetric) and the bits of the value constant mode writes. */
  int pad_mode;
  uint64_t pad_value;
  /* StridedSlice: out_shape, first and step are a Slice-8 plan of the data
     axes (its kernel's); the output itself has view_rank axes of
     view_shape (new axes of 1, shrunk axes gone: the same elements). */
  bool view;
  int view_rank;
  int64_t view_shape[MC_MAX_RANK];
  /* Gather: data as [batch, pre, axis_len, inner] and indices as [batch,
     count], the indices' elements and type (the request outlives the run). */
  int64_t gather_batch, gather_pre, gather_axis_len, gather_count, gather_inner;
  const uint8_t *gather_indices;
  mc_type gather_index_type;
} mc_opt_plan;

/* The tables of every operation hook (tests/test_op_tables.c): op has a
   validator; the kernel op lacks ("baseline kernel", "avx2 kernel"), or
   NULL. */
bool mc_opt_has_validator(mc_op op);
const char *mc_opt_missing_kernel(mc_op op);

/* Each operation's checks after MC-T1 and MC-L1, in its file
   src/optimized/<slug>.c: fills plan's output shape and the operation's
   fields (the validators table of validate.c). */
#define MC_OP(NAME, slug)                                                                          \
  mc_status mc_opt_validate_##slug(const mc_request *req, mc_opt_plan *plan, mc_error *err);
#include "movconf/op_list.h"
#undef MC_OP

/* The output's rank and shape: out_shape, or StridedSlice's view of it. */
int mc_opt_output_rank(const mc_opt_plan *plan);
const int64_t *mc_opt_output_shape(const mc_opt_plan *plan);

/* MC-L3: `what` does not fit in int64. */
mc_status mc_opt_overflow(mc_error *err, const char *what);

/* Checks req in the order of spec/check-order.md and fills plan. Returns
   exactly the status (and clause) the oracle returns for the same request. */
mc_status mc_opt_validate(const mc_request *req, size_t max_output_bytes, mc_opt_plan *plan,
                          mc_error *err);

#endif
