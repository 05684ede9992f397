/* The optimized kernels: the same call shape and error codes as the oracle,
   validated independently of it, multithreaded, no materialized
   intermediates. Results are bitwise identical for every thread count.

   Tuning by environment (read at each call; tests use them to reach every
   path on small requests):
     MOVCONF_THREADS             default thread count
     MOVCONF_PARALLEL_MIN_BYTES  outputs below this run on the calling thread
                                 (default 256 KiB)
     MOVCONF_STREAM_MIN_BYTES    outputs of at least this many bytes are
                                 written with streaming stores (default
                                 32 MiB; ExtractImagePatches only with unit
                                 column strides; Slice counts its output
                                 twice, for the bytes it reads too)
     MOVCONF_SIMD                sse2: the baseline kernels even where the
                                 CPU has AVX2 (default: AVX2 kernels on
                                 x86-64 CPUs that have it) */
#ifndef MOVCONF_OPTIMIZED_H
#define MOVCONF_OPTIMIZED_H

#include "movconf/ops.h"

/* Like mc_oracle_run, with threads workers (<= 0: mc_default_threads()). */
mc_status mc_optimized_run(const mc_request *req, size_t max_output_bytes, int threads,
                           mc_tensor *out, mc_error *err);

/* Validation alone: the output's type, rank and shape, or the error
   mc_optimized_run would return. shape holds at least MC_MAX_RANK values. */
mc_status mc_optimized_output_shape(const mc_request *req, size_t max_output_bytes, mc_type *type,
                                    int *rank, int64_t *shape, mc_error *err);

/* Computes into a caller-allocated output whose type, rank, shape and nbytes
   are those mc_optimized_output_shape gives (else MC_E_INVALID_ARGUMENT).
   Every output byte is written, whatever the buffer held before. */
mc_status mc_optimized_run_into(const mc_request *req, int threads, mc_tensor *out, mc_error *err);

/* MOVCONF_THREADS when it holds a positive number, else the online CPUs. */
int mc_default_threads(void);

/* The kernels a call would use now: "avx2", "sse2" (the x86-64 baseline)
   or "baseline" (another architecture). */
const char *mc_optimized_simd(void);

/* A copy of n bytes over the kernels' own thread pool, split into ranges
   that start on multiples of 4096 bytes, one per thread (threads <= 0:
   mc_default_threads()): the yardsticks movconf bench times the kernels
   against, so that both pay the same for waking the threads. */
typedef enum mc_copy_method {
  MC_COPY_MEMCPY,   /* each range with the C library's memcpy */
  MC_COPY_STREAMING /* each range with the kernels' streaming (non-temporal)
                       stores where the CPU has them, whole 64-byte lines:
                       the ceiling for a kernel that reads and writes each
                       byte once, as no line is read before it is written */
} mc_copy_method;
void mc_optimized_copy(void *dst, const void *src, size_t n, int threads, mc_copy_method method);

#endif
