/* The `movconf fuzz` engine (fuzz/README.md, "movconf fuzz"): random
   requests drawn from the fuzz byte codec (cases/bytes/) run on any
   implementation the harness can open, judged against the oracle, and
   each distinct failure shrunk by its cause and written as a case file.
   A layer above the harness and below the command line (src/cli/fuzz.c
   parses the options). */
#ifndef MOVCONF_FUZZ_H
#define MOVCONF_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "harness/harness.h"
#include "movconf/ops.h"

/* One in this many requests is a large one (2^12 to 2^24 output elements). */
#define MC_FUZZ_LARGE_ONE_IN 20

typedef struct mc_fuzz_options {
  const char *impl_spec; /* for the findings' origin */
  int op;                /* mc_op, or -1 for all */
  int type;              /* data element type, or MC_TYPE_INVALID for all */
  double seconds;        /* stop after this long; 0: no time limit */
  uint64_t runs;         /* stop after this many runs; 0: no count limit */
  uint64_t seed;         /* the same seed gives the same requests */
  int worker;            /* this process's index among --jobs, mixed into the seed */
  const char *out_dir;   /* where findings are written */
  int large_one_in;      /* MC_FUZZ_LARGE_ONE_IN; 0: never large */
  double shrink_seconds; /* per finding */
  int max_findings;      /* stop once this many distinct findings are in; 0: no limit */
  /* Set by mc_fuzz_run: the mc_now_seconds() at which the campaign stops
     (start + seconds; 0: none), which bounds every call, shrinking
     included; and a flag the parent raises to stop every worker (NULL: none). */
  double stop_at;
  volatile int *stop_flag;
} mc_fuzz_options;

/* A distinct failure, shrunk and written. */
typedef struct mc_fuzz_finding {
  char key[160]; /* mc_fuzz_cause_key, then "-<type or any-type>": one finding per key */
  char *file;    /* the case file written; NULL when it could not be */
  char *id;      /* its case id */
  mc_op op;
  mc_verdict verdict;
  mc_type type;  /* of the shrunk request's data */
  bool any_type; /* the failure does not depend on the element type */
  int rank;      /* of the shrunk request's data */
  char *detail;  /* the verdict's detail on the shrunk request (made safe) */
  uint64_t run;  /* which run found it */
  int shrink_steps;
  /* The shrink was cut short (mc_fuzz_shrink): by MC_FUZZ_CUT_BY_SHRINK_TIME,
     MC_FUZZ_CUT_BY_TIME (the campaign's end) or, for a timeout,
     MC_FUZZ_CUT_BY_TIMEOUT (MC_FUZZ_TIMEOUT_SHRINK_CALLS); the case may
     shrink further. */
  enum {
    MC_FUZZ_SHRINK_DONE,
    MC_FUZZ_CUT_BY_SHRINK_TIME,
    MC_FUZZ_CUT_BY_TIME,
    MC_FUZZ_CUT_BY_TIMEOUT
  } shrink_cut;
  size_t max_output_bytes; /* the request's output cap */
  double found_at;         /* mc_now_seconds() when it was recorded */
  /* Re-run from its file alone in a fresh process at the end: */
  enum { MC_FUZZ_NOT_RERUN, MC_FUZZ_REPRODUCED, MC_FUZZ_FLAKY } rerun;
} mc_fuzz_finding;

/* The option whose time limit cut the finding's shrink short ("--shrink-time",
   "--time" or "--timeout"), or NULL when the shrink ran to its end. */
const char *mc_fuzz_shrink_cut_option(const mc_fuzz_finding *f);

typedef struct mc_fuzz_stats {
  uint64_t runs, unsupported, failures, large_runs;
  uint64_t discarded; /* drawn bytes that decode to nothing */
  uint64_t runs_by_op[MC_OP_COUNT], failures_by_op[MC_OP_COUNT], unsupported_by_op[MC_OP_COUNT];
  /* Seconds the runs took on the implementation, and those of the large
     ones and the bytes these moved (data in, output out): large requests
     are drawn in proportion to their cost. */
  double run_seconds, large_seconds, large_bytes;
  /* The fewest bytes a large run moved that timed out (0: none did): the
     large requests after it move less than half as many; and how many
     timed out: after MC_FUZZ_LARGE_TIMEOUTS, no more large requests. */
  double large_timeout_bytes;
  int large_timeouts;
  double started;          /* mc_now_seconds() when the campaign started */
  double first_finding_at; /* mc_now_seconds() of the first finding; 0: none */
  mc_fuzz_finding *findings;
  int n_findings;
  /* Failures whose shrink was cut short, merged into a finding whose
     shrink finished with their cause or a lesser one. */
  int merged_cut_short;
  /* Failures that did not fail when judged again (a fault that timing
     decides), and late faults whose request could not be told: no
     findings, but counted, and each of the first few said on stderr. */
  uint64_t not_failing_again;
  /* A late fault was seen: from then on each call had a process of its
     own, so that such a fault is charged to its own request. */
  bool process_per_call;
  /* Operations the implementation declined every request of when asked
     before the campaign (mc_impl.supports; a bit per mc_op). */
  uint32_t unclaimed_ops;
} mc_fuzz_stats;

/* Runs requests on impl until the time or run limit, judging each against
   the oracle; shrinks every failure and writes each distinct finding under
   o->out_dir. progress (may be NULL) is called after every run. */
void mc_fuzz_campaign(const mc_fuzz_options *o, mc_impl *impl, mc_fuzz_stats *s,
                      void (*progress)(void *ctx, const mc_fuzz_stats *s), void *ctx);
void mc_fuzz_stats_free(mc_fuzz_stats *s);

/* The operations the implementation has shown it does not support: those
   it declined all MC_FUZZ_ASK_REQUESTS requests of when asked before the
   campaign (a plugin's supports(), an adapter's handshake), and those
   whose first MC_FUZZ_CLAIM_RUNS runs or more were all unsupported (a bit
   per mc_op). Without --op the campaign draws the others, and these one
   request in MC_FUZZ_PROBE_ONE_IN, in case a type or shape of them is
   supported after all (issue 39: spend the campaign where the
   implementation claims support). */
/* Once a large request costs more than this on average (a slow
   implementation, a Python adapter), large requests take at most a third
   of the runs' time (issue 39). */
#define MC_FUZZ_SLOW_LARGE_SECONDS 1.0
/* A large request is sized to take at most this share of the --timeout,
   and of the campaign's time left one MC_FUZZ_LARGE_SHARE_OF_LEFT-th, at
   the seconds per byte the large runs took; the first is of the smallest
   size class (2^12 elements). */
#define MC_FUZZ_LARGE_SHARE_OF_TIMEOUT 0.25
#define MC_FUZZ_LARGE_SHARE_OF_LEFT 8
/* A timeout's shrink takes at most this many --timeouts: each of its steps
   that keeps the cause takes one (issue 39: it does not stall the campaign). */
#define MC_FUZZ_TIMEOUT_SHRINK_CALLS 3
#define MC_FUZZ_LARGE_TIMEOUTS 2
#define MC_FUZZ_CLAIM_RUNS 32
#define MC_FUZZ_ASK_REQUESTS 24
#define MC_FUZZ_PROBE_ONE_IN 16
/* Failures that are no finding (mc_fuzz_stats.not_failing_again) said on
   stderr, per worker; the rest are counted only. */
#define MC_FUZZ_NOT_AGAIN_SAID 5
/* The requests judged last that a late fault arriving later is charged
   to: at most this many, and of at most this many bytes (the newest is
   kept whatever its size). */
#define MC_FUZZ_HELD_REQUESTS 16
#define MC_FUZZ_HELD_BYTES ((size_t)64 << 20)
uint32_t mc_fuzz_ops_unsupported(const mc_fuzz_stats *s);
/* "every operation", or the clause prefixes of those drawn, "b2s sl (the
   others unsupported)", for the progress lines and the summary. */
void mc_fuzz_ops_fuzzed_text(const mc_fuzz_options *o, const mc_fuzz_stats *s, char *buf,
                             size_t size);

/* Called with the running totals while a campaign runs (may be NULL). */
typedef void (*mc_fuzz_progress)(void *ctx, const mc_fuzz_stats *s);
/* The whole campaign: opens the implementation o->impl_spec and runs it,
   or with jobs > 1 forks that many workers (each its own implementation
   and stream of the seed, o->runs shared out) and adds up what they
   report; findings with the same key are one. 0 done, 2 when the
   implementation cannot be opened (said on stderr). */
int mc_fuzz_run(const mc_fuzz_options *o, const mc_impl_options *impl_options, int jobs,
                mc_fuzz_stats *s, mc_fuzz_progress progress, void *ctx);
/* The findings that are not flaky (that a re-run from their file alone
   reproduced, or that could not be re-run in time). */
int mc_fuzz_confirmed_findings(const mc_fuzz_stats *s);
/* A campaign in which no request completed tested nothing: no false
   green. Says so on out (a request may take up to timeout_seconds) when
   it is one. */
bool mc_fuzz_tested_nothing(FILE *out, const mc_fuzz_stats *s, double timeout_seconds);
/* The summary table: runs and failures per operation, rates, findings. */
void mc_fuzz_print_summary(FILE *out, const mc_fuzz_options *o, int jobs, const mc_fuzz_stats *s,
                           double seconds);
bool mc_fuzz_write_json(const char *path, const mc_fuzz_options *o, int jobs,
                        const mc_fuzz_stats *s, double seconds);

/* Whether findings can be written in dir (src/fuzz/fuzz_output.c): made if
   need be, a folder, a file created and removed there; what this made is
   removed again, so that nothing is left when nothing is found. False with
   errno set when not. */
bool mc_fuzz_out_dir_writable(const char *dir);

/* The progress line on standard error: kept up to date on a terminal, else
   a line every few seconds (a CI log). */
typedef struct mc_fuzz_progress_line {
  bool terminal;
  double start, last;              /* mc_now_seconds() */
  const mc_fuzz_options *campaign; /* which operations are fuzzed */
} mc_fuzz_progress_line;
/* Shows the totals (findings of them; final: the last line, whatever the
   time since the one before). */
void mc_fuzz_show_progress(mc_fuzz_progress_line *p, const mc_fuzz_stats *s, int findings,
                           bool final);
/* An mc_fuzz_progress for mc_fuzz_run (ctx: an mc_fuzz_progress_line). */
void mc_fuzz_on_progress(void *ctx, const mc_fuzz_stats *s);

#endif
