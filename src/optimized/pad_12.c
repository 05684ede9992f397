/* Pad-12 without intermediates: output position j of an axis reads data
   position j - pads_begin, folded back into the axis by the mode. Each
   output row (the last axis) is a border, a copy of the interior of one
   input row and a border: constant borders are fills of pad_value, edge
   borders fills of the row's first or last element, reflect and symmetric
   borders reversed copies. An output row whose outer index falls into a
   constant border is pad_value throughout. Rows are split over the pool;
   a streamed output is one run per range, the interiors streamed straight
   from the input rows.
   Compiled twice like the other kernels (kernels_avx2.c includes this
   file); the validation is compiled once. Clauses: spec/pad_12.md. */
#include "optimized/kernels.h"

enum { PAD_BEGIN_INPUT = 1, PAD_END_INPUT = 2, PAD_VALUE_INPUT = 3 };
enum { PAD_CONSTANT, PAD_EDGE, PAD_REFLECT, PAD_SYMMETRIC };

#ifndef MC_KERNELS_AVX2
#include <string.h>

#include "common/checked.h"
#include "common/error.h"
#include "movconf/tensor.h"

static const char *const pad_modes[] = {"constant", "edge", "reflect", "symmetric"};

/* PAD-V2, PAD-V3: the mode's index, exact lower-case spellings only. */
static mc_status pad_check_mode(const mc_request *req, mc_opt_plan *plan, mc_error *err) {
  const char *mode = mc_attrs_string(&req->attrs, MC_ATTR_PAD_MODE);
  if (mode == NULL)
    return mc_fail(err, MC_E_MODE_MISSING, "PAD-V2", "pad_mode is absent");
  for (int m = PAD_CONSTANT; m <= PAD_SYMMETRIC; m++)
    if (strcmp(mode, pad_modes[m]) == 0) {
      plan->pad_mode = m;
      return MC_OK;
    }
  return mc_fail(err, MC_E_MODE_INVALID, "PAD-V3", "pad_mode \"%.40s\" is not a Pad-12 mode", mode);
}

/* PAD-V4 to PAD-V6 and MC-L2, each over pads_begin then pads_end; fills
   plan->begin and plan->end. */
static mc_status pad_check_pads(const mc_request *req, mc_opt_plan *plan, mc_error *err) {
  for (int k = PAD_BEGIN_INPUT; k <= PAD_END_INPUT; k++)
    if (!mc_type_is_side_integer(req->inputs[k]->type))
      return mc_fail(err, MC_E_SIDE_INPUT_TYPE, "PAD-V4",
                     "%s has type %s, not a side-input integer", mc_op_input_name(req->op, k),
                     mc_type_name(req->inputs[k]->type));
  for (int k = PAD_BEGIN_INPUT; k <= PAD_END_INPUT; k++)
    if (req->inputs[k]->rank != 1)
      return mc_fail(err, MC_E_SIDE_INPUT_RANK, "PAD-V5", "%s has rank %d, it must be 1-D",
                     mc_op_input_name(req->op, k), req->inputs[k]->rank);
  for (int k = PAD_BEGIN_INPUT; k <= PAD_END_INPUT; k++)
    if (req->inputs[k]->shape[0] != plan->rank)
      return mc_fail(err, MC_E_SIDE_INPUT_LENGTH, "PAD-V6", "%s has %lld values for %d axes",
                     mc_op_input_name(req->op, k), (long long)req->inputs[k]->shape[0], plan->rank);
  for (int k = PAD_BEGIN_INPUT; k <= PAD_END_INPUT; k++)
    for (int a = 0; a < plan->rank; a++)
      if (!mc_side_value(req->inputs[k], a, k == PAD_BEGIN_INPUT ? &plan->begin[a] : &plan->end[a]))
        return mc_fail(err, MC_E_VALUE_OUT_OF_RANGE, "MC-L2", "%s[%d] is above INT64_MAX",
                       mc_op_input_name(req->op, k), a);
  return MC_OK;
}

/* PAD-V7, PAD-V8 in constant mode (other modes ignore pad_value); the
   value's bits, or zero bits when absent. */
static mc_status pad_check_value(const mc_request *req, mc_opt_plan *plan, mc_error *err) {
  plan->pad_value = 0;
  if (plan->pad_mode != PAD_CONSTANT || req->n_inputs <= PAD_VALUE_INPUT)
    return MC_OK;
  const mc_tensor *v = req->inputs[PAD_VALUE_INPUT];
  if (v->type != plan->type)
    return mc_fail(err, MC_E_SIDE_INPUT_TYPE, "PAD-V7", "pad_value is %s, the data %s",
                   mc_type_name(v->type), mc_type_name(plan->type));
  if (v->rank != 0)
    return mc_fail(err, MC_E_SIDE_INPUT_RANK, "PAD-V8", "pad_value has %d axes, not 0", v->rank);
  plan->pad_value = mc_load_bits(v->data, v->type, 0);
  return MC_OK;
}

/* PAD-V9: a positive pad needs elements to copy: at least one (edge), more
   than the pad (reflect), as many as the pad (symmetric). */
static bool pad_within(int mode, int64_t pad, int64_t d) {
  if (pad <= 0 || mode == PAD_CONSTANT)
    return true;
  if (mode == PAD_EDGE)
    return d >= 1;
  return mode == PAD_REFLECT ? pad < d : pad <= d;
}

/* PAD-O1 with MC-L3: pads_begin + d + pads_end, negative sums as 0. */
static bool pad_out_dim(int64_t begin, int64_t d, int64_t end, int64_t *out) {
  int64_t sum;
  if (!mc_add_i64(begin, d, &sum))
    return false; /* only above INT64_MAX: d >= 0 */
  if (!mc_add_i64(sum, end, out)) {
    if (end > 0)
      return false;
    *out = 0; /* below INT64_MIN */
  }
  if (*out < 0)
    *out = 0;
  return true;
}

/* PAD-V1 to PAD-V9, then PAD-O1: an independent reading of the clauses
   beside the oracle's (src/oracle/pad_12.c). */
mc_status mc_opt_validate_pad_12(const mc_request *req, mc_opt_plan *plan, mc_error *err) {
  if (plan->rank < 1)
    return mc_fail(err, MC_E_DATA_RANK, "PAD-V1", "data is a scalar; Pad needs an axis");
  mc_status s = pad_check_mode(req, plan, err);
  if (s == MC_OK)
    s = pad_check_pads(req, plan, err);
  if (s == MC_OK)
    s = pad_check_value(req, plan, err);
  if (s != MC_OK)
    return s;
  for (int k = PAD_BEGIN_INPUT; k <= PAD_END_INPUT; k++)
    for (int a = 0; a < plan->rank; a++) {
      const int64_t pad = k == PAD_BEGIN_INPUT ? plan->begin[a] : plan->end[a];
      if (!pad_within(plan->pad_mode, pad, plan->in_shape[a]))
        return mc_fail(err, MC_E_PAD_TOO_LARGE, "PAD-V9", "%s[%d] = %lld is too large for %s",
                       mc_op_input_name(req->op, k), a, (long long)pad, pad_modes[plan->pad_mode]);
    }
  for (int a = 0; a < plan->rank; a++)
    if (!pad_out_dim(plan->begin[a], plan->in_shape[a], plan->end[a], &plan->out_shape[a]))
      return mc_opt_overflow(err, "pads_begin + dim + pads_end");
  return MC_OK;
}
#endif

/* The data position output position j of an axis reads: -1 for pad_value.
   j - begin is exact: with begin <= 0 it is formed in uint64 (it may pass
   INT64_MAX, beyond every fold PAD-V9 allows). */
static MC_ROW_INLINE int64_t pad_source(int mode, int64_t j, int64_t begin, int64_t d) {
  if (begin > 0 && j < begin) {
    if (mode == PAD_CONSTANT)
      return -1;
    return mode == PAD_EDGE ? 0 : mode == PAD_REFLECT ? begin - j : begin - j - 1;
  }
  const uint64_t i = begin > 0 ? (uint64_t)(j - begin) : (uint64_t)j + (0 - (uint64_t)begin);
  if (i < (uint64_t)d)
    return (int64_t)i;
  if (mode == PAD_CONSTANT)
    return -1;
  const int64_t past = (int64_t)(i - (uint64_t)d); /* reflect, symmetric: < d */
  return mode == PAD_EDGE ? d - 1 : mode == PAD_REFLECT ? d - 2 - past : d - 1 - past;
}

/* dst[at .. at + n) = the element whose bits are v; n >= 1. */
static MC_ROW_INLINE void pad_fill(const mc_rowio *io, uint8_t *dst, int64_t at, int64_t n,
                                   uint64_t v) {
  if (io->esize == 0) {
    for (int64_t k = 0; k < n; k++)
      mc_store_bits(dst, io->type, at + k, v);
    return;
  }
  const int64_t es = (int64_t)io->esize;
  uint8_t *o = dst + at * es, e[8];
  for (int64_t k = 0; k < es; k++) /* mc_store_bits's little-endian bytes, inline */
    e[k] = (uint8_t)(v >> (8 * k));
  if (n * es <= 16) { /* borders are short: a call to memset or memcpy costs more */
    for (int64_t k = 0; k < n; k++)
      switch (es) {
      case 1:
        o[k] = e[0];
        break;
      case 2:
        memcpy(o + 2 * k, e, 2);
        break;
      case 4:
        memcpy(o + 4 * k, e, 4);
        break;
      default:
        memcpy(o + 8 * k, e, 8);
        break;
      }
    return;
  }
  if (es == 1) {
    memset(o, e[0], (size_t)n);
    return;
  }
  memcpy(o, e, (size_t)es);
  for (int64_t done = 1; done < n; done *= 2)
    memcpy(o + done * es, o, (size_t)((n - done < done ? n - done : done) * es));
}

/* The bits of input element i: mc_load_bits's little-endian bytes, inline
   for whole-byte types (edge borders read two a row). */
static MC_ROW_INLINE uint64_t pad_load(const mc_kernel_job *job, int64_t i) {
  const int64_t es = (int64_t)job->io.esize;
  if (es == 0)
    return mc_load_bits(job->in, job->io.type, i);
  uint64_t v = 0;
  for (int64_t k = 0; k < es; k++)
    v |= (uint64_t)job->in[i * es + k] << (8 * k);
  return v;
}

/* A piece of an output row: n copies of the element whose bits are v
   (step 0), or n input elements from `from` on, forwards or backwards. */
typedef struct pad_piece {
  int64_t n, from, step;
  uint64_t v;
} pad_piece;

static pad_piece pad_fill_piece(int64_t n, uint64_t v) {
  return (pad_piece){.n = n, .step = 0, .v = v};
}

static pad_piece pad_copy_piece(int64_t n, int64_t from, int64_t step) {
  return (pad_piece){.n = n, .from = from, .step = step};
}

/* The border of n elements before (left) or after the interior of the
   input row at `src` (d elements); `at` is its first output position. */
static MC_ROW_INLINE pad_piece pad_border(const mc_kernel_job *job, int64_t src, int64_t at,
                                          int64_t n, bool left) {
  const mc_opt_plan *p = job->plan;
  const int last = p->rank - 1;
  const int64_t d = p->in_shape[last];
  if (n <= 0)
    return pad_fill_piece(0, 0); /* no element to read: d may be 0 */
  switch (p->pad_mode) {
  case PAD_CONSTANT:
    return pad_fill_piece(n, p->pad_value);
  case PAD_EDGE:
    return pad_fill_piece(n, pad_load(job, left ? src : src + d - 1));
  default: /* reflect, symmetric: reversed runs */
    return pad_copy_piece(n, src + pad_source(p->pad_mode, at, p->begin[last], d), -1);
  }
}

/* The pieces of one output row in output order: a border, a copy of the
   interior of the input row at `src` (-1: pad_value throughout) and a
   border. Returns how many. */
static MC_ROW_INLINE int pad_row_pieces(const mc_kernel_job *job, int64_t src, pad_piece *piece) {
  const mc_opt_plan *p = job->plan;
  const int last = p->rank - 1;
  const int64_t n = p->out_shape[last], d = p->in_shape[last], b = p->begin[last];
  if (src < 0) {
    piece[0] = pad_fill_piece(n, p->pad_value);
    return 1;
  }
  const int64_t lo = b > 0 ? (b < n ? b : n) : 0;
  int64_t hi = b + d < n ? b + d : n; /* b + d fits: PAD-O1 */
  if (hi < lo)
    hi = lo;
  piece[0] = pad_border(job, src, 0, lo, true);
  /* Only a nonempty interior has a start: then b > -d, so lo - b fits;
     an empty one may have b = INT64_MIN (PAD-O1 lets e cancel it). */
  piece[1] = pad_copy_piece(hi - lo, hi > lo ? src + (lo - b) : src, 1);
  piece[2] = pad_border(job, src, hi, n - hi, false);
  return 3;
}

/* The pieces of a row into dst from element at, ordinary stores. */
static MC_ROW_INLINE void pad_write(const mc_kernel_job *job, int64_t at, const pad_piece *piece,
                                    int count) {
  for (int k = 0; k < count; k++) {
    const pad_piece *c = &piece[k];
    if (c->n <= 0)
      continue;
    if (c->step == 0)
      pad_fill(&job->io, job->out, at, c->n, c->v);
    else
      mc_row_copy_cached(&job->io, job->out, at, 1, job->in, c->from, c->step, c->n);
    at += c->n;
  }
}

/* A piece's bytes are built in this buffer, a part at a time, when they
   are not a forward run of the input. */
enum { PAD_PART_BYTES = 1024 };

/* One piece appended to a streamed run: a forward copy streams straight
   from the input row; fills and reversed runs are built in L1 first. */
static MC_ROW_INLINE void pad_put(const mc_kernel_job *job, mc_stream_run *run,
                                  const pad_piece *c) {
  const int64_t es = (int64_t)job->io.esize;
  if (c->n <= 0)
    return;
  if (c->step == 1) {
    mc_stream_put(run, job->in + c->from * es, (size_t)(c->n * es));
    return;
  }
  _Alignas(64) uint8_t part[PAD_PART_BYTES];
  const int64_t cap = PAD_PART_BYTES / es;
  if (c->step == 0)
    pad_fill(&job->io, part, 0, c->n < cap ? c->n : cap, c->v);
  for (int64_t k = 0; k < c->n; k += cap) {
    const int64_t m = c->n - k < cap ? c->n - k : cap;
    if (c->step != 0)
      mc_row_copy_cached(&job->io, part, 0, 1, job->in, c->from - k, -1, m);
    mc_stream_put(run, part, (size_t)(m * es));
  }
}

/* The input row an output row reads, from its outer index: -1 when an
   outer position falls into a constant border. */
static MC_ROW_INLINE int64_t pad_source_row(const mc_kernel_job *job, const mc_row_walk *w) {
  const mc_opt_plan *p = job->plan;
  int64_t src = 0;
  for (int a = 0; a < w->axes; a++) {
    const int64_t s = pad_source(p->pad_mode, w->idx[a], p->begin[a], p->in_shape[a]);
    if (s < 0)
      return -1;
    src += s * job->in_stride[a];
  }
  return src;
}

/* Output rows [begin, end). When the output streams, the range is one run
   written in order (no staging pass over the interiors). */
static void pad_rows(void *ctx, int64_t begin, int64_t end) {
  const mc_kernel_job *j = ctx;
  const mc_opt_plan *p = j->plan;
  const int last = p->rank - 1;
  const int64_t width = p->out_shape[last];
  mc_stream_run streamed, *run = j->io.stream ? &streamed : NULL;
  if (run)
    mc_stream_run_begin(run, j->out + begin * width * (int64_t)j->io.esize);
  mc_row_walk w;
  mc_row_walk_start(&w, last, p->out_shape, begin);
  for (int64_t row = begin; row < end; row++, mc_row_walk_next(&w)) {
    pad_piece piece[3];
    const int count = pad_row_pieces(j, pad_source_row(j, &w), piece);
    if (!run) {
      pad_write(j, row * width, piece, count);
      continue;
    }
    for (int k = 0; k < count; k++)
      pad_put(j, run, &piece[k]);
  }
  if (run)
    mc_stream_run_end(run);
}

void MC_KERNEL(mc_kernel_pad_12)(const mc_kernel_job *job) {
  const mc_opt_plan *p = job->plan;
  mc_parallel_for(job->threads, mc_kernel_rows(p->out_shape, p->rank - 1), 1, pad_rows,
                  (void *)job);
}
