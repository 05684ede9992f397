/* The optimized kernels' shared context and the entry of each operation
   (each in its operation's file, src/optimized/<slug>.c).
   Each kernel writes every output element (zeros included) and splits its
   work over disjoint output rows with mc_parallel_for. */
#ifndef MOVCONF_OPTIMIZED_KERNELS_H
#define MOVCONF_OPTIMIZED_KERNELS_H

#include "optimized/plan.h"
#include "optimized/pool.h"
#include "optimized/rows.h"

typedef struct mc_kernel_job {
  const mc_opt_plan *plan;
  mc_rowio io;
  const uint8_t *in;
  uint8_t *out;
  int64_t in_stride[MC_MAX_RANK];  /* row-major, in elements */
  int64_t out_stride[MC_MAX_RANK]; /* row-major, in elements */
  int threads;
} mc_kernel_job;

/* With streaming stores, a kernel whose output row is made of several
   pieces (zeros, partial groups, a woven body) builds rows in this stage
   with ordinary stores and streams them out: consecutive output rows as one
   run, so that only the run's two ends can be partial lines. */
enum { MC_ROW_STAGE_BYTES = 16384 };

typedef struct mc_row_stage {
  mc_kernel_job job; /* the kernel's job, writing into `bytes` */
  bool active;
  int64_t capacity; /* elements that fit */
  int64_t filled;   /* elements staged and not streamed yet */
  int64_t to;       /* output element the staged run starts at */
  _Alignas(64) uint8_t bytes[MC_ROW_STAGE_BYTES];
} mc_row_stage;

/* Activates the stage when the job streams and `elements` fit at least once. */
void mc_row_stage_init(mc_row_stage *stage, const mc_kernel_job *job, int64_t elements);

/* Streams out what is staged. Inline, so that the AVX2 kernels stream with
   their 32-byte stores (mc_stream_lines): compiled once for the baseline,
   the flush took 0.31 instructions per byte of BatchToSpace crops1's output,
   a third of the kernel's. */
static inline void mc_row_stage_flush(mc_row_stage *stage, const mc_kernel_job *job) {
  const int64_t esize = (int64_t)job->io.esize;
  mc_stream_copy(job->out + stage->to * esize, stage->bytes, (size_t)(stage->filled * esize));
  stage->filled = 0;
}

/* Room for n elements bound for output element `to`, which must continue
   the staged run (kernels claim the consecutive rows of their range); what is
   staged is streamed out first when they would not fit. Returns their stage
   offset. */
static inline int64_t mc_row_stage_claim(mc_row_stage *stage, const mc_kernel_job *job, int64_t to,
                                         int64_t n) {
  if (stage->filled + n > stage->capacity)
    mc_row_stage_flush(stage, job);
  if (stage->filled == 0)
    stage->to = to;
  int64_t at = stage->filled;
  stage->filled += n;
  return at;
}

/* The kernels are compiled twice: for the baseline target (SSE2 on x86-64)
   and, by kernels_avx2.c, for AVX2, which run_kernel picks at run time.
   MC_KERNEL(name) is the name of this compilation's entry. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MC_HAVE_AVX2_KERNELS 1
#else
#define MC_HAVE_AVX2_KERNELS 0
#endif
#ifdef MC_KERNELS_AVX2
#define MC_KERNEL(name) name##_avx2
#else
#define MC_KERNEL(name) name
#endif

/* Each operation's kernel, in src/optimized/<slug>.c, and its AVX2 build. */
#define MC_OP(NAME, slug) void mc_kernel_##slug(const mc_kernel_job *job);
#include "movconf/op_list.h"
#undef MC_OP
#if MC_HAVE_AVX2_KERNELS
#define MC_OP(NAME, slug) void mc_kernel_##slug##_avx2(const mc_kernel_job *job);
#include "movconf/op_list.h"
#undef MC_OP
#endif

/* Product of dims[0..n); the plan guarantees it fits. */
int64_t mc_kernel_rows(const int64_t *dims, int n);

#endif
