/* A selection run from start to end (movconf run): the implementation
   opened here or on the workers of --jobs, every file run, every
   implementation process ended (src/harness/run/run_selection.c). */
#ifndef MOVCONF_HARNESS_RUN_SELECTION_H
#define MOVCONF_HARNESS_RUN_SELECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "harness/harness.h"
#include "harness/run/shard.h"

/* What a caller is told while a selection runs; any may be NULL. */
typedef struct mc_run_progress {
  void (*file)(void *ctx, int file); /* before each file, from 1 */
  void (*done)(void *ctx);           /* after the last, before any process ends */
  void *ctx;
} mc_run_progress;

/* Opens the implementation spec (here, or with jobs > 1 in each worker,
   forked now that sel is loaded) and runs every file of sel with runner
   (its filter, expectations and report set); once the run has stopped the
   rest are only counted. Every implementation process (and every worker)
   ends before this returns, so none can reach a report's file. The
   report's impl is then the implementation's name (heap: the caller frees
   it). False, with why in err (text the implementation sent: make it safe
   to print), when the implementation cannot start. */
bool mc_run_selection(mc_runner *runner, mc_selection *sel, int jobs, const char *spec,
                      const mc_impl_options *options, const mc_run_progress *progress, char *err,
                      size_t errlen);

/* After a run, on out, "COMMAND: note: ...": each expectation that matched
   no case that ran (a shard keeps quiet about those of the other shards'
   cases), and how many of those of path still have --write-expect's
   placeholder reason. e may be NULL (no --expect), shard too. */
void mc_expectations_print_notes(FILE *out, const char *command, const char *path,
                                 mc_expectations *e, const mc_shard_plan *shard);

#endif
