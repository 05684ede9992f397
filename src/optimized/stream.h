/* Streaming (non-temporal) stores for outputs larger than the caches. An
   ordinary store first reads its cache line from memory (write allocate), so
   a copy moves three bytes for every two it needs; a streaming store writes
   the line without reading it, as memcpy does for large sizes. Only whole
   64-byte lines stream; the partial lines at a run's ends take ordinary
   stores, so that no line is written both ways. Kernels arrange for runs to
   cover whole lines (mc_tensor_alloc aligns data to 64 bytes; kernels stage
   consecutive rows and stream them as one run). */
#ifndef MOVCONF_OPTIMIZED_STREAM_H
#define MOVCONF_OPTIMIZED_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define MC_STREAM_VECTOR 1
#else
#define MC_STREAM_VECTOR 0
#endif
#ifdef MC_KERNELS_AVX2
#include <immintrin.h>
#endif

/* Runs shorter than this are not worth splitting into head, body and tail. */
enum { MC_STREAM_LINE = 64, MC_STREAM_MIN_RUN = 2 * MC_STREAM_LINE };

/* Bytes before the first line boundary at or after dst. */
static inline size_t mc_stream_head(const uint8_t *dst) {
  return (size_t)(-(uintptr_t)dst & (MC_STREAM_LINE - 1));
}

/* Bytes between the last line boundary at or before p and p. */
static inline size_t mc_stream_line_offset(const uint8_t *p) {
  return (size_t)((uintptr_t)p & (MC_STREAM_LINE - 1));
}

/* Ordinary stores: dst[0..n) = src[0..n), or zeros when src is NULL. */
static inline void mc_stream_plain(uint8_t *dst, const uint8_t *src, size_t n) {
  if (src)
    memcpy(dst, src, n);
  else
    memset(dst, 0, n);
}

/* Moves w bytes to dst and to dst + n - w (w <= n <= 2w): n bytes in two
   fixed-size moves that may overlap. */
#define MC_STREAM_PAIR(dst, src, n, w)                                                             \
  do {                                                                                             \
    memcpy(dst, src ? src : mc_stream_zeros, w);                                                   \
    memcpy(dst + n - w, src ? src + n - w : mc_stream_zeros, w);                                   \
  } while (0)

static const uint8_t mc_stream_zeros[MC_STREAM_LINE / 2];

/* mc_stream_plain for n < MC_STREAM_LINE, the pieces of a line that several
   pieces share: a memcpy of a variable size is a call or a byte loop. */
static inline void mc_stream_small(uint8_t *dst, const uint8_t *src, size_t n) {
  if (n >= 32)
    MC_STREAM_PAIR(dst, src, n, 32);
  else if (n >= 16)
    MC_STREAM_PAIR(dst, src, n, 16);
  else if (n >= 8)
    MC_STREAM_PAIR(dst, src, n, 8);
  else if (n >= 4)
    MC_STREAM_PAIR(dst, src, n, 4);
  else if (n >= 2)
    MC_STREAM_PAIR(dst, src, n, 2);
  else if (n == 1)
    *dst = src ? *src : 0;
}

/* Whole lines: dst on a line boundary, n a multiple of the line. One line
   per iteration, and the test on src outside the loops. The AVX2 kernels
   store 32 bytes at a time: half the instructions per line. */
static inline void mc_stream_lines(uint8_t *dst, const uint8_t *src, size_t n) {
#if defined(MC_KERNELS_AVX2)
  if (src)
    for (size_t v = 0; v < n; v += MC_STREAM_LINE) {
      const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + v));
      const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + v + 32));
      _mm256_stream_si256((__m256i *)(void *)(dst + v), a);
      _mm256_stream_si256((__m256i *)(void *)(dst + v + 32), b);
    }
  else
    for (size_t v = 0; v < n; v += MC_STREAM_LINE) {
      _mm256_stream_si256((__m256i *)(void *)(dst + v), _mm256_setzero_si256());
      _mm256_stream_si256((__m256i *)(void *)(dst + v + 32), _mm256_setzero_si256());
    }
#elif MC_STREAM_VECTOR
  if (src)
    for (size_t v = 0; v < n; v += 16)
      _mm_stream_si128((__m128i *)(void *)(dst + v),
                       _mm_loadu_si128((const __m128i *)(const void *)(src + v)));
  else
    for (size_t v = 0; v < n; v += 16)
      _mm_stream_si128((__m128i *)(void *)(dst + v), _mm_setzero_si128());
#else
  mc_stream_plain(dst, src, n);
#endif
}

/* dst[0..n) = src[0..n), or zeros when src is NULL (the test on src
   leaves the loop: the wrappers below pass a known pointer or NULL). */
static inline void mc_stream_store(uint8_t *dst, const uint8_t *src, size_t n) {
#if MC_STREAM_VECTOR
  if (n >= MC_STREAM_MIN_RUN) {
    size_t head = mc_stream_head(dst);
    size_t body = (n - head) & ~(size_t)(MC_STREAM_LINE - 1), k = head + body;
    mc_stream_plain(dst, src, head);
    mc_stream_lines(dst + head, src ? src + head : NULL, body);
    mc_stream_plain(dst + k, src ? src + k : NULL, n - k);
    return;
  }
#endif
  mc_stream_plain(dst, src, n);
}

static inline void mc_stream_copy(uint8_t *dst, const uint8_t *src, size_t n) {
  mc_stream_store(dst, src, n);
}

static inline void mc_stream_zero(uint8_t *dst, size_t n) {
  mc_stream_store(dst, NULL, n);
}

/* A run of output bytes written in order, piece after piece, with
   streaming stores and no staging buffer: the whole lines of a piece stream
   straight from its source; only a line that several pieces share is
   assembled in `line` first. As in mc_stream_store, the run's partial first
   and last lines take ordinary stores: a neighbouring run (another thread's
   rows) may write the rest of them. */
typedef struct mc_stream_run {
  uint8_t *start; /* the run's first byte */
  uint8_t *at;    /* the next byte to write */
  _Alignas(MC_STREAM_LINE) uint8_t line[MC_STREAM_LINE];
} mc_stream_run;

static inline void mc_stream_run_begin(mc_stream_run *r, uint8_t *dst) {
  r->start = r->at = dst;
}

/* The bytes of r->line that belong to the run, from line address `base`
   up to `end`, with ordinary stores. */
static inline void mc_stream_run_plain(mc_stream_run *r, uint8_t *base, uint8_t *end) {
  uint8_t *from = base < r->start ? r->start : base;
  memcpy(from, r->line + (from - base), (size_t)(end - from));
}

/* r->line holds the whole line at `base`: out it goes. */
static inline void mc_stream_run_line(mc_stream_run *r, uint8_t *base) {
  if (base < r->start)
    mc_stream_run_plain(r, base, base + MC_STREAM_LINE);
  else
    mc_stream_lines(base, r->line, MC_STREAM_LINE);
}

/* Appends n bytes of src to the run, or n zeros when src is NULL: first
   the rest of the line being assembled, then the whole lines straight from
   src, then the start of the next line. */
static inline void mc_stream_put(mc_stream_run *r, const uint8_t *src, size_t n) {
  if (n == 0)
    return;
  const size_t off = mc_stream_line_offset(r->at);
  if (off != 0 || n < MC_STREAM_LINE) {
    const size_t take = MC_STREAM_LINE - off < n ? MC_STREAM_LINE - off : n;
    mc_stream_small(r->line + off, src, take);
    r->at += take;
    if (off + take < MC_STREAM_LINE)
      return; /* all n bytes are in the line */
    mc_stream_run_line(r, r->at - MC_STREAM_LINE);
    src = src ? src + take : NULL;
    n -= take;
  }
  const size_t body = n & ~(size_t)(MC_STREAM_LINE - 1);
  mc_stream_lines(r->at, src, body);
  mc_stream_small(r->line, src ? src + body : NULL, n - body);
  r->at += n;
}

/* Writes the run's partial last line and ends it. */
static inline void mc_stream_run_end(mc_stream_run *r) {
  const size_t off = mc_stream_line_offset(r->at);
  if (off != 0)
    mc_stream_run_plain(r, r->at - off, r->at);
}

/* Streaming stores are weakly ordered: a thread fences them before it
   reports its range done, so that whoever reads the output sees them. */
static inline void mc_stream_fence(void) {
#if MC_STREAM_VECTOR
  _mm_sfence();
#endif
}

#endif
