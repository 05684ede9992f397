/* movconf bench's side of the timing request of process adapters
   (spec/adapter-protocol.md, section 15): the adapter times its own calls,
   so that the pipe, the JSON and the base64 are not what is measured. */
#ifndef MOVCONF_HARNESS_IMPL_EXEC_TIMING_H
#define MOVCONF_HARNESS_IMPL_EXEC_TIMING_H

#include <stddef.h>

#include "harness/bench_impl.h"
#include "movconf/ops.h"

typedef struct mc_exec_timing mc_exec_timing;

/* Starts `command` with /bin/sh -c and reads its handshake, which must
   declare "timing": true. Writes "NAME VERSION" into name. NULL with a
   message in err when it cannot start or does not declare timing. */
mc_exec_timing *mc_exec_timing_open(const char *command, char *name, size_t namelen, char *err,
                                    size_t errlen);
/* Ends the adapter (closes its input, waits for it, kills it if it lingers). */
void mc_exec_timing_close(mc_exec_timing *adapter);

/* The adapter's own timing of req: its output of the first call into *out
   (allocated here), the median of its per-call seconds, its calls per run. */
typedef struct mc_exec_timed {
  double median_seconds;
  int runs;
  long calls_per_run;
} mc_exec_timed;

mc_bench_impl_status mc_exec_timing_measure(mc_exec_timing *adapter, const mc_request *req,
                                            int runs, double min_run_seconds, mc_tensor *out,
                                            mc_exec_timed *timed, char *detail, size_t len);

#endif
