/* The bench's yardstick copies (movconf/optimized.h), on the kernels' pool. */
#include "movconf/optimized.h"

#include <string.h>

#include "optimized/pool.h"
#include "optimized/stream.h"

enum { COPY_ALIGN = 4096 };

typedef struct copy_job {
  uint8_t *dst;
  const uint8_t *src;
  mc_copy_method method;
} copy_job;

static void copy_range(void *ctx, int64_t begin, int64_t end) {
  const copy_job *c = ctx;
  if (c->method == MC_COPY_STREAMING)
    mc_stream_copy(c->dst + begin, c->src + begin, (size_t)(end - begin));
  else
    memcpy(c->dst + begin, c->src + begin, (size_t)(end - begin));
}

void mc_optimized_copy(void *dst, const void *src, size_t n, int threads, mc_copy_method method) {
  copy_job job = {.dst = dst, .src = src, .method = method};
  mc_parallel_for(threads > 0 ? threads : mc_default_threads(), (int64_t)n, COPY_ALIGN, copy_range,
                  &job);
  mc_stream_fence(); /* the calling thread's own range when it ran alone */
}
