/* The movconf command: subcommands and the pieces they share. */
#ifndef MOVCONF_CLI_H
#define MOVCONF_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cases/cases.h"
#include "common/op_spelling.h"
#include "common/text.h"
#include "harness/harness.h"
#include "harness/report/report_files.h"
#include "harness/run/case_folders.h"
#include "harness/run/shard.h"

int mc_cmd_run(int argc, char **argv);
int mc_cmd_check_cases(int argc, char **argv);
int mc_cmd_bench(int argc, char **argv);
int mc_cmd_clauses(int argc, char **argv);
int mc_cmd_gen(int argc, char **argv);
int mc_cmd_fuzz(int argc, char **argv);
int mc_cmd_show(int argc, char **argv);
/* movconf export (src/cli/export.c; the work is src/harness/export/'s). */
int mc_cmd_export(int argc, char **argv);
/* movconf help operations [--json] (src/cli/operations.c), argv past "operations". */
int mc_cmd_help_operations(int argc, char **argv);
/* movconf report merge and html (src/cli/report.c; the work is the
   harness's, src/harness/report/). */
int mc_cmd_report(int argc, char **argv);

/* Prints "did you mean NAME?" to stderr when an operation name is near. */
void mc_suggest_op(const char *text);

/* An option's thread count, 1 to 1024 (mc_parse_count); the other
   values are read by common/text.h's mc_parse_size, mc_parse_seconds and
   mc_parse_count. */
bool mc_parse_threads(const char *text, int *out);
/* MOVCONF_THREADS is read by the optimized kernels, which would quietly
   fall back to the CPU count on a value they cannot use: held to the rules
   of --threads, before any kernel runs, unless --threads was given
   (threads_option > 0). -1 to go on, else 2 (said on stderr). */
int mc_check_threads_environment(const char *command, int threads_option);

/* The options that choose an implementation under test and bound it:
   one parser, one set of limits and one help text for every command that
   runs one (run, show and fuzz take them all; bench --impl and --threads).
   Their getopt values are these; a command's option table lists them with
   MC_IMPL_LONG_OPTIONS. */
enum {
  MC_OPT_IMPL = 0x1000,
  MC_OPT_THREADS,
  MC_OPT_TIMEOUT,
  MC_OPT_MEMORY_LIMIT,
  MC_OPT_MAX_OUTPUT_BYTES,
  MC_OPT_SANITIZE,
  MC_OPT_FRESH_PROCESS,
  MC_OPT_PAYLOAD,
  MC_OPT_HANDSHAKE_TIMEOUT
};
#define MC_IMPL_LONG_OPTIONS                                                                       \
  {"impl", required_argument, NULL, MC_OPT_IMPL},                                                  \
      {"threads", required_argument, NULL, MC_OPT_THREADS},                                        \
      {"timeout", required_argument, NULL, MC_OPT_TIMEOUT},                                        \
      {"memory-limit", required_argument, NULL, MC_OPT_MEMORY_LIMIT},                              \
      {"max-output-bytes", required_argument, NULL, MC_OPT_MAX_OUTPUT_BYTES},                      \
      {"sanitize", required_argument, NULL, MC_OPT_SANITIZE},                                      \
      {"fresh-process-per-case", no_argument, NULL, MC_OPT_FRESH_PROCESS},                         \
      {"payload", required_argument, NULL, MC_OPT_PAYLOAD}, {                                      \
    "handshake-timeout", required_argument, NULL, MC_OPT_HANDSHAKE_TIMEOUT                         \
  }

/* The implementation an --impl names (default "optimized") and its options. */
typedef struct mc_impl_choice {
  const char *spec;
  mc_impl_options options;
} mc_impl_choice;

/* The defaults: optimized, 10 s timeout, 4096 MiB, MC_DEFAULT_MAX_OUTPUT_BYTES. */
mc_impl_choice mc_impl_choice_default(void);
/* True when opt (a getopt value) is one of MC_IMPL_LONG_OPTIONS. */
bool mc_is_impl_option(int opt);
/* Applies one of them: -1 to go on, else 2 with "movconf COMMAND: --NAME
   takes ..., not 'VALUE'" on stderr. */
int mc_apply_impl_option(const char *command, int opt, const char *value, mc_impl_choice *c);
/* Their help text, one line group per option, as run, show and fuzz print it. */
extern const char mc_impl_options_help[];

/* The options that choose cases (src/cli/selection.c): one parser, one
   set of messages and one help text for every command that reads case
   files: run and export take them all, show --tier, clauses --op. A
   command's option table lists them with MC_SELECTION_LONG_OPTIONS, or
   the one row it takes. */
enum { MC_OPT_OP = 0x1100, MC_OPT_TYPE, MC_OPT_CASE, MC_OPT_TIER };
#define MC_SELECTION_LONG_OPTIONS                                                                  \
  {"op", required_argument, NULL, MC_OPT_OP}, {"type", required_argument, NULL, MC_OPT_TYPE},      \
      {"case", required_argument, NULL, MC_OPT_CASE}, {                                            \
    "tier", required_argument, NULL, MC_OPT_TIER                                                   \
  }

/* What they chose: the cases (op, type, --case globs) and the tier (NULL:
   not given). */
typedef struct mc_case_choice {
  mc_case_filter filter;
  const char *tier;
} mc_case_choice;

/* Every case of the default tier. */
mc_case_choice mc_case_choice_default(void);
/* True when opt (a getopt value) is one of MC_SELECTION_LONG_OPTIONS. */
bool mc_is_selection_option(int opt);
/* Applies one of them: -1 to go on, else 2 with "movconf COMMAND: --NAME
   takes ..., not 'VALUE'" on stderr (and, for --op, a near name). */
int mc_apply_selection_option(const char *command, int opt, const char *value, mc_case_choice *c);
/* Their help text, as run and export print it. */
extern const char mc_selection_options_help[];
/* The case files of the n_paths paths, or without paths of the chosen
   tier's folders; false (said on stderr) when they cannot be listed. */
bool mc_collect_chosen_files(const mc_case_choice *c, int n_paths, char **paths,
                             mc_path_list *files);

/* After getopt_long has said what is wrong with an option: points at the
   command's help and returns the usage exit status, 2. */
int mc_usage_error(const char *command);
/* After getopt_long rejected arg (argv[optind - 1]): suggests the closest
   long option of options when one is near, then as mc_usage_error. */
int mc_option_error(const char *command, const char *arg, const struct option *options);

/* The long name of the option whose getopt value is value. */
const char *mc_option_name(const struct option *options, int value);

#endif
