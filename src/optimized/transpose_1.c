/* Transpose-1 without intermediates. Axes of one element go and runs of
   input axes that stay neighbours in the output merge, leaving a reduced
   permutation P over dimensions D. When the innermost input axis stays
   innermost, every output row is one input row: row copies. Otherwise the
   output's last axis reads input axis q = P[R-1] and the input's last axis
   lands on output axis m: per index of the other axes an A x B matrix
   (A = D[R-1], B = D[q]) is transposed in square tiles that stay in L1.
   Compiled twice like the other kernels (kernels_avx2.c includes this
   file); the validation is compiled once. Clauses: spec/transpose_1.md. */
#include "optimized/kernels.h"

#ifndef MC_KERNELS_AVX2
#include "common/error.h"
#include "movconf/tensor.h"

/* TR-V1 to TR-V3: the form of input_order. */
static mc_status transpose_check_form(const mc_tensor *order, int rank, mc_error *err) {
  if (!mc_type_is_side_integer(order->type))
    return mc_fail(err, MC_E_SIDE_INPUT_TYPE, "TR-V1",
                   "input_order has type %s, not a side-input integer", mc_type_name(order->type));
  if (order->rank != 1)
    return mc_fail(err, MC_E_SIDE_INPUT_RANK, "TR-V2", "input_order has rank %d, it must be 1-D",
                   order->rank);
  if (order->shape[0] != 0 && order->shape[0] != rank)
    return mc_fail(err, MC_E_SIDE_INPUT_LENGTH, "TR-V3",
                   "input_order has %lld values for %d axes; it needs %d or none",
                   (long long)order->shape[0], rank, rank);
  return MC_OK;
}

/* TR-V4 and TR-V5, each over every value before the next: a u64 above
   INT64_MAX is unreadable as int64 and out of range with the negatives. */
static mc_status transpose_check_values(const mc_tensor *order, int rank, int *perm,
                                        mc_error *err) {
  for (int k = 0; k < rank; k++) {
    int64_t v;
    if (!mc_side_value(order, k, &v) || v < 0 || v >= rank)
      return mc_fail(err, MC_E_AXIS_OUT_OF_RANGE, "TR-V4",
                     "input_order[%d] does not name one of %d axes", k, rank);
    perm[k] = (int)v;
  }
  bool named[MC_MAX_RANK] = {false};
  for (int k = 0; k < rank; k++) {
    if (named[perm[k]])
      return mc_fail(err, MC_E_AXES_NOT_UNIQUE, "TR-V5", "input_order[%d] names axis %d again", k,
                     perm[k]);
    named[perm[k]] = true;
  }
  return MC_OK;
}

/* TR-V1 to TR-V5, TR-S1 and TR-O1: an independent reading of the clauses
   next to the oracle's (src/oracle/transpose_1.c). The output holds the
   data's dimensions in another order: no new product to check. */
mc_status mc_opt_validate_transpose_1(const mc_request *req, mc_opt_plan *plan, mc_error *err) {
  const int rank = plan->rank;
  const mc_tensor *order = req->inputs[1];
  mc_status s = transpose_check_form(order, rank, err);
  if (s != MC_OK)
    return s;
  if (order->shape[0] == 0) {
    for (int k = 0; k < rank; k++)
      plan->perm[k] = rank - 1 - k;
  } else {
    s = transpose_check_values(order, rank, plan->perm, err);
    if (s != MC_OK)
      return s;
  }
  for (int k = 0; k < rank; k++)
    plan->out_shape[k] = plan->in_shape[plan->perm[k]];
  /* A transpose reads its input once, in tiles: from 16 MiB out, streaming
     its lines straight from the registers beat the write-allocate reads. */
  plan->stream_counts_reads = true;
  return MC_OK;
}
#endif

/* The reduced transpose: output axis k reads input axis perm[k] of dim. */
typedef struct transpose_view {
  int rank;
  int perm[MC_MAX_RANK];
  int64_t dim[MC_MAX_RANK];        /* input dimensions */
  int64_t in_stride[MC_MAX_RANK];  /* row-major over dim, in elements */
  int64_t out_dim[MC_MAX_RANK];    /* dim[perm[k]] */
  int64_t out_stride[MC_MAX_RANK]; /* row-major over out_dim */
} transpose_view;

/* Row-major strides of n dimensions. */
static void transpose_strides(const int64_t *dim, int n, int64_t *stride) {
  int64_t s = 1;
  for (int a = n - 1; a >= 0; a--) {
    stride[a] = s;
    s *= dim[a];
  }
}

/* Drops the axes of one element, then merges input axes a - 1 and a when
   the output reads a right after a - 1: they stay one run both sides. */
static transpose_view transpose_view_of(const mc_opt_plan *p) {
  int renumber[MC_MAX_RANK], perm[MC_MAX_RANK], n = 0, c = 0;
  int64_t dim[MC_MAX_RANK];
  for (int a = 0; a < p->rank; a++) {
    renumber[a] = p->in_shape[a] == 1 ? -1 : n;
    if (p->in_shape[a] != 1)
      dim[n++] = p->in_shape[a];
  }
  for (int k = 0; k < p->rank; k++)
    if (renumber[p->perm[k]] >= 0)
      perm[c++] = renumber[p->perm[k]];
  bool joins[MC_MAX_RANK] = {false};
  for (int k = 1; k < n; k++)
    joins[perm[k]] = perm[k] == perm[k - 1] + 1;
  transpose_view v = {0};
  int merged[MC_MAX_RANK], m = -1;
  for (int a = 0; a < n; a++) {
    if (!joins[a])
      v.dim[++m] = 1;
    v.dim[m] *= dim[a];
    merged[a] = m;
  }
  v.rank = m + 1;
  for (int k = 0, r = 0; k < n; k++)
    if (!joins[perm[k]])
      v.perm[r++] = merged[perm[k]];
  for (int k = 0; k < v.rank; k++)
    v.out_dim[k] = v.dim[v.perm[k]];
  transpose_strides(v.dim, v.rank, v.in_stride);
  transpose_strides(v.out_dim, v.rank, v.out_stride);
  return v;
}

/* A tile is TRANSPOSE_TILE_A elements along the input's rows by
   TRANSPOSE_TILE_B bytes along the output's rows: 16 kB that stay in L1,
   output runs of four lines (one line per row left the writes scattered
   over as many DRAM pages as rows: bench tr/swap_last/f32 0.3 of the
   ceiling, 0.5 with four lines, same runs). */
enum { TRANSPOSE_TILE_A = 64, TRANSPOSE_TILE_B = 256 };

typedef struct transpose_job {
  const mc_kernel_job *job;
  transpose_view v;
  /* Tiled path: output axis m reads the input's last axis (A elements),
     the output's last axis reads input axis q (B elements); the other
     output axes are outer[0..n_outer). */
  int m, q, n_outer;
  int outer[MC_MAX_RANK];
  int64_t tile_a, tile_b, tiles_a, tiles_b;
} transpose_job;

/* The whole tensor as one row. */
static void transpose_identity(void *ctx, int64_t begin, int64_t end) {
  const mc_kernel_job *j = ctx;
  mc_row_copy(&j->io, j->out, begin, 1, j->in, begin, 1, end - begin);
}

/* Output rows (every output axis but the last, which reads the input's
   last axis whole): each is one input row. */
static void transpose_rows(void *ctx, int64_t begin, int64_t end) {
  const transpose_job *t = ctx;
  const transpose_view *v = &t->v;
  const int last = v->rank - 1;
  const int64_t width = v->out_dim[last];
  mc_row_walk w;
  mc_row_walk_start(&w, last, v->out_dim, begin);
  for (int64_t row = begin; row < end; row++, mc_row_walk_next(&w)) {
    int64_t from = 0;
    for (int k = 0; k < last; k++)
      from += w.idx[k] * v->in_stride[v->perm[k]];
    mc_row_copy(&t->job->io, t->job->out, row * width, 1, t->job->in, from, 1, width);
  }
}

/* out[a * out_a + b] = in[b * in_b + a] for a < na, b < nb, in elements of
   SIZE bytes: writes run along b, reads along a stay in the tile's rows. */
#define TRANSPOSE_TILE_LOOP(SIZE, OUT, OUT_A, IN, IN_B, NA, NB)                                    \
  for (int64_t a_ = 0; a_ < (NA); a_++)                                                            \
    for (int64_t b_ = 0; b_ < (NB); b_++)                                                          \
  memcpy((OUT) + (a_ * (OUT_A) + b_) * (SIZE), (IN) + (b_ * (IN_B) + a_) * (SIZE), SIZE)

#if defined(__SSE2__)
#include <emmintrin.h>

/* log2(N) rounds of interleaving register i with register i + N/2 (low
   halves into 2i, high halves into 2i + 1): an N x N transpose of each
   128-bit lane of the N registers r of type T. */
#define TRANSPOSE_ROUNDS(T, N, LO, HI, r)                                                          \
  do {                                                                                             \
    T t_[N];                                                                                       \
    for (int round = 1; round < N; round *= 2) {                                                   \
      for (int i = 0; i < N / 2; i++) {                                                            \
        t_[2 * i] = LO(r[i], r[i + N / 2]);                                                        \
        t_[2 * i + 1] = HI(r[i], r[i + N / 2]);                                                    \
      }                                                                                            \
      memcpy(r, t_, sizeof t_);                                                                    \
    }                                                                                              \
  } while (0)

/* An N x N block of E-byte elements (N = 16 / E) transposed in registers:
   N rows of 16 bytes loaded, TRANSPOSE_ROUNDS, N rows stored. */
#define TRANSPOSE_BLOCK_FN(E, N, LO, HI)                                                           \
  static inline __attribute__((always_inline)) void transpose_block_##E(                           \
      uint8_t *dst, int64_t dst_row, const uint8_t *src, int64_t src_row) {                        \
    __m128i r[N];                                                                                  \
    for (int i = 0; i < N; i++)                                                                    \
      r[i] = _mm_loadu_si128((const __m128i *)(const void *)(src + i * src_row));                  \
    TRANSPOSE_ROUNDS(__m128i, N, LO, HI, r);                                                       \
    for (int i = 0; i < N; i++)                                                                    \
      _mm_storeu_si128((__m128i *)(void *)(dst + i * dst_row), r[i]);                              \
  }
TRANSPOSE_BLOCK_FN(1, 16, _mm_unpacklo_epi8, _mm_unpackhi_epi8)
TRANSPOSE_BLOCK_FN(2, 8, _mm_unpacklo_epi16, _mm_unpackhi_epi16)
#if defined(MC_KERNELS_AVX2)
#include <immintrin.h>

/* 4-byte elements in 8 x 8 blocks of 256-bit rows: within each 128-bit
   lane, 32-bit then 64-bit interleaves make 4 x 4 transposes; the lanes
   then swap between rows i and i + 4. Half the instructions per byte of
   the 4 x 4 blocks. */
static inline __attribute__((always_inline)) void transpose_regs_4(__m256i r[8]) {
  __m256i t[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {
    r[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
    r[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
    r[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
    r[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
  }
  for (int i = 0; i < 4; i++) {
    t[i] = _mm256_permute2x128_si256(r[i], r[i + 4], 0x20);
    t[i + 4] = _mm256_permute2x128_si256(r[i], r[i + 4], 0x31);
  }
  memcpy(r, t, sizeof t);
}

static inline __attribute__((always_inline)) void
transpose_block_4(uint8_t *dst, int64_t dst_row, const uint8_t *src, int64_t src_row) {
  __m256i r[8];
  for (int i = 0; i < 8; i++)
    r[i] = _mm256_loadu_si256((const __m256i *)(const void *)(src + i * src_row));
  transpose_regs_4(r);
  for (int i = 0; i < 8; i++)
    _mm256_storeu_si256((__m256i *)(void *)(dst + i * dst_row), r[i]);
}

/* Streamed tiles go straight from the registers to whole output lines.
   transpose_half_E leaves in r[j] the 32 bytes of output row j that come
   from 32 / E input rows: 4-byte elements as one 8 x 8 block; 1 and 2-byte
   elements as two N x N blocks side by side, input row i in the low lane
   and row i + N in the high lane, each lane transposed on its own. */
static inline __attribute__((always_inline)) void transpose_half_4(__m256i r[8], const uint8_t *src,
                                                                   int64_t src_row) {
  for (int i = 0; i < 8; i++)
    r[i] = _mm256_loadu_si256((const __m256i *)(const void *)(src + i * src_row));
  transpose_regs_4(r);
}

#define TRANSPOSE_HALF_FN(E, N, LO, HI)                                                            \
  static inline __attribute__((always_inline)) void transpose_half_##E(                            \
      __m256i r[N], const uint8_t *src, int64_t src_row) {                                         \
    for (int i = 0; i < N; i++)                                                                    \
      r[i] = _mm256_inserti128_si256(                                                              \
          _mm256_castsi128_si256(                                                                  \
              _mm_loadu_si128((const __m128i *)(const void *)(src + i * src_row))),                \
          _mm_loadu_si128((const __m128i *)(const void *)(src + (i + N) * src_row)), 1);           \
    TRANSPOSE_ROUNDS(__m256i, N, LO, HI, r);                                                       \
  }
TRANSPOSE_HALF_FN(1, 16, _mm256_unpacklo_epi8, _mm256_unpackhi_epi8)
TRANSPOSE_HALF_FN(2, 8, _mm256_unpacklo_epi16, _mm256_unpackhi_epi16)

/* R output rows (R = 8, or 16 for bytes) of 64 bytes each, from 64 / E
   input rows: two halves, each row's line streamed as soon as whole. */
#define TRANSPOSE_LINES_FN(E, R)                                                                   \
  static inline __attribute__((always_inline)) void transpose_lines_##E(                           \
      uint8_t *dst, int64_t dst_row, const uint8_t *src, int64_t src_row) {                        \
    __m256i low[R], high[R];                                                                       \
    transpose_half_##E(low, src, src_row);                                                         \
    transpose_half_##E(high, src + 32 / E * src_row, src_row);                                     \
    for (int j = 0; j < R; j++) {                                                                  \
      _mm256_stream_si256((__m256i *)(void *)(dst + j * dst_row), low[j]);                         \
      _mm256_stream_si256((__m256i *)(void *)(dst + j * dst_row + 32), high[j]);                   \
    }                                                                                              \
  }
TRANSPOSE_LINES_FN(1, 16)
TRANSPOSE_LINES_FN(2, 8)
TRANSPOSE_LINES_FN(4, 8)

/* A tile streamed from the registers, in steps of R output rows by one
   output line. Only where every step's lines are whole and on line
   boundaries: na a multiple of R, nb of a line's elements, and every
   output row of the tile starting on a line. */
#define TRANSPOSE_STREAMED_FN(E, R)                                                                \
  static bool transpose_streamed_##E(uint8_t *dst, int64_t out_a, const uint8_t *src,              \
                                     int64_t in_b, int64_t na, int64_t nb) {                       \
    if (na % R != 0 || nb % (64 / E) != 0 || (out_a * E) % 64 != 0 ||                              \
        mc_stream_line_offset(dst) != 0)                                                           \
      return false;                                                                                \
    if (in_b > out_a) /* input rows further apart: each read along its row */                      \
      for (int64_t b = 0; b < nb; b += 64 / E)                                                     \
        for (int64_t a = 0; a < na; a += R)                                                        \
          transpose_lines_##E(dst + (a * out_a + b) * E, out_a * E, src + (b * in_b + a) * E,      \
                              in_b * E);                                                           \
    else /* each output row written in order */                                                    \
      for (int64_t a = 0; a < na; a += R)                                                          \
        for (int64_t b = 0; b < nb; b += 64 / E)                                                   \
          transpose_lines_##E(dst + (a * out_a + b) * E, out_a * E, src + (b * in_b + a) * E,      \
                              in_b * E);                                                           \
    return true;                                                                                   \
  }
TRANSPOSE_STREAMED_FN(1, 16)
TRANSPOSE_STREAMED_FN(2, 8)
TRANSPOSE_STREAMED_FN(4, 8)

/* Whether the streamed tile went straight from the registers. */
static bool transpose_streamed(int64_t esize, uint8_t *dst, int64_t out_a, const uint8_t *src,
                               int64_t in_b, int64_t na, int64_t nb) {
  switch (esize) {
  case 1:
    return transpose_streamed_1(dst, out_a, src, in_b, na, nb);
  case 2:
    return transpose_streamed_2(dst, out_a, src, in_b, na, nb);
  case 4:
    return transpose_streamed_4(dst, out_a, src, in_b, na, nb);
  default:
    return false;
  }
}
#else
TRANSPOSE_BLOCK_FN(4, 4, _mm_unpacklo_epi32, _mm_unpackhi_epi32)
#endif
TRANSPOSE_BLOCK_FN(8, 2, _mm_unpacklo_epi64, _mm_unpackhi_epi64)

/* A tile of E-byte elements: whole N x N blocks in registers, the edges
   element by element. */
#define TRANSPOSE_TILE_FN(E, N)                                                                    \
  static void transpose_tile_##E(uint8_t *dst, int64_t out_a, const uint8_t *src, int64_t in_b,    \
                                 int64_t na, int64_t nb) {                                         \
    const int64_t whole_a = na - na % N, whole_b = nb - nb % N;                                    \
    for (int64_t b = 0; b < whole_b; b += N)                                                       \
      for (int64_t a = 0; a < whole_a; a += N)                                                     \
        transpose_block_##E(dst + (a * out_a + b) * E, out_a * E, src + (b * in_b + a) * E,        \
                            in_b * E);                                                             \
    TRANSPOSE_TILE_LOOP(E, dst + whole_b * E, out_a, src + whole_b * in_b * E, in_b, whole_a,      \
                        nb - whole_b);                                                             \
    TRANSPOSE_TILE_LOOP(E, dst + whole_a * out_a * E, out_a, src + whole_a * E, in_b,              \
                        na - whole_a, nb);                                                         \
  }
TRANSPOSE_TILE_FN(1, 16)
TRANSPOSE_TILE_FN(2, 8)
#if defined(MC_KERNELS_AVX2)
TRANSPOSE_TILE_FN(4, 8)
#else
TRANSPOSE_TILE_FN(4, 4)
#endif
TRANSPOSE_TILE_FN(8, 2)
#else
#define TRANSPOSE_TILE_FN(E, N)                                                                    \
  static void transpose_tile_##E(uint8_t *dst, int64_t out_a, const uint8_t *src, int64_t in_b,    \
                                 int64_t na, int64_t nb) {                                         \
    TRANSPOSE_TILE_LOOP(E, dst, out_a, src, in_b, na, nb);                                         \
  }
TRANSPOSE_TILE_FN(1, 16)
TRANSPOSE_TILE_FN(2, 8)
TRANSPOSE_TILE_FN(4, 4)
TRANSPOSE_TILE_FN(8, 2)
#endif

static void transpose_tile_bytes(int64_t esize, uint8_t *dst, int64_t out_a, const uint8_t *src,
                                 int64_t in_b, int64_t na, int64_t nb);

/* One tile, at element offsets o (output) and i (input). Packed types go
   element by element (they run on one thread: run_kernel). */
static void transpose_tile(const mc_rowio *io, uint8_t *out, int64_t o, int64_t out_a,
                           const uint8_t *in, int64_t i, int64_t in_b, int64_t na, int64_t nb) {
  if (io->esize == 0) {
    for (int64_t a = 0; a < na; a++)
      for (int64_t b = 0; b < nb; b++)
        mc_copy_element(out, o + a * out_a + b, in, i + b * in_b + a, io->type);
    return;
  }
  const int64_t esize = (int64_t)io->esize;
  const uint8_t *src = in + i * esize;
#if defined(MC_KERNELS_AVX2)
  if (io->stream && transpose_streamed(esize, out + o * esize, out_a, src, in_b, na, nb))
    return;
#endif
  if (io->stream) {
    /* Through an L1 stage, streamed out: no whole output line is read
       before it is written; the lines a row shares with the next tile's
       take ordinary stores. */
    _Alignas(64) uint8_t stage[TRANSPOSE_TILE_A * TRANSPOSE_TILE_B];
    transpose_tile_bytes(esize, stage, TRANSPOSE_TILE_B / esize, src, in_b, na, nb);
    for (int64_t a = 0; a < na; a++)
      mc_stream_copy(out + (o + a * out_a) * esize, stage + a * TRANSPOSE_TILE_B,
                     (size_t)(nb * esize));
    return;
  }
  transpose_tile_bytes(esize, out + o * esize, out_a, src, in_b, na, nb);
}

/* A tile of whole-byte elements, dst and src at the tile's first element. */
static void transpose_tile_bytes(int64_t esize, uint8_t *dst, int64_t out_a, const uint8_t *src,
                                 int64_t in_b, int64_t na, int64_t nb) {
  switch (esize) {
  case 1:
    transpose_tile_1(dst, out_a, src, in_b, na, nb);
    break;
  case 2:
    transpose_tile_2(dst, out_a, src, in_b, na, nb);
    break;
  case 4:
    transpose_tile_4(dst, out_a, src, in_b, na, nb);
    break;
  default:
    transpose_tile_8(dst, out_a, src, in_b, na, nb);
    break;
  }
}

/* Tiles [begin, end) in the order (outer index, tile of a, tile of b). */
static void transpose_tiles(void *ctx, int64_t begin, int64_t end) {
  const transpose_job *t = ctx;
  const transpose_view *v = &t->v;
  const int last = v->rank - 1;
  const int64_t A = v->dim[last], B = v->dim[t->q];
  for (int64_t u = begin; u < end; u++) {
    const int64_t tb = u % t->tiles_b, ta = u / t->tiles_b % t->tiles_a;
    int64_t rest = u / t->tiles_b / t->tiles_a, o = 0, i = 0;
    for (int n = t->n_outer - 1; n >= 0; n--) {
      const int k = t->outer[n];
      const int64_t idx = rest % v->out_dim[k];
      rest /= v->out_dim[k];
      o += idx * v->out_stride[k];
      i += idx * v->in_stride[v->perm[k]];
    }
    const int64_t a0 = ta * t->tile_a, b0 = tb * t->tile_b;
    const int64_t na = A - a0 < t->tile_a ? A - a0 : t->tile_a;
    const int64_t nb = B - b0 < t->tile_b ? B - b0 : t->tile_b;
    transpose_tile(&t->job->io, t->job->out, o + a0 * v->out_stride[t->m] + b0, v->out_stride[t->m],
                   t->job->in, i + b0 * v->in_stride[t->q] + a0, v->in_stride[t->q], na, nb);
  }
}

static void transpose_tiled(const mc_kernel_job *job, transpose_job *t) {
  const transpose_view *v = &t->v;
  const int last = v->rank - 1;
  t->q = v->perm[last];
  t->n_outer = 0;
  for (int k = 0; k < last; k++) {
    if (v->perm[k] == last)
      t->m = k;
    else
      t->outer[t->n_outer++] = k;
  }
  t->tile_b = job->io.esize == 0 ? 64 : TRANSPOSE_TILE_B / (int64_t)job->io.esize;
  t->tile_a = TRANSPOSE_TILE_A;
  t->tiles_a = mc_ceil_div(v->dim[last], t->tile_a);
  t->tiles_b = mc_ceil_div(v->dim[t->q], t->tile_b);
  const int64_t outer = job->plan->out_elements / (v->dim[last] * v->dim[t->q]);
  mc_parallel_for(job->threads, outer * t->tiles_a * t->tiles_b, 1, transpose_tiles, t);
}

void MC_KERNEL(mc_kernel_transpose_1)(const mc_kernel_job *job) {
  transpose_job t = {.job = job, .v = transpose_view_of(job->plan)};
  const int last = t.v.rank - 1;
  if (t.v.rank <= 1)
    mc_parallel_for(job->threads, job->plan->out_elements, 4096, transpose_identity, (void *)job);
  else if (t.v.perm[last] == last)
    mc_parallel_for(job->threads, job->plan->out_elements / t.v.dim[last], 1, transpose_rows, &t);
  else
    transpose_tiled(job, &t);
}
