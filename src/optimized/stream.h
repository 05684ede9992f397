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

/* Whole lines: dst on a line boundary, n a multiple of the line. */
static inline void mc_stream_lines(uint8_t *dst, const uint8_t *src, size_t n) {
#if MC_STREAM_VECTOR
  for (size_t v = 0; v < n; v += 16)
    _mm_stream_si128((__m128i *)(void *)(dst + v),
                     src ? _mm_loadu_si128((const __m128i *)(const void *)(src + v))
                         : _mm_setzero_si128());
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

/* Appends n bytes of src to the run, or n zeros when src is NULL. */
static inline void mc_stream_put(mc_stream_run *r, const uint8_t *src, size_t n) {
  while (n > 0) {
    const size_t off = mc_stream_line_offset(r->at);
    size_t take;
    if (off == 0 && n >= MC_STREAM_LINE) {
      take = n & ~(size_t)(MC_STREAM_LINE - 1);
      mc_stream_lines(r->at, src, take);
    } else {
      take = MC_STREAM_LINE - off < n ? MC_STREAM_LINE - off : n;
      mc_stream_plain(r->line + off, src, take);
      if (off + take == MC_STREAM_LINE)
        mc_stream_run_line(r, r->at - off);
    }
    r->at += take;
    src = src ? src + take : NULL;
    n -= take;
  }
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
