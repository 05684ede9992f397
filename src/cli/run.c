/* movconf run: options, then the harness runs every selected case. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "harness/report/live.h"
#include "harness/run/run_selection.h"

static const char run_usage[] =
    "usage: movconf run [options] [PATHS...]\n"
    "\n"
    "Runs every case of the given case files or directories (default: conformance/)\n"
    "against an implementation. A case passes when the implementation returns exactly\n"
    "the expected bytes (bitwise: NaN payloads, -0.0 and denormals included) with the\n"
    "expected type and shape, or rejects the input (with the expected error, when the\n"
    "implementation names errors).\n"
    "\n"
    "implementation:\n";

/* Then mc_impl_options_help, then: */
static const char run_usage_tail[] =
    "  --jobs N                N worker processes (1 to 64, default 1), each with its own\n"
    "                          implementation (its own plugin process or adapter; with\n"
    "                          optimized or oracle, the kernels in the worker, each call\n"
    "                          on --threads threads: up to N x --threads at once), fed\n"
    "                          cases from one queue; verdicts and report as with one\n"
    "                          job, cases in run order; the live FAIL lines come as\n"
    "                          cases finish\n"
    "  --require-named-errors  a rejection of an invalid input passes only when it names\n"
    "                          movconf's error; without a name it is wrong-error (for\n"
    "                          implementations that name errors)\n"
    "\n"
    "selection:\n";

/* Then mc_selection_options_help, then: */
static const char run_usage_selection[] =
    "  --shard K/N             only the K-th of N disjoint parts of the selected cases,\n"
    "                          balanced by the elements each case moves; join the N\n"
    "                          --json reports with movconf report merge\n"
    "  --expect FILE           known failures: a JSON array of {\"case\": GLOB, \"verdict\":\n"
    "                          VERDICT, \"reason\": TEXT} (spec/runner.md)\n"
    "  --write-expect FILE     write the run's failures as an expectations file for\n"
    "                          --expect (a baseline of known failures; each reason a\n"
    "                          placeholder to fill in)\n"
    "  --expect-granularity G  case (default): one entry per failing case; group: one per\n"
    "                          generator group whose cases that ran all failed the same way\n"
    "  --fail-fast             stop at the first case that fails the run\n"
    "  --max-failures N        stop once N cases have failed the run\n"
    "  --max-timeouts N        stop after N timeouts (a hanging implementation costs N\n"
    "                          times --timeout, not every case)\n"
    "  --time-limit SECONDS    start no case after this long (a case under way is\n"
    "                          bounded by --timeout); a run that stops early says why\n"
    "                          after the table and exits 1\n"
    "\n"
    "output:\n"
    "  --json FILE             also write the results as JSON ('-': standard output, the\n"
    "                          table then goes to standard error)\n"
    "  --junit FILE            also write the results as JUnit XML ('-' as for --json)\n"
    "  --quiet                 print only the summary table: not each failure (neither\n"
    "                          at the end nor, on standard error, as it happens), nor\n"
    "                          the slow cases\n"
    "  --slow SECONDS          mark cases that took this long or longer as slow (default 2;\n"
    "                          0: never), so that slow is told apart from a hang\n"
    "  --summary-by KEY        after the table, where failures cluster: one row per\n"
    "                          rank, type (of the data input), mode (or auto_pad),\n"
    "                          file or size (the expected output's element count by\n"
    "                          power of 2, smallest first: a size threshold shows),\n"
    "                          with cases, pass, failed, xfail and unsupported; may be\n"
    "                          repeated (the tables come in the order rank, type,\n"
    "                          mode, file, size)\n"
    "  -h, --help              show this text\n"
    "\n";

/* Then mc_verdicts_print_help, then: */
static const char run_usage_exit[] =
    "Exit status: 0 when no case failed unexpectedly, no expected failure passed, every\n"
    "file loaded and at least one case ran; 1 otherwise; 2 usage or start-up errors.\n"
    "Without PATHS (or with --tier): ./conformance when it is a folder and\n"
    "MOVCONF_DATA_DIR is unset, else the conformance/ (conformance-large/) of movconf's\n"
    "data folder: MOVCONF_DATA_DIR, else ../share/movconf from the program's folder\n"
    "(in a build tree, the source tree).\n";

typedef struct run_options {
  mc_impl_choice impl;
  mc_case_choice cases;
  const char *expect_path;
  const char *json_path;
  const char *junit_path;
  bool fail_fast;
  bool quiet;
  const char *write_expect_path;
  bool require_named_errors;
  double slow_seconds;
  bool expect_by_group;                  /* --expect-granularity group */
  int max_failures, max_timeouts;        /* 0: no limit */
  double time_limit;                     /* 0: none */
  bool summary_by[MC_SUMMARY_KEY_COUNT]; /* the breakdowns asked for */
  int shard_index, shard_count;          /* --shard K/N; 0/0: the whole selection */
  int jobs;                              /* --jobs: worker processes; 1: none */
  int n_paths;
  char **paths;
} run_options;

/* The slowest case of any tier takes about 0.3 s with the built-in kernels
   or the oracle and about 4 s through a process adapter (base64 over a
   pipe), so --timeout's 10 s most likely means a hang; --slow marks the
   slow ones (spec/runner.md, "Slow cases"). */
#define DEFAULT_SLOW_SECONDS 2.0
#define MAX_SLOW_SECONDS 86400.0
#define MAX_TIME_LIMIT_SECONDS (7 * 86400.0)

enum {
  OPT_EXPECT = 256,
  OPT_JSON,
  OPT_JUNIT,
  OPT_FAIL_FAST,
  OPT_QUIET,
  OPT_WRITE_EXPECT,
  OPT_EXPECT_GRANULARITY,
  OPT_REQUIRE_NAMED_ERRORS,
  OPT_SLOW,
  OPT_MAX_FAILURES,
  OPT_MAX_TIMEOUTS,
  OPT_TIME_LIMIT,
  OPT_SUMMARY_BY,
  OPT_SHARD,
  OPT_JOBS
};

static const struct option run_long_options[] = {
    MC_IMPL_LONG_OPTIONS,
    MC_SELECTION_LONG_OPTIONS,
    {"expect", required_argument, NULL, OPT_EXPECT},
    {"json", required_argument, NULL, OPT_JSON},
    {"junit", required_argument, NULL, OPT_JUNIT},
    {"fail-fast", no_argument, NULL, OPT_FAIL_FAST},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"write-expect", required_argument, NULL, OPT_WRITE_EXPECT},
    {"expect-granularity", required_argument, NULL, OPT_EXPECT_GRANULARITY},
    {"require-named-errors", no_argument, NULL, OPT_REQUIRE_NAMED_ERRORS},
    {"slow", required_argument, NULL, OPT_SLOW},
    {"max-failures", required_argument, NULL, OPT_MAX_FAILURES},
    {"max-timeouts", required_argument, NULL, OPT_MAX_TIMEOUTS},
    {"time-limit", required_argument, NULL, OPT_TIME_LIMIT},
    {"summary-by", required_argument, NULL, OPT_SUMMARY_BY},
    {"shard", required_argument, NULL, OPT_SHARD},
    {"jobs", required_argument, NULL, OPT_JOBS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

/* The options that end a run early or add to its report; the problem
   with the value, or NULL. */
static const char *apply_triage_option(run_options *o, int opt, const char *value) {
  mc_summary_key key;
  switch (opt) {
  case OPT_MAX_FAILURES:
    return mc_parse_count(value, 1, INT_MAX, &o->max_failures) ? NULL : "takes a number from 1 up";
  case OPT_MAX_TIMEOUTS:
    return mc_parse_count(value, 1, INT_MAX, &o->max_timeouts) ? NULL : "takes a number from 1 up";
  case OPT_TIME_LIMIT:
    return mc_parse_seconds(value, MAX_TIME_LIMIT_SECONDS, &o->time_limit)
               ? NULL
               : "takes seconds from 0 (no limit) to 604800";
  case OPT_JOBS:
    return mc_parse_count(value, 1, MC_MAX_JOBS, &o->jobs) ? NULL : "takes a number from 1 to 64";
  case OPT_SHARD:
    return mc_parse_shard(value, &o->shard_index, &o->shard_count)
               ? NULL
               : "takes K/N, the K-th of N shards (1 <= K <= N <= 1024)";
  case OPT_SUMMARY_BY:
    if (!mc_summary_key_from_name(value, &key))
      return "takes rank, type, mode, file or size";
    o->summary_by[key] = true;
    return NULL;
  }
  return NULL;
}

/* Applies an option that takes a value; the problem with the value, or NULL. */
static const char *apply_value_option(run_options *o, int opt, const char *value) {
  switch (opt) {
  case OPT_WRITE_EXPECT:
    o->write_expect_path = optarg;
    return NULL;
  case OPT_EXPECT_GRANULARITY:
    o->expect_by_group = strcmp(optarg, "group") == 0;
    return o->expect_by_group || strcmp(optarg, "case") == 0 ? NULL : "takes case or group";
  case OPT_EXPECT:
    o->expect_path = value;
    return NULL;
  case OPT_JSON:
    o->json_path = value;
    return NULL;
  case OPT_JUNIT:
    o->junit_path = value;
    return NULL;
  case OPT_SLOW:
    return mc_parse_seconds(value, MAX_SLOW_SECONDS, &o->slow_seconds)
               ? NULL
               : "takes seconds from 0 (never) to 86400";
  }
  return apply_triage_option(o, opt, value);
}

/* Returns -1 to go on, else the exit status. */
static int parse_run_options(int argc, char **argv, run_options *o) {
  *o = (run_options){.impl = mc_impl_choice_default(),
                     .cases = mc_case_choice_default(),
                     .slow_seconds = DEFAULT_SLOW_SECONDS,
                     .jobs = 1};
  int opt;
  while ((opt = getopt_long(argc, argv, "h", run_long_options, NULL)) != -1) {
    if (opt == 'h') {
      printf("%s%s%s%s%s", run_usage, mc_impl_options_help, run_usage_tail,
             mc_selection_options_help, run_usage_selection);
      mc_verdicts_print_help(stdout);
      fputs(run_usage_exit, stdout);
      mc_print_data_root(stdout);
      return 0;
    }
    if (mc_is_impl_option(opt)) {
      if (mc_apply_impl_option("run", opt, optarg, &o->impl) >= 0)
        return 2;
    } else if (mc_is_selection_option(opt)) {
      if (mc_apply_selection_option("run", opt, optarg, &o->cases) >= 0)
        return 2;
    } else if (opt == OPT_FAIL_FAST) {
      o->fail_fast = true;
    } else if (opt == OPT_QUIET) {
      o->quiet = true;
    } else if (opt == OPT_REQUIRE_NAMED_ERRORS) {
      o->require_named_errors = true;
    } else if (opt == '?') {
      return mc_option_error("run", argv[optind - 1], run_long_options);
    } else {
      const char *problem = apply_value_option(o, opt, optarg);
      if (problem) {
        fprintf(stderr, "movconf run: --%s %s, not '%s'\n", mc_option_name(run_long_options, opt),
                problem, optarg);
        return 2;
      }
    }
  }
  o->paths = argv + optind;
  o->n_paths = argc - optind;
  return mc_check_threads_environment("run", o->impl.options.threads);
}

/* After the table: the breakdowns asked for, then why the run stopped. */
static void print_after_table(const run_options *o, const mc_run_report *r, FILE *out) {
  for (int k = 0; k < MC_SUMMARY_KEY_COUNT; k++)
    if (o->summary_by[k])
      mc_report_print_breakdown(r, (mc_summary_key)k, out);
  mc_report_print_stopped(r, out);
}

/* Said on stderr when the implementation cannot start. */
static void print_start_error(const char *err) {
  char *safe = mc_safe_text(err); /* it may quote what the implementation said */
  fprintf(stderr, "movconf run: %s\n", safe);
  free(safe);
}

static int run_all(const run_options *o, mc_selection *sel, mc_expectations *expectations,
                   const mc_shard_plan *shard) {
  if (!mc_report_paths_usable("run", o->json_path, o->junit_path))
    return 2;
  FILE *table = mc_report_table(o->json_path, o->junit_path);
  mc_run_report report = {.with_expectations = expectations != NULL,
                          .slow_seconds = o->slow_seconds,
                          .timeout_seconds = o->impl.options.timeout_seconds,
                          .shard = shard ? &shard->info : NULL};
  mc_live live = {.report = &report,
                  .progress = isatty(STDERR_FILENO) != 0,
                  .announce = !o->quiet,
                  .files = sel->count};
  mc_case_filter filter = o->cases.filter;
  if (shard) {
    filter.keep = mc_shard_keep;
    filter.keep_ctx = (void *)shard;
  }
  mc_runner runner = {.filter = filter,
                      .expectations = expectations,
                      .report = &report,
                      .fail_fast = o->fail_fast,
                      .require_named_errors = o->require_named_errors,
                      .max_failures = o->max_failures,
                      .max_timeouts = o->max_timeouts,
                      .time_limit = o->time_limit,
                      .observe = mc_live_observe,
                      .starting = mc_live_starting,
                      .observer_ctx = &live};
  mc_run_progress progress = {.file = mc_live_file, .done = mc_live_finish, .ctx = &live};
  char err[1024];
  if (!mc_run_selection(&runner, sel, o->jobs, o->impl.spec, &o->impl.options, &progress, err,
                        sizeof err)) {
    print_start_error(err);
    return 2;
  }
  if (shard)
    mc_shard_set_positions(shard, &report);
  mc_report_print_table(&report, !o->quiet, table);
  print_after_table(o, &report, table);
  mc_expectations_print_notes(stderr, "run", o->expect_path, expectations, shard);
  if (o->write_expect_path) {
    int entries = mc_expectations_write(&report, o->write_expect_path, o->expect_by_group);
    if (entries >= 0)
      fprintf(stderr,
              "movconf run: wrote %d expectation%s to %s: give each a reason, then run with "
              "--expect %s\n",
              entries, entries == 1 ? "" : "s", o->write_expect_path, o->write_expect_path);
  }
  mc_report_files out;
  bool written = mc_open_reports("run", o->json_path, o->junit_path, &out) &&
                 mc_write_reports("run", &out, &report, o->json_path, o->junit_path);
  int status = mc_run_status("run", &report);
  free((char *)report.impl);
  mc_run_report_free(&report);
  return written ? status : 1;
}

/* No report replaces an input (a case file, --expect, the plugin) or
   another report; each can be written. -1 to go on, else 2. */
static int check_run_outputs(const run_options *o, const mc_path_list *files) {
  const mc_named_file outputs[] = {{"--json", o->json_path},
                                   {"--junit", o->junit_path},
                                   {"--write-expect", o->write_expect_path}};
  int n = files->count;
  mc_named_file *inputs = mc_case_file_inputs(files, 2);
  inputs[n++] = (mc_named_file){"--expect", o->expect_path};
  inputs[n++] = mc_plugin_input(o->impl.spec);
  int status = mc_check_outputs("run", outputs, 3, inputs, n);
  free(inputs);
  return status;
}

int mc_cmd_run(int argc, char **argv) {
  run_options o;
  int status = parse_run_options(argc, argv, &o);
  mc_path_list files = {0};
  mc_expectations expectations = {0};
  bool have_files = false, have_expectations = false;
  if (status < 0) {
    have_files = mc_collect_chosen_files(&o.cases, o.n_paths, o.paths, &files);
    if (!have_files)
      status = 2;
  }
  if (status < 0)
    status = check_run_outputs(&o, &files);
  if (status < 0 && o.expect_path) {
    char err[1024];
    have_expectations = mc_expectations_load(o.expect_path, &expectations, err, sizeof err);
    if (!have_expectations) {
      fprintf(stderr, "movconf run: --expect %s\n", err);
      status = 2;
    }
  }
  /* Loaded once, for the shard plan, the run and the workers of --jobs. */
  mc_selection sel = {0};
  if (status < 0)
    mc_selection_load(files.paths, files.count, &sel);
  mc_shard_plan shard = {0};
  if (status < 0 && o.shard_count > 0)
    mc_shard_plan_make(&sel, &o.cases.filter, o.shard_index, o.shard_count, &shard);
  if (status < 0)
    status = run_all(&o, &sel, have_expectations ? &expectations : NULL,
                     o.shard_count > 0 ? &shard : NULL);
  mc_shard_plan_free(&shard);
  mc_selection_free(&sel);
  mc_expectations_free(&expectations);
  mc_path_list_free(&files);
  return status;
}
