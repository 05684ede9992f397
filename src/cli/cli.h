/* The movconf command: subcommands and the pieces they share. */
#ifndef MOVCONF_CLI_H
#define MOVCONF_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "cases/cases.h"

int mc_cmd_run(int argc, char **argv);
int mc_cmd_check_cases(int argc, char **argv);
int mc_cmd_bench(int argc, char **argv);
int mc_cmd_clauses(int argc, char **argv);
int mc_cmd_gen(int argc, char **argv);

/* The case files of the given paths (mc_find_case_files); with no paths,
   ./conformance, or the source tree's when absent. Prints why a path is
   missing and returns false then. */
bool mc_collect_case_files(int n, char **paths, mc_path_list *out);

/* The operation an --op option names: its name, slug or clause prefix in
   any case (BatchToSpace-2, batch_to_space_2, b2s); -1 when none. */
int mc_op_from_option(const char *text);

/* Writes text to path; prints why and returns false when it cannot. */
bool mc_write_text_file(const char *path, const char *text);

/* How one case ended (spec/runner.md). */
typedef enum mc_verdict {
  MC_VERDICT_PASS,
  MC_VERDICT_WRONG_OUTPUT,     /* right shape, wrong element type or bytes */
  MC_VERDICT_WRONG_SHAPE,      /* the output's rank or dimensions differ */
  MC_VERDICT_WRONG_ERROR,      /* rejected, but naming another error */
  MC_VERDICT_MISSED_REJECTION, /* accepted an invalid input */
  MC_VERDICT_WRONG_REJECTION,  /* rejected a valid input */
  MC_VERDICT_UNSUPPORTED,      /* the implementation does not claim the case: not a failure */
  MC_VERDICT_CRASH,            /* died, wrote out of bounds, or broke its interface */
  MC_VERDICT_TIMEOUT,          /* no answer within --timeout */
  MC_VERDICT_COUNT
} mc_verdict;

const char *mc_verdict_name(mc_verdict v);
/* -1 when the name is unknown. */
int mc_verdict_from_name(const char *name);
/* Every verdict but pass and unsupported. */
bool mc_verdict_is_failure(mc_verdict v);

/* How a case's verdict compares with an --expect expectation. */
typedef enum mc_expect_state {
  MC_EXPECT_NONE,            /* no expectation names the case */
  MC_EXPECT_MET,             /* it failed as expected: not a problem */
  MC_EXPECT_UNEXPECTED_PASS, /* expected to fail, but passed: a problem */
  MC_EXPECT_OTHER_FAILURE,   /* failed, but not as expected: a problem */
  MC_EXPECT_NOT_RUN          /* unsupported: neither */
} mc_expect_state;

/* Whether the implementation rejected the case's input, and if so whether
   the rejection named one of movconf's errors (then compared with the
   expected one) or not (then any rejection of an invalid input passes, so
   its reason is not verified). */
typedef enum mc_rejection {
  MC_REJECTION_NONE,   /* not rejected: an output, unsupported, crash, timeout */
  MC_REJECTION_NAMED,  /* rejected with an error name */
  MC_REJECTION_UNNAMED /* rejected without one */
} mc_rejection;

typedef struct mc_case_result {
  char *id;
  char *file;
  int op;        /* mc_op */
  int data_type; /* mc_type of the data input */
  mc_verdict verdict;
  char *detail; /* NULL on pass */
  mc_expect_state expect;
  mc_verdict expected_verdict; /* when expect != MC_EXPECT_NONE */
  char *expect_reason;         /* when expect != MC_EXPECT_NONE */
  mc_rejection rejection;
} mc_case_result;

/* True when the case makes the run fail: an unexpected failure or an
   unexpected pass. */
bool mc_case_result_is_problem(const mc_case_result *r);

/* Everything a run produced, for the reports. */
typedef struct mc_run_report {
  const char *impl;
  mc_case_result *results;
  int count, capacity;
  char **load_errors; /* files that could not be loaded */
  int n_load_errors;
  bool with_expectations; /* --expect was given */
} mc_run_report;

void mc_report_print_table(const mc_run_report *r, bool list_failures);
bool mc_report_write_json(const mc_run_report *r, const char *path);
bool mc_report_write_junit(const mc_run_report *r, const char *path);

/* printf into a fresh heap string (never NULL: aborts on allocation failure). */
char *mc_strdupf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
