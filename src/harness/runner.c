/* Running cases: each selected case of a file through an implementation,
   judged, its expectation applied, recorded in the run's report.

   Isolated implementations keep a process across cases, so a fault can
   surface in a later case than the one that caused it. The runner keeps
   each case's verdict its own: a result that blames an earlier call (a
   write after run() returned, a second reply) is charged to that call's
   case and the current case is run again; a crash of a process that had
   served earlier cases is checked by running the case alone in a fresh
   process, and when it passes there the crash is recorded as a process
   fault of the window of earlier cases, whose culprit is looked for when
   that is cheap. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/text.h"
#include "harness/harness.h"
#include "movconf/tensor.h"

/* Looking for the culprit of a process fault: at most this many earlier
   cases, each run in a fresh process followed by the crashed case, and no
   new attempt once this much time has gone. */
#define CULPRIT_SEARCH_CASES 16
#define CULPRIT_SEARCH_SECONDS 20.0
/* Late faults blamed in a row before the runner gives the case up. */
#define MAX_BLAMES_PER_CASE 4

static mc_case_result *new_result(mc_run_report *r) {
  if (r->count == r->capacity) {
    r->capacity = r->capacity ? 2 * r->capacity : 256;
    r->results = mc_realloc_or_abort(r->results, (size_t)r->capacity * sizeof *r->results);
  }
  mc_case_result *res = &r->results[r->count++];
  memset(res, 0, sizeof *res);
  return res;
}

bool mc_case_selected(const mc_case *c, const mc_case_filter *f) {
  if (f->op >= 0 && (int)c->op != f->op)
    return false;
  if (f->type != MC_TYPE_INVALID && (c->n_inputs < 1 || (int)c->inputs[0].tensor.type != f->type))
    return false;
  return !f->case_glob || fnmatch(f->case_glob, c->id, 0) == 0;
}

/* ---- calls, numbered as the implementation numbers them ---- */

static void remember_call(mc_runner *run, uint64_t call, int result_index) {
  if (call > run->calls_cap) {
    size_t cap = run->calls_cap ? run->calls_cap * 2 : 1024;
    while (cap < call)
      cap *= 2;
    run->result_of_call =
        mc_realloc_or_abort(run->result_of_call, cap * sizeof *run->result_of_call);
    for (size_t i = run->calls_cap; i < cap; i++)
      run->result_of_call[i] = -1;
    run->calls_cap = cap;
  }
  run->result_of_call[call - 1] = result_index;
}

static int result_of_call(const mc_runner *run, uint64_t call) {
  return call >= 1 && call <= run->calls_cap ? run->result_of_call[call - 1] : -1;
}

/* One call of the implementation for case c, charged to report index
   result_index (-1: to no case). */
static void call_impl(mc_runner *run, const mc_case *c, int result_index, mc_impl_result *r) {
  mc_request req = mc_case_request(c);
  memset(r, 0, sizeof *r);
  run->impl->calls++;
  remember_call(run, run->impl->calls, result_index);
  run->impl->run(run->impl, &req, r);
}

static void restart_impl(mc_runner *run) {
  if (run->impl->restart)
    run->impl->restart(run->impl);
  run->n_window = 0;
}

/* ---- results ---- */

static mc_expectation *expectation_of(mc_runner *run, const char *id) {
  return run->expectations ? mc_expectations_match(run->expectations, id) : NULL;
}

/* Keeps the counts the stop limits read: sign +1 adds a result, -1 takes
   it back (before a late charge changes its verdict). */
static void tally_result(mc_runner *run, const mc_case_result *res, int sign) {
  run->n_problems += sign * mc_case_result_is_problem(res);
  run->n_timeouts += sign * (res->verdict == MC_VERDICT_TIMEOUT);
}

/* Gives an already recorded case a crash verdict it earned after the fact. */
static void charge_crash(mc_runner *run, int index, const char *detail) {
  mc_case_result *res = &run->report->results[index];
  tally_result(run, res, -1);
  free(res->detail);
  free(res->expect_reason);
  res->expect_reason = NULL;
  res->verdict = MC_VERDICT_CRASH;
  res->rejection = MC_REJECTION_NONE;
  res->detail = mc_strdupf("%s", detail);
  mc_expect_apply(res, expectation_of(run, res->id));
  tally_result(run, res, +1);
}

static void charge_blamed_call(mc_runner *run, const mc_impl_result *r) {
  int index = result_of_call(run, r->blame_call);
  if (index >= 0 && index < run->report->count) /* not the case being run */
    charge_crash(run, index, r->message);
}

static void add_process_fault(mc_run_report *report, const char *observed_in, const char *culprit,
                              char *detail) {
  report->process_faults = mc_realloc_or_abort(
      report->process_faults, (size_t)(report->n_process_faults + 1) * sizeof(mc_process_fault));
  report->process_faults[report->n_process_faults++] =
      (mc_process_fault){.observed_in = mc_strdupf("%s", observed_in),
                         .culprit = culprit ? mc_strdupf("%s", culprit) : NULL,
                         .detail = detail};
}

/* ---- re-running earlier cases ---- */

/* The case of a recorded result, from the file being run or loaded again
   into *loaded (free it after); NULL when it cannot be had. */
static const mc_case *find_case(mc_runner *run, int index, mc_case_file *loaded, bool *have) {
  const mc_case_result *res = &run->report->results[index];
  const mc_case_file *f = run->file;
  *have = false;
  if (!f || !run->file_path || strcmp(run->file_path, res->file) != 0) {
    char err[256];
    if (!mc_case_file_load(res->file, loaded, err, sizeof err))
      return NULL;
    *have = true;
    f = loaded;
  }
  for (int i = 0; i < f->n_cases; i++)
    if (strcmp(f->cases[i].id, res->id) == 0)
      return &f->cases[i];
  return NULL;
}

/* Runs suspect (report index) then c, both in one fresh process: true when
   c crashes then, which makes the suspect the culprit. */
static bool breaks_process_for(mc_runner *run, int suspect, const mc_case *c, int c_index) {
  mc_case_file loaded;
  bool have;
  const mc_case *s = find_case(run, suspect, &loaded, &have);
  bool crashed = false;
  if (s) {
    mc_impl_result r;
    restart_impl(run);
    call_impl(run, s, -1, &r);
    bool served = r.outcome != MC_OUTCOME_CRASH && r.outcome != MC_OUTCOME_TIMEOUT;
    mc_tensor_free(&r.output);
    if (served) {
      call_impl(run, c, c_index, &r);
      crashed = r.outcome == MC_OUTCOME_CRASH;
      mc_tensor_free(&r.output);
    }
  }
  if (have)
    mc_case_file_free(&loaded);
  return crashed;
}

/* The most recent suspect found to break the process for c, or -1. */
static int find_culprit(mc_runner *run, const int *suspects, int n, const mc_case *c, int c_index) {
  double deadline = mc_now_seconds() + CULPRIT_SEARCH_SECONDS;
  for (int k = n - 1, tried = 0; k >= 0 && tried < CULPRIT_SEARCH_CASES; k--, tried++) {
    if (mc_now_seconds() > deadline)
      break;
    if (breaks_process_for(run, suspects[k], c, c_index))
      return suspects[k];
  }
  return -1;
}

/* "a, b, c" of the suspects' ids. */
static char *suspect_list(const mc_runner *run, const int *suspects, int n) {
  mc_text t = {0};
  for (int k = 0; k < n; k++)
    mc_text_printf(&t, "%s%s", k ? ", " : "", run->report->results[suspects[k]].id);
  char *list = mc_strdupf("%s", t.p ? t.p : "");
  mc_text_free(&t);
  return list;
}

/* c crashed in a process that had served the window's cases: runs it alone
   in a fresh process. When it crashes there too the crash is its own;
   otherwise *r becomes its result alone and the crash a process fault of
   the window, charged to the culprit when one is found. */
static void check_crash_alone(mc_runner *run, const mc_case *c, int index, mc_impl_result *r) {
  int n = run->n_window;
  int *suspects = mc_realloc_or_abort(NULL, (size_t)n * sizeof *suspects);
  memcpy(suspects, run->window, (size_t)n * sizeof *suspects);
  char crash[sizeof r->message];
  snprintf(crash, sizeof crash, "%s", r->message);
  mc_impl_result alone;
  restart_impl(run);
  call_impl(run, c, index, &alone);
  if (alone.outcome == MC_OUTCOME_CRASH || alone.outcome == MC_OUTCOME_TIMEOUT ||
      alone.blame_call) {
    mc_tensor_free(&alone.output);
    free(suspects);
    return; /* its own crash (or no clean answer alone): the verdict stands */
  }
  mc_tensor_free(&r->output);
  *r = alone;
  char *list = suspect_list(run, suspects, n);
  int culprit = find_culprit(run, suspects, n, c, index);
  restart_impl(run); /* the next case starts clean, whatever the search left */
  const char *culprit_id = culprit >= 0 ? run->report->results[culprit].id : NULL;
  char *detail = mc_strdupf(
      "the implementation's process crashed during %s (%s), which does not crash alone in a "
      "fresh process: caused by an earlier case since the last fresh start (%s); %s%s",
      c->id, crash, list, culprit_id ? "culprit: " : "no single culprit found",
      culprit_id ? culprit_id : "");
  if (culprit >= 0) {
    char *charged = mc_strdupf("broke the implementation's process: %s crashed after it (%s) but "
                               "not alone, and crashes again when run right after this case in a "
                               "fresh process",
                               c->id, crash);
    charge_crash(run, culprit, charged);
    free(charged);
  }
  add_process_fault(run->report, c->id, culprit_id, detail);
  free(list);
  free(suspects);
}

static void window_add(mc_runner *run, int index) {
  if (run->n_window == run->window_cap) {
    run->window_cap = run->window_cap ? 2 * run->window_cap : 64;
    run->window = mc_realloc_or_abort(run->window, (size_t)run->window_cap * sizeof *run->window);
  }
  run->window[run->n_window++] = index;
}

/* ---- one case ---- */

/* The call's result for case c, after charging late faults to their cases
   and checking a crash alone. */
static void result_for(mc_runner *run, const mc_case *c, int index, mc_impl_result *r) {
  call_impl(run, c, index, r);
  for (int blamed = 0; r->blame_call && blamed < MAX_BLAMES_PER_CASE; blamed++) {
    charge_blamed_call(run, r);
    mc_tensor_free(&r->output);
    restart_impl(run);
    call_impl(run, c, index, r);
  }
  if (r->blame_call) {
    r->outcome = MC_OUTCOME_CRASH;
    snprintf(r->message, sizeof r->message,
             "no answer of its own: faults of earlier cases kept arriving instead");
  }
  if (r->fresh_start)
    run->n_window = 0;
  if (r->outcome == MC_OUTCOME_CRASH && !r->fresh_start && run->n_window > 0 && run->impl->restart)
    check_crash_alone(run, c, index, r);
}

/* --require-named-errors: a rejection without an error name does not
   show that the input was rejected for the right reason. */
static void require_named_error(mc_case_result *res, const mc_case *c) {
  if (res->verdict != MC_VERDICT_PASS || res->rejection != MC_REJECTION_UNNAMED)
    return;
  res->verdict = MC_VERDICT_WRONG_ERROR;
  res->detail = mc_strdupf("rejected without naming an error (--require-named-errors); expected %s",
                           mc_status_name(c->expected_error));
}

/* What the case is, for failure lines, grouping and --summary-by. */
static void describe_case(mc_case_result *res, const mc_case *c) {
  res->inputs = mc_case_inputs_text(c);
  res->attributes = mc_case_attrs_text(c);
  snprintf(res->mode, sizeof res->mode, "%s", mc_case_mode(c));
  res->output_elements = c->expect_error ? -1 : mc_tensor_elements(&c->expected.tensor);
  if (c->n_inputs > 0) {
    res->rank = c->inputs[0].tensor.rank;
    res->elements = mc_tensor_elements(&c->inputs[0].tensor);
    res->index_filled = mc_case_tensor_index_filled(&c->inputs[0]);
  }
}

const mc_case_result *mc_run_case(mc_runner *run, const mc_case *c, const char *file) {
  int index = run->report->count;
  mc_impl_result result;
  if (run->starting)
    run->starting(run->observer_ctx, c, file);
  double start = mc_now_seconds();
  result_for(run, c, index, &result);
  double seconds = mc_now_seconds() - start;
  mc_case_result *res = new_result(run->report);
  res->seconds = seconds;
  describe_case(res, c);
  res->verdict = mc_judge(c, run->impl, &result, &res->detail);
  res->rejection = mc_judge_rejection(run->impl, &result);
  if (run->require_named_errors)
    require_named_error(res, c);
  mc_tensor_free(&result.output);
  res->id = mc_strdupf("%s", c->id);
  res->file = mc_strdupf("%s", file);
  res->op = c->op;
  res->data_type = c->n_inputs > 0 ? c->inputs[0].tensor.type : MC_TYPE_INVALID;
  mc_expectation *x = expectation_of(run, c->id);
  if (x)
    x->matched++;
  mc_expect_apply(res, x);
  tally_result(run, res, +1);
  window_add(run, index);
  return res;
}

/* ---- stopping early ---- */

static const char *plural(long n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

/* Why the run must stop before its next case (heap), or NULL. */
static char *stop_reason(const mc_runner *run) {
  if (run->fail_fast && run->n_problems > 0)
    return mc_strdupf("a case failed the run (--fail-fast)");
  if (run->max_failures > 0 && run->n_problems >= run->max_failures)
    return mc_strdupf("%d %s reached --max-failures %d", run->n_problems,
                      plural(run->n_problems, "failure", "failures"), run->max_failures);
  if (run->max_timeouts > 0 && run->n_timeouts >= run->max_timeouts)
    return mc_strdupf("%d %s reached --max-timeouts %d", run->n_timeouts,
                      plural(run->n_timeouts, "timeout", "timeouts"), run->max_timeouts);
  if (run->time_limit > 0 && mc_now_seconds() - run->started >= run->time_limit)
    return mc_strdupf("--time-limit %g s passed", run->time_limit);
  return NULL;
}

/* True when the run has stopped or must stop now (then recorded). */
static bool stopped(mc_runner *run) {
  if (run->report->stopped_early)
    return true;
  char *reason = stop_reason(run);
  if (!reason)
    return false;
  run->report->stopped_early = mc_strdupf("stopped early: %s", reason);
  free(reason);
  return true;
}

static void count_not_run(mc_runner *run, const mc_case_file *f, int from) {
  for (int i = from; i < f->n_cases; i++)
    run->not_run += mc_case_selected(&f->cases[i], &run->filter);
}

/* A file that did not load, or that check-cases would refuse (why: heap,
   owned by the report now); with fail_fast it stops the run. */
static void record_invalid_file(mc_runner *run, const char *path, char *why) {
  mc_run_report *r = run->report;
  r->load_errors =
      mc_realloc_or_abort(r->load_errors, (size_t)(r->n_load_errors + 1) * sizeof(char *));
  r->load_errors[r->n_load_errors++] = why;
  if (run->fail_fast)
    r->stopped_early = mc_strdupf("stopped early: %s is not a valid case file (--fail-fast)", path);
}

/* Runs the selected cases of f, checking the stop limits before each. */
static void run_cases(mc_runner *run, const mc_case_file *f, const char *path) {
  for (int i = 0; i < f->n_cases; i++) {
    if (!mc_case_selected(&f->cases[i], &run->filter))
      continue;
    if (stopped(run)) {
      count_not_run(run, f, i);
      return;
    }
    const mc_case_result *res = mc_run_case(run, &f->cases[i], path);
    if (run->observe)
      run->observe(run->observer_ctx, run->report, res);
  }
}

bool mc_run_file(mc_runner *run, const char *path) {
  mc_case_file f;
  char err[1024];
  if (run->started == 0)
    run->started = mc_now_seconds();
  bool was_stopped = run->report->stopped_early != NULL;
  if (!mc_case_file_load(path, &f, err, sizeof err)) {
    if (!was_stopped) /* a file not run is not reported */
      record_invalid_file(run, path, mc_strdupf("%s", err));
    return run->report->stopped_early == NULL;
  }
  char *problems = was_stopped ? NULL : mc_runner_file_problems(run, &f);
  if (problems) { /* none of its cases runs, as when it does not load */
    record_invalid_file(run, path, problems);
    mc_case_file_free(&f);
    return run->report->stopped_early == NULL;
  }
  run->file = &f;
  run->file_path = path;
  if (was_stopped)
    count_not_run(run, &f, 0);
  else
    run_cases(run, &f, path);
  run->file = NULL;
  run->file_path = NULL;
  mc_case_file_free(&f);
  return run->report->stopped_early == NULL;
}

void mc_runner_finish(mc_runner *run) {
  mc_impl_result late;
  memset(&late, 0, sizeof late);
  if (run->impl->settle && run->impl->settle(run->impl, &late) && late.blame_call)
    charge_blamed_call(run, &late);
  mc_tensor_free(&late.output);
  char *reason = run->report->stopped_early;
  if (reason) {
    run->report->stopped_early = mc_strdupf("%s; %ld selected %s did not run", reason, run->not_run,
                                            plural(run->not_run, "case", "cases"));
    free(reason);
  }
}

void mc_runner_free(mc_runner *run) {
  mc_case_ids_free(run->case_ids);
  run->case_ids = NULL;
  free(run->result_of_call);
  free(run->window);
  run->result_of_call = NULL;
  run->window = NULL;
  run->calls_cap = 0;
  run->n_window = run->window_cap = 0;
}

void mc_run_report_free(mc_run_report *r) {
  for (int i = 0; i < r->count; i++) {
    free(r->results[i].id);
    free(r->results[i].file);
    free(r->results[i].detail);
    free(r->results[i].expect_reason);
    free(r->results[i].inputs);
    free(r->results[i].attributes);
  }
  for (int i = 0; i < r->n_load_errors; i++)
    free(r->load_errors[i]);
  for (int i = 0; i < r->n_process_faults; i++) {
    free(r->process_faults[i].observed_in);
    free(r->process_faults[i].culprit);
    free(r->process_faults[i].detail);
  }
  free(r->results);
  free(r->load_errors);
  free(r->process_faults);
  free(r->stopped_early);
  memset(r, 0, sizeof *r);
}
