/* movconf fuzz: options, worker processes for --jobs, progress and the
   summary; the campaign itself is the harness's (mc_fuzz_campaign). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/clock.h"

static const char fuzz_usage[] =
    "usage: movconf fuzz [options]\n"
    "\n"
    "Differential fuzzing of any implementation: requests drawn from the fuzz targets'\n"
    "structure-aware producer (valid-biased, with the hostile values: 2^31-1, block\n"
    "products past 64 bits, u64 above INT64_MAX, crops equal to D*B, zero sizes, every\n"
    "element type and side-input type, ranks) from a seeded generator, and one in 20 a\n"
    "large request (2^12 to 2^24 output elements, shapes at vector widths and their\n"
    "tails, blocked channel counts, prime outer extents). Each runs on the implementation,\n"
    "isolated as in movconf run, and on the oracle, and is judged with run's verdicts.\n"
    "Every failure is shrunk (fewer axes, smaller dimensions, blocks, crops, pads and\n"
    "attributes, element type toward u8, index-filled data) while it fails the same way,\n"
    "and each distinct finding is written once as a readable case file, re-runnable with\n"
    "movconf run --impl SPEC FILE. Failures that differ only in element type are one\n"
    "finding unless the failure depends on the type.\n"
    "\n"
    "implementation (as for movconf run):\n"
    "  --impl SPEC          optimized (default), oracle, plugin:PATH.so, exec:'COMMAND'\n"
    "  --threads N          threads of the optimized kernels\n"
    "  --timeout SECONDS    per request, for plugins and adapters (default 10)\n"
    "  --memory-limit MB    address space a plugin's process may add (default 4096)\n"
    "\n"
    "campaign:\n"
    "  --op OP              only this operation (BatchToSpace-2, b2s, ...)\n"
    "  --type TYPE          only data of this element type (f32, u4, ...)\n"
    "  --time SECONDS       stop after this long (default 60 unless --runs is given)\n"
    "  --runs N             stop after this many requests (over all jobs)\n"
    "  --seed N             the generator's seed (default 1): the same seed, the same\n"
    "                       requests\n"
    "  --jobs N             worker processes, each with its own implementation (default 1)\n"
    "  --shrink-time SECONDS  time to shrink one failure (default 30)\n"
    "  --no-large           no large requests\n"
    "\n"
    "output:\n"
    "  --out DIR            where findings go (default ./movconf-findings; never movconf's\n"
    "                       own conformance/ unless you name it)\n"
    "  --json FILE          also write the summary and findings as JSON\n"
    "  -h, --help           show this text\n"
    "\n"
    "A progress line goes to a terminal's stderr; the summary to stdout.\n"
    "Exit status: 0 nothing found, 1 a finding, 2 usage or start-up error.\n";

typedef struct fuzz_cli {
  mc_fuzz_options campaign;
  mc_impl_options impl;
  int jobs;
  const char *json_path;
} fuzz_cli;

enum {
  OPT_IMPL = 256,
  OPT_THREADS,
  OPT_TIMEOUT,
  OPT_MEMORY_LIMIT,
  OPT_OP,
  OPT_TYPE,
  OPT_TIME,
  OPT_RUNS,
  OPT_SEED,
  OPT_JOBS,
  OPT_SHRINK_TIME,
  OPT_NO_LARGE,
  OPT_OUT,
  OPT_JSON
};

static const struct option fuzz_options[] = {
    {"impl", required_argument, NULL, OPT_IMPL},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"memory-limit", required_argument, NULL, OPT_MEMORY_LIMIT},
    {"op", required_argument, NULL, OPT_OP},
    {"type", required_argument, NULL, OPT_TYPE},
    {"time", required_argument, NULL, OPT_TIME},
    {"runs", required_argument, NULL, OPT_RUNS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"jobs", required_argument, NULL, OPT_JOBS},
    {"shrink-time", required_argument, NULL, OPT_SHRINK_TIME},
    {"no-large", no_argument, NULL, OPT_NO_LARGE},
    {"out", required_argument, NULL, OPT_OUT},
    {"json", required_argument, NULL, OPT_JSON},
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
  size_t mb;
  switch (opt) {
  case OPT_IMPL:
    o->impl_spec = v;
    return NULL;
  case OPT_THREADS:
    return mc_parse_threads(v, &f->impl.threads) ? NULL : "takes a number from 1 to 1024";
  case OPT_TIMEOUT:
    return mc_parse_seconds(v, 86400, &f->impl.timeout_seconds) ? NULL
                                                                : "takes seconds from 0 to 86400";
  case OPT_MEMORY_LIMIT:
    if (!mc_parse_size(v, &mb) || mb > ((size_t)1 << 24))
      return "takes MiB from 0 (no limit) to 16777216";
    f->impl.memory_limit_mb = mb;
    return NULL;
  case OPT_OP:
    return (o->op = mc_op_from_option(v)) < 0 ? "takes an operation (BatchToSpace-2, b2s, ...)"
                                              : NULL;
  case OPT_TYPE:
    return (o->type = mc_type_from_name(v)) == MC_TYPE_INVALID ? "takes an element type name"
                                                               : NULL;
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
  }
  return NULL;
}

/* -1 to go on, else the exit status. */
static int parse_fuzz_options(int argc, char **argv, fuzz_cli *f) {
  *f = (fuzz_cli){.campaign = {.impl_spec = "optimized",
                               .op = -1,
                               .type = MC_TYPE_INVALID,
                               .seed = 1,
                               .out_dir = "movconf-findings",
                               .large_one_in = MC_FUZZ_LARGE_ONE_IN,
                               .shrink_seconds = 30},
                  .impl = {.max_output_bytes = MC_DEFAULT_MAX_OUTPUT_BYTES,
                           .timeout_seconds = 10,
                           .memory_limit_mb = 4096},
                  .jobs = 1};
  int opt;
  while ((opt = getopt_long(argc, argv, "h", fuzz_options, NULL)) != -1) {
    if (opt == 'h') {
      fputs(fuzz_usage, stdout);
      return 0;
    }
    if (opt == '?')
      return mc_usage_error("fuzz");
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
  if (f->campaign.seconds == 0 && f->campaign.runs == 0)
    f->campaign.seconds = 60;
  return -1;
}

/* ---- progress ---- */

typedef struct progress {
  bool on;
  double start, last;
} progress;

static void show_progress(progress *p, const mc_fuzz_stats *s, int findings, bool final) {
  double now = mc_now_seconds();
  if (!p->on || (!final && now - p->last < 0.1))
    return;
  p->last = now;
  double elapsed = now - p->start;
  fprintf(stderr, "\r[fuzz] %" PRIu64 " runs, %.0f runs/s, %d finding%s, %.0f%% unsupported  %s",
          s->runs, elapsed > 0 ? (double)s->runs / elapsed : 0.0, findings,
          findings == 1 ? "" : "s",
          s->runs ? 100.0 * (double)s->unsupported / (double)s->runs : 0.0, final ? "\n" : "");
}

static void on_progress(void *ctx, const mc_fuzz_stats *s) {
  show_progress(ctx, s, s->n_findings, false);
}

/* ---- worker processes (--jobs) ---- */

/* What a worker tells the parent through its pipe: one record at a time,
   each under PIPE_BUF so that it arrives whole. */
typedef struct worker_record {
  int32_t kind;        /* RECORD_* */
  mc_fuzz_stats stats; /* counts only (findings NULL) */
  char key[128], file[512], id[160], detail[1024];
  int32_t op, verdict, type, rank, steps, any_type;
  uint64_t run;
} worker_record;
enum { RECORD_PROGRESS = 1, RECORD_FINDING, RECORD_DONE };
_Static_assert(sizeof(worker_record) <= 4096, "a worker record must fit PIPE_BUF");

typedef struct worker_ctx {
  int fd;
  double last;
} worker_ctx;

static void send_record(int fd, const worker_record *r) {
  ssize_t n;
  do
    n = write(fd, r, sizeof *r);
  while (n < 0 && errno == EINTR);
}

static void send_counts(int fd, int kind, const mc_fuzz_stats *s) {
  worker_record r;
  memset(&r, 0, sizeof r);
  r.kind = kind;
  r.stats = *s;
  r.stats.findings = NULL;
  send_record(fd, &r);
}

static void worker_progress(void *ctx, const mc_fuzz_stats *s) {
  worker_ctx *w = ctx;
  double now = mc_now_seconds();
  if (now - w->last >= 0.1) {
    w->last = now;
    send_counts(w->fd, RECORD_PROGRESS, s);
  }
}

static void send_findings(int fd, const mc_fuzz_stats *s) {
  for (int i = 0; i < s->n_findings; i++) {
    const mc_fuzz_finding *f = &s->findings[i];
    worker_record r;
    memset(&r, 0, sizeof r);
    r.kind = RECORD_FINDING;
    snprintf(r.key, sizeof r.key, "%s", f->key);
    snprintf(r.file, sizeof r.file, "%s", f->file ? f->file : "");
    snprintf(r.id, sizeof r.id, "%s", f->id ? f->id : "");
    snprintf(r.detail, sizeof r.detail, "%s", f->detail ? f->detail : "");
    r.op = f->op;
    r.verdict = f->verdict;
    r.type = f->type;
    r.rank = f->rank;
    r.steps = f->shrink_steps;
    r.any_type = f->any_type;
    r.run = f->run;
    send_record(fd, &r);
  }
}

/* In a worker: its share of the campaign, reported through fd; never returns. */
_Noreturn static void run_worker(const fuzz_cli *f, int index, int fd) {
  mc_fuzz_options o = f->campaign;
  o.worker = index;
  if (o.runs)
    o.runs = o.runs / (uint64_t)f->jobs + ((uint64_t)index < o.runs % (uint64_t)f->jobs);
  char err[1024];
  mc_impl *impl = mc_impl_open(o.impl_spec, &f->impl, err, sizeof err);
  if (!impl) {
    fprintf(stderr, "movconf fuzz: worker %d: %s\n", index, err);
    _exit(2);
  }
  mc_fuzz_stats s = {0};
  worker_ctx w = {fd, 0};
  if (o.runs == 0 && f->campaign.runs > 0)
    o.seconds = 1e-9; /* no share of the runs: stop at once */
  mc_fuzz_campaign(&o, impl, &s, worker_progress, &w);
  send_findings(fd, &s);
  send_counts(fd, RECORD_DONE, &s);
  mc_impl_close(impl);
  mc_fuzz_stats_free(&s);
  _exit(0);
}

static void add_counts(mc_fuzz_stats *total, const mc_fuzz_stats *s) {
  total->runs += s->runs;
  total->unsupported += s->unsupported;
  total->failures += s->failures;
  total->large_runs += s->large_runs;
  total->discarded += s->discarded;
  for (int op = 0; op < MC_OP_COUNT; op++) {
    total->runs_by_op[op] += s->runs_by_op[op];
    total->failures_by_op[op] += s->failures_by_op[op];
  }
}

/* Keeps one finding per key, as the workers' files do (same key, same file). */
static void add_finding(mc_fuzz_stats *total, const worker_record *r) {
  for (int i = 0; i < total->n_findings; i++)
    if (strcmp(total->findings[i].key, r->key) == 0)
      return;
  mc_fuzz_finding *grown =
      realloc(total->findings, (size_t)(total->n_findings + 1) * sizeof *grown);
  if (!grown)
    abort();
  total->findings = grown;
  mc_fuzz_finding *f = &total->findings[total->n_findings++];
  memset(f, 0, sizeof *f);
  snprintf(f->key, sizeof f->key, "%s", r->key);
  f->file = mc_strdupf("%s", r->file);
  f->id = mc_strdupf("%s", r->id);
  f->detail = mc_strdupf("%s", r->detail);
  f->op = (mc_op)r->op;
  f->verdict = (mc_verdict)r->verdict;
  f->type = (mc_type)r->type;
  f->rank = r->rank;
  f->shrink_steps = r->steps;
  f->any_type = r->any_type != 0;
  f->run = r->run;
}

/* Reads the workers' records until every pipe closes; the totals add up
   each worker's last counts. */
static void collect(int jobs, int *fds, mc_fuzz_stats *total, progress *prog) {
  mc_fuzz_stats *last = calloc((size_t)jobs, sizeof *last);
  int open_pipes = jobs;
  while (open_pipes > 0 && last) {
    struct pollfd p[64];
    for (int i = 0; i < jobs; i++)
      p[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
    if (poll(p, (nfds_t)jobs, 100) < 0 && errno != EINTR)
      break;
    for (int i = 0; i < jobs; i++) {
      if (fds[i] < 0 || !(p[i].revents & (POLLIN | POLLHUP)))
        continue;
      worker_record r;
      ssize_t n = read(fds[i], &r, sizeof r);
      if (n == (ssize_t)sizeof r && r.kind == RECORD_FINDING) {
        add_finding(total, &r);
      } else if (n == (ssize_t)sizeof r) {
        last[i] = r.stats;
      } else if (n <= 0 && !(n < 0 && errno == EINTR)) {
        close(fds[i]);
        fds[i] = -1;
        open_pipes--;
      }
    }
    mc_fuzz_stats sum = {0};
    for (int i = 0; i < jobs; i++)
      add_counts(&sum, &last[i]);
    show_progress(prog, &sum, total->n_findings, false);
    mc_fuzz_finding *keep = total->findings;
    int n = total->n_findings;
    *total = sum;
    total->findings = keep;
    total->n_findings = n;
  }
  free(last);
}

static int run_jobs(const fuzz_cli *f, mc_fuzz_stats *total, progress *prog) {
  int fds[64];
  pid_t pids[64];
  fflush(NULL);
  for (int i = 0; i < f->jobs; i++) {
    int p[2];
    if (pipe(p) != 0 || (pids[i] = fork()) < 0) {
      fprintf(stderr, "movconf fuzz: cannot start worker %d: %s\n", i, strerror(errno));
      for (int k = 0; k < i; k++)
        kill(pids[k], SIGKILL);
      return 2;
    }
    if (pids[i] == 0) {
      close(p[0]);
      run_worker(f, i, p[1]);
    }
    close(p[1]);
    fds[i] = p[0];
  }
  collect(f->jobs, fds, total, prog);
  int status = 0;
  for (int i = 0; i < f->jobs; i++) {
    int st;
    while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
      continue;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
      status = 2;
  }
  return status;
}

static int run_single(const fuzz_cli *f, mc_fuzz_stats *s, progress *prog) {
  char err[1024];
  mc_impl *impl = mc_impl_open(f->campaign.impl_spec, &f->impl, err, sizeof err);
  if (!impl) {
    fprintf(stderr, "movconf fuzz: %s\n", err);
    return 2;
  }
  mc_fuzz_campaign(&f->campaign, impl, s, on_progress, prog);
  mc_impl_close(impl);
  return 0;
}

/* ---- the summary ---- */

static void print_summary(const fuzz_cli *f, const mc_fuzz_stats *s, double seconds) {
  printf("%-22s %10s %10s\n", "operation", "runs", "failures");
  for (int op = 0; op < MC_OP_COUNT; op++)
    if (s->runs_by_op[op])
      printf("%-22s %10" PRIu64 " %10" PRIu64 "\n", mc_op_name((mc_op)op), s->runs_by_op[op],
             s->failures_by_op[op]);
  printf("%-22s %10" PRIu64 " %10" PRIu64 "\n", "total", s->runs, s->failures);
  printf("\n%" PRIu64 " runs in %.1f s (%.0f runs/s, %d job%s, seed %" PRIu64 "), %" PRIu64
         " large, %" PRIu64 " unsupported (%.1f%%)\n",
         s->runs, seconds, seconds > 0 ? (double)s->runs / seconds : 0.0, f->jobs,
         f->jobs == 1 ? "" : "s", f->campaign.seed, s->large_runs, s->unsupported,
         s->runs ? 100.0 * (double)s->unsupported / (double)s->runs : 0.0);
  printf("%d distinct finding%s%s\n", s->n_findings, s->n_findings == 1 ? "" : "s",
         s->n_findings ? ":" : "");
  for (int i = 0; i < s->n_findings; i++) {
    const mc_fuzz_finding *x = &s->findings[i];
    printf("  %s (%s, rank %d, shrunk in %d steps)\n    %s\n    %s\n", x->key,
           mc_type_name(x->type), x->rank, x->shrink_steps, x->file, x->detail);
  }
  if (s->n_findings)
    printf("re-run one with: movconf run --impl '%s' FILE\n", f->campaign.impl_spec);
}

static bool write_json(const char *path, const fuzz_cli *f, const mc_fuzz_stats *s,
                       double seconds) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "impl", f->campaign.impl_spec);
  cJSON_AddNumberToObject(root, "seed", (double)f->campaign.seed);
  cJSON_AddNumberToObject(root, "jobs", f->jobs);
  cJSON_AddNumberToObject(root, "seconds", seconds);
  cJSON_AddNumberToObject(root, "runs", (double)s->runs);
  cJSON_AddNumberToObject(root, "unsupported", (double)s->unsupported);
  cJSON_AddNumberToObject(root, "failures", (double)s->failures);
  cJSON_AddNumberToObject(root, "large_runs", (double)s->large_runs);
  cJSON *list = cJSON_AddArrayToObject(root, "findings");
  for (int i = 0; i < s->n_findings; i++) {
    const mc_fuzz_finding *x = &s->findings[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "key", x->key);
    cJSON_AddStringToObject(o, "file", x->file);
    cJSON_AddStringToObject(o, "id", x->id);
    cJSON_AddStringToObject(o, "op", mc_op_name(x->op));
    cJSON_AddStringToObject(o, "verdict", mc_verdict_name(x->verdict));
    cJSON_AddStringToObject(o, "type", mc_type_name(x->type));
    cJSON_AddNumberToObject(o, "rank", x->rank);
    cJSON_AddNumberToObject(o, "shrink_steps", x->shrink_steps);
    cJSON_AddStringToObject(o, "detail", x->detail ? x->detail : "");
    cJSON_AddItemToArray(list, o);
  }
  char *text = cJSON_Print(root);
  bool ok = text && mc_write_text_file(path, text);
  free(text);
  cJSON_Delete(root);
  return ok;
}

int mc_cmd_fuzz(int argc, char **argv) {
  fuzz_cli f;
  int status = parse_fuzz_options(argc, argv, &f);
  if (status >= 0)
    return status;
  progress prog = {.on = isatty(STDERR_FILENO) != 0, .start = mc_now_seconds()};
  mc_fuzz_stats s = {0};
  status = f.jobs == 1 ? run_single(&f, &s, &prog) : run_jobs(&f, &s, &prog);
  double seconds = mc_now_seconds() - prog.start;
  if (status == 0) {
    show_progress(&prog, &s, s.n_findings, true);
    print_summary(&f, &s, seconds);
    if (f.json_path && !write_json(f.json_path, &f, &s, seconds))
      status = 2;
    else
      status = s.n_findings ? 1 : 0;
  }
  mc_fuzz_stats_free(&s);
  return status;
}
