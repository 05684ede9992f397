/* What the rooms of src/harness/ share and nothing outside uses: the
   judge's helpers, the runner's and its workers'. The implementations
   behind mc_impl_open keep theirs in impl/ (impl/plugin/, impl/exec/). */
#ifndef MOVCONF_HARNESS_INTERNAL_H
#define MOVCONF_HARNESS_INTERNAL_H

#include <stddef.h>

#include "harness/harness.h"

/* ---- verdict/judge.c, shared with report/picture.c ---- */

/* The multi-index of flat element index in a shape, as "[i,j,k]". */
void mc_format_index(int rank, const int64_t *shape, int64_t flat, char *buf, size_t len);
/* Flat index of the data element with these bits, or -1: at once for a
   counter fill of any size, else by a scan of at most scan_limit elements
   (a larger input: -1). */
int64_t mc_judge_find_source(const mc_case_tensor *in, uint64_t bits, int64_t scan_limit);

/* ---- runner.c, used by runner_jobs.c (never the other way) ---- */

/* A new zeroed result at the end of the report. */
mc_case_result *mc_report_new_result(mc_run_report *r);
void mc_case_result_free(mc_case_result *res);
/* detail: heap, owned by the report now. */
void mc_report_add_process_fault(mc_run_report *report, const char *observed_in,
                                 const char *culprit, char *detail);
/* Id, file, operation, type and what the case is (failure lines, grouping). */
void mc_describe_case(mc_case_result *res, const mc_case *c, const char *file);
/* The counts the stop limits read: sign +1 adds res, -1 takes it back. */
void mc_runner_tally(mc_runner *run, const mc_case_result *res, int sign);
/* True when the run has stopped or must stop before its next case. */
bool mc_runner_stopped(mc_runner *run);
/* Counts the selected cases of f from index from as not run. */
void mc_runner_count_not_run(mc_runner *run, const mc_case_file *f, int from);
/* Whether f's cases are to run: a file that did not load, or that
   check-cases refuses, is recorded instead; once the run has stopped, its
   selected cases are counted as not run. */
bool mc_runner_take_file(mc_runner *run, const mc_selection_file *f);
/* After the last case: stopped_early gets the count of cases not run. */
void mc_runner_close_report(mc_runner *run);

#endif
