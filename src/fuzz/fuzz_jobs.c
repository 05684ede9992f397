/* `movconf fuzz` over several worker processes (--jobs), and its summary:
   the table and the JSON report. Each worker of the pool (harness/pool)
   opens its own implementation and runs its share of the campaign, the one
   item it is given, with its own stream of the seed; it reports counts and
   findings as records of the pool. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/text.h"
#include "fuzz/fuzz_request.h"
#include "harness/harness.h"
#include "harness/pool/pool.h"
#include "movconf/version.h"

/* What a worker tells the parent: the body of a record of the pool. */
typedef struct worker_record {
  int32_t kind;        /* RECORD_* */
  mc_fuzz_stats stats; /* counts only (findings NULL) */
  char key[160], file[512], id[200], detail[1024];
  int32_t op, verdict, type, rank, steps, shrink_cut, any_type;
  uint64_t run, max_output_bytes;
  double found_at;
} worker_record;
enum { RECORD_PROGRESS = MC_POOL_FIRST_KIND, RECORD_FINDING, RECORD_DONE };

/* The campaign the workers share out, and in the parent what they report. */
typedef struct jobs_ctx {
  const mc_fuzz_options *campaign;
  const mc_impl_options *impl_options;
  int jobs;
  mc_impl *impl;        /* in a worker */
  mc_fuzz_stats *total; /* in the parent */
  mc_fuzz_stats *last;  /* in the parent: each worker's last counts */
  int status;           /* in the parent: 2 once a worker is lost */
} jobs_ctx;

typedef struct worker_ctx {
  mc_pool_channel *ch;
  double last;
  int sent; /* findings sent so far */
} worker_ctx;

static void send_record(mc_pool_channel *ch, const worker_record *r) {
  mc_text t = {0};
  mc_record_put_bytes(&t, r, sizeof *r);
  mc_pool_send(ch, (uint32_t)r->kind, &t);
}

static void send_counts(mc_pool_channel *ch, int kind, const mc_fuzz_stats *s) {
  worker_record r;
  memset(&r, 0, sizeof r);
  r.kind = kind;
  r.stats = *s;
  r.stats.findings = NULL;
  send_record(ch, &r);
}

/* The findings of s not sent yet, as soon as they are in: the parent's
   progress lines count them while the campaign runs (issue 39). */
static void send_findings(worker_ctx *w, const mc_fuzz_stats *s) {
  mc_pool_channel *ch = w->ch;
  for (int i = w->sent; i < s->n_findings; i++, w->sent++) {
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
    r.shrink_cut = f->shrink_cut;
    r.any_type = f->any_type;
    r.run = f->run;
    r.max_output_bytes = f->max_output_bytes;
    r.found_at = f->found_at;
    send_record(ch, &r);
  }
}

static void worker_progress(void *ctx, const mc_fuzz_stats *s) {
  worker_ctx *w = ctx;
  send_findings(w, s);
  double now = mc_now_seconds();
  if (now - w->last >= 0.1) {
    w->last = now;
    send_counts(w->ch, RECORD_PROGRESS, s);
  }
}

/* In worker index, just forked: opens its implementation. */
static bool start_worker(void *ctx, int index, char *hello, size_t hello_len) {
  (void)index; /* its share comes as its item */
  jobs_ctx *j = ctx;
  j->impl = mc_impl_open(j->campaign->impl_spec, j->impl_options, hello, hello_len);
  if (j->impl)
    snprintf(hello, hello_len, "%s", j->impl->name);
  return j->impl != NULL;
}

/* In a worker: its share of the campaign (the item: its index). */
static void run_worker(void *ctx, mc_pool_channel *ch, mc_record_reader *item) {
  jobs_ctx *j = ctx;
  int64_t index = mc_record_get_int(item);
  if (!mc_record_whole(item) || index < 0 || index >= j->jobs)
    return; /* no worker's share */
  mc_fuzz_options o = *j->campaign;
  o.worker = (int)index;
  if (o.runs)
    o.runs = o.runs / (uint64_t)j->jobs + ((uint64_t)index < o.runs % (uint64_t)j->jobs);
  mc_fuzz_stats s = {0};
  worker_ctx w = {ch, 0, 0};
  if (o.runs > 0 || j->campaign->runs == 0) /* else no share of the runs */
    mc_fuzz_campaign(&o, j->impl, &s, worker_progress, &w);
  send_findings(&w, &s);
  send_counts(ch, RECORD_DONE, &s);
  mc_fuzz_stats_free(&s);
}

static void end_worker(void *ctx, mc_pool_channel *ch) {
  (void)ch;
  mc_impl_close(((jobs_ctx *)ctx)->impl);
}

static void add_counts(mc_fuzz_stats *total, const mc_fuzz_stats *s) {
  total->runs += s->runs;
  total->unsupported += s->unsupported;
  total->failures += s->failures;
  total->large_runs += s->large_runs;
  total->run_seconds += s->run_seconds;
  total->large_seconds += s->large_seconds;
  total->large_bytes += s->large_bytes;
  total->large_timeouts += s->large_timeouts;
  if (s->large_timeout_bytes &&
      (!total->large_timeout_bytes || s->large_timeout_bytes < total->large_timeout_bytes))
    total->large_timeout_bytes = s->large_timeout_bytes;
  total->merged_cut_short += s->merged_cut_short;
  total->not_failing_again += s->not_failing_again;
  total->process_per_call = total->process_per_call || s->process_per_call;
  total->discarded += s->discarded;
  total->unclaimed_ops |= s->unclaimed_ops;
  if (s->first_finding_at &&
      (!total->first_finding_at || s->first_finding_at < total->first_finding_at))
    total->first_finding_at = s->first_finding_at;
  for (int op = 0; op < MC_OP_COUNT; op++) {
    total->runs_by_op[op] += s->runs_by_op[op];
    total->failures_by_op[op] += s->failures_by_op[op];
    total->unsupported_by_op[op] += s->unsupported_by_op[op];
  }
}

/* The file a worker wrote for its finding under the finding's own name,
   or removed when another worker's finding of the key came first: the
   summary and the file then describe the same shrunk case. NULL when the
   worker could not write it or it cannot be renamed (said on stderr). */
static char *claim_file(const mc_fuzz_options *o, const worker_record *r, bool first) {
  if (!r->file[0])
    return NULL;
  if (!first) {
    unlink(r->file);
    return NULL;
  }
  char *file = mc_strdupf("%s/%s.json", o->out_dir, r->key);
  if (rename(r->file, file) == 0)
    return file;
  fprintf(stderr, "movconf fuzz: cannot rename %s to %s: %s\n", r->file, file, strerror(errno));
  unlink(r->file);
  free(file);
  return NULL;
}

/* Keeps one finding per key: the first that arrives. */
static void add_finding(const mc_fuzz_options *o, mc_fuzz_stats *total, const worker_record *r) {
  for (int i = 0; i < total->n_findings; i++)
    if (strcmp(total->findings[i].key, r->key) == 0) {
      claim_file(o, r, false);
      return;
    }
  total->findings = mc_realloc_or_abort(total->findings,
                                        (size_t)(total->n_findings + 1) * sizeof *total->findings);
  mc_fuzz_finding *f = &total->findings[total->n_findings++];
  memset(f, 0, sizeof *f);
  snprintf(f->key, sizeof f->key, "%s", r->key);
  f->file = claim_file(o, r, true);
  f->id = mc_strdupf("%s", r->id);
  f->detail = mc_strdupf("%s", r->detail);
  f->op = (mc_op)r->op;
  f->verdict = (mc_verdict)r->verdict;
  f->type = (mc_type)r->type;
  f->rank = r->rank;
  f->shrink_steps = r->steps;
  f->shrink_cut = r->shrink_cut;
  f->any_type = r->any_type != 0;
  f->run = r->run;
  f->max_output_bytes = (size_t)r->max_output_bytes;
  f->found_at = r->found_at;
}

/* A record of worker k: a finding (the first of its key kept) or its
   counts; false when it is no worker's. */
static bool take_record(void *ctx, int k, int64_t ticket, uint32_t kind, mc_record_reader *body) {
  (void)ticket;
  jobs_ctx *j = ctx;
  worker_record r;
  if (!mc_record_get_bytes(body, &r, sizeof r) || !mc_record_whole(body) ||
      (uint32_t)r.kind != kind)
    return false;
  r.key[sizeof r.key - 1] = r.file[sizeof r.file - 1] = r.id[sizeof r.id - 1] =
      r.detail[sizeof r.detail - 1] = '\0';
  if (kind == RECORD_FINDING) {
    add_finding(j->campaign, j->total, &r);
    if (j->campaign->max_findings > 0 && j->total->n_findings >= j->campaign->max_findings)
      *j->campaign->stop_flag = 1;
  } else {
    r.stats.findings = NULL;
    j->last[k] = r.stats;
  }
  return true;
}

/* A worker that ended (or stayed stopped) before its share was done: the
   campaign failed. */
static void lose_worker(void *ctx, int k, int64_t ticket, const char *what, const char *how,
                        bool stopped) {
  (void)k;
  (void)ticket;
  (void)stopped; /* what says so */
  jobs_ctx *j = ctx;
  fprintf(stderr, "movconf fuzz: a worker process %s (%s)\n", what, how);
  j->status = 2;
}

/* The totals: each worker's last counts added up, the findings kept. */
static void add_up(const jobs_ctx *j) {
  mc_fuzz_stats *total = j->total, sum = {0};
  for (int i = 0; i < j->jobs; i++)
    add_counts(&sum, &j->last[i]);
  sum.findings = total->findings;
  sum.n_findings = total->n_findings;
  if (total->first_finding_at &&
      (!sum.first_finding_at || total->first_finding_at < sum.first_finding_at))
    sum.first_finding_at = total->first_finding_at;
  *total = sum;
}

/* Gives each worker its share, then takes the records until every share
   is done, the totals (and progress) after each round. */
static void collect(jobs_ctx *j, mc_pool *pool, mc_fuzz_progress progress, void *ctx) {
  for (int i = 0; i < j->jobs; i++) {
    int k = mc_pool_free_worker(pool);
    if (k < 0)
      break;
    mc_text item = {0};
    mc_record_put_int(&item, i);
    mc_pool_give(pool, k, i, &item);
  }
  while (mc_pool_busy(pool)) {
    mc_pool_take(pool, 100);
    add_up(j);
    if (progress)
      progress(ctx, j->total);
  }
  mc_pool_finish(pool);
  add_up(j);
}

static int run_jobs(const mc_fuzz_options *campaign, const mc_impl_options *impl_options, int jobs,
                    mc_fuzz_stats *total, mc_fuzz_progress progress, void *ctx) {
  mc_fuzz_options o = *campaign;
  jobs_ctx j = {.campaign = &o, .impl_options = impl_options, .jobs = jobs, .total = total};
  j.last = mc_realloc_or_abort(NULL, (size_t)jobs * sizeof *j.last);
  memset(j.last, 0, (size_t)jobs * sizeof *j.last);
  const mc_pool_work work = {.ctx = &j,
                             .start = start_worker,
                             .item = run_worker,
                             .end = end_worker,
                             .take = take_record,
                             .lost = lose_worker};
  mc_pool *pool = mc_pool_new(&work);
  mc_pool_set_stopped_limit(pool, impl_options->timeout_seconds);
  o.stop_flag = mc_pool_stop_flag(pool); /* shared with the workers */
  char err[1024];
  if (mc_pool_start(pool, jobs, err, sizeof err)) {
    collect(&j, pool, progress, ctx);
  } else {
    char *safe = mc_safe_text(err);
    fprintf(stderr, "movconf fuzz: %s\n", safe);
    free(safe);
    j.status = 2;
  }
  mc_pool_free(pool);
  free(j.last);
  return j.status;
}

static int run_alone(const mc_fuzz_options *o, const mc_impl_options *impl_options,
                     mc_fuzz_stats *s, mc_fuzz_progress progress, void *ctx) {
  char err[1024];
  mc_impl *impl = mc_impl_open(o->impl_spec, impl_options, err, sizeof err);
  if (!impl) {
    char *safe = mc_safe_text(err);
    fprintf(stderr, "movconf fuzz: %s\n", safe);
    free(safe);
    return 2;
  }
  mc_fuzz_campaign(o, impl, s, progress, ctx);
  mc_impl_close(impl);
  return 0;
}

int mc_fuzz_run(const mc_fuzz_options *options, const mc_impl_options *impl_options, int jobs,
                mc_fuzz_stats *s, mc_fuzz_progress progress, void *ctx) {
  mc_fuzz_options o = *options;
  mc_impl_options impl = *impl_options;
  double started = mc_now_seconds();
  if (o.seconds > 0)
    impl.stop_at = o.stop_at = mc_now_seconds() + o.seconds;
  int status = jobs > 1 ? run_jobs(&o, &impl, jobs, s, progress, ctx)
                        : run_alone(&o, &impl, s, progress, ctx);
  s->started = started;
  if (status == 0)
    mc_fuzz_rerun_findings(&o, impl_options, s);
  return status;
}

/* ---- the summary ---- */

static const char *rerun_note(const mc_fuzz_finding *x) {
  switch (x->rerun) {
  case MC_FUZZ_REPRODUCED:
    return "reproduced alone";
  case MC_FUZZ_FLAKY:
    return "flaky: not reproduced alone";
  default:
    return x->file ? "not re-run in time" : "not written";
  }
}

static void print_finding(FILE *out, const mc_fuzz_finding *x) {
  char *file = mc_safe_text(x->file ? x->file : "(no file: it could not be written)");
  const char *cut_by = mc_fuzz_shrink_cut_option(x);
  fprintf(out, "  %s (%s, rank %d, shrunk in %d steps%s%s, %s)\n    %s\n    %s\n", x->key,
          mc_type_name(x->type), x->rank, x->shrink_steps, cut_by ? ", cut short by " : "",
          cut_by ? cut_by : "", rerun_note(x), file, x->detail ? x->detail : "");
  free(file);
}

void mc_fuzz_print_summary(FILE *out, const mc_fuzz_options *o, int jobs, const mc_fuzz_stats *s,
                           double seconds) {
  fprintf(out, "%-22s %10s %10s\n", "operation", "runs", "failures");
  for (int op = 0; op < MC_OP_COUNT; op++)
    if (s->runs_by_op[op])
      fprintf(out, "%-22s %10" PRIu64 " %10" PRIu64 "\n", mc_op_name((mc_op)op), s->runs_by_op[op],
              s->failures_by_op[op]);
  fprintf(out, "%-22s %10" PRIu64 " %10" PRIu64 "\n", "total", s->runs, s->failures);
  fprintf(out,
          "\n%" PRIu64 " runs in %.1f s (%.0f runs/s, %d job%s, seed %" PRIu64 "), %" PRIu64
          " large, %" PRIu64 " unsupported (%.1f%%)\n",
          s->runs, seconds, seconds > 0 ? (double)s->runs / seconds : 0.0, jobs,
          jobs == 1 ? "" : "s", o->seed, s->large_runs, s->unsupported,
          s->runs ? 100.0 * (double)s->unsupported / (double)s->runs : 0.0);
  char ops[256];
  mc_fuzz_ops_fuzzed_text(o, s, ops, sizeof ops);
  fprintf(out, "fuzzed: %s\n", ops);
  if (s->merged_cut_short)
    fprintf(out, "%d failure%s whose shrink was cut short merged into a finding of its cause\n",
            s->merged_cut_short, s->merged_cut_short == 1 ? "" : "s");
  if (s->not_failing_again)
    fprintf(out,
            "%" PRIu64 " failure%s not a finding: %s not fail again when judged again, or came "
            "late from a request no longer known (said on stderr)\n",
            s->not_failing_again, s->not_failing_again == 1 ? "" : "s",
            s->not_failing_again == 1 ? "it did" : "they did");
  if (s->process_per_call)
    fprintf(out, "a late fault was seen: after it, each call had a process of its own\n");
  int confirmed = mc_fuzz_confirmed_findings(s);
  fprintf(out, "%d distinct finding%s", confirmed, confirmed == 1 ? "" : "s");
  if (confirmed && s->first_finding_at)
    fprintf(out, " (the first after %.1f s)", s->first_finding_at - s->started);
  fprintf(out, "%s\n", confirmed ? ":" : "");
  for (int i = 0; i < s->n_findings; i++)
    if (s->findings[i].rerun != MC_FUZZ_FLAKY)
      print_finding(out, &s->findings[i]);
  int flaky = s->n_findings - confirmed;
  if (flaky)
    fprintf(out, "%d flaky failure%s (not reproduced when re-run alone from the file):\n", flaky,
            flaky == 1 ? "" : "s");
  for (int i = 0; i < s->n_findings; i++)
    if (s->findings[i].rerun == MC_FUZZ_FLAKY)
      print_finding(out, &s->findings[i]);
  if (s->n_findings) {
    char *spec = mc_safe_text(o->impl_spec);
    fprintf(out, "re-run one with: movconf run --impl '%s' FILE\n", spec);
    free(spec);
  }
}

/* A string member made safe (text from outside may be anything). */
static void add_safe_string(cJSON *object, const char *name, const char *text) {
  char *safe = mc_safe_text(text);
  cJSON_AddStringToObject(object, name, safe);
  free(safe);
}

bool mc_fuzz_write_json(const char *path, const mc_fuzz_options *o, int jobs,
                        const mc_fuzz_stats *s, double seconds) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "movconf_version", MOVCONF_VERSION);
  add_safe_string(root, "impl", o->impl_spec);
  cJSON_AddNumberToObject(root, "seed", (double)o->seed);
  cJSON_AddNumberToObject(root, "jobs", jobs);
  cJSON_AddNumberToObject(root, "seconds", seconds);
  cJSON_AddNumberToObject(root, "runs", (double)s->runs);
  cJSON_AddNumberToObject(root, "unsupported", (double)s->unsupported);
  cJSON_AddNumberToObject(root, "failures", (double)s->failures);
  cJSON_AddNumberToObject(root, "large_runs", (double)s->large_runs);
  cJSON_AddNumberToObject(root, "not_failing_again", (double)s->not_failing_again);
  cJSON_AddBoolToObject(root, "process_per_call", s->process_per_call);
  if (s->first_finding_at)
    cJSON_AddNumberToObject(root, "first_finding_seconds", s->first_finding_at - s->started);
  cJSON *list = cJSON_AddArrayToObject(root, "findings");
  cJSON *flaky = cJSON_AddArrayToObject(root, "flaky");
  for (int i = 0; i < s->n_findings; i++) {
    const mc_fuzz_finding *x = &s->findings[i];
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "key", x->key);
    if (x->file)
      add_safe_string(item, "file", x->file);
    else
      cJSON_AddNullToObject(item, "file");
    cJSON_AddStringToObject(item, "id", x->id ? x->id : "");
    cJSON_AddStringToObject(item, "op", mc_op_name(x->op));
    cJSON_AddStringToObject(item, "verdict", mc_verdict_name(x->verdict));
    cJSON_AddStringToObject(item, "type", mc_type_name(x->type));
    cJSON_AddNumberToObject(item, "rank", x->rank);
    cJSON_AddNumberToObject(item, "shrink_steps", x->shrink_steps);
    const char *cut_by = mc_fuzz_shrink_cut_option(x);
    if (cut_by)
      cJSON_AddStringToObject(item, "shrink_cut_short_by", cut_by);
    else
      cJSON_AddNullToObject(item, "shrink_cut_short_by");
    cJSON_AddNumberToObject(item, "max_output_bytes", (double)x->max_output_bytes);
    cJSON_AddStringToObject(item, "rerun", rerun_note(x));
    cJSON_AddStringToObject(item, "detail", x->detail ? x->detail : ""); /* made safe */
    cJSON_AddItemToArray(x->rerun == MC_FUZZ_FLAKY ? flaky : list, item);
  }
  char *text = cJSON_Print(root);
  bool ok = text && mc_write_text_file(path, text);
  free(text);
  cJSON_Delete(root);
  return ok;
}
