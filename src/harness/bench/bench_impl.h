/* A third-party implementation in movconf bench (--impl): a plugin, called
   in this process so that its calls are timed like the kernels', or a
   process adapter that times its own calls (the timing request of
   spec/adapter-protocol.md, section 15): timing it from here would time the
   pipe, the JSON and the base64, not the implementation. */
#ifndef MOVCONF_HARNESS_BENCH_IMPL_H
#define MOVCONF_HARNESS_BENCH_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "movconf/ops.h"

typedef struct mc_bench_impl mc_bench_impl;

/* "plugin:PATH" or "exec:COMMAND"; NULL with a message in err otherwise. */
mc_bench_impl *mc_bench_impl_open(const char *spec, char *err, size_t errlen);
void mc_bench_impl_close(mc_bench_impl *impl);
/* The name it announces, e.g. "movconf-plugin 0.1.0". */
const char *mc_bench_impl_name(const mc_bench_impl *impl);

typedef enum mc_bench_impl_status {
  MC_BENCH_IMPL_OK,
  MC_BENCH_IMPL_UNSUPPORTED, /* it does not claim this request */
  MC_BENCH_IMPL_FAILED       /* it rejected the request, announced a broken output or
                                broke its protocol */
} mc_bench_impl_status;

/* How an adapter repeats its own calls: movconf bench's timing plan. */
typedef struct mc_bench_impl_plan {
  int runs;
  double min_run_seconds;
} mc_bench_impl_plan;

/* Computes req once into *out (allocated here; a plugin's is pre-filled
   with a non-zero pattern so that unwritten bytes show; the caller frees it
   with mc_tensor_free). An adapter times its calls by plan in the same
   exchange. The detail says why on UNSUPPORTED and FAILED. */
mc_bench_impl_status mc_bench_impl_prepare(mc_bench_impl *impl, const mc_request *req,
                                           const mc_bench_impl_plan *plan, mc_tensor *out,
                                           char *detail, size_t detail_len);

/* true for an adapter: its figures come from mc_bench_impl_own_timing, and
   mc_bench_impl_call is not for it. */
bool mc_bench_impl_times_itself(const mc_bench_impl *impl);
/* An adapter's median per-call seconds of the prepared request, with its
   runs and calls per run. */
double mc_bench_impl_own_timing(const mc_bench_impl *impl, int *runs, long *calls_per_run);

/* A plugin: one more call of the prepared request into the same output,
   for the timed runs; false when it fails. ctx is the mc_bench_impl. */
bool mc_bench_impl_call(void *ctx);
/* Forgets the prepared request (before its tensors are freed). */
void mc_bench_impl_release(mc_bench_impl *impl);

#endif
