/* Row primitives every optimized kernel is built from: a row is a run of
   elements addressed as (buffer, element index), so one kernel serves every
   element type. Byte-sized types take specialized loops (memcpy for unit
   strides); packed sub-byte types go through bit-level element copies. */
#ifndef MOVCONF_OPTIMIZED_ROWS_H
#define MOVCONF_OPTIMIZED_ROWS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "movconf/tensor.h"
#include "optimized/stream.h"
#ifdef MC_KERNELS_AVX2
#include "optimized/weave_avx2.h"
#endif

/* Beyond this many ways (block size along the last axis) the weave index
   arrays would not fit on the stack: kernels use plain strided copies then. */
#define MC_MAX_WAYS 64

/* Streamed weaves go through a buffer this size that stays in L1. */
enum { MC_STAGE_BYTES = 4096 };

/* Weaves of fewer groups than this are short rows (see MC_INTERLEAVE). */
enum { MC_SHORT_GROUPS = 8 };

/* The short rows' path is inlined into the kernels' row loops: a call and
   its argument set-up cost about as much as the moves of a short row. */
#if defined(__GNUC__)
#define MC_ROW_INLINE inline __attribute__((always_inline))
#else
#define MC_ROW_INLINE inline
#endif

typedef struct mc_rowio {
  mc_type type;
  size_t esize; /* bytes per element; 0 for packed sub-byte types */
  bool stream;  /* contiguous output runs use streaming stores (stream.h) */
} mc_rowio;

static inline mc_rowio mc_rowio_make(mc_type type, bool stream) {
  unsigned bits = mc_type_bits(type);
  mc_rowio io = {type, bits >= 8 ? bits / 8 : 0, stream && bits >= 8};
  return io;
}

/* A strided loop per element size: the fixed-size memcpy compiles to one
   load and one store. */
#define MC_STRIDED_LOOP(SIZE, DST, DSTEP, SRC, SSTEP, N)                                           \
  for (int64_t k_ = 0; k_ < (N); k_++)                                                             \
  memcpy((DST) + k_ * (DSTEP) * (SIZE), (SRC) + k_ * (SSTEP) * (SIZE), SIZE)

/* dst[d + k*dstep] = src[s + k*sstep] for k in [0, n), ordinary stores. */
static inline void mc_row_copy_cached(const mc_rowio *io, uint8_t *dst, int64_t d, int64_t dstep,
                                      const uint8_t *src, int64_t s, int64_t sstep, int64_t n) {
  if (io->esize == 0) {
    for (int64_t k = 0; k < n; k++)
      mc_copy_element(dst, d + k * dstep, src, s + k * sstep, io->type);
    return;
  }
  uint8_t *o = dst + d * (int64_t)io->esize;
  const uint8_t *i = src + s * (int64_t)io->esize;
  if (dstep == 1 && sstep == 1) {
    memcpy(o, i, (size_t)n * io->esize);
    return;
  }
  switch (io->esize) {
  case 1:
    MC_STRIDED_LOOP(1, o, dstep, i, sstep, n);
    break;
  case 2:
    MC_STRIDED_LOOP(2, o, dstep, i, sstep, n);
    break;
  case 4:
    MC_STRIDED_LOOP(4, o, dstep, i, sstep, n);
    break;
  default:
    MC_STRIDED_LOOP(8, o, dstep, i, sstep, n);
    break;
  }
}

/* The same into a contiguous run (dstep 1) with streaming stores: a
   strided source is gathered into an L1-resident stage first. */
static inline void mc_row_copy_streamed(const mc_rowio *io, uint8_t *o, const uint8_t *src,
                                        int64_t s, int64_t sstep, int64_t n) {
  const size_t esize = io->esize;
  if (sstep == 1) {
    mc_stream_copy(o, src + s * (int64_t)esize, (size_t)n * esize);
    return;
  }
  _Alignas(16) uint8_t stage[MC_STAGE_BYTES];
  const int64_t chunk = MC_STAGE_BYTES / (int64_t)esize;
  for (int64_t k0 = 0; k0 < n; k0 += chunk) {
    int64_t m = n - k0 < chunk ? n - k0 : chunk;
    mc_row_copy_cached(io, stage, 0, 1, src, s + k0 * sstep, sstep, m);
    mc_stream_copy(o + k0 * (int64_t)esize, stage, (size_t)m * esize);
  }
}

/* dst[d + k*dstep] = src[s + k*sstep] for k in [0, n). */
static inline void mc_row_copy(const mc_rowio *io, uint8_t *dst, int64_t d, int64_t dstep,
                               const uint8_t *src, int64_t s, int64_t sstep, int64_t n) {
  if (n <= 0)
    return;
  if (io->stream && dstep == 1)
    mc_row_copy_streamed(io, dst + d * (int64_t)io->esize, src, s, sstep, n);
  else
    mc_row_copy_cached(io, dst, d, dstep, src, s, sstep, n);
}

/* Interleave and de-interleave of `ways` rows in one pass, the inner loop
   of every block operation: the element size and (for 2 and 4) the number
   of ways are compile-time constants so that the compiler can vectorize. */
/* The row start pointers are copied into a local array first: read through
   the caller's index array, they could alias the output for all the compiler
   knows, and would be reloaded after every store (no vectorization). */
/* BOUND: GROUPS itself (any row), or MC_SHORT_GROUPS for short rows, whose
   loop of constant bound and early exit compilers unroll into fixed-size
   moves instead of vectorizing it (alias checks and set-up would cost more
   than the few bytes moved). */
#define MC_INTERLEAVE(T, WAYS, BOUND, DST, SRC, SIDX, GROUPS)                                      \
  do {                                                                                             \
    const uint8_t *row_[MC_MAX_WAYS];                                                              \
    for (int64_t o_ = 0; o_ < (WAYS); o_++)                                                        \
      row_[o_] = (SRC) + (SIDX)[o_] * (int64_t)sizeof(T);                                          \
    for (int64_t g_ = 0; g_ < (BOUND); g_++) {                                                     \
      if (g_ == (GROUPS))                                                                          \
        break;                                                                                     \
      for (int64_t o_ = 0; o_ < (WAYS); o_++) {                                                    \
        T v_;                                                                                      \
        memcpy(&v_, row_[o_] + g_ * (int64_t)sizeof(T), sizeof(T));                                \
        memcpy((DST) + (g_ * (WAYS) + o_) * (int64_t)sizeof(T), &v_, sizeof(T));                   \
      }                                                                                            \
    }                                                                                              \
  } while (0)

#define MC_DEINTERLEAVE(T, WAYS, BOUND, DST, DIDX, SRC, GROUPS)                                    \
  do {                                                                                             \
    uint8_t *row_[MC_MAX_WAYS];                                                                    \
    for (int64_t o_ = 0; o_ < (WAYS); o_++)                                                        \
      row_[o_] = (DST) + (DIDX)[o_] * (int64_t)sizeof(T);                                          \
    for (int64_t g_ = 0; g_ < (BOUND); g_++) {                                                     \
      if (g_ == (GROUPS))                                                                          \
        break;                                                                                     \
      for (int64_t o_ = 0; o_ < (WAYS); o_++) {                                                    \
        T v_;                                                                                      \
        memcpy(&v_, (SRC) + (g_ * (WAYS) + o_) * (int64_t)sizeof(T), sizeof(T));                   \
        memcpy(row_[o_] + g_ * (int64_t)sizeof(T), &v_, sizeof(T));                                \
      }                                                                                            \
    }                                                                                              \
  } while (0)

#define MC_BY_WAYS(MACRO, T, WAYS, ...)                                                            \
  do {                                                                                             \
    if ((WAYS) == 2)                                                                               \
      MACRO(T, 2, __VA_ARGS__);                                                                    \
    else if ((WAYS) == 4)                                                                          \
      MACRO(T, 4, __VA_ARGS__);                                                                    \
    else                                                                                           \
      MACRO(T, WAYS, __VA_ARGS__);                                                                 \
  } while (0)

#define MC_BY_SIZE(MACRO, ESIZE, WAYS, ...)                                                        \
  do {                                                                                             \
    switch (ESIZE) {                                                                               \
    case 1:                                                                                        \
      MC_BY_WAYS(MACRO, uint8_t, WAYS, __VA_ARGS__);                                               \
      break;                                                                                       \
    case 2:                                                                                        \
      MC_BY_WAYS(MACRO, uint16_t, WAYS, __VA_ARGS__);                                              \
      break;                                                                                       \
    case 4:                                                                                        \
      MC_BY_WAYS(MACRO, uint32_t, WAYS, __VA_ARGS__);                                              \
      break;                                                                                       \
    default:                                                                                       \
      MC_BY_WAYS(MACRO, uint64_t, WAYS, __VA_ARGS__);                                              \
    }                                                                                              \
  } while (0)

/* mc_weave and mc_unweave for fewer than MC_SHORT_GROUPS groups. */
static MC_ROW_INLINE void mc_weave_short(const mc_rowio *io, uint8_t *out, const uint8_t *src,
                                         const int64_t *s, int64_t ways, int64_t groups) {
  MC_BY_SIZE(MC_INTERLEAVE, io->esize, ways, MC_SHORT_GROUPS, out, src, s, groups);
}

static MC_ROW_INLINE void mc_unweave_short(const mc_rowio *io, uint8_t *dst, const int64_t *d,
                                           const uint8_t *in, int64_t ways, int64_t groups) {
  MC_BY_SIZE(MC_DEINTERLEAVE, io->esize, ways, MC_SHORT_GROUPS, dst, d, in, groups);
}

/* out[g*ways + o] = src[s[o] + g] for whole-byte elements: in the AVX2
   kernels, 4 ways of 1-, 2- and 4-byte elements take weave_avx2.h's
   shuffles for the whole row (a vector of groups at least); the generic
   loop does the rest. */
static inline void mc_weave(const mc_rowio *io, uint8_t *out, const uint8_t *src, const int64_t *s,
                            int64_t ways, int64_t groups) {
#ifdef MC_KERNELS_AVX2
  const int64_t esize = (int64_t)io->esize;
  if (ways == 4 && (esize == 1 || esize == 2 || esize == 4)) {
    const uint8_t *row[4] = {src + s[0] * esize, src + s[1] * esize, src + s[2] * esize,
                             src + s[3] * esize};
    if (mc_avx2_weave4_whole(esize, out, row, groups) == groups)
      return;
  }
#endif
  MC_BY_SIZE(MC_INTERLEAVE, io->esize, ways, groups, out, src, s, groups);
}

/* dst[d[o] + g] = in[g*ways + o] for whole-byte elements: in the AVX2
   kernels, 2 ways of 1- and 2-byte elements take weave_avx2.h's shuffles
   for the whole vectors; the generic loop does the rest. */
static inline void mc_unweave(const mc_rowio *io, uint8_t *dst, const int64_t *d, const uint8_t *in,
                              int64_t ways, int64_t groups) {
#ifdef MC_KERNELS_AVX2
  const int64_t esize = (int64_t)io->esize;
  if (ways == 2 && esize <= 2) {
    const int64_t done =
        mc_avx2_unweave2(esize, dst + d[0] * esize, dst + d[1] * esize, in, groups);
    if (done < groups) {
      const int64_t to[2] = {d[0] + done, d[1] + done};
      MC_BY_SIZE(MC_DEINTERLEAVE, io->esize, 2, groups - done, dst, to, in + done * 2 * esize,
                 groups - done);
    }
    return;
  }
#endif
  MC_BY_SIZE(MC_DEINTERLEAVE, io->esize, ways, groups, dst, d, in, groups);
}

#ifdef MC_KERNELS_AVX2
/* A streamed 4-way weave of 4-byte elements straight into the output, when
   its line boundaries fall between groups: the whole lines take the AVX2
   weave's streaming stores, the partial lines at the ends (and a row of
   one line) ordinary ones, as in mc_stream_store, and no stage is needed.
   False when it does not apply. */
static inline bool mc_weave_streamed_avx2(const mc_rowio *io, uint8_t *out, const uint8_t *src,
                                          const int64_t *s, int64_t ways, int64_t groups) {
  enum { GROUP_BYTES = 16, LINE_GROUPS = MC_STREAM_LINE / GROUP_BYTES };
  const int64_t head_bytes = (int64_t)mc_stream_head(out);
  if (ways != 4 || io->esize != 4 || head_bytes % GROUP_BYTES != 0)
    return false;
  const int64_t head = head_bytes / GROUP_BYTES < groups ? head_bytes / GROUP_BYTES : groups;
  const int64_t lines = (groups - head) / LINE_GROUPS * LINE_GROUPS;
  if (head > 0)
    mc_weave(io, out, src, s, 4, head);
  const uint8_t *row[4] = {src + (s[0] + head) * 4, src + (s[1] + head) * 4,
                           src + (s[2] + head) * 4, src + (s[3] + head) * 4};
  const int64_t tail = head + mc_avx2_weave4_32_stream(out + head * GROUP_BYTES, row, lines);
  if (tail < groups) {
    const int64_t from[4] = {s[0] + tail, s[1] + tail, s[2] + tail, s[3] + tail};
    mc_weave(io, out + tail * GROUP_BYTES, src, from, 4, groups - tail);
  }
  return true;
}
#endif

/* mc_rows_interleave for any row (short ones take mc_weave_short). */
static inline void mc_rows_interleave_any(const mc_rowio *io, uint8_t *dst, int64_t d,
                                          const uint8_t *src, const int64_t *s, int64_t ways,
                                          int64_t groups) {
  if (groups <= 0)
    return;
  if (io->esize == 0 || ways == 1) {
    for (int64_t o = 0; o < ways; o++)
      mc_row_copy(io, dst, d + o, ways, src, s[o], 1, groups);
    return;
  }
  uint8_t *out = dst + d * (int64_t)io->esize;
  if (!io->stream) {
    mc_weave(io, out, src, s, ways, groups);
    return;
  }
#ifdef MC_KERNELS_AVX2
  if (mc_weave_streamed_avx2(io, out, src, s, ways, groups))
    return;
#endif
  /* Streamed: a chunk of groups is woven into the stage, then streamed out. */
  _Alignas(16) uint8_t stage[MC_STAGE_BYTES];
  const int64_t group_bytes = ways * (int64_t)io->esize, chunk = MC_STAGE_BYTES / group_bytes;
  int64_t from[MC_MAX_WAYS];
  for (int64_t g0 = 0; g0 < groups; g0 += chunk) {
    int64_t n = groups - g0 < chunk ? groups - g0 : chunk;
    for (int64_t o = 0; o < ways; o++)
      from[o] = s[o] + g0;
    mc_weave(io, stage, src, from, ways, n);
    mc_stream_copy(out + g0 * group_bytes, stage, (size_t)(n * group_bytes));
  }
}

/* mc_rows_deinterleave for any row (short ones take mc_unweave_short). */
static inline void mc_rows_deinterleave_any(const mc_rowio *io, uint8_t *dst, const int64_t *d,
                                            const uint8_t *src, int64_t s, int64_t ways,
                                            int64_t groups) {
  if (groups <= 0)
    return;
  if (io->esize == 0 || ways == 1) {
    for (int64_t o = 0; o < ways; o++)
      mc_row_copy(io, dst, d[o], 1, src, s + o, ways, groups);
    return;
  }
  const uint8_t *in = src + s * (int64_t)io->esize;
  if (!io->stream) {
    mc_unweave(io, dst, d, in, ways, groups);
    return;
  }
  /* Streamed: each way's part of a chunk of groups lands in its own slice
     of the stage, and each slice is streamed to its row. */
  _Alignas(16) uint8_t stage[MC_STAGE_BYTES];
  const int64_t esize = (int64_t)io->esize, chunk = MC_STAGE_BYTES / (ways * esize);
  int64_t slice[MC_MAX_WAYS];
  for (int64_t o = 0; o < ways; o++)
    slice[o] = o * chunk;
  for (int64_t g0 = 0; g0 < groups; g0 += chunk) {
    int64_t n = groups - g0 < chunk ? groups - g0 : chunk;
    mc_unweave(io, stage, slice, in + g0 * ways * esize, ways, n);
    for (int64_t o = 0; o < ways; o++)
      mc_stream_copy(dst + (d[o] + g0) * esize, stage + slice[o] * esize, (size_t)(n * esize));
  }
}

/* Short rows (few groups, whole-byte elements, ordinary stores) take the
   unrolled loops of mc_weave_short and mc_unweave_short here, so that the
   set-up of the general path, larger than the row, stays out of their way. */
static inline bool mc_rows_short(const mc_rowio *io, int64_t groups) {
  return groups > 0 && groups < MC_SHORT_GROUPS && io->esize != 0 && !io->stream;
}

/* The rows at + s[o] (resp. at + d[o]) for the general path of
   mc_rows_interleave_at and mc_rows_deinterleave_at: apart, so that their
   index array stays out of the short rows' way. */
static inline void mc_rows_interleave_moved(const mc_rowio *io, uint8_t *dst, int64_t d,
                                            const uint8_t *src, int64_t at, const int64_t *s,
                                            int64_t ways, int64_t groups) {
  int64_t from[MC_MAX_WAYS];
  for (int64_t o = 0; o < ways; o++)
    from[o] = at + s[o];
  mc_rows_interleave_any(io, dst, d, src, from, ways, groups);
}

static inline void mc_rows_deinterleave_moved(const mc_rowio *io, uint8_t *dst, int64_t at,
                                              const int64_t *d, const uint8_t *src, int64_t s,
                                              int64_t ways, int64_t groups) {
  int64_t to[MC_MAX_WAYS];
  for (int64_t o = 0; o < ways; o++)
    to[o] = at + d[o];
  mc_rows_deinterleave_any(io, dst, to, src, s, ways, groups);
}

/* dst[d + g*ways + o] = src[at + s[o] + g] for g in [0, groups), o in
   [0, ways): rows whose offsets s from one another stay, at moving. */
static MC_ROW_INLINE void mc_rows_interleave_at(const mc_rowio *io, uint8_t *dst, int64_t d,
                                                const uint8_t *src, int64_t at, const int64_t *s,
                                                int64_t ways, int64_t groups) {
  if (mc_rows_short(io, groups)) {
    const int64_t esize = (int64_t)io->esize;
    mc_weave_short(io, dst + d * esize, src + at * esize, s, ways, groups);
    return;
  }
  mc_rows_interleave_moved(io, dst, d, src, at, s, ways, groups);
}

/* dst[d + g*ways + o] = src[s[o] + g] for g in [0, groups), o in [0, ways). */
static inline void mc_rows_interleave(const mc_rowio *io, uint8_t *dst, int64_t d,
                                      const uint8_t *src, const int64_t *s, int64_t ways,
                                      int64_t groups) {
  mc_rows_interleave_at(io, dst, d, src, 0, s, ways, groups);
}

#ifdef MC_KERNELS_AVX2
/* mc_rows_interleave_repeat's 4 ways of whole vectors: the AVX2 weaves
   straight, without the per-row set-up of the general path. */
static inline bool mc_weave4_repeat_avx2(const mc_rowio *io, uint8_t *out, const uint8_t *src,
                                         const int64_t *s, int64_t groups, int64_t count,
                                         int64_t step) {
  const int64_t e = (int64_t)io->esize, out_step = step * e;
  if (io->stream) {
    /* Every row's line boundaries between groups, as the first one's. */
    if (e != 4 || mc_stream_head(out) % 16 != 0 || out_step % 16 != 0)
      return false;
    int64_t from[4] = {s[0], s[1], s[2], s[3]};
    for (int64_t r = 0; r < count; r++) {
      mc_weave_streamed_avx2(io, out + r * out_step, src, from, 4, groups);
      for (int o = 0; o < 4; o++)
        from[o] += step;
    }
    return true;
  }
  if (!(e == 1 || e == 2 || e == 4) || groups < mc_avx2_weave4_vector(e))
    return false;
  const uint8_t *row[4] = {src + s[0] * e, src + s[1] * e, src + s[2] * e, src + s[3] * e};
  for (int64_t r = 0; r < count; r++) {
    mc_avx2_weave4_whole(e, out + r * out_step, row, groups);
    for (int o = 0; o < 4; o++)
      row[o] += out_step;
  }
  return true;
}
#endif

/* mc_rows_interleave `count` times, the rows and the output `step`
   elements further each time: the interleaves of consecutive matrices in
   one call, so that short ones share the call's set-up. */
static inline void mc_rows_interleave_repeat(const mc_rowio *io, uint8_t *dst, int64_t d,
                                             const uint8_t *src, const int64_t *s, int64_t ways,
                                             int64_t groups, int64_t count, int64_t step) {
#ifdef MC_KERNELS_AVX2
  if (ways == 4 &&
      mc_weave4_repeat_avx2(io, dst + d * (int64_t)io->esize, src, s, groups, count, step))
    return;
#endif
  int64_t from[MC_MAX_WAYS];
  for (int64_t o = 0; o < ways; o++)
    from[o] = s[o];
  for (int64_t r = 0; r < count; r++) {
    mc_rows_interleave(io, dst, d + r * step, src, from, ways, groups);
    for (int64_t o = 0; o < ways; o++)
      from[o] += step;
  }
}

/* dst[at + d[o] + g] = src[s + g*ways + o] for g in [0, groups), o in
   [0, ways): rows whose offsets d from one another stay, at moving. */
static MC_ROW_INLINE void mc_rows_deinterleave_at(const mc_rowio *io, uint8_t *dst, int64_t at,
                                                  const int64_t *d, const uint8_t *src, int64_t s,
                                                  int64_t ways, int64_t groups) {
  if (mc_rows_short(io, groups)) {
    const int64_t esize = (int64_t)io->esize;
    mc_unweave_short(io, dst + at * esize, d, src + s * esize, ways, groups);
    return;
  }
  mc_rows_deinterleave_moved(io, dst, at, d, src, s, ways, groups);
}

/* dst[d[o] + g] = src[s + g*ways + o] for g in [0, groups), o in [0, ways). */
static inline void mc_rows_deinterleave(const mc_rowio *io, uint8_t *dst, const int64_t *d,
                                        const uint8_t *src, int64_t s, int64_t ways,
                                        int64_t groups) {
  mc_rows_deinterleave_at(io, dst, 0, d, src, s, ways, groups);
}

/* dst[d + k*dstep] = 0 (all bits) for k in [0, n). */
static inline void mc_row_zero(const mc_rowio *io, uint8_t *dst, int64_t d, int64_t dstep,
                               int64_t n) {
  if (n <= 0)
    return;
  if (io->esize == 0) {
    for (int64_t k = 0; k < n; k++)
      mc_store_bits(dst, io->type, d + k * dstep, 0);
  } else if (dstep == 1 && io->stream) {
    mc_stream_zero(dst + d * (int64_t)io->esize, (size_t)n * io->esize);
  } else if (dstep == 1) {
    memset(dst + d * (int64_t)io->esize, 0, (size_t)n * io->esize);
  } else {
    for (int64_t k = 0; k < n; k++)
      memset(dst + (d + k * dstep) * (int64_t)io->esize, 0, io->esize);
  }
}

/* Walks the outer index (all axes but the last) of a row-major shape row by
   row: rows [begin, end) of a range are visited with one division per axis
   at the start and increments after. */
typedef struct mc_row_walk {
  int axes;
  int64_t dim[MC_MAX_RANK];
  int64_t idx[MC_MAX_RANK];
} mc_row_walk;

static inline void mc_row_walk_start(mc_row_walk *w, int axes, const int64_t *dims, int64_t row) {
  w->axes = axes;
  for (int a = axes - 1; a >= 0; a--) {
    w->dim[a] = dims[a];
    w->idx[a] = dims[a] ? row % dims[a] : 0;
    row = dims[a] ? row / dims[a] : 0;
  }
}

static inline void mc_row_walk_next(mc_row_walk *w) {
  for (int a = w->axes - 1; a >= 0; a--) {
    if (++w->idx[a] < w->dim[a])
      return;
    w->idx[a] = 0;
  }
}

/* ceil(a / b) for a >= 0, b >= 1, without forming a + b - 1. */
static inline int64_t mc_ceil_div(int64_t a, int64_t b) {
  return a / b + (a % b != 0);
}

/* The positions k in [0, width) whose source index k*step + shift lies in
   [0, limit): [*lo, *hi), possibly empty (then *lo == *hi). step >= 1. The
   span between them is where a padded row reads its input. */
static inline void mc_strided_inside(int64_t shift, int64_t step, int64_t limit, int64_t width,
                                     int64_t *lo, int64_t *hi) {
  int64_t first = shift >= 0 ? 0 : mc_ceil_div(-shift, step);
  int64_t end = limit - shift > 0 ? mc_ceil_div(limit - shift, step) : 0;
  first = first < width ? first : width;
  end = end < width ? end : width;
  *lo = first;
  *hi = end > first ? end : first;
}

/* Number of k >= 0 with 0 <= first + k*step < limit, for step >= 1 and
   first >= 0 (0 when first >= limit). */
static inline int64_t mc_count_below(int64_t first, int64_t step, int64_t limit) {
  return first < limit ? (limit - 1 - first) / step + 1 : 0;
}

#endif
