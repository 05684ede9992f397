/* movconf run --jobs N: N worker processes, forked from movconf before the
   first case, each opening its own implementation (its own plugin host or
   adapter) and running mc_run_case on the cases it is given, one at a
   time, from the parent's one queue. A worker is a whole single-threaded
   runner of its own: crash re-runs, late writes charged to their case,
   process faults and their culprits, and the end of what its
   implementation started all work within it as in a run without --jobs.

   The parent keeps the report: it gives out cases in run order (checking
   the stop limits before each, once a worker is free), takes each result
   as it comes (the live lines then), a crash charged after the fact to an
   earlier case of the worker, and process faults; at the end it puts the
   cases back in run order. Messages are length-prefixed records on a pipe
   each way; a worker that ends, or says what no worker would, is dropped
   and its case a crash. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/text.h"
#include "common/transfer.h"
#include "harness/impl/child.h"
#include "harness/impl/child_pipe.h"
#include "harness/internal.h"

enum {
  /* worker -> parent */
  MSG_HELLO = 1, /* int ok, string name (or why it could not start) */
  MSG_RESULT,    /* int order, result: the case given to it is done */
  MSG_CHARGE,    /* int order, result: an earlier case became a crash */
  MSG_FAULT,     /* strings observed_in, culprit, detail: a process fault */
  MSG_LOST,      /* int order, string why: the case could not be run */
  MSG_DONE,      /* after MSG_END: every late fault is in */
  /* parent -> worker */
  MSG_CASE, /* int order, int index, string path */
  MSG_END
};

/* A message larger than this is no worker's (a picture is ~13 kB). */
#define MAX_MESSAGE_BYTES ((uint32_t)64 << 20)

typedef struct worker {
  pid_t pid;
  int to, from;           /* pipe ends: messages to it, from it; -1 once closed */
  int order;              /* the case it runs (run order), -1 while idle */
  mc_case_result pending; /* that case described, for a crash if the worker is lost */
  bool done;              /* sent MSG_DONE, or lost */
} worker;

struct mc_run_jobs {
  int n;
  worker w[MC_MAX_JOBS];
  char *impl_name;
  int *index_of_order; /* report index of each case given out, -1 until its result */
  int n_orders, cap_orders;
  struct sigaction old_sigpipe;
};

/* ---- records ---- */

typedef struct reader {
  const char *p;
  size_t len, at;
  bool bad;
} reader;

static void put_int(mc_text *t, int64_t v) {
  mc_text_put(t, (const char *)&v, sizeof v);
}

static void put_double(mc_text *t, double v) {
  mc_text_put(t, (const char *)&v, sizeof v);
}

static void put_string(mc_text *t, const char *s) {
  put_int(t, s ? (int64_t)strlen(s) : -1);
  if (s)
    mc_text_put(t, s, strlen(s));
}

static bool take(reader *r, void *out, size_t n) {
  if (r->bad || r->len - r->at < n) {
    r->bad = true;
    memset(out, 0, n);
    return false;
  }
  memcpy(out, r->p + r->at, n);
  r->at += n;
  return true;
}

static int64_t get_int(reader *r) {
  int64_t v;
  take(r, &v, sizeof v);
  return v;
}

static double get_double(reader *r) {
  double v;
  take(r, &v, sizeof v);
  return v;
}

/* Heap, or NULL (sent as NULL, or the record is bad). */
static char *get_string(reader *r) {
  int64_t n = get_int(r);
  if (r->bad || n < 0)
    return NULL;
  if ((uint64_t)n > r->len - r->at) {
    r->bad = true;
    return NULL;
  }
  char *s = mc_realloc_or_abort(NULL, (size_t)n + 1);
  memcpy(s, r->p + r->at, (size_t)n);
  s[n] = '\0';
  r->at += (size_t)n;
  return s;
}

static void put_result(mc_text *t, const mc_case_result *c) {
  const char *strings[] = {c->id,         c->file,    c->detail, c->expect_reason, c->inputs,
                           c->attributes, c->clauses, c->origin, c->picture,       c->mode};
  for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
    put_string(t, strings[i]);
  const int64_t ints[] = {
      c->op,        c->data_type, c->verdict,  c->expect,          c->expected_verdict,
      c->rejection, c->rank,      c->elements, c->output_elements, c->index_filled};
  for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
    put_int(t, ints[i]);
  put_double(t, c->seconds);
}

static bool get_result(reader *r, mc_case_result *c) {
  memset(c, 0, sizeof *c);
  char **strings[] = {&c->id,         &c->file,    &c->detail, &c->expect_reason, &c->inputs,
                      &c->attributes, &c->clauses, &c->origin, &c->picture};
  for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
    *strings[i] = get_string(r);
  char *mode = get_string(r);
  snprintf(c->mode, sizeof c->mode, "%s", mode ? mode : "");
  free(mode);
  c->op = (int)get_int(r);
  c->data_type = (int)get_int(r);
  int64_t verdict = get_int(r), expect = get_int(r), expected = get_int(r), rejection = get_int(r);
  c->rank = (int)get_int(r);
  c->elements = get_int(r);
  c->output_elements = get_int(r);
  c->index_filled = get_int(r) != 0;
  c->seconds = get_double(r);
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

/* Sends kind with the body in t (may be empty); frees t. */
static bool send_message(int fd, uint32_t kind, mc_text *t) {
  uint32_t head[2] = {kind, (uint32_t)t->len};
  bool ok = !t->oom && mc_transfer_all(fd, head, sizeof head, MC_TRANSFER_WRITE, 0) &&
            (t->len == 0 || mc_transfer_all(fd, t->p, t->len, MC_TRANSFER_WRITE, 0));
  mc_text_free(t);
  return ok;
}

/* The next message: its kind (0 at the end of the pipe or on a bad
   record) and its body in *body (heap, *len bytes). */
static uint32_t receive_message(int fd, char **body, size_t *len) {
  uint32_t head[2];
  *body = NULL;
  *len = 0;
  if (!mc_transfer_all(fd, head, sizeof head, MC_TRANSFER_READ, 0) || head[1] > MAX_MESSAGE_BYTES)
    return 0;
  *body = mc_realloc_or_abort(NULL, head[1] + 1);
  if (!mc_transfer_all(fd, *body, head[1], MC_TRANSFER_READ, 0)) {
    free(*body);
    *body = NULL;
    return 0;
  }
  *len = head[1];
  return head[0];
}

/* ---- in a worker ---- */

typedef struct worker_side {
  int out;
  mc_run_report report;
  int *order_of_index; /* run order of each case of the local report */
  int cap;
  int *charged; /* local report indices charged since the last message */
  int n_charged, cap_charged;
  int faults_sent;
} worker_side;

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
  put_int(&t, w->order_of_index[index]);
  put_result(&t, &w->report.results[index]);
  if (!send_message(w->out, kind, &t))
    _exit(3); /* the parent is gone: nobody to run for */
}

/* The charges and process faults that came since the last case. */
static void send_news(worker_side *w) {
  for (int i = 0; i < w->n_charged; i++)
    send_result(w, MSG_CHARGE, w->charged[i]);
  w->n_charged = 0;
  for (; w->faults_sent < w->report.n_process_faults; w->faults_sent++) {
    const mc_process_fault *f = &w->report.process_faults[w->faults_sent];
    mc_text t = {0};
    put_string(&t, f->observed_in);
    put_string(&t, f->culprit);
    put_string(&t, f->detail);
    if (!send_message(w->out, MSG_FAULT, &t))
      _exit(3);
  }
}

static void send_text(int fd, uint32_t kind, int64_t number, const char *text) {
  mc_text t = {0};
  put_int(&t, number);
  put_string(&t, text);
  if (!send_message(fd, kind, &t))
    _exit(3);
}

/* The case file at path, loaded once for consecutive cases of it. */
static bool have_file(mc_runner *run, mc_case_file *file, char **loaded, const char *path,
                      char *err, size_t errlen) {
  if (*loaded && strcmp(*loaded, path) == 0)
    return true;
  if (*loaded)
    mc_case_file_free(file);
  free(*loaded);
  *loaded = NULL;
  run->file = NULL;
  run->file_path = NULL;
  if (!mc_case_file_load_deferred(path, file, err, errlen)) /* made case by case */
    return false;
  *loaded = mc_strdupf("%s", path);
  run->file = file;
  run->file_path = *loaded;
  return true;
}

static void run_one(mc_runner *run, worker_side *w, mc_case_file *file, char **loaded, reader *r) {
  int64_t order = get_int(r), index = get_int(r);
  char *path = get_string(r);
  char err[1024] = "a bad request from the parent movconf";
  bool made = !r->bad && path && have_file(run, file, loaded, path, err, sizeof err) &&
              index >= 0 && index < file->n_cases;
  if (made && !mc_case_materialize(&file->cases[index])) {
    snprintf(err, sizeof err, "out of memory for its inputs");
    made = false;
  }
  if (!made) {
    char *why = mc_strdupf("movconf's worker could not load the case again: %s", err);
    send_text(w->out, MSG_LOST, order, why);
    free(why);
    free(path);
    return;
  }
  mc_run_case(run, &file->cases[index], path);
  free(path);
  if (w->report.count > w->cap) {
    w->cap = 2 * w->report.count;
    w->order_of_index = mc_realloc_or_abort(w->order_of_index, (size_t)w->cap * sizeof(int));
  }
  w->order_of_index[w->report.count - 1] = (int)order;
  send_news(w);
  send_result(w, MSG_RESULT, w->report.count - 1);
}

/* Serves the cases the parent gives until MSG_END, then reports the late
   faults, ends its implementation and exits. */
_Noreturn static void serve(const mc_runner *parent, mc_impl *impl, int in, int out) {
  worker_side w = {.out = out};
  mc_runner run = {.impl = impl,
                   .filter = parent->filter,
                   .expectations = parent->expectations,
                   .report = &w.report,
                   .require_named_errors = parent->require_named_errors,
                   .charged = note_charge,
                   .charged_ctx = &w};
  mc_case_file file;
  char *loaded = NULL;
  for (;;) {
    char *body;
    size_t len;
    uint32_t kind = receive_message(in, &body, &len);
    reader r = {.p = body, .len = len};
    if (kind == MSG_CASE)
      run_one(&run, &w, &file, &loaded, &r);
    free(body);
    if (kind != MSG_CASE)
      break; /* MSG_END, or the parent is gone */
  }
  run.file = NULL;
  mc_runner_finish(&run);
  send_news(&w);
  mc_text done = {0};
  send_message(out, MSG_DONE, &done);
  mc_impl_close(impl);
  mc_child_end_all();
  _exit(0);
}

/* In worker k, just forked: opens the implementation and says whether it
   started, then serves; never returns. */
_Noreturn static void worker_main(mc_runner *run, int k, const char *spec,
                                  const mc_impl_options *options, int in, int out) {
  struct mc_run_jobs *jobs = run->jobs;
  for (int i = 0; i < k; i++) { /* the parent's ends of the others' pipes */
    close(jobs->w[i].to);
    close(jobs->w[i].from);
  }
  sigaction(SIGPIPE, &jobs->old_sigpipe, NULL);
  mc_child_guard_after_fork();
  mc_child_hide_fd(in);
  mc_child_hide_fd(out);
  char err[1024] = "";
  mc_impl *impl = mc_impl_open(spec, options, err, sizeof err);
  send_text(out, MSG_HELLO, impl != NULL, impl ? impl->name : err);
  if (!impl)
    _exit(2);
  serve(run, impl, in, out);
}

/* ---- in the parent ---- */

static void close_fd(int *fd) {
  if (*fd >= 0)
    close(*fd);
  *fd = -1;
}

/* How worker w ended (it has closed its pipe or misbehaved): reaped. */
static void end_worker(worker *w, char *how, size_t howlen) {
  close_fd(&w->to);
  close_fd(&w->from);
  w->done = true;
  mc_child_end(w->pid, false, 5.0, how, howlen);
  w->pid = 0;
}

/* The case w was running gets a crash verdict saying why. */
static void record_lost(mc_runner *run, worker *w, const char *why) {
  struct mc_run_jobs *jobs = run->jobs;
  if (w->order < 0)
    return;
  mc_case_result *res = mc_report_new_result(run->report);
  *res = w->pending;
  memset(&w->pending, 0, sizeof w->pending);
  res->verdict = MC_VERDICT_CRASH;
  res->detail = mc_strdupf("%s", why);
  mc_expectation *x = run->expectations ? mc_expectations_match(run->expectations, res->id) : NULL;
  if (x)
    x->matched++;
  mc_expect_apply(res, x);
  mc_runner_tally(run, res, +1);
  jobs->index_of_order[w->order] = run->report->count - 1;
  w->order = -1;
  if (run->observe)
    run->observe(run->observer_ctx, run->report, res);
}

/* A worker that ended or broke the protocol: its case is a crash. */
static void lose_worker(mc_runner *run, worker *w, const char *what) {
  char how[256] = "";
  end_worker(w, how, sizeof how);
  char *why = mc_strdupf("movconf's worker process running this case %s (%s): its "
                         "implementation may have killed it",
                         what, how);
  record_lost(run, w, why);
  free(why);
  bool any = false;
  for (int i = 0; i < run->jobs->n; i++)
    any |= run->jobs->w[i].from >= 0;
  if (!any && !run->report->stopped_early)
    run->report->stopped_early = mc_strdupf("stopped early: every worker process (--jobs) ended");
}

/* The result of a case given out, or an earlier case's charge. */
static bool take_result(mc_runner *run, worker *w, uint32_t kind, reader *r) {
  struct mc_run_jobs *jobs = run->jobs;
  int64_t order = get_int(r);
  mc_case_result got;
  if (!get_result(r, &got))
    return false;
  bool mine = kind == MSG_RESULT
                  ? order == w->order
                  : order >= 0 && order < jobs->n_orders && jobs->index_of_order[order] >= 0;
  if (!mine) {
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
  mc_case_result_free(&w->pending);
  w->order = -1;
  if (run->observe)
    run->observe(run->observer_ctx, run->report, res);
  return true;
}

/* Takes one message of w; false when w was lost. */
static bool take_message(mc_runner *run, worker *w) {
  char *body;
  size_t len;
  uint32_t kind = receive_message(w->from, &body, &len);
  reader r = {.p = body, .len = len};
  bool ok = true;
  if (kind == MSG_RESULT || kind == MSG_CHARGE) {
    ok = take_result(run, w, kind, &r);
  } else if (kind == MSG_FAULT) {
    char *observed = get_string(&r), *culprit = get_string(&r), *detail = get_string(&r);
    ok = !r.bad && observed && detail;
    if (ok)
      mc_report_add_process_fault(run->report, observed, culprit, detail);
    else
      free(detail);
    free(observed);
    free(culprit);
  } else if (kind == MSG_LOST) {
    int64_t order = get_int(&r);
    char *why = get_string(&r);
    ok = !r.bad && why && order == w->order;
    if (ok)
      record_lost(run, w, why);
    free(why);
  } else if (kind == MSG_DONE) {
    w->done = true;
  } else {
    ok = false;
  }
  free(body);
  if (!ok)
    lose_worker(run, w, kind ? "sent movconf a message no worker sends" : "ended");
  return ok;
}

/* Waits for messages from the workers still running, and takes them. */
static void take_messages(mc_runner *run) {
  struct mc_run_jobs *jobs = run->jobs;
  struct pollfd p[MC_MAX_JOBS];
  int n = 0;
  worker *which[MC_MAX_JOBS];
  for (int i = 0; i < jobs->n; i++)
    if (jobs->w[i].from >= 0 && !jobs->w[i].done) {
      which[n] = &jobs->w[i];
      p[n++] = (struct pollfd){.fd = jobs->w[i].from, .events = POLLIN};
    }
  if (n == 0 || poll(p, (nfds_t)n, -1) <= 0)
    return;
  for (int i = 0; i < n; i++)
    if (p[i].revents)
      take_message(run, which[i]);
}

static worker *idle_worker(struct mc_run_jobs *jobs) {
  for (int i = 0; i < jobs->n; i++)
    if (jobs->w[i].from >= 0 && jobs->w[i].order < 0)
      return &jobs->w[i];
  return NULL;
}

static bool any_running(const struct mc_run_jobs *jobs) {
  for (int i = 0; i < jobs->n; i++)
    if (jobs->w[i].from >= 0)
      return true;
  return false;
}

void mc_jobs_wait_idle(mc_runner *run) {
  while (any_running(run->jobs) && !idle_worker(run->jobs))
    take_messages(run);
}

void mc_jobs_dispatch(mc_runner *run, const mc_case_file *f, int index, const char *path) {
  struct mc_run_jobs *jobs = run->jobs;
  worker *w = idle_worker(jobs);
  if (!w)
    return; /* none left: the run has stopped */
  if (jobs->n_orders == jobs->cap_orders) {
    jobs->cap_orders = jobs->cap_orders ? 2 * jobs->cap_orders : 1024;
    jobs->index_of_order =
        mc_realloc_or_abort(jobs->index_of_order, (size_t)jobs->cap_orders * sizeof(int));
  }
  w->order = jobs->n_orders++;
  jobs->index_of_order[w->order] = -1;
  mc_describe_case(&w->pending, &f->cases[index], path);
  if (run->starting)
    run->starting(run->observer_ctx, &f->cases[index], path);
  mc_text t = {0};
  put_int(&t, w->order);
  put_int(&t, index);
  put_string(&t, path);
  if (!send_message(w->to, MSG_CASE, &t))
    lose_worker(run, w, "ended");
}

/* The report's cases in the order they were given out. */
static void put_in_run_order(mc_runner *run) {
  struct mc_run_jobs *jobs = run->jobs;
  mc_run_report *r = run->report;
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

void mc_jobs_finish(mc_runner *run) {
  struct mc_run_jobs *jobs = run->jobs;
  for (int i = 0; i < jobs->n; i++) {
    worker *w = &jobs->w[i];
    while (w->from >= 0 && w->order >= 0)
      take_messages(run);
    mc_text t = {0};
    if (w->to >= 0 && !send_message(w->to, MSG_END, &t))
      lose_worker(run, w, "ended");
  }
  for (bool waiting = true; waiting;) {
    waiting = false;
    for (int i = 0; i < jobs->n; i++)
      waiting |= jobs->w[i].from >= 0 && !jobs->w[i].done;
    if (waiting)
      take_messages(run);
  }
  for (int i = 0; i < jobs->n; i++)
    if (jobs->w[i].pid > 0)
      end_worker(&jobs->w[i], NULL, 0);
  /* What a lost worker's implementation left came here (the reaper). */
  mc_child_end_all();
  put_in_run_order(run);
}

void mc_jobs_free(mc_runner *run) {
  struct mc_run_jobs *jobs = run->jobs;
  if (!jobs)
    return;
  for (int i = 0; i < jobs->n; i++) {
    worker *w = &jobs->w[i];
    if (w->pid > 0) {
      close_fd(&w->to);
      close_fd(&w->from);
      mc_child_end(w->pid, false, 5.0, NULL, 0); /* closed pipes: it exits */
    }
    mc_case_result_free(&w->pending);
  }
  sigaction(SIGPIPE, &jobs->old_sigpipe, NULL);
  free(jobs->impl_name);
  free(jobs->index_of_order);
  free(jobs);
  run->jobs = NULL;
}

/* Forks worker k; false with why in err. */
static bool start_worker(mc_runner *run, int k, const char *spec, const mc_impl_options *options,
                         char *err, size_t errlen) {
  worker *w = &run->jobs->w[k];
  *w = (worker){.to = -1, .from = -1, .order = -1};
  int down[2], up[2];
  if (!mc_child_pipe(down)) {
    snprintf(err, errlen, "cannot start worker %d: pipe: %s", k + 1, strerror(errno));
    return false;
  }
  if (!mc_child_pipe(up)) {
    snprintf(err, errlen, "cannot start worker %d: pipe: %s", k + 1, strerror(errno));
    close(down[0]);
    close(down[1]);
    return false;
  }
  fflush(NULL); /* or the worker would inherit, and might repeat, buffered output */
  w->pid = fork();
  if (w->pid == 0) {
    close(down[1]);
    close(up[0]);
    worker_main(run, k, spec, options, down[0], up[1]);
  }
  close(down[0]);
  close(up[1]);
  w->to = down[1];
  w->from = up[0];
  if (w->pid < 0) {
    snprintf(err, errlen, "cannot start worker %d: fork: %s", k + 1, strerror(errno));
    close_fd(&w->to);
    close_fd(&w->from);
    w->pid = 0;
    return false;
  }
  return true;
}

/* Worker k's greeting: true when its implementation started. */
static bool greeted(mc_runner *run, int k, char *err, size_t errlen) {
  worker *w = &run->jobs->w[k];
  char *body;
  size_t len;
  uint32_t kind = receive_message(w->from, &body, &len);
  reader r = {.p = body, .len = len};
  int64_t ok = get_int(&r);
  char *text = get_string(&r);
  bool started = kind == MSG_HELLO && !r.bad && text && ok;
  if (started && !run->jobs->impl_name)
    run->jobs->impl_name = mc_strdupf("%s", text);
  if (!started && kind == MSG_HELLO && text)
    snprintf(err, errlen, "%s", text);
  else if (!started)
    snprintf(err, errlen, "worker %d of --jobs ended before its implementation started", k + 1);
  free(text);
  free(body);
  return started;
}

bool mc_runner_start_jobs(mc_runner *run, int jobs, const char *spec,
                          const mc_impl_options *options, char *err, size_t errlen) {
  if (jobs < 1 || jobs > MC_MAX_JOBS) {
    snprintf(err, errlen, "--jobs takes 1 to %d workers", MC_MAX_JOBS);
    return false;
  }
  mc_child_guard_install(); /* a signal ends the workers and what they started */
  run->jobs = mc_realloc_or_abort(NULL, sizeof *run->jobs);
  memset(run->jobs, 0, sizeof *run->jobs);
  /* A worker that is gone makes a write to it fail, not movconf die. */
  struct sigaction ignore = {.sa_handler = SIG_IGN};
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &run->jobs->old_sigpipe);
  bool ok = true;
  for (int k = 0; k < jobs && ok; k++) {
    ok = start_worker(run, k, spec, options, err, errlen);
    run->jobs->n += ok;
  }
  for (int k = 0; k < run->jobs->n && ok; k++)
    ok = greeted(run, k, err, errlen);
  if (!ok)
    mc_jobs_free(run);
  return ok;
}

const char *mc_runner_jobs_impl_name(const mc_runner *run) {
  return run->jobs ? run->jobs->impl_name : NULL;
}
