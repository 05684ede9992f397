/* ShuffleChannels-1 without intermediates. With outer = the axes before the
   channel axis, K = C / group and inner = the axes after it, output
   [o, k, g, i] is input [o, g, k, i]: a transpose of the middle two axes of
   [outer, group, K, inner]. Long inner runs are row copies; short ones are
   elements of a G x K matrix per outer index, transposed in tiles.
   Compiled twice like the other kernels (kernels_avx2.c includes this file);
   the validation is compiled once. Clauses: spec/shuffle_channels_1.md. */
#include "optimized/kernels.h"

#ifndef MC_KERNELS_AVX2
#include "common/checked.h"
#include "common/error.h"

/* SC-V1 to SC-V4: an independent reading of the clauses next to the
   oracle's (src/oracle/shuffle_channels_1.c). The 4-D view's sizes are
   sub-products of the data's shape, whose product of non-zero dimensions
   passed MC-L3 in check_input_tensor: they need no check of their own. */
mc_status mc_opt_validate_shuffle_channels_1(const mc_request *req, mc_opt_plan *plan,
                                             mc_error *err) {
  const int rank = plan->rank;
  if (rank < 1)
    return mc_fail(err, MC_E_DATA_RANK, "SC-V1", "data is a scalar; it needs at least one axis");
  const int64_t axis = mc_attrs_int(&req->attrs, MC_ATTR_AXIS); /* 1 when absent */
  /* Compared against the bounds, never negated: axis may be INT64_MIN. */
  if (axis < 0 ? axis < -(int64_t)rank : axis >= (int64_t)rank)
    return mc_fail(err, MC_E_AXIS_OUT_OF_RANGE, "SC-V2", "axis %lld does not name one of %d axes",
                   (long long)axis, rank);
  plan->channel_axis = (int)(axis < 0 ? rank + axis : axis);
  plan->group = mc_attrs_int(&req->attrs, MC_ATTR_GROUP); /* 1 when absent */
  if (plan->group < 1)
    return mc_fail(err, MC_E_GROUP_BELOW_ONE, "SC-V3", "group %lld is below 1",
                   (long long)plan->group);
  const int64_t channels = plan->in_shape[plan->channel_axis];
  if (channels % plan->group != 0)
    return mc_fail(err, MC_E_CHANNEL_NOT_DIVISIBLE, "SC-V4",
                   "channel axis %d of length %lld is not a multiple of group %lld",
                   plan->channel_axis, (long long)channels, (long long)plan->group);
  memcpy(plan->out_shape, plan->in_shape, (size_t)rank * sizeof plan->in_shape[0]);
  return MC_OK;
}
#endif

/* The 4-D view of the plan: [outer, groups, per_group, inner]. */
typedef struct shuffle_view {
  int64_t outer, groups, per_group, inner;
} shuffle_view;

static shuffle_view shuffle_view_of(const mc_opt_plan *p) {
  const int a = p->channel_axis;
  shuffle_view v = {mc_kernel_rows(p->in_shape, a), p->group, p->in_shape[a] / p->group,
                    mc_kernel_rows(p->in_shape + a + 1, p->rank - a - 1)};
  return v;
}

/* Below this many bytes an inner run is an element of the tiled transpose
   rather than a row copy of its own. */
enum { SHUFFLE_ROW_MIN_BYTES = 64, SHUFFLE_TILE = 32 };

typedef struct shuffle_job {
  const mc_kernel_job *job;
  shuffle_view v;
} shuffle_job;

/* Output rows (o, k, g) of `inner` elements, each a copy of input row
   (o, g, k). */
static void shuffle_rows(void *ctx, int64_t begin, int64_t end) {
  const shuffle_job *s = ctx;
  const mc_kernel_job *j = s->job;
  const shuffle_view v = s->v;
  const int64_t dims[3] = {v.outer, v.per_group, v.groups};
  mc_row_walk w;
  mc_row_walk_start(&w, 3, dims, begin);
  for (int64_t row = begin; row < end; row++, mc_row_walk_next(&w)) {
    const int64_t o = w.idx[0], k = w.idx[1], g = w.idx[2];
    const int64_t from = ((o * v.groups + g) * v.per_group + k) * v.inner;
    mc_row_copy(&j->io, j->out, row * v.inner, 1, j->in, from, 1, v.inner);
  }
}

/* Copies one run of `bytes` bytes (< SHUFFLE_ROW_MIN_BYTES). Runs of 1,
   2, 4 and 8 bytes mostly take the weaves; a constant size here is one load
   and one store for the common wider ones (4 f32, 2 f64, 3 f32). */
static inline void copy_run(uint8_t *dst, const uint8_t *src, int64_t bytes) {
  if (bytes == 16)
    memcpy(dst, src, 16);
  else if (bytes == 12)
    memcpy(dst, src, 12);
  else
    memcpy(dst, src, (size_t)bytes);
}

/* Output rows (o, k) of the per-outer K x G matrix, G runs of `inner`
   elements each, filled in SHUFFLE_TILE x SHUFFLE_TILE tiles so that the
   reads of input rows (o, g) and the writes stay in the cache. */
static void shuffle_tiles(void *ctx, int64_t begin, int64_t end) {
  const shuffle_job *s = ctx;
  const mc_kernel_job *j = s->job;
  const shuffle_view v = s->v;
  const int64_t run = v.inner * (int64_t)j->io.esize;
  for (int64_t row = begin; row < end;) {
    const int64_t o = row / v.per_group, k0 = row % v.per_group;
    int64_t rows = v.per_group - k0 < end - row ? v.per_group - k0 : end - row;
    rows = rows < SHUFFLE_TILE ? rows : SHUFFLE_TILE;
    const uint8_t *in = j->in + o * v.groups * v.per_group * run;
    uint8_t *out = j->out + row * v.groups * run;
    for (int64_t g0 = 0; g0 < v.groups; g0 += SHUFFLE_TILE) {
      const int64_t g1 = v.groups - g0 < SHUFFLE_TILE ? v.groups : g0 + SHUFFLE_TILE;
      for (int64_t k = 0; k < rows; k++)
        for (int64_t g = g0; g < g1; g++)
          copy_run(out + (k * v.groups + g) * run, in + (g * v.per_group + k0 + k) * run, run);
    }
    row += rows;
  }
}

/* A run of `inner` whole-byte elements as one element of the weave, when
   the weave has an element of that size (1, 2, 4 or 8 bytes). */
static bool run_io(const mc_rowio *io, int64_t inner, mc_rowio *run) {
  const int64_t bytes = inner * (int64_t)io->esize;
  *run = *io;
  run->esize = (size_t)bytes;
  return io->esize != 0 && (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8);
}

typedef struct weave_job {
  const mc_kernel_job *job;
  shuffle_view v;
  mc_rowio run;   /* a run of inner elements as one element */
  bool by_groups; /* G ways (G <= MC_MAX_WAYS), else K ways */
} weave_job;

/* at[w] = base + w * step for the ways w of one outer index's weave. */
static void way_starts(int64_t *at, int64_t base, int64_t ways, int64_t step) {
  for (int64_t w = 0; w < ways; w++)
    at[w] = base + w * step;
}

/* The weave's units: per outer index o, by groups the K output pieces
   (o, k) of G runs, out[k*G + g] = in[g*K + k] as the interleave of G
   input rows; else the G input pieces (o, g) of K runs, the de-interleave
   of input row o into K ways. A range of units is cut where o changes, so
   that even one outer index splits over threads. */
static void shuffle_weave(void *ctx, int64_t begin, int64_t end) {
  const weave_job *s = ctx;
  const int64_t groups = s->v.groups, per_group = s->v.per_group, c = groups * per_group;
  const int64_t span = s->by_groups ? per_group : groups;
  int64_t at[MC_MAX_WAYS];
  for (int64_t u = begin; u < end;) {
    const int64_t o = u / span, first = u % span;
    const int64_t n = span - first < end - u ? span - first : end - u;
    if (s->by_groups) {
      /* Whole outer indexes in a row take one call. */
      const int64_t count = first == 0 && n == span ? (end - u) / span : 1;
      way_starts(at, o * c + first, groups, per_group);
      mc_rows_interleave_repeat(&s->run, s->job->out, o * c + first * groups, s->job->in, at,
                                groups, n, count, c);
      u += n * (count - 1);
    } else {
      way_starts(at, o * c + first, per_group, groups);
      mc_rows_deinterleave(&s->run, s->job->out, at, s->job->in, o * c + first * per_group,
                           per_group, n);
    }
    u += n;
  }
}

/* The identity (group 1 or group C): the whole tensor is one row. */
static void shuffle_identity(void *ctx, int64_t begin, int64_t end) {
  const mc_kernel_job *j = ctx;
  mc_row_copy(&j->io, j->out, begin, 1, j->in, begin, 1, end - begin);
}

void MC_KERNEL(mc_kernel_shuffle_channels_1)(const mc_kernel_job *job) {
  const shuffle_job s = {job, shuffle_view_of(job->plan)};
  weave_job w = {job, s.v, job->io, s.v.groups <= MC_MAX_WAYS};
  const bool weave = run_io(&job->io, s.v.inner, &w.run);
  if (s.v.groups == 1 || s.v.per_group == 1) {
    mc_parallel_for(job->threads, job->plan->out_elements, 4096, shuffle_identity, (void *)job);
  } else if (weave && (s.v.groups <= MC_MAX_WAYS || s.v.per_group <= MC_MAX_WAYS)) {
    mc_parallel_for(job->threads, s.v.outer * (w.by_groups ? s.v.per_group : s.v.groups), 1,
                    shuffle_weave, &w);
  } else if (job->io.esize == 0 || s.v.inner * (int64_t)job->io.esize >= SHUFFLE_ROW_MIN_BYTES) {
    mc_parallel_for(job->threads, s.v.outer * s.v.per_group * s.v.groups, 1, shuffle_rows,
                    (void *)&s);
  } else {
    mc_parallel_for(job->threads, s.v.outer * s.v.per_group, 1, shuffle_tiles, (void *)&s);
  }
}
