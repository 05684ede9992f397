/* Pad-12 without intermediates: output position j of an axis reads data
   position j - pads_begin, folded back into the axis by the mode. Each
   output row (the last axis) is a border, a copy of the interior of one
   input row and a border: constant borders are fills of pad_value, edge
   borders fills of the row's first or last element, reflect and symmetric
   borders reversed copies. An output row whose outer index falls into a
   constant border is pad_value throughout. The rows of a plane that read
   data share their pieces, built once. Rows are split over the pool;
   a streamed output is one run per range, the interiors streamed straight
   from the input rows, a row's right border and the next row's left
   border put as one seam.
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
  const int64_t es = (int64_t)io->esize, bytes = n * es;
  uint8_t *o = dst + at * es, e[8];
  if (n == 1) { /* one element (edge seams): its bytes, one store */
    for (int64_t k = 0; k < es; k++)
      o[k] = (uint8_t)(v >> (8 * k));
    return;
  }
  for (int64_t k = 0; k < 8; k++) /* mc_store_bits's little-endian bytes, repeated */
    e[k] = (uint8_t)(v >> (8 * (k % es)));
  /* Borders are short: two stores that may overlap (both start at an
     element) cost less than a call to memset or memcpy, or a loop that
     the compiler turns into one. */
  if (bytes <= 16) {
    if (bytes >= 8) {
      memcpy(o, e, 8);
      memcpy(o + bytes - 8, e, 8);
    } else if (bytes >= 4) {
      memcpy(o, e, 4);
      memcpy(o + bytes - 4, e, 4);
    } else if (bytes >= 2) {
      memcpy(o, e, 2);
      memcpy(o + bytes - 2, e, 2);
    } else {
      o[0] = e[0];
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

/* The row functions' view of a job, a local of pad_rows_of: its element
   size is a constant in each of pad_rows's calls (the fills fold), and
   stores to the output cannot change it, so it is not reloaded after each.
   Calls that are not inlined get a copy of `row`: `io` must not escape. */
typedef struct pad_io {
  mc_rowio row;
  const uint8_t *in;
  uint8_t *out;
} pad_io;

/* The bits of input element i: mc_load_bits's little-endian bytes, inline
   for whole-byte types (edge borders read two a row). */
static MC_ROW_INLINE uint64_t pad_load(const pad_io *io, int64_t i) {
  const int64_t es = (int64_t)io->row.esize;
  if (es == 0)
    return mc_load_bits(io->in, io->row.type, i);
  uint64_t v = 0;
  for (int64_t k = 0; k < es; k++)
    v |= (uint64_t)io->in[i * es + k] << (8 * k);
  return v;
}

/* A piece of an output row: n copies of the element whose bits are v
   (step 0), or n input elements from `from` on, forwards or backwards.
   Pieces are built once for every row that reads an input row: `from`
   counts from that row's first element, and an edge fill's `from` is the
   element it repeats (its v is read per row). */
typedef struct pad_piece {
  int64_t n, from, step;
  uint64_t v;
} pad_piece;

static pad_piece pad_fill_piece(int64_t n, int64_t from, uint64_t v) {
  return (pad_piece){.n = n, .from = from, .step = 0, .v = v};
}

static pad_piece pad_copy_piece(int64_t n, int64_t from, int64_t step) {
  return (pad_piece){.n = n, .from = from, .step = step};
}

/* The border of n elements before (left) or after the interior of an
   input row; `at` is its first output position. */
static pad_piece pad_border(const mc_opt_plan *p, int64_t at, int64_t n, bool left) {
  const int last = p->rank - 1;
  const int64_t d = p->in_shape[last];
  if (n <= 0)
    return pad_fill_piece(0, 0, 0); /* no element to read: d may be 0 */
  switch (p->pad_mode) {
  case PAD_CONSTANT:
    return pad_fill_piece(n, 0, p->pad_value);
  case PAD_EDGE:
    return pad_fill_piece(n, left ? 0 : d - 1, 0);
  default: /* reflect, symmetric: reversed runs */
    return pad_copy_piece(n, pad_source(p->pad_mode, at, p->begin[last], d), -1);
  }
}

/* The pieces of every output row that reads an input row, in output
   order: a border, a copy of the row's interior and a border. */
static void pad_row_pieces(const mc_opt_plan *p, pad_piece piece[3]) {
  const int last = p->rank - 1;
  const int64_t n = p->out_shape[last], d = p->in_shape[last], b = p->begin[last];
  const int64_t lo = b > 0 ? (b < n ? b : n) : 0;
  int64_t hi = b + d < n ? b + d : n; /* b + d fits: PAD-O1 */
  if (hi < lo)
    hi = lo;
  piece[0] = pad_border(p, 0, lo, true);
  /* Only a nonempty interior has a start: then b > -d, so lo - b fits;
     an empty one may have b = INT64_MIN (PAD-O1 lets e cancel it). */
  piece[1] = pad_copy_piece(hi - lo, hi > lo ? lo - b : 0, 1);
  piece[2] = pad_border(p, hi, n - hi, false);
}

/* A piece into the output from element at, ordinary stores. */
static MC_ROW_INLINE void pad_write(const pad_io *io, int64_t at, const pad_piece *c) {
  if (c->n <= 0)
    return;
  const int64_t es = (int64_t)io->row.esize;
  if (c->step == 0) {
    pad_fill(&io->row, io->out, at, c->n, c->v);
  } else if (c->step == 1 && es > 0) { /* an interior: one memcpy, inline */
    memcpy(io->out + at * es, io->in + c->from * es, (size_t)(c->n * es));
  } else {
    const mc_rowio row = io->row;
    mc_row_copy_cached(&row, io->out, at, 1, io->in, c->from, c->step, c->n);
  }
}

/* A piece's bytes are built in this buffer, a part at a time, when they
   are not a forward run of the input. */
enum { PAD_PART_BYTES = 1024 };

/* A piece appended to a streamed run: a forward copy streams straight
   from the input row; fills and reversed runs are built in L1 first. */
static MC_ROW_INLINE void pad_put(const pad_io *io, mc_stream_run *run, const pad_piece *c) {
  const int64_t es = (int64_t)io->row.esize;
  if (c->n <= 0)
    return;
  if (c->step == 1) {
    mc_stream_put(run, io->in + c->from * es, (size_t)(c->n * es));
    return;
  }
  _Alignas(64) uint8_t part[PAD_PART_BYTES];
  const mc_rowio row = io->row;
  const int64_t cap = PAD_PART_BYTES / es;
  if (c->step == 0)
    pad_fill(&io->row, part, 0, c->n < cap ? c->n : cap, c->v);
  for (int64_t k = 0; k < c->n; k += cap) {
    const int64_t m = c->n - k < cap ? c->n - k : cap;
    if (c->step != 0)
      mc_row_copy_cached(&row, part, 0, 1, io->in, c->from - k, -1, m);
    mc_stream_put(run, part, (size_t)(m * es));
  }
}

/* A row's piece for the input row at `src`: `from` made absolute, an edge
   fill's element read. */
static MC_ROW_INLINE pad_piece pad_at(const pad_io *io, pad_piece c, int64_t src, bool edge) {
  c.from += src;
  if (edge && c.step == 0 && c.n > 0)
    c.v = pad_load(io, c.from);
  return c;
}

/* The output row at element `at` that reads the input row at `src`,
   ordinary stores. */
static MC_ROW_INLINE void pad_row(const pad_io *io, int64_t at, const pad_piece *piece, int64_t src,
                                  bool edge) {
  const pad_piece left = pad_at(io, piece[0], src, edge), right = pad_at(io, piece[2], src, edge);
  const pad_piece interior = pad_at(io, piece[1], src, edge);
  pad_write(io, at, &left);
  pad_write(io, at + left.n, &interior);
  pad_write(io, at + left.n + interior.n, &right);
}

/* Seams up to this size are built in one buffer; wider borders are put a
   piece at a time. */
enum { PAD_SEAM_BYTES = 256 };

/* A streamed range. A row's right border and the next row's left border
   are adjacent in the output: they go out as one seam, so that a row
   costs the put of its interior and one small put. `open` is the input
   row whose right border is still to come (-1: none). */
typedef struct pad_stream {
  mc_stream_run run;
  int64_t open;
  size_t bytes; /* a seam's bytes; 0 when they do not fit `seam` */
  bool same;    /* constant borders: every seam is the one built at the start */
  _Alignas(64) uint8_t seam[PAD_SEAM_BYTES];
} pad_stream;

/* The seam between the input rows at `prev` and `next`, built in s->seam
   with ordinary stores. */
static MC_ROW_INLINE void pad_seam(const pad_io *io, pad_stream *s, const pad_piece *piece,
                                   int64_t prev, int64_t next, bool edge) {
  const pad_io at_seam = {io->row, io->in, s->seam};
  const pad_piece right = pad_at(io, piece[2], prev, edge), left = pad_at(io, piece[0], next, edge);
  pad_write(&at_seam, 0, &right);
  pad_write(&at_seam, right.n, &left);
}

/* Starts the run at `at`; a constant seam is built here once. Inline, as
   every function that gets `io`: it must not escape (see pad_io). */
static MC_ROW_INLINE void pad_stream_begin(const pad_io *io, pad_stream *s, const pad_piece *piece,
                                           uint8_t *at, bool constant) {
  const int64_t n = piece[2].n + piece[0].n; /* <= the row's width */
  mc_stream_run_begin(&s->run, at);
  s->open = -1;
  s->bytes = n * (int64_t)io->row.esize <= PAD_SEAM_BYTES ? (size_t)n * io->row.esize : 0;
  s->same = s->bytes > 0 && constant;
  if (s->same) /* fills of pad_value: no `from` to read */
    pad_seam(io, s, piece, 0, 0, false);
}

/* Puts the open row's right border. */
static MC_ROW_INLINE void pad_close(const pad_io *io, pad_stream *s, const pad_piece *piece,
                                    bool edge) {
  if (s->open < 0)
    return;
  const pad_piece right = pad_at(io, piece[2], s->open, edge);
  pad_put(io, &s->run, &right);
  s->open = -1;
}

/* Puts the row that reads the input row at `src`, but for its right
   border, which stays open. */
static MC_ROW_INLINE void pad_row_put(const pad_io *io, pad_stream *s, const pad_piece *piece,
                                      int64_t src, bool edge) {
  if (s->open >= 0 && s->bytes > 0) {
    if (!s->same)
      pad_seam(io, s, piece, s->open, src, edge);
    mc_stream_put(&s->run, s->seam, s->bytes);
  } else {
    pad_close(io, s, piece, edge);
    const pad_piece left = pad_at(io, piece[0], src, edge);
    pad_put(io, &s->run, &left);
  }
  const pad_piece interior = pad_at(io, piece[1], src, edge);
  pad_put(io, &s->run, &interior);
  s->open = src;
}

/* The input position of an output row's outer index on axes [0, w->axes):
   -1 when one of them falls into a constant border. */
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

/* n elements of pad_value from output element `at`: rows in a constant
   border. */
static MC_ROW_INLINE void pad_fill_rows(const pad_io *io, pad_stream *s, const pad_piece *piece,
                                        int64_t at, int64_t n, uint64_t v, bool edge) {
  const pad_piece fill = {.n = n, .v = v};
  if (s) {
    pad_close(io, s, piece, edge);
    pad_put(io, &s->run, &fill);
  } else {
    pad_write(io, at, &fill);
  }
}

/* Output rows [begin, end), a plane (the last two axes) at a time: the
   plane's outer position is found once, and its rows, which share their
   pieces, differ only by the input row they read (b, d: the rows' axis).
   When the output streams, the range is one run written in order (no
   staging pass over the interiors). */
static MC_ROW_INLINE void pad_rows_of(const mc_kernel_job *j, size_t es, int64_t begin,
                                      int64_t end) {
  const pad_io io = {{j->io.type, es, j->io.stream}, j->in, j->out};
  const mc_opt_plan *p = j->plan;
  const int last = p->rank - 1, outer = last > 0 ? last - 1 : 0;
  const int mode = p->pad_mode;
  const bool edge = mode == PAD_EDGE;
  const int64_t width = p->out_shape[last], h = last > 0 ? p->out_shape[last - 1] : 1;
  const int64_t b = last > 0 ? p->begin[last - 1] : 0, d = last > 0 ? p->in_shape[last - 1] : 1;
  const int64_t stride = last > 0 ? j->in_stride[last - 1] : 0;
  pad_piece piece[3];
  pad_row_pieces(p, piece);
  pad_stream streamed, *run = j->io.stream ? &streamed : NULL;
  if (run)
    pad_stream_begin(&io, run, piece, j->out + begin * width * (int64_t)j->io.esize,
                     mode == PAD_CONSTANT);
  mc_row_walk w;
  mc_row_walk_start(&w, outer, p->out_shape, begin / h);
  for (int64_t row = begin, i = begin % h; row < end; i = 0, mc_row_walk_next(&w)) {
    const int64_t m = h - i < end - row ? h - i : end - row, src = pad_source_row(j, &w);
    if (src < 0) { /* a constant border: the plane's rows in one fill */
      pad_fill_rows(&io, run, piece, row * width, m * width, p->pad_value, edge);
      row += m;
      continue;
    }
    for (const int64_t stop = i + m; i < stop; i++, row++) {
      const int64_t s = pad_source(mode, i, b, d);
      if (s < 0)
        pad_fill_rows(&io, run, piece, row * width, width, p->pad_value, edge);
      else if (run)
        pad_row_put(&io, run, piece, src + s * stride, edge);
      else
        pad_row(&io, row * width, piece, src + s * stride, edge);
    }
  }
  if (run) {
    pad_close(&io, run, piece, edge);
    mc_stream_run_end(&run->run);
  }
}

static void pad_rows(void *ctx, int64_t begin, int64_t end) {
  const mc_kernel_job *job = ctx;
  switch (job->io.esize) {
  case 1:
    pad_rows_of(job, 1, begin, end);
    break;
  case 2:
    pad_rows_of(job, 2, begin, end);
    break;
  case 4:
    pad_rows_of(job, 4, begin, end);
    break;
  default: /* 8, and 0 for packed types */
    pad_rows_of(job, job->io.esize, begin, end);
    break;
  }
}

void MC_KERNEL(mc_kernel_pad_12)(const mc_kernel_job *job) {
  const mc_opt_plan *p = job->plan;
  mc_parallel_for(job->threads, mc_kernel_rows(p->out_shape, p->rank - 1), 1, pad_rows,
                  (void *)job);
}
