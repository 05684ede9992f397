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

/* Ordinary stores: dst[0..n) = src[0..n), or zeros when src is NULL. */
static inline void mc_stream_plain(uint8_t *dst, const uint8_t *src, size_t n) {
  if (src)
    memcpy(dst, src, n);
  else
    memset(dst, 0, n);
}

/* dst[0..n) = src[0..n), or zeros when src is NULL (the test on src
   leaves the loop: the wrappers below pass a known pointer or NULL). */
static inline void mc_stream_store(uint8_t *dst, const uint8_t *src, size_t n) {
#if MC_STREAM_VECTOR
  if (n >= MC_STREAM_MIN_RUN) {
    size_t head = mc_stream_head(dst), k = head;
    mc_stream_plain(dst, src, head);
    for (; k + MC_STREAM_LINE <= n; k += MC_STREAM_LINE)
      for (size_t v = k; v < k + MC_STREAM_LINE; v += 16)
        _mm_stream_si128((__m128i *)(void *)(dst + v),
                         src ? _mm_loadu_si128((const __m128i *)(const void *)(src + v))
                             : _mm_setzero_si128());
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

/* Streaming stores are weakly ordered: a thread fences them before it
   reports its range done, so that whoever reads the output sees them. */
static inline void mc_stream_fence(void) {
#if MC_STREAM_VECTOR
  _mm_sfence();
#endif
}

#endif
