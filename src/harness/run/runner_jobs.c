/* movconf run --jobs N on the worker pool (src/harness/pool/): N worker
   processes, forked once the selection is loaded so that they share its
   parse, each opening its own implementation (its own plugin host or
   adapter) and running mc_run_case on the cases it is given, one at a
   time, from the parent's one queue. A worker is a whole single-threaded
   runner of its own: crash re-runs, late writes charged to their case,
   process faults and their culprits, and the end of what its
   implementation started all work within it as in a run without --jobs.

   The parent keeps the report: it gives out cases in run order (checking
   the stop limits before each, once a worker is free), takes each result
   as it comes (the live lines then), a crash charged after the fact to an
   earlier case of the worker, and process faults; at the end it puts the
   cases back in run order. A worker the pool loses costs its case a crash.
   This file drives runner.c; runner.c knows nothing of it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "harness/internal.h"
#include "harness/pool/pool.h"

_Static_assert(MC_MAX_JOBS <= MC_POOL_MAX_WORKERS, "--jobs is bounded by the pool");

/* Records a worker sends; an item is a case: int order, int file, int index. */
enum {
  MSG_RESULT = MC_POOL_FIRST_KIND, /* int order, result: the case given to it is done */
  MSG_CHARGE,                      /* int order, result: an earlier case became a crash */
  MSG_FAULT,                       /* strings observed_in, culprit, detail: a process fault */
  MSG_LOST                         /* int order, string why: the case could not be run */
};

/* What a worker keeps (set up in the worker, after the fork). */
typedef struct worker_side {
  mc_impl *impl;
  mc_runner run;
  mc_run_report report;
  mc_pool_channel *ch; /* while it serves */
  int *order_of_index; /* run order of each case of the local report */
  int cap;
  int *charged; /* local report indices charged since the last message */
  int n_charged, cap_charged;
  int faults_sent;
} worker_side;

struct mc_run_jobs {
  mc_runner *run;
  mc_selection *sel;
  const char *spec;
  const mc_impl_options *options;
  mc_pool *pool;
  /* The case each busy worker runs, described: for a crash if it is lost. */
  mc_case_result pending[MC_MAX_JOBS];
  int *index_of_order; /* report index of each case given out, -1 until its result */
  int n_orders, cap_orders;
  worker_side side; /* in a worker */
};

/* ---- results as records ---- */

static void put_result(mc_text *t, const mc_case_result *c) {
  const char *strings[] = {c->id,         c->file,    c->detail, c->expect_reason, c->inputs,
                           c->attributes, c->clauses, c->origin, c->picture,       c->mode};
  for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
    mc_record_put_string(t, strings[i]);
  const int64_t ints[] = {
      c->op,        c->data_type, c->verdict,  c->expect,          c->expected_verdict,
      c->rejection, c->rank,      c->elements, c->output_elements, c->index_filled};
  for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
    mc_record_put_int(t, ints[i]);
  mc_record_put_double(t, c->seconds);
}

static bool get_result(mc_record_reader *r, mc_case_result *c) {
  memset(c, 0, sizeof *c);
  char **strings[] = {&c->id,         &c->file,    &c->detail, &c->expect_reason, &c->inputs,
                      &c->attributes, &c->clauses, &c->origin, &c->picture};
  for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
    *strings[i] = mc_record_get_string(r);
  char *mode = mc_record_get_string(r);
  snprintf(c->mode, sizeof c->mode, "%s", mode ? mode : "");
  free(mode);
  c->op = (int)mc_record_get_int(r);
  c->data_type = (int)mc_record_get_int(r);
  int64_t verdict = mc_record_get_int(r), expect = mc_record_get_int(r),
          expected = mc_record_get_int(r), rejection = mc_record_get_int(r);
  c->rank = (int)mc_record_get_int(r);
  c->elements = mc_record_get_int(r);
  c->output_elements = mc_record_get_int(r);
  c->index_filled = mc_record_get_int(r) != 0;
  c->seconds = mc_record_get_double(r);
  if (verdict < 0 || verdict >= MC_VERDICT_COUNT || expected < 0 || expected >= MC_VERDICT_COUNT ||
      expect < MC_EXPECT_NONE || expect > MC_EXPECT_NOT_RUN || rejection < MC_REJECTION_NONE ||
      rejection > MC_REJECTION_UNNAMED || !c->id || !c->file)
    r->bad = true;
  c->verdict = (mc_verdict)verdict;
  c->expect = (mc_expect_state)expect;
  c->expected_verdict = (mc_verdict)expected;
  c->rejection = (mc_rejection)rejection;
  if (r->bad)
    mc_case_result_free(c);
  return !r->bad;
}

/* ---- in a worker ---- */

static void note_charge(void *ctx, int index) {
  worker_side *w = ctx;
  if (w->n_charged == w->cap_charged) {
    w->cap_charged = w->cap_charged ? 2 * w->cap_charged : 16;
    w->charged = mc_realloc_or_abort(w->charged, (size_t)w->cap_charged * sizeof *w->charged);
  }
  w->charged[w->n_charged++] = index;
}

static void send_result(worker_side *w, uint32_t kind, int index) {
  mc_text t = {0};
  mc_record_put_int(&t, w->order_of_index[index]);
  put_result(&t, &w->report.results[index]);
  mc_pool_send(w->ch, kind, &t);
}

/* The charges and process faults that came since the last case. */
static void send_news(worker_side *w) {
  for (int i = 0; i < w->n_charged; i++)
    send_result(w, MSG_CHARGE, w->charged[i]);
  w->n_charged = 0;
  for (; w->faults_sent < w->report.n_process_faults; w->faults_sent++) {
    const mc_process_fault *f = &w->report.process_faults[w->faults_sent];
    mc_text t = {0};
    mc_record_put_string(&t, f->observed_in);
    mc_record_put_string(&t, f->culprit);
    mc_record_put_string(&t, f->detail);
    mc_pool_send(w->ch, MSG_FAULT, &t);
  }
}

static void send_lost(worker_side *w, int64_t order, const char *why) {
  mc_text t = {0};
  mc_record_put_int(&t, order);
  mc_record_put_string(&t, why);
  mc_pool_send(w->ch, MSG_LOST, &t);
}

/* In worker k, just forked: opens its implementation. */
static bool start_worker(void *ctx, int k, char *hello, size_t hello_len) {
  (void)k;
  mc_run_jobs *jobs = ctx;
  worker_side *w = &jobs->side;
  w->impl = mc_impl_open(jobs->spec, jobs->options, hello, hello_len);
  if (!w->impl)
    return false;
  snprintf(hello, hello_len, "%s", w->impl->name);
  w->run = (mc_runner){.impl = w->impl,
                       .filter = jobs->run->filter,
                       .expectations = jobs->run->expectations,
                       .report = &w->report,
                       .require_named_errors = jobs->run->require_named_errors,
                       .charged = note_charge,
                       .charged_ctx = w};
  return true;
}

/* The case an item names, its large fills made; NULL with why in err. */
static mc_case *case_of_item(mc_run_jobs *jobs, int64_t file, int64_t index, char *err,
                             size_t errlen) {
  if (file < 0 || file >= jobs->sel->count || jobs->sel->files[file].error || index < 0 ||
      index >= jobs->sel->files[file].file.n_cases) {
    snprintf(err, errlen, "a bad request from the parent movconf");
    return NULL;
  }
  mc_case *c = &jobs->sel->files[file].file.cases[index];
  if (!mc_case_materialize(c)) {
    snprintf(err, errlen, "out of memory for its inputs");
    return NULL;
  }
  return c;
}

static void run_item(void *ctx, mc_pool_channel *ch, mc_record_reader *r) {
  mc_run_jobs *jobs = ctx;
  worker_side *w = &jobs->side;
  w->ch = ch;
  int64_t order = mc_record_get_int(r), file = mc_record_get_int(r), index = mc_record_get_int(r);
  char err[256] = "a bad request from the parent movconf";
  mc_case *c = mc_record_whole(r) ? case_of_item(jobs, file, index, err, sizeof err) : NULL;
  if (!c) {
    char *why = mc_strdupf("movconf's worker could not make the case: %s", err);
    send_lost(w, order, why);
    free(why);
    return;
  }
  mc_selection_file *f = &jobs->sel->files[file];
  w->run.file = &f->file;
  w->run.file_path = f->path;
  mc_run_case(&w->run, c, f->path);
  mc_case_file_release_fills(&f->file); /* c's, and those a culprit search made */
  if (w->report.count > w->cap) {
    w->cap = 2 * w->report.count;
    w->order_of_index = mc_realloc_or_abort(w->order_of_index, (size_t)w->cap * sizeof(int));
  }
  w->order_of_index[w->report.count - 1] = (int)order;
  send_news(w);
  send_result(w, MSG_RESULT, w->report.count - 1);
}

/* After the last case: the late faults, then its implementation ends. */
static void end_worker(void *ctx, mc_pool_channel *ch) {
  mc_run_jobs *jobs = ctx;
  worker_side *w = &jobs->side;
  w->ch = ch;
  w->run.file = NULL;
  mc_runner_finish(&w->run);
  send_news(w);
  mc_impl_close(w->impl);
}

/* ---- in the parent ---- */

/* The case the item of ticket on worker k was gets verdict v saying why
   (unless its result is in). */
static void record_lost(mc_run_jobs *jobs, int k, int64_t ticket, mc_verdict v, const char *why) {
  mc_runner *run = jobs->run;
  if (ticket < 0 || jobs->index_of_order[ticket] >= 0)
    return;
  mc_case_result *res = mc_report_new_result(run->report);
  *res = jobs->pending[k];
  memset(&jobs->pending[k], 0, sizeof jobs->pending[k]);
  res->verdict = v;
  res->detail = mc_strdupf("%s", why);
  mc_expectation *x = run->expectations ? mc_expectations_match(run->expectations, res->id) : NULL;
  if (x)
    x->matched++;
  mc_expect_apply(res, x);
  mc_runner_tally(run, res, +1);
  jobs->index_of_order[ticket] = run->report->count - 1;
  if (run->observe)
    run->observe(run->observer_ctx, run->report, res);
}

/* A worker the pool lost: its case is a crash, or a timeout when it was
   stopped (the implementation stopped its parent). */
static void lose_worker(void *ctx, int k, int64_t ticket, const char *what, const char *how,
                        bool stopped) {
  mc_run_jobs *jobs = ctx;
  char *why = mc_strdupf("movconf's worker process running this case %s (%s): its "
                         "implementation may have %s it",
                         what, how, stopped ? "stopped" : "killed");
  record_lost(jobs, k, ticket, stopped ? MC_VERDICT_TIMEOUT : MC_VERDICT_CRASH, why);
  free(why);
  mc_run_report *report = jobs->run->report;
  if (mc_pool_alive(jobs->pool) == 0 && !report->stopped_early)
    report->stopped_early = mc_strdupf("stopped early: every worker process (--jobs) ended");
}

/* The result of the case given out, or an earlier case's charge. */
static bool take_result(mc_run_jobs *jobs, int k, int64_t ticket, uint32_t kind,
                        mc_record_reader *r) {
  mc_runner *run = jobs->run;
  int64_t order = mc_record_get_int(r);
  mc_case_result got;
  if (!get_result(r, &got))
    return false;
  bool mine = kind == MSG_RESULT
                  ? order == ticket && ticket >= 0 && jobs->index_of_order[order] < 0
                  : order >= 0 && order < jobs->n_orders && jobs->index_of_order[order] >= 0;
  if (!mine || !mc_record_whole(r)) {
    mc_case_result_free(&got);
    return false;
  }
  if (kind == MSG_CHARGE) {
    mc_case_result *old = &run->report->results[jobs->index_of_order[order]];
    mc_runner_tally(run, old, -1);
    mc_case_result_free(old);
    *old = got;
    mc_runner_tally(run, old, +1);
    return true;
  }
  mc_expectation *x = run->expectations ? mc_expectations_match(run->expectations, got.id) : NULL;
  if (x)
    x->matched++;
  mc_case_result *res = mc_report_new_result(run->report);
  *res = got;
  mc_runner_tally(run, res, +1);
  jobs->index_of_order[order] = run->report->count - 1;
  mc_case_result_free(&jobs->pending[k]);
  if (run->observe)
    run->observe(run->observer_ctx, run->report, res);
  return true;
}

static bool take_fault(mc_run_jobs *jobs, mc_record_reader *r) {
  char *observed = mc_record_get_string(r), *culprit = mc_record_get_string(r),
       *detail = mc_record_get_string(r);
  bool ok = mc_record_whole(r) && observed && detail;
  if (ok)
    mc_report_add_process_fault(jobs->run->report, observed, culprit, detail);
  else
    free(detail);
  free(observed);
  free(culprit);
  return ok;
}

/* One record of worker k, busy with ticket; false when no worker sends it. */
static bool take_record(void *ctx, int k, int64_t ticket, uint32_t kind, mc_record_reader *r) {
  mc_run_jobs *jobs = ctx;
  if (kind == MSG_RESULT || kind == MSG_CHARGE)
    return take_result(jobs, k, ticket, kind, r);
  if (kind == MSG_FAULT)
    return take_fault(jobs, r);
  if (kind != MSG_LOST)
    return false;
  int64_t order = mc_record_get_int(r);
  char *why = mc_record_get_string(r);
  bool ok = mc_record_whole(r) && why && order == ticket && ticket >= 0;
  if (ok)
    record_lost(jobs, k, ticket, MC_VERDICT_CRASH, why);
  free(why);
  return ok;
}

/* Gives case index of file to free worker k. */
static void give_case(mc_run_jobs *jobs, int k, int file, int index) {
  mc_runner *run = jobs->run;
  const mc_selection_file *f = &jobs->sel->files[file];
  if (jobs->n_orders == jobs->cap_orders) {
    jobs->cap_orders = jobs->cap_orders ? 2 * jobs->cap_orders : 1024;
    jobs->index_of_order =
        mc_realloc_or_abort(jobs->index_of_order, (size_t)jobs->cap_orders * sizeof(int));
  }
  int order = jobs->n_orders++;
  jobs->index_of_order[order] = -1;
  mc_case_result_free(&jobs->pending[k]);
  mc_describe_case(&jobs->pending[k], &f->file.cases[index], f->path);
  if (run->starting)
    run->starting(run->observer_ctx, &f->file.cases[index], f->path);
  mc_text t = {0};
  mc_record_put_int(&t, order);
  mc_record_put_int(&t, file);
  mc_record_put_int(&t, index);
  mc_pool_give(jobs->pool, k, order, &t);
}

bool mc_run_jobs_file(mc_run_jobs *jobs, int file) {
  mc_runner *run = jobs->run;
  const mc_case_file *f = &jobs->sel->files[file].file;
  if (!mc_runner_take_file(run, &jobs->sel->files[file]))
    return run->report->stopped_early == NULL;
  for (int i = 0; i < f->n_cases; i++) {
    if (!mc_case_selected(&f->cases[i], &run->filter))
      continue;
    mc_pool_wait_free(jobs->pool);
    if (mc_runner_stopped(run)) {
      mc_runner_count_not_run(run, f, i);
      break;
    }
    int k = mc_pool_free_worker(jobs->pool);
    if (k >= 0) /* else none is left: the run has stopped */
      give_case(jobs, k, file, i);
  }
  return run->report->stopped_early == NULL;
}

/* The report's cases in the order they were given out. */
static void put_in_run_order(mc_run_jobs *jobs) {
  mc_run_report *r = jobs->run->report;
  mc_case_result *ordered = mc_realloc_or_abort(NULL, (size_t)(r->count + 1) * sizeof *ordered);
  int n = 0;
  for (int k = 0; k < jobs->n_orders; k++)
    if (jobs->index_of_order[k] >= 0)
      ordered[n++] = r->results[jobs->index_of_order[k]];
  free(r->results);
  r->results = ordered;
  r->count = n; /* every result has its order */
  r->capacity = r->count + 1;
}

void mc_run_jobs_finish(mc_run_jobs *jobs) {
  mc_pool_finish(jobs->pool);
  put_in_run_order(jobs);
  mc_runner_close_report(jobs->run);
}

void mc_run_jobs_free(mc_run_jobs *jobs) {
  if (!jobs)
    return;
  mc_pool_free(jobs->pool);
  for (int k = 0; k < MC_MAX_JOBS; k++)
    mc_case_result_free(&jobs->pending[k]);
  free(jobs->index_of_order);
  free(jobs);
}

mc_run_jobs *mc_run_jobs_start(mc_runner *run, mc_selection *sel, int n, const char *spec,
                               const mc_impl_options *options, char *err, size_t errlen) {
  mc_run_jobs *jobs = mc_realloc_or_abort(NULL, sizeof *jobs);
  *jobs = (mc_run_jobs){.run = run, .sel = sel, .spec = spec, .options = options};
  const mc_pool_work work = {.ctx = jobs,
                             .start = start_worker,
                             .item = run_item,
                             .end = end_worker,
                             .take = take_record,
                             .lost = lose_worker};
  jobs->pool = mc_pool_new(&work);
  mc_pool_set_stopped_limit(jobs->pool, options->timeout_seconds);
  if (!mc_pool_start(jobs->pool, n, err, errlen)) {
    mc_run_jobs_free(jobs);
    return NULL;
  }
  return jobs;
}

const char *mc_run_jobs_impl_name(const mc_run_jobs *jobs) {
  return mc_pool_hello(jobs->pool);
}
