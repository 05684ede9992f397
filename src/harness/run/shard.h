/* run --shard K/N (src/harness/run/shard.c): the selected cases, each given
   to one of N shards, heaviest first to the lightest shard so far (cost:
   the elements a case moves in and out); deterministic and disjoint. */
#ifndef MOVCONF_HARNESS_RUN_SHARD_H
#define MOVCONF_HARNESS_RUN_SHARD_H

#include <stdbool.h>

#include "harness/harness.h"

typedef struct mc_shard_plan {
  mc_shard_info info;
  struct shard_entry *entries; /* sorted by id */
  int n;
} mc_shard_plan;
/* "K/N" with 1 <= K <= N <= MC_MAX_SHARDS. */
bool mc_parse_shard(const char *text, int *k, int *n);
/* Shares the cases of sel selected by filter among n shards. */
void mc_shard_plan_make(const mc_selection *sel, const mc_case_filter *filter, int k, int n,
                        mc_shard_plan *p);
/* An mc_case_filter keep function: the case is in the plan's shard. */
bool mc_shard_keep(void *ctx, const mc_case *c);
/* Whether x is the expectation (the first whose glob matches) of a case of
   another shard: the whole run's --expect given to each shard. */
bool mc_shard_elsewhere_matches(const mc_shard_plan *p, mc_expectations *e,
                                const mc_expectation *x);
/* Each result's place in the whole selection (mc_case_result position). */
void mc_shard_set_positions(const mc_shard_plan *p, mc_run_report *r);
void mc_shard_plan_free(mc_shard_plan *p);

#endif
