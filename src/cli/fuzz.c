/* movconf fuzz: options and the progress line; the campaign, its worker
   processes and its summary are the harness's (mc_fuzz_run). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/clock.h"
#include "fuzz/fuzz.h"

static const char fuzz_usage[] =
    "usage: movconf fuzz [options]\n"
    "\n"
    "Differential fuzzing of any implementation: requests drawn from the fuzz targets'\n"
    "structure-aware producer (valid-biased, with the hostile values: 2^31-1, block\n"
    "products past 64 bits, u64 above INT64_MAX, crops equal to D*B, zero sizes, every\n"
    "element type and side-input type, ranks) from a seeded generator, and one in 20 a\n"
    "large request (2^12 to 2^24 output elements, shapes at vector widths and their\n"
    "tails, blocked channel counts, prime outer extents; sized to what the implementation\n"
    "answers in a quarter of --timeout at its large runs' rate: a slow one gets smaller\n"
    "ones or none). Each runs on the implementation, isolated as in movconf run, and on\n"
    "the oracle, and is judged with run's verdicts.\n"
    "Every failure is shrunk (fewer axes, smaller dimensions, blocks, crops, pads and\n"
    "attributes, element type toward u8, index-filled data) while it fails the same way,\n"
    "and each distinct finding is written once as a readable case file, re-runnable with\n"
    "movconf run --impl SPEC FILE. A finding is keyed by what its shrunk case shows of\n"
    "the cause: operation, verdict, the mismatch (unwritten elements, elements from\n"
    "elsewhere, the expected error), rank, output size class (below 4 Ki, 4 Ki, 64 Ki,\n"
    "1 Mi elements), the side inputs and attributes that are not neutral, and the\n"
    "element type unless the failure does not depend on it; shrinking keeps the key, so\n"
    "two bugs stay two findings. At the end each finding is re-run from its file alone\n"
    "in a fresh process; one that does not fail the same way is reported as flaky.\n"
    "\n"
    "implementation (as for movconf run):\n";

/* Then mc_impl_options_help, then: */
static const char fuzz_usage_tail[] =
    "\n"
    "campaign:\n"
    "  --op OP              only this operation (BatchToSpace-2, b2s, ...); without it, the\n"
    "                       operations the implementation claims (a plugin's supports(),\n"
    "                       an adapter's handshake, asked before the campaign)\n"
    "  --type TYPE          only data of this element type (f32, u4, ...)\n"
    "  --time SECONDS       stop after this long (default 60 unless --runs is given); the\n"
    "                       whole campaign, shrinking and the findings' re-runs included,\n"
    "                       ends within SECONDS plus one --timeout (and a second to start\n"
    "                       the re-runs), however the implementation behaves\n"
    "  --runs N             stop after this many requests (over all jobs)\n"
    "  --seed N             the generator's seed (default 1): the same seed, the same\n"
    "                       requests (the large ones' sizes follow a slow one's speed)\n"
    "  --jobs N             worker processes, each with its own implementation (default 1)\n"
    "  --shrink-time SECONDS  time to shrink one failure (default 30); a finding whose\n"
    "                       shrink it cut short says so (it may shrink further)\n"
    "  --no-large           no large requests\n"
    "  --max-findings N     stop once N distinct findings are in\n"
    "\n"
    "output:\n"
    "  --out DIR            where findings go (default ./movconf-findings; never movconf's\n"
    "                       own conformance/ unless you name it); checked writable before\n"
    "                       the campaign starts, created only when something is found\n"
    "  --json FILE          also write the summary and findings as JSON\n"
    "  -h, --help           show this text\n"
    "\n"
    "Progress goes to stderr: a line kept up to date on a terminal, else a line every\n"
    "5 s (CI logs); the summary, with the time to the first finding, to stdout. Text\n"
    "from the implementation is made safe (escapes, invalid UTF-8) in every output.\n"
    "Exit status: 0 nothing found, 1 a finding or a campaign in which no request\n"
    "completed (nothing was tested: an implementation that never answers, or a --time\n"
    "shorter than its requests take; said on stderr), 2 usage or start-up error.\n";

typedef struct fuzz_cli {
  mc_fuzz_options campaign;
  mc_impl_choice impl;
  mc_case_choice cases; /* --op and --type */
  int jobs;
  const char *json_path;
} fuzz_cli;

enum {
  OPT_TIME = 256,
  OPT_RUNS,
  OPT_SEED,
  OPT_JOBS,
  OPT_SHRINK_TIME,
  OPT_NO_LARGE,
  OPT_OUT,
  OPT_JSON,
  OPT_MAX_FINDINGS
};

static const struct option fuzz_options[] = {
    MC_IMPL_LONG_OPTIONS,
    {"op", required_argument, NULL, MC_OPT_OP},
    {"type", required_argument, NULL, MC_OPT_TYPE},
    {"time", required_argument, NULL, OPT_TIME},
    {"runs", required_argument, NULL, OPT_RUNS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"jobs", required_argument, NULL, OPT_JOBS},
    {"shrink-time", required_argument, NULL, OPT_SHRINK_TIME},
    {"no-large", no_argument, NULL, OPT_NO_LARGE},
    {"out", required_argument, NULL, OPT_OUT},
    {"json", required_argument, NULL, OPT_JSON},
    {"max-findings", required_argument, NULL, OPT_MAX_FINDINGS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

static bool parse_count(const char *text, uint64_t *out) {
  size_t v;
  if (!mc_parse_size(text, &v))
    return false;
  *out = v;
  return true;
}

/* The problem with an option's value, or NULL. */
static const char *apply_option(fuzz_cli *f, int opt, const char *v) {
  mc_fuzz_options *o = &f->campaign;
  switch (opt) {
  case OPT_TIME:
    return mc_parse_seconds(v, 31 * 86400.0, &o->seconds) ? NULL : "takes seconds";
  case OPT_RUNS:
    return parse_count(v, &o->runs) ? NULL : "takes a count";
  case OPT_SEED:
    return parse_count(v, &o->seed) ? NULL : "takes a number";
  case OPT_JOBS:
    return mc_parse_threads(v, &f->jobs) && f->jobs <= 64 ? NULL : "takes a number from 1 to 64";
  case OPT_SHRINK_TIME:
    return mc_parse_seconds(v, 86400, &o->shrink_seconds) ? NULL : "takes seconds";
  case OPT_NO_LARGE:
    o->large_one_in = 0;
    return NULL;
  case OPT_OUT:
    o->out_dir = v;
    return NULL;
  case OPT_JSON:
    f->json_path = v;
    return NULL;
  case OPT_MAX_FINDINGS:
    return mc_parse_count(v, 1, 1000000, &o->max_findings) ? NULL
                                                           : "takes a number from 1 to 1000000";
  }
  return NULL;
}

/* -1 to go on, else the exit status. */
static int parse_fuzz_options(int argc, char **argv, fuzz_cli *f) {
  *f = (fuzz_cli){.campaign = {.seed = 1,
                               .out_dir = "movconf-findings",
                               .large_one_in = MC_FUZZ_LARGE_ONE_IN,
                               .shrink_seconds = 30},
                  .impl = mc_impl_choice_default(),
                  .cases = mc_case_choice_default(),
                  .jobs = 1};
  int opt;
  while ((opt = getopt_long(argc, argv, "h", fuzz_options, NULL)) != -1) {
    if (opt == 'h') {
      printf("%s%s%s", fuzz_usage, mc_impl_options_help, fuzz_usage_tail);
      return 0;
    }
    if (opt == '?')
      return mc_option_error("fuzz", argv[optind - 1], fuzz_options);
    if (mc_is_impl_option(opt) || mc_is_selection_option(opt)) {
      if ((mc_is_impl_option(opt) ? mc_apply_impl_option("fuzz", opt, optarg, &f->impl)
                                  : mc_apply_selection_option("fuzz", opt, optarg, &f->cases)) >= 0)
        return 2;
      continue;
    }
    if (opt == OPT_OUT) /* findings under "DIR/x", not "DIR//x" */
      optarg[mc_path_trimmed_len(optarg)] = '\0';
    const char *problem = apply_option(f, opt, optarg ? optarg : "");
    if (problem) {
      fprintf(stderr, "movconf fuzz: --%s %s, not '%s'\n", mc_option_name(fuzz_options, opt),
              problem, optarg);
      return 2;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "movconf fuzz: unexpected argument '%s'\n", argv[optind]);
    return mc_usage_error("fuzz");
  }
  f->campaign.impl_spec = f->impl.spec;
  f->campaign.op = f->cases.filter.op;
  f->campaign.type = f->cases.filter.type;
  if (f->campaign.seconds == 0 && f->campaign.runs == 0)
    f->campaign.seconds = 60;
  return -1;
}

int mc_cmd_fuzz(int argc, char **argv) {
  fuzz_cli f;
  int status = parse_fuzz_options(argc, argv, &f);
  if (status < 0)
    status = mc_check_threads_environment("fuzz", f.impl.options.threads);
  if (status >= 0)
    return status;
  if (!mc_fuzz_out_dir_writable(f.campaign.out_dir)) {
    fprintf(stderr, "movconf fuzz: --out %s cannot hold findings: %s\n", f.campaign.out_dir,
            strerror(errno));
    return 2;
  }
  double now = mc_now_seconds();
  mc_fuzz_progress_line prog = {
      .terminal = isatty(STDERR_FILENO) != 0, .start = now, .last = now, .campaign = &f.campaign};
  mc_fuzz_stats s = {0};
  status = mc_fuzz_run(&f.campaign, &f.impl.options, f.jobs, &s, mc_fuzz_on_progress, &prog);
  double seconds = mc_now_seconds() - prog.start;
  if (status == 0) {
    mc_fuzz_show_progress(&prog, &s, mc_fuzz_confirmed_findings(&s), true);
    mc_fuzz_print_summary(stdout, &f.campaign, f.jobs, &s, seconds);
    if (f.json_path && !mc_fuzz_write_json(f.json_path, &f.campaign, f.jobs, &s, seconds))
      status = 2;
    else
      status = mc_fuzz_confirmed_findings(&s) ||
                       mc_fuzz_tested_nothing(stderr, &s, f.impl.options.timeout_seconds)
                   ? 1
                   : 0;
  }
  mc_fuzz_stats_free(&s);
  return status;
}
