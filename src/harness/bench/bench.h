/* The benchmark engine behind `movconf bench`: named workloads, each checked
   against the oracle bit for bit, then timed next to yardstick copies of the
   same traffic and the oracle; a table on stdout and optional JSON rows. */
#ifndef MOVCONF_HARNESS_BENCH_H
#define MOVCONF_HARNESS_BENCH_H

#include <stdbool.h>

typedef struct mc_bench_options {
  int threads;            /* kernels' and copies' threads; <= 0: mc_default_threads() */
  bool quick;             /* smaller shapes, fewer and shorter runs */
  const char *filter;     /* fnmatch pattern over workload ids; NULL: all */
  const char *json_path;  /* also write the rows here; NULL: no JSON */
  const char *version;    /* movconf's version, recorded in the JSON */
  const char *impl;       /* "plugin:PATH": also time that implementation; NULL: none */
  double timeout_seconds; /* a plugin call lasting longer ends the benchmark; 0: none */
} mc_bench_options;

/* Number of workloads whose id matches filter (NULL matches all). */
int mc_bench_count(const char *filter);

/* Prints the selected workloads' ids and input shapes. */
void mc_bench_list(const mc_bench_options *options);

/* Runs the selected workloads (at least one must match). Returns 0 when
   every one ran and matched the oracle (and so did --impl where it claims
   the workload), 1 on a mismatch, an error or an unwritable JSON file, 2
   when --impl cannot be opened. */
int mc_bench_run(const mc_bench_options *options);

#endif
