/* movconf run: every case through an implementation, judged bit for bit. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "movconf/tensor.h"

static const char run_usage[] =
    "usage: movconf run [options] [PATHS...]\n"
    "\n"
    "Runs every case of the given case files or directories (default: conformance/)\n"
    "against an implementation. A case passes when the implementation returns exactly\n"
    "the expected bytes (bitwise: NaN payloads, -0.0 and denormals included) with the\n"
    "expected type and shape, or rejects the input (with the expected error, when the\n"
    "implementation names errors).\n"
    "\n"
    "implementation:\n"
    "  --impl NAME             what to test: optimized (default), oracle, plugin:PATH.so\n"
    "                          (spec/plugin-abi.md) or exec:'COMMAND ARGS'\n"
    "                          (spec/adapter-protocol.md)\n"
    "  --threads N             threads of the optimized kernels (default: MOVCONF_THREADS,\n"
    "                          else the online CPUs)\n"
    "  --timeout SECONDS       per case, for plugins and adapters (default 10; 0: none)\n"
    "  --memory-limit MB       address space a plugin's process may add to what it starts\n"
    "                          with (default 4096; 0: no limit)\n"
    "  --max-output-bytes N    cap on one output (clause MC-L4; default 1073741824)\n"
    "\n"
    "selection:\n"
    "  --op OP                 only cases of one operation (BatchToSpace-2, batch_to_space_2,\n"
    "                          b2s...)\n"
    "  --type TYPE             only cases whose data input has this element type (f32, u4...)\n"
    "  --case GLOB             only cases whose id matches GLOB (e.g. 'eip/spec/*')\n"
    "  --expect FILE           known failures: a JSON array of {\"case\": GLOB, \"verdict\":\n"
    "                          VERDICT, \"reason\": TEXT} (spec/runner.md)\n"
    "  --fail-fast             stop at the first case that fails the run\n"
    "\n"
    "output:\n"
    "  --json FILE             also write the results as JSON\n"
    "  --junit FILE            also write the results as JUnit XML\n"
    "  --quiet                 print only the summary table, not each failure\n"
    "  -h, --help              show this text\n"
    "\n"
    "Verdicts: pass; wrong-output (right shape, wrong type or bytes); wrong-shape;\n"
    "wrong-error (rejected, naming another error); missed-rejection (accepted an invalid\n"
    "input); wrong-rejection (rejected a valid one); unsupported (not claimed by the\n"
    "implementation: not a failure); crash; timeout.\n"
    "Exit status: 0 when no case failed unexpectedly, no expected failure passed, every\n"
    "file loaded and at least one case ran; 1 otherwise; 2 usage or start-up errors.\n";

typedef struct run_options {
  const char *impl;
  int threads; /* 0: the default */
  int op;      /* mc_op or MC_OP_INVALID for all */
  int type;    /* mc_type of the data input, or MC_TYPE_INVALID for all */
  const char *case_glob;
  const char *expect_path;
  const char *json_path;
  const char *junit_path;
  size_t max_output_bytes;
  double timeout_seconds;
  size_t memory_limit_mb;
  bool fail_fast;
  bool quiet;
  int n_paths;
  char **paths;
} run_options;

#define DEFAULT_TIMEOUT_SECONDS 10.0
#define DEFAULT_MEMORY_LIMIT_MB 4096
#define MAX_TIMEOUT_SECONDS 86400.0
#define MAX_MEMORY_LIMIT_MB ((size_t)1 << 24)

static bool parse_size(const char *text, size_t *out) {
  char *end;
  unsigned long long v = strtoull(text, &end, 10);
  if (*text == '\0' || *end != '\0' || text[0] == '-')
    return false;
  *out = (size_t)v;
  return true;
}

static bool parse_seconds(const char *text, double *out) {
  char *end;
  double v = strtod(text, &end);
  if (*text == '\0' || *end != '\0' || !(v >= 0) || v > MAX_TIMEOUT_SECONDS)
    return false;
  *out = v;
  return true;
}

static bool takes_value(const char *a) {
  static const char *const with_value[] = {"--impl",
                                           "--threads",
                                           "--op",
                                           "--type",
                                           "--case",
                                           "--expect",
                                           "--json",
                                           "--junit",
                                           "--timeout",
                                           "--memory-limit",
                                           "--max-output-bytes"};
  for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++)
    if (strcmp(a, with_value[i]) == 0)
      return true;
  return false;
}

/* Applies an option that takes a value; returns false after printing why
   the value is wrong. */
static bool apply_value_option(run_options *o, const char *a, const char *value) {
  const char *problem = NULL;
  if (strcmp(a, "--impl") == 0) {
    o->impl = value;
  } else if (strcmp(a, "--threads") == 0) {
    char *end;
    long n = strtol(value, &end, 10);
    if (*end != '\0' || n < 1 || n > 1024)
      problem = "takes a number from 1 to 1024";
    o->threads = (int)n;
  } else if (strcmp(a, "--op") == 0) {
    if ((o->op = mc_op_from_option(value)) < 0)
      problem = "takes an operation (BatchToSpace-2, batch_to_space_2 or b2s...)";
  } else if (strcmp(a, "--type") == 0) {
    if ((o->type = mc_type_from_name(value)) == MC_TYPE_INVALID)
      problem = "takes an element type name (boolean, u8, ..., f32, u1, u4, i4)";
  } else if (strcmp(a, "--case") == 0) {
    o->case_glob = value;
  } else if (strcmp(a, "--expect") == 0) {
    o->expect_path = value;
  } else if (strcmp(a, "--json") == 0) {
    o->json_path = value;
  } else if (strcmp(a, "--junit") == 0) {
    o->junit_path = value;
  } else if (strcmp(a, "--timeout") == 0) {
    if (!parse_seconds(value, &o->timeout_seconds))
      problem = "takes seconds from 0 (no timeout) to 86400";
  } else if (strcmp(a, "--memory-limit") == 0) {
    if (!parse_size(value, &o->memory_limit_mb) || o->memory_limit_mb > MAX_MEMORY_LIMIT_MB)
      problem = "takes MiB from 0 (no limit) to 16777216";
  } else if (strcmp(a, "--max-output-bytes") == 0) {
    if (!parse_size(value, &o->max_output_bytes))
      problem = "takes a byte count";
  }
  if (problem)
    fprintf(stderr, "movconf run: %s %s, not '%s'\n", a, problem, value);
  return problem == NULL;
}

/* Returns -1 to go on, else the exit status. */
static int parse_run_options(int argc, char **argv, run_options *o) {
  *o = (run_options){.impl = "optimized",
                     .op = MC_OP_INVALID,
                     .type = MC_TYPE_INVALID,
                     .max_output_bytes = MC_DEFAULT_MAX_OUTPUT_BYTES,
                     .timeout_seconds = DEFAULT_TIMEOUT_SECONDS,
                     .memory_limit_mb = DEFAULT_MEMORY_LIMIT_MB};
  o->paths = calloc((size_t)argc + 1, sizeof *o->paths);
  if (!o->paths) {
    fputs("movconf run: out of memory\n", stderr);
    return 2;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(run_usage, stdout);
      return 0;
    }
    if (takes_value(a)) {
      if (i + 1 >= argc) {
        fprintf(stderr, "movconf run: %s needs a value\n", a);
        return 2;
      }
      if (!apply_value_option(o, a, argv[++i]))
        return 2;
    } else if (strcmp(a, "--fail-fast") == 0) {
      o->fail_fast = true;
    } else if (strcmp(a, "--quiet") == 0) {
      o->quiet = true;
    } else if (a[0] == '-' && a[1] != '\0') {
      fprintf(stderr, "movconf run: unknown option '%s' (see movconf run --help)\n", a);
      return 2;
    } else {
      o->paths[o->n_paths++] = argv[i];
    }
  }
  return -1;
}

/* ---- progress on a terminal, at most ten updates a second ---- */

typedef struct progress {
  bool on;
  bool shown;
  double last;
  int file, files;
} progress;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void show_progress(progress *p, const mc_run_report *r, bool final) {
  if (!p->on)
    return;
  double now = now_seconds();
  if (!final && now - p->last < 0.1)
    return;
  if (final && !p->shown)
    return;
  int problems = 0;
  for (int i = 0; i < r->count; i++)
    problems += mc_case_result_is_problem(&r->results[i]);
  fprintf(stderr, "\r[file %d/%d] %d cases, %d failed%s", p->file, p->files, r->count, problems,
          final ? "\n" : "");
  p->last = now;
  p->shown = true;
}

/* ---- running ---- */

typedef struct run_context {
  const run_options *o;
  mc_impl *impl;
  mc_expectations *expectations; /* NULL without --expect */
  mc_run_report *report;
  progress *progress;
} run_context;

static mc_case_result *new_result(mc_run_report *r) {
  if (r->count == r->capacity) {
    r->capacity = r->capacity ? 2 * r->capacity : 256;
    mc_case_result *grown = realloc(r->results, (size_t)r->capacity * sizeof *grown);
    if (!grown) {
      fputs("movconf: out of memory\n", stderr);
      abort();
    }
    r->results = grown;
  }
  mc_case_result *res = &r->results[r->count++];
  memset(res, 0, sizeof *res);
  return res;
}

/* Runs one case through the implementation, judges it, records it; returns
   whether the run may go on (--fail-fast). */
static bool run_case(const mc_case *c, const char *file, run_context *ctx) {
  mc_request req = mc_case_request(c);
  mc_impl_result result;
  memset(&result, 0, sizeof result);
  ctx->impl->run(ctx->impl, &req, &result);
  mc_case_result *res = new_result(ctx->report);
  res->verdict = mc_judge(c, ctx->impl, &result, &res->detail);
  res->rejection = mc_judge_rejection(ctx->impl, &result);
  mc_tensor_free(&result.output);
  res->id = mc_strdupf("%s", c->id);
  res->file = mc_strdupf("%s", file);
  res->op = c->op;
  res->data_type = c->n_inputs > 0 ? c->inputs[0].tensor.type : MC_TYPE_INVALID;
  mc_expectation *x = ctx->expectations ? mc_expectations_match(ctx->expectations, c->id) : NULL;
  if (x)
    x->matched++;
  mc_expect_apply(res, x);
  show_progress(ctx->progress, ctx->report, false);
  return !ctx->o->fail_fast || !mc_case_result_is_problem(res);
}

static bool selected(const mc_case *c, const run_options *o) {
  if (o->op >= 0 && (int)c->op != o->op)
    return false;
  if (o->type != MC_TYPE_INVALID && (c->n_inputs < 1 || (int)c->inputs[0].tensor.type != o->type))
    return false;
  return !o->case_glob || fnmatch(o->case_glob, c->id, 0) == 0;
}

/* Returns false when --fail-fast stopped the run. */
static bool run_file(const char *path, run_context *ctx) {
  mc_case_file f;
  char err[1024];
  mc_run_report *r = ctx->report;
  if (!mc_case_file_load(path, &f, err, sizeof err)) {
    char **grown = realloc(r->load_errors, (size_t)(r->n_load_errors + 1) * sizeof *grown);
    if (!grown) {
      fputs("movconf: out of memory\n", stderr);
      abort();
    }
    r->load_errors = grown;
    r->load_errors[r->n_load_errors++] = mc_strdupf("%s", err);
    return !ctx->o->fail_fast;
  }
  bool go_on = true;
  for (int i = 0; i < f.n_cases && go_on; i++)
    if (selected(&f.cases[i], ctx->o))
      go_on = run_case(&f.cases[i], path, ctx);
  mc_case_file_free(&f);
  return go_on;
}

static void free_report(mc_run_report *r) {
  for (int i = 0; i < r->count; i++) {
    free(r->results[i].id);
    free(r->results[i].file);
    free(r->results[i].detail);
    free(r->results[i].expect_reason);
  }
  for (int i = 0; i < r->n_load_errors; i++)
    free(r->load_errors[i]);
  free(r->results);
  free(r->load_errors);
}

/* Exit status of a finished run: 0 only when nothing is a problem and at
   least one case actually ran. */
static int run_status(const mc_run_report *r) {
  int ran = 0, problems = 0;
  for (int i = 0; i < r->count; i++) {
    ran += r->results[i].verdict != MC_VERDICT_UNSUPPORTED;
    problems += mc_case_result_is_problem(&r->results[i]);
  }
  if (r->count == 0)
    fputs("movconf run: no case was selected\n", stderr);
  else if (ran == 0)
    fputs("movconf run: the implementation supports none of the selected cases\n", stderr);
  return problems == 0 && r->n_load_errors == 0 && ran > 0 ? 0 : 1;
}

static void warn_unused_expectations(const mc_expectations *e) {
  for (int i = 0; e && i < e->count; i++)
    if (e->items[i].matched == 0)
      fprintf(stderr, "movconf run: note: expectation '%s' matched no case that ran\n",
              e->items[i].case_glob);
}

static int run_all(const run_options *o, const mc_path_list *files, mc_expectations *expectations) {
  mc_impl_options impl_options = {.max_output_bytes = o->max_output_bytes,
                                  .threads = o->threads,
                                  .timeout_seconds = o->timeout_seconds,
                                  .memory_limit_mb = o->memory_limit_mb};
  char err[1024];
  mc_impl *impl = mc_impl_open(o->impl, &impl_options, err, sizeof err);
  if (!impl) {
    fprintf(stderr, "movconf run: %s\n", err);
    return 2;
  }
  mc_run_report report = {.impl = impl->name, .with_expectations = expectations != NULL};
  progress prog = {.on = isatty(STDERR_FILENO) != 0, .files = files->count};
  run_context ctx = {o, impl, expectations, &report, &prog};
  bool go_on = true;
  for (int i = 0; i < files->count && go_on; i++) {
    prog.file = i + 1;
    go_on = run_file(files->paths[i], &ctx);
  }
  show_progress(&prog, &report, true);
  mc_report_print_table(&report, !o->quiet);
  warn_unused_expectations(expectations);
  bool written = (!o->json_path || mc_report_write_json(&report, o->json_path)) &&
                 (!o->junit_path || mc_report_write_junit(&report, o->junit_path));
  int status = run_status(&report);
  free_report(&report);
  mc_impl_close(impl);
  return written ? status : 1;
}

int mc_cmd_run(int argc, char **argv) {
  run_options o;
  int status = parse_run_options(argc, argv, &o);
  mc_path_list files = {0};
  mc_expectations expectations = {0};
  bool have_files = false, have_expectations = false;
  if (status < 0) {
    have_files = mc_collect_case_files(o.n_paths, o.paths, &files);
    if (!have_files)
      status = 2;
  }
  if (status < 0 && o.expect_path) {
    char err[1024];
    have_expectations = mc_expectations_load(o.expect_path, &expectations, err, sizeof err);
    if (!have_expectations) {
      fprintf(stderr, "movconf run: --expect %s\n", err);
      status = 2;
    }
  }
  if (status < 0)
    status = run_all(&o, &files, have_expectations ? &expectations : NULL);
  mc_expectations_free(&expectations);
  mc_path_list_free(&files);
  free(o.paths);
  return status;
}
