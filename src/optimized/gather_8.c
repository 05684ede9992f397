/* Gather-8 without intermediates. Data is viewed as [batch, pre, d,
   inner] (batch: the first b axes, pre: the axes from b to the gathered
   one, inner: the axes after it) and indices as [batch, count]: output row
   [t, p, n] is the inner run of data [t, p, v', :] for v = indices[t, n],
   a row copy (one memcpy for byte-sized types), or a row of zeros when v
   is out of range. The rows split over the thread pool. Compiled twice
   like the other kernels (kernels_avx2.c includes this file); the
   validation is compiled once. Clauses: spec/gather_8.md. */
#include "optimized/kernels.h"

#ifndef MC_KERNELS_AVX2
#include "common/checked.h"
#include "common/error.h"

enum { GATHER_INDICES = 1, GATHER_AXIS = 2 };
/* Output rows of at least this many bits (4 KiB) may stream. */
enum { GATHER_STREAM_ROW_BITS = 8 * 4096 };

/* GA-V1 to GA-V4: side-input types, then the scalar-or-[1] form of axis. */
static mc_status gather_check_forms(const mc_tensor *indices, const mc_tensor *axis,
                                    mc_error *err) {
  if (!mc_type_is_side_integer(indices->type))
    return mc_fail(err, MC_E_SIDE_INPUT_TYPE, "GA-V1", "indices is %s, not an integer type",
                   mc_type_name(indices->type));
  if (!mc_type_is_side_integer(axis->type))
    return mc_fail(err, MC_E_SIDE_INPUT_TYPE, "GA-V2", "axis is %s, not an integer type",
                   mc_type_name(axis->type));
  if (axis->rank >= 2)
    return mc_fail(err, MC_E_SIDE_INPUT_RANK, "GA-V3", "axis has %d axes; 0 or 1 allowed",
                   axis->rank);
  if (axis->rank == 1 && axis->shape[0] != 1)
    return mc_fail(err, MC_E_SIDE_INPUT_LENGTH, "GA-V4", "axis holds %lld values, not 1",
                   (long long)axis->shape[0]);
  return MC_OK;
}

/* GA-V5 to GA-V8 from the normalizing formulas: *axis_out and *batch_out. */
static mc_status gather_check_axes(const mc_request *req, const mc_opt_plan *plan, int *axis_out,
                                   int *batch_out, mc_error *err) {
  const mc_tensor *indices = req->inputs[GATHER_INDICES];
  const int64_t rank = plan->rank, q = indices->rank;
  int64_t axis = 0;
  mc_side_value_saturating(req->inputs[GATHER_AXIS], 0, &axis);
  const int64_t a = axis < 0 ? axis + rank : axis; /* axis >= -INT64_MAX + rank: no overflow */
  if (axis < -rank || a >= rank)
    return mc_fail(err, MC_E_AXIS_OUT_OF_RANGE, "GA-V5", "axis %lld names none of %lld axes",
                   (long long)axis, (long long)rank);
  const int64_t c = mc_attrs_int(&req->attrs, MC_ATTR_BATCH_DIMS);
  if (c < -q || c > q)
    return mc_fail(err, MC_E_AXIS_OUT_OF_RANGE, "GA-V6", "batch_dims %lld is outside [-%lld, %lld]",
                   (long long)c, (long long)q, (long long)q);
  const int64_t b = c < 0 ? q + c : c;
  if (b > a)
    return mc_fail(err, MC_E_AXIS_OUT_OF_RANGE, "GA-V7", "batch_dims %lld exceeds axis %lld",
                   (long long)b, (long long)a);
  for (int64_t i = 0; i < b; i++)
    if (plan->in_shape[i] != indices->shape[i])
      return mc_fail(err, MC_E_BATCH_MISMATCH, "GA-V8",
                     "axis %lld differs: %lld in data, %lld in indices", (long long)i,
                     (long long)plan->in_shape[i], (long long)indices->shape[i]);
  *axis_out = (int)a;
  *batch_out = (int)b;
  return MC_OK;
}

/* The four-part view of the plan; sub-products of shapes that passed
   MC-L3 (data's in check_input_tensor, the indices' likewise). */
static void gather_view(const mc_tensor *indices, mc_opt_plan *plan, int a, int b) {
  plan->gather_batch = mc_kernel_rows(plan->in_shape, b);
  plan->gather_pre = mc_kernel_rows(plan->in_shape + b, a - b);
  plan->gather_axis_len = plan->in_shape[a];
  plan->gather_inner = mc_kernel_rows(plan->in_shape + a + 1, plan->rank - a - 1);
  plan->gather_count = mc_kernel_rows(indices->shape + b, indices->rank - b);
  plan->gather_indices = indices->data;
  plan->gather_index_type = indices->type;
}

mc_status mc_opt_validate_gather_8(const mc_request *req, mc_opt_plan *plan, mc_error *err) {
  const mc_tensor *indices = req->inputs[GATHER_INDICES];
  int a = 0, b = 0;
  mc_status s = gather_check_forms(indices, req->inputs[GATHER_AXIS], err);
  if (s == MC_OK)
    s = gather_check_axes(req, plan, &a, &b, err);
  if (s != MC_OK)
    return s;
  const int out_rank = plan->rank + indices->rank - b - 1;
  if (out_rank > MC_MAX_RANK)
    return mc_fail(err, MC_E_RANK_LIMIT, "GA-L1", "%d output axes, above %d", out_rank,
                   MC_MAX_RANK);
  plan->out_rank = out_rank;
  /* GA-O1: the data's shape with axis a replaced by indices.shape[b:]. */
  const int q_rest = indices->rank - b;
  memcpy(plan->out_shape, plan->in_shape, (size_t)a * sizeof plan->out_shape[0]);
  memcpy(plan->out_shape + a, indices->shape + b, (size_t)q_rest * sizeof plan->out_shape[0]);
  memcpy(plan->out_shape + a + q_rest, plan->in_shape + a + 1,
         (size_t)(plan->rank - a - 1) * sizeof plan->out_shape[0]);
  gather_view(indices, plan, a, b);
  /* Rows are as long as the inner run: short ones would stream partial
     lines, long ones (ga/axis0's 16 MiB) pay the write-allocate read
     without it. */
  plan->never_streams = plan->gather_inner < GATHER_STREAM_ROW_BITS / mc_type_bits(plan->type);
  return MC_OK;
}
#endif

/* Index i of the plan's indices as the input row it reads, or -1 when it
   is out of range (GA-S1); a u64 above INT64_MAX is out of range. Not
   mc_side_value: its checks per call made one-element rows (ga/axis3)
   about ten times slower of the copy ceiling (1.2 -> 0.12, --quick). */
static int64_t gather_row_of(const mc_opt_plan *p, int64_t i) {
  const uint8_t *at = p->gather_indices;
  const int64_t d = p->gather_axis_len;
  int64_t v;
  switch (p->gather_index_type) {
  case MC_I8: {
    int8_t x;
    memcpy(&x, at + i, sizeof x);
    v = x;
    break;
  }
  case MC_U8:
    v = at[i];
    break;
  case MC_I16: {
    int16_t x;
    memcpy(&x, at + 2 * i, sizeof x);
    v = x;
    break;
  }
  case MC_U16: {
    uint16_t x;
    memcpy(&x, at + 2 * i, sizeof x);
    v = x;
    break;
  }
  case MC_I32: {
    int32_t x;
    memcpy(&x, at + 4 * i, sizeof x);
    v = x;
    break;
  }
  case MC_U32: {
    uint32_t x;
    memcpy(&x, at + 4 * i, sizeof x);
    v = x;
    break;
  }
  case MC_U64: {
    uint64_t x;
    memcpy(&x, at + 8 * i, sizeof x);
    if (x > (uint64_t)INT64_MAX)
      return -1;
    v = (int64_t)x;
    break;
  }
  default: {
    memcpy(&v, at + 8 * i, sizeof v);
    break;
  }
  }
  if (v < 0)
    v = v >= -d ? v + d : -1;
  return v < d ? v : -1;
}

/* Rows of one element read one element per run of d input elements, which
   are far apart: each load would wait for memory alone (bench ga/axis3 at
   0.3 of the ceiling). So the element the same index reads GATHER_AHEAD
   pre positions on is fetched now, and the loads overlap. */
enum { GATHER_AHEAD = 16 };
#if defined(__GNUC__) || defined(__clang__)
#define GATHER_PREFETCH(ADDR) __builtin_prefetch(ADDR)
#else
#define GATHER_PREFETCH(ADDR) ((void)(ADDR))
#endif

/* Up to this many indices a batch's are decoded once into an array, not
   once per output row. */
enum { GATHER_DECODED = 64 };

/* Output row r is [t, pre, n] over [batch, pre, count]; base is the input
   row of [t, pre, 0]. The indices of batch `decoded` (-1: none) are in
   row[] when count <= GATHER_DECODED. */
typedef struct gather_walk {
  int64_t t, pre, n, base, count, pres, d, decoded;
  const mc_opt_plan *p;
  int64_t row[GATHER_DECODED];
} gather_walk;

/* The walk at row `begin`: one division per part, increments after. */
static inline void gather_walk_start(gather_walk *w, const mc_opt_plan *p, int64_t begin) {
  w->p = p;
  w->count = p->gather_count;
  w->pres = p->gather_pre;
  w->d = p->gather_axis_len;
  const int64_t per_batch = w->pres * w->count;
  w->t = begin / per_batch;
  w->pre = (begin % per_batch) / w->count;
  w->n = begin % w->count;
  w->base = (w->t * w->pres + w->pre) * w->d;
  w->decoded = -1;
}

/* The input row (within [t, pre]) the walk's current index reads, -1:
   none (gather_row_of). */
static inline int64_t gather_walk_index(gather_walk *w) {
  if (w->count > GATHER_DECODED)
    return gather_row_of(w->p, w->t * w->count + w->n);
  if (w->decoded != w->t) {
    for (int64_t k = 0; k < w->count; k++)
      w->row[k] = gather_row_of(w->p, w->t * w->count + k);
    w->decoded = w->t;
  }
  return w->row[w->n];
}

static inline void gather_walk_next(gather_walk *w) {
  if (++w->n == w->count) {
    w->n = 0;
    w->base += w->d;
    if (++w->pre == w->pres) {
      w->pre = 0;
      w->t++;
    }
  }
}

/* Rows of one element of E bytes, the element or zero bits each. What the
   loop reads of the job is in locals: a store to the output could alias it
   and would have it reloaded every element (about 57 instructions an
   element before, callgrind). */
#define GATHER_SINGLES_FN(E)                                                                       \
  static void gather_singles_##E(const mc_kernel_job *job, int64_t begin, int64_t end) {           \
    const uint8_t *in = job->in;                                                                   \
    uint8_t *out = job->out;                                                                       \
    gather_walk w;                                                                                 \
    gather_walk_start(&w, job->plan, begin);                                                       \
    for (int64_t r = begin; r < end; r++, gather_walk_next(&w)) {                                  \
      const int64_t v = gather_walk_index(&w);                                                     \
      /* past the batch's last pre position, the row itself: no fetch beyond */                    \
      const int64_t ahead = w.pre + GATHER_AHEAD < w.pres ? GATHER_AHEAD * w.d : 0;                \
      GATHER_PREFETCH(in + (w.base + ahead + (v > 0 ? v : 0)) * E);                                \
      if (v >= 0)                                                                                  \
        memcpy(out + r * E, in + (w.base + v) * E, E);                                             \
      else                                                                                         \
        memset(out + r * E, 0, E);                                                                 \
    }                                                                                              \
  }
GATHER_SINGLES_FN(1)
GATHER_SINGLES_FN(2)
GATHER_SINGLES_FN(4)
GATHER_SINGLES_FN(8)

/* Output rows [begin, end) of inner elements each. */
static void gather_rows(void *ctx, int64_t begin, int64_t end) {
  const mc_kernel_job *job = ctx;
  const int64_t inner = job->plan->gather_inner;
  if (inner == 1 && job->io.esize > 0) {
    switch (job->io.esize) {
    case 1:
      gather_singles_1(job, begin, end);
      return;
    case 2:
      gather_singles_2(job, begin, end);
      return;
    case 4:
      gather_singles_4(job, begin, end);
      return;
    default:
      gather_singles_8(job, begin, end);
      return;
    }
  }
  gather_walk w;
  gather_walk_start(&w, job->plan, begin);
  for (int64_t r = begin; r < end; r++, gather_walk_next(&w)) {
    const int64_t v = gather_walk_index(&w);
    if (v < 0)
      mc_row_zero(&job->io, job->out, r * inner, 1, inner);
    else
      mc_row_copy(&job->io, job->out, r * inner, 1, job->in, (w.base + v) * inner, 1, inner);
  }
}

void MC_KERNEL(mc_kernel_gather_8)(const mc_kernel_job *job) {
  const mc_opt_plan *p = job->plan;
  const int64_t rows = p->gather_batch * p->gather_pre * p->gather_count;
  mc_parallel_for(job->threads, rows, 1, gather_rows, (void *)job);
}
