/* A third-party implementation in movconf bench (--impl): a plugin, called
   in this process so that its calls are timed like the kernels' (a process
   boundary would time the transport, not the kernels). */
#ifndef MOVCONF_HARNESS_BENCH_IMPL_H
#define MOVCONF_HARNESS_BENCH_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "movconf/ops.h"

typedef struct mc_bench_impl mc_bench_impl;

/* "plugin:PATH"; NULL with a message in err otherwise. */
mc_bench_impl *mc_bench_impl_open(const char *spec, char *err, size_t errlen);
void mc_bench_impl_close(mc_bench_impl *impl);
/* The name it announces, e.g. "movconf-plugin 0.1.0". */
const char *mc_bench_impl_name(const mc_bench_impl *impl);

typedef enum mc_bench_impl_status {
  MC_BENCH_IMPL_OK,
  MC_BENCH_IMPL_UNSUPPORTED, /* it does not claim this request */
  MC_BENCH_IMPL_FAILED       /* it rejected the request or announced a broken output */
} mc_bench_impl_status;

/* Computes req once into *out (allocated here, pre-filled with a non-zero
   pattern so that unwritten bytes show; the caller frees it with
   mc_tensor_free). The detail says why on UNSUPPORTED and FAILED. */
mc_bench_impl_status mc_bench_impl_prepare(mc_bench_impl *impl, const mc_request *req,
                                           mc_tensor *out, char *detail, size_t detail_len);

/* One more call of the prepared request into the same output, for the
   timed runs; false when it fails. ctx is the mc_bench_impl. */
bool mc_bench_impl_call(void *ctx);
/* Forgets the prepared request (before its tensors are freed). */
void mc_bench_impl_release(mc_bench_impl *impl);

#endif
