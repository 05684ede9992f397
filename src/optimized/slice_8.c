/* Slice-8 without intermediates. Output element [j_0, ..., j_{r-1}] reads
   input [first_a + j_a * step_a]_a: per output axis a count and a signed
   input stride. Neighbouring axes where the outer one steps exactly over
   the inner one's run (whole axes read forwards, or all read backwards)
   merge into one; the innermost axis left is a row: a copy for step 1, a
   reversed copy for step -1, a strided gather otherwise (AVX2 shuffles for
   step 2). The work is split over the output elements, so that a single
   long row splits over threads too. Compiled twice like the other kernels
   (kernels_avx2.c includes this file); the validation is compiled once.
   Clauses: spec/slice_8.md. */
#include "optimized/kernels.h"

#ifndef MC_KERNELS_AVX2
#include "common/error.h"
#include "movconf/tensor.h"
#include "optimized/slice_common.h"

/* Input positions of the side inputs. */
enum { SLICE_START = 1, SLICE_STOP, SLICE_STEP, SLICE_AXES };

/* SL-V2 to SL-V4, each clause over every side input present before the next. */
static mc_status slice_check_side_form(const mc_request *req, mc_error *err) {
  const int last = req->n_inputs - 1;
  for (int i = SLICE_START; i <= last; i++)
    if (!mc_type_is_side_integer(req->inputs[i]->type))
      return mc_fail(err, MC_E_SIDE_INPUT_TYPE, "SL-V2", "%s has type %s, not a side-input integer",
                     mc_op_input_name(req->op, i), mc_type_name(req->inputs[i]->type));
  for (int i = SLICE_START; i <= last; i++)
    if (req->inputs[i]->rank != 1)
      return mc_fail(err, MC_E_SIDE_INPUT_RANK, "SL-V3", "%s has rank %d, it must be 1-D",
                     mc_op_input_name(req->op, i), req->inputs[i]->rank);
  const int64_t n = req->inputs[SLICE_START]->shape[0];
  for (int i = SLICE_STOP; i <= last; i++)
    if (req->inputs[i]->shape[0] != n)
      return mc_fail(err, MC_E_SIDE_INPUT_LENGTH, "SL-V4", "%s has %lld values, start has %lld",
                     mc_op_input_name(req->op, i), (long long)req->inputs[i]->shape[0],
                     (long long)n);
  return MC_OK;
}

/* SL-V6 and SL-S1 for the k-th axis of the slice: false when out of [-r, r-1]
   (a u64 above INT64_MAX included), else the normalised axis. */
static bool slice_axis(const mc_request *req, int rank, int64_t k, int *axis) {
  int64_t a = k; /* the default axes 0..n-1 */
  if (req->n_inputs > SLICE_AXES && !mc_side_value(req->inputs[SLICE_AXES], k, &a))
    return false;
  if (a < -(int64_t)rank || a >= rank)
    return false;
  *axis = (int)(a < 0 ? a + rank : a);
  return true;
}

/* SL-V5 to SL-V7 in clause order. Every value is checked against the
   range before any repeat is looked for; a repeat then shows within the
   first r + 1 values, when there are more than r. */
static mc_status slice_check_values(const mc_request *req, int rank, int64_t n, mc_error *err) {
  int axis = 0;
  for (int64_t k = 0; k < n; k++)
    if (mc_opt_slice_value(req->inputs[SLICE_STEP], k) == 0)
      return mc_fail(err, MC_E_STEP_ZERO, "SL-V5", "step[%lld] is 0", (long long)k);
  for (int64_t k = 0; k < n; k++)
    if (!slice_axis(req, rank, k, &axis))
      return mc_fail(err, MC_E_AXIS_OUT_OF_RANGE, "SL-V6",
                     "axis %lld of the slice does not name one of %d axes", (long long)k, rank);
  bool named[MC_MAX_RANK] = {false};
  for (int64_t k = 0; k < n; k++) {
    slice_axis(req, rank, k, &axis);
    if (named[axis])
      return mc_fail(err, MC_E_AXES_NOT_UNIQUE, "SL-V7",
                     "axis %lld of the slice names axis %d again", (long long)k, axis);
    named[axis] = true;
  }
  return MC_OK;
}

/* SL-V1 to SL-V7, then SL-S1, SL-S2 and SL-O1: an independent reading of
   the clauses next to the oracle's (src/oracle/slice_8.c). The counts are
   at most the data's dimensions, whose product passed MC-L3 already. */
mc_status mc_opt_validate_slice_8(const mc_request *req, mc_opt_plan *plan, mc_error *err) {
  const int rank = plan->rank;
  if (rank < 1)
    return mc_fail(err, MC_E_DATA_RANK, "SL-V1", "data is a scalar; it needs at least one axis");
  mc_status s = slice_check_side_form(req, err);
  if (s != MC_OK)
    return s;
  const int64_t n = req->inputs[SLICE_START]->shape[0];
  s = slice_check_values(req, rank, n, err);
  if (s != MC_OK)
    return s;
  for (int a = 0; a < rank; a++) {
    plan->out_shape[a] = plan->in_shape[a];
    plan->first[a] = 0;
    plan->step[a] = 1;
  }
  for (int64_t k = 0; k < n; k++) {
    int a = 0; /* set: SL-V6 passed */
    slice_axis(req, rank, k, &a);
    const int64_t step = mc_opt_slice_value(req->inputs[SLICE_STEP], k);
    const int64_t count =
        mc_opt_slice_count(plan->in_shape[a], mc_opt_slice_value(req->inputs[SLICE_START], k),
                           mc_opt_slice_value(req->inputs[SLICE_STOP], k), step, &plan->first[a]);
    plan->out_shape[a] = count;
    plan->step[a] = count > 1 ? step : 1;
    if (count == 0)
      plan->first[a] = 0;
  }
  /* Slice reads at least as many bytes as it writes, and its common rows
     (copies, reversed rows) stream with no staging pass: its output is
     evicted by its own reads once the two together fill the cache. */
  plan->stream_counts_reads = true;
  return MC_OK;
}
#endif

/* The output as merged axes: count and signed input stride (in elements)
   per axis, and the input element output element 0 reads. */
typedef struct slice_view {
  int axes; /* at least 1; the last one is the row */
  int64_t count[MC_MAX_RANK];
  int64_t stride[MC_MAX_RANK];
  int64_t base;
} slice_view;

/* Axes of one output element drop out (only their first index counts); an
   axis merges into the one before it when that one's stride is exactly its
   whole run. The products stay below twice the input's element count. */
static slice_view slice_view_of(const mc_kernel_job *job) {
  const mc_opt_plan *p = job->plan;
  slice_view v = {.axes = 0, .base = 0};
  for (int a = 0; a < p->rank; a++) {
    v.base += p->first[a] * job->in_stride[a];
    const int64_t count = p->out_shape[a], stride = p->step[a] * job->in_stride[a];
    if (count == 1)
      continue;
    if (v.axes > 0 && v.stride[v.axes - 1] == count * stride) {
      v.count[v.axes - 1] *= count;
      v.stride[v.axes - 1] = stride;
    } else {
      v.count[v.axes] = count;
      v.stride[v.axes] = stride;
      v.axes++;
    }
  }
  if (v.axes == 0) {
    v.count[0] = 1;
    v.stride[0] = 1;
    v.axes = 1;
  }
  return v;
}

#ifdef MC_KERNELS_AVX2
/* The elements of a 256-bit vector in reverse order, for esize 1, 2, 4, 8:
   within each 128-bit lane by a byte shuffle, then the lanes swapped. */
static inline __m256i slice_reverse_vector(int64_t esize, __m256i v) {
  if (esize == 8)
    return _mm256_permute4x64_epi64(v, _MM_SHUFFLE(0, 1, 2, 3));
  if (esize == 4)
    return _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
  const __m256i bytes = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15,
                                         14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m256i halves = _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14,
                                          15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
  v = _mm256_shuffle_epi8(v, esize == 1 ? bytes : halves);
  return _mm256_permute4x64_epi64(v, _MM_SHUFFLE(1, 0, 3, 2));
}

/* One aligned vector of a reversed row: the per elements from low up,
   reversed, stored at to. */
static inline void slice_reverse_store(int64_t esize, uint8_t *to, const uint8_t *low,
                                       bool stream) {
  const __m256i v =
      slice_reverse_vector(esize, _mm256_loadu_si256((const __m256i *)(const void *)low));
  mc_avx2_put_32(to, v, stream);
}

/* Rows of n elements, dst[r*n + k] = src[r*src_row - k] for k in [0, n),
   r in [0, rows): src the first element read (the highest), src_row the
   input bytes from one row to the next, ESIZE a constant at each call (see
   slice_reverse_avx2). Per row, the elements before the first aligned
   vector of dst and after the last one go one by one with ordinary stores;
   the aligned vectors in between are done from the row's end backwards, so
   that the input is read in ascending order (which the hardware
   prefetchers follow, unlike a descending walk). When the output streams,
   the vectors align to whole lines and stream straight from the registers
   (no stage, no line written both ways, stream.h); a dst that is not a
   multiple of the element size (a caller's buffer) can not align, and
   takes ordinary stores. */
static inline __attribute__((always_inline)) void slice_reverse_sized(int64_t esize, uint8_t *dst,
                                                                      const uint8_t *src, int64_t n,
                                                                      int64_t rows, int64_t src_row,
                                                                      bool stream) {
  stream = stream && (uintptr_t)dst % (uintptr_t)esize == 0;
  const uintptr_t align = stream ? MC_STREAM_LINE : 32;
  /* Rows of whole aligned units all start at dst's alignment: their
     head and body are worked out once. */
  const bool same_split = (uintptr_t)(n * esize) % align == 0;
  int64_t head = 0, body_end = 0;
  for (int64_t r = 0; r < rows; r++, dst += n * esize, src += src_row) {
    if (r == 0 || !same_split) {
      const int64_t lead = (int64_t)(-(uintptr_t)dst & (align - 1)) / esize;
      head = lead < n ? lead : n;
      body_end = head + (int64_t)((uintptr_t)((n - head) * esize) & ~(align - 1)) / esize;
    }
    MC_STRIDED_LOOP(esize, dst, 1, src, -1, head);
    MC_STRIDED_LOOP(esize, dst + body_end * esize, 1, src - body_end * esize, -1, n - body_end);
    /* Two vectors a step while they last, then maybe one. */
    const uint8_t *low = src - (body_end - 1) * esize; /* the lowest element the vectors read */
    uint8_t *to = dst + body_end * esize, *const first = dst + head * esize;
    for (; to - first >= 64; to -= 64, low += 64) {
      slice_reverse_store(esize, to - 32, low, stream);
      slice_reverse_store(esize, to - 64, low + 32, stream);
    }
    if (to > first)
      slice_reverse_store(esize, first, low, stream);
  }
}

/* slice_reverse_sized with the element size made a constant, so that the
   shuffle is chosen and the one-by-one copies sized once per call, not per
   element. */
static void slice_reverse_avx2(int64_t esize, uint8_t *dst, const uint8_t *src, int64_t n,
                               int64_t rows, int64_t src_row, bool stream) {
  switch (esize) {
  case 1:
    slice_reverse_sized(1, dst, src, n, rows, src_row, stream);
    break;
  case 2:
    slice_reverse_sized(2, dst, src, n, rows, src_row, stream);
    break;
  case 4:
    slice_reverse_sized(4, dst, src, n, rows, src_row, stream);
    break;
  default:
    slice_reverse_sized(8, dst, src, n, rows, src_row, stream);
  }
}

/* dst[k] = src[2k] for 4- and 8-byte elements: two loads, the even
   elements picked per lane, the quarters put in order. A vector is done
   only when the element after its last one exists (k + per < n), so that
   the second load stays inside the row. */
static inline int64_t slice_even_avx2(int64_t esize, uint8_t *dst, const uint8_t *src, int64_t n) {
  const int64_t per = 32 / esize;
  int64_t k = 0;
  for (; k + per < n; k += per) {
    const uint8_t *at = src + 2 * k * esize;
    const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)at);
    const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(at + 32));
    __m256i v;
    if (esize == 4)
      v = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b),
                                                _MM_SHUFFLE(2, 0, 2, 0)));
    else
      v = _mm256_unpacklo_epi64(a, b);
    v = _mm256_permute4x64_epi64(v, _MM_SHUFFLE(3, 1, 2, 0));
    _mm256_storeu_si256((__m256i *)(void *)(dst + k * esize), v);
  }
  return k;
}

/* The vectorised part of a row of whole-byte elements, by its step:
   shuffles for 2 (4 and 8 bytes; reversed rows take slice_rows); returns
   how many elements it did. No hardware gathers for the other steps: on
   the AMD EPYC this was measured on they took 2.2 times the scalar loop's
   time (f32, step 3). */
static inline int64_t slice_row_avx2(int64_t esize, uint8_t *dst, const uint8_t *src, int64_t step,
                                     int64_t n) {
  if (step == 2 && esize >= 4)
    return slice_even_avx2(esize, dst, src, n);
  return 0;
}
#endif

/* dst[d + k] = in[s + k*step] for k in [0, n), whole-byte elements,
   ordinary stores: the AVX2 kernels vectorise what they can, the plain
   strided loop does the rest. */
static void slice_row_cached(const mc_rowio *io, uint8_t *dst, int64_t d, const uint8_t *in,
                             int64_t s, int64_t step, int64_t n) {
  int64_t done = 0;
#ifdef MC_KERNELS_AVX2
  const int64_t esize = (int64_t)io->esize;
  done = slice_row_avx2(esize, dst + d * esize, in + s * esize, step, n);
#endif
  mc_row_copy_cached(io, dst, d + done, 1, in, s + done * step, step, n - done);
}

/* dst[d + k] = in[s + k*step] for k in [0, n). Unit steps and packed types
   are the row primitives' (bit-level element copies for u1/u4/i4); other
   rows with streaming stores (gathers, and the baseline kernels' reversed
   rows: the AVX2 ones take slice_rows) are built in an L1-resident stage
   first. */
static void slice_row(const mc_rowio *io, uint8_t *dst, int64_t d, const uint8_t *in, int64_t s,
                      int64_t step, int64_t n) {
  if (step == 1 || io->esize == 0) {
    mc_row_copy(io, dst, d, 1, in, s, step, n);
    return;
  }
  if (!io->stream) {
    slice_row_cached(io, dst, d, in, s, step, n);
    return;
  }
  _Alignas(32) uint8_t stage[MC_STAGE_BYTES];
  const int64_t esize = (int64_t)io->esize, chunk = MC_STAGE_BYTES / esize;
  for (int64_t k0 = 0; k0 < n; k0 += chunk) {
    const int64_t m = n - k0 < chunk ? n - k0 : chunk;
    slice_row_cached(io, stage, 0, in, s + k0 * step, step, m);
    mc_stream_copy(dst + (d + k0) * esize, stage, (size_t)(m * esize));
  }
}

/* `rows` whole rows of n elements, consecutive in the output from d, the
   input's from s on in_row elements apart: the AVX2 kernels reverse whole-
   byte rows of step -1 in one call; the rest goes row by row. */
static void slice_rows(const mc_rowio *io, uint8_t *dst, int64_t d, const uint8_t *in, int64_t s,
                       int64_t step, int64_t n, int64_t rows, int64_t in_row) {
#ifdef MC_KERNELS_AVX2
  const int64_t esize = (int64_t)io->esize;
  if (step == -1 && esize > 0) {
    slice_reverse_avx2(esize, dst + d * esize, in + s * esize, n, rows, in_row * esize, io->stream);
    return;
  }
#endif
  for (int64_t r = 0; r < rows; r++)
    slice_row(io, dst, d + r * n, in, s + r * in_row, step, n);
}

typedef struct slice_job {
  const mc_kernel_job *job;
  slice_view v;
} slice_job;

/* Output elements [begin, end): the pieces of the rows they cover, the
   outer index and its input offset advanced row by row. */
static void slice_range(void *ctx, int64_t begin, int64_t end) {
  const slice_job *sj = ctx;
  const slice_view *v = &sj->v;
  const int inner = v->axes - 1;
  const int64_t n = v->count[inner], step = v->stride[inner];
  int64_t idx[MC_MAX_RANK], src = v->base, col = begin % n;
  int64_t row = begin / n;
  for (int a = inner - 1; a >= 0; a--) {
    idx[a] = row % v->count[a];
    row /= v->count[a];
    src += idx[a] * v->stride[a];
  }
  for (int64_t at = begin; at < end; col = 0) {
    const int64_t len = n - col < end - at ? n - col : end - at;
    /* From a row's start, the range's whole rows up to the innermost outer
       axis's end go in one call. */
    const int64_t in_row = inner > 0 ? v->stride[inner - 1] : 0;
    int64_t rows = 1;
    if (len == n && inner > 0) {
      const int64_t left = v->count[inner - 1] - idx[inner - 1];
      rows = (end - at) / n < left ? (end - at) / n : left;
    }
    slice_rows(&sj->job->io, sj->job->out, at, sj->job->in, src + col * step, step, len, rows,
               in_row);
    at += rows * len;
    if (inner > 0) {
      idx[inner - 1] += rows - 1;
      src += (rows - 1) * in_row;
    }
    for (int a = inner - 1; a >= 0; a--) {
      src += v->stride[a];
      if (++idx[a] < v->count[a])
        break;
      src -= v->count[a] * v->stride[a];
      idx[a] = 0;
    }
  }
}

/* Ranges start on multiples of this many output elements. */
enum { SLICE_ALIGN = 16 };

void MC_KERNEL(mc_kernel_slice_8)(const mc_kernel_job *job) {
  const slice_job sj = {job, slice_view_of(job)};
  mc_parallel_for(job->threads, job->plan->out_elements, SLICE_ALIGN, slice_range, (void *)&sj);
}
