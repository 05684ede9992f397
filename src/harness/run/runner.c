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
#include "harness/internal.h"
#include "movconf/tensor.h"

/* Looking for the culprit of a process fault by re-running the cases the
   process served: the last REPLAY_MAX_CASES of them at most, at most
   CULPRIT_SEARCH_CALLS calls in all, and no new attempt once
   CULPRIT_SEARCH_SECONDS have gone. */
#define REPLAY_MAX_CASES 500
#define CULPRIT_SEARCH_CALLS 2000L
#define CULPRIT_SEARCH_SECONDS 30.0
/* Late faults blamed in a row before the runner gives the case up. */
#define MAX_BLAMES_PER_CASE 4

mc_case_result *mc_report_new_result(mc_run_report *r) {
  if (r->count == r->capacity) {
    r->capacity = r->capacity ? 2 * r->capacity : 256;
    r->results = mc_realloc_or_abort(r->results, (size_t)r->capacity * sizeof *r->results);
  }
  mc_case_result *res = &r->results[r->count++];
  memset(res, 0, sizeof *res);
  return res;
}

static bool id_matches_a_glob(const char *id, const mc_case_filter *f) {
  for (int i = 0; i < f->n_case_globs; i++)
    if (fnmatch(f->case_globs[i], id, 0) == 0)
      return true;
  return f->n_case_globs == 0;
}

bool mc_case_selected(const mc_case *c, const mc_case_filter *f) {
  if (f->op >= 0 && (int)c->op != f->op)
    return false;
  if (f->type != MC_TYPE_INVALID && (c->n_inputs < 1 || (int)c->inputs[0].tensor.type != f->type))
    return false;
  if (!id_matches_a_glob(c->id, f))
    return false;
  return !f->keep || f->keep(f->keep_ctx, c);
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
   result_index (-1: to no case), under the case's own output cap when it
   has one: its expectation depends on it (spec/case-format.md, section 3). */
static void call_impl(mc_runner *run, const mc_case *c, int result_index, mc_impl_result *r) {
  mc_request req = mc_request_of_case(c);
  memset(r, 0, sizeof *r);
  run->impl->calls++;
  remember_call(run, run->impl->calls, result_index);
  const size_t run_cap = run->impl->options.max_output_bytes;
  if (c->has_cap)
    run->impl->options.max_output_bytes = c->max_output_bytes;
  run->impl->run(run->impl, &req, r);
  run->impl->options.max_output_bytes = run_cap;
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
void mc_runner_tally(mc_runner *run, const mc_case_result *res, int sign) {
  run->n_problems += sign * mc_case_result_is_problem(res);
  run->n_timeouts += sign * (res->verdict == MC_VERDICT_TIMEOUT);
}

/* Gives an already recorded case a crash verdict it earned after the fact. */
static void charge_crash(mc_runner *run, int index, const char *detail) {
  mc_case_result *res = &run->report->results[index];
  mc_runner_tally(run, res, -1);
  free(res->detail);
  free(res->expect_reason);
  res->expect_reason = NULL;
  res->verdict = MC_VERDICT_CRASH;
  res->rejection = MC_REJECTION_NONE;
  free(res->picture); /* pictured an output that no longer decides the verdict */
  res->picture = NULL;
  res->detail = mc_strdupf("%s", detail);
  mc_expect_apply(res, expectation_of(run, res->id));
  mc_runner_tally(run, res, +1);
  if (run->charged)
    run->charged(run->charged_ctx, index);
}

static void charge_blamed_call(mc_runner *run, const mc_impl_result *r) {
  int index = result_of_call(run, r->blame_call);
  if (index >= 0 && index < run->report->count) /* not the case being run */
    charge_crash(run, index, r->message);
}

void mc_report_add_process_fault(mc_run_report *report, const char *observed_in,
                                 const char *culprit, char *detail) {
  report->process_faults = mc_realloc_or_abort(
      report->process_faults, (size_t)(report->n_process_faults + 1) * sizeof(mc_process_fault));
  report->process_faults[report->n_process_faults++] =
      (mc_process_fault){.observed_in = mc_strdupf("%s", observed_in),
                         .culprit = culprit ? mc_strdupf("%s", culprit) : NULL,
                         .detail = detail};
}

/* ---- re-running earlier cases ---- */

/* A re-run of the cases a process served before c crashed in it, each
   attempt in a fresh process, within a budget of calls and time. */
typedef struct replay {
  mc_runner *run;
  const mc_case *c;
  const mc_case **cases; /* the suspects' cases, in the order they ran */
  int *suspects;         /* their report indices */
  int n;
  mc_case_file *loaded; /* other files their cases came from */
  int n_loaded;
  long calls_left;
  double deadline;
  bool exhausted; /* an attempt did not fit the budget */
} replay;

/* The case of recorded result index: from the file being run, or from its
   own file, loaded once into p->loaded; NULL when it cannot be had. */
static const mc_case *case_of_result(replay *p, int index) {
  const mc_case_result *res = &p->run->report->results[index];
  mc_case_file *f = NULL;
  if (p->run->file && p->run->file_path && strcmp(p->run->file_path, res->file) == 0)
    f = p->run->file;
  for (int i = 0; !f && i < p->n_loaded; i++)
    if (strcmp(p->loaded[i].path, res->file) == 0)
      f = &p->loaded[i];
  if (!f) {
    mc_case_file file;
    char err[256];
    if (!mc_case_file_load(res->file, &file, err, sizeof err))
      return NULL;
    p->loaded = mc_realloc_or_abort(p->loaded, (size_t)(p->n_loaded + 1) * sizeof *p->loaded);
    p->loaded[p->n_loaded] = file;
    f = &p->loaded[p->n_loaded++];
  }
  for (int i = 0; i < f->n_cases; i++)
    if (strcmp(f->cases[i].id, res->id) == 0) /* a selection's file defers its fills */
      return mc_case_materialize(&f->cases[i]) ? &f->cases[i] : NULL;
  return NULL;
}

/* The last REPLAY_MAX_CASES cases of the window (those that can be had). */
static void replay_open(replay *p, mc_runner *run, const mc_case *c) {
  *p = (replay){.run = run, .c = c, .calls_left = CULPRIT_SEARCH_CALLS};
  p->deadline = mc_now_seconds() + CULPRIT_SEARCH_SECONDS;
  int from = run->n_window > REPLAY_MAX_CASES ? run->n_window - REPLAY_MAX_CASES : 0;
  int room = run->n_window - from;
  p->cases = mc_realloc_or_abort(NULL, (size_t)(room + 1) * sizeof *p->cases);
  p->suspects = mc_realloc_or_abort(NULL, (size_t)(room + 1) * sizeof *p->suspects);
  for (int w = from; w < run->n_window; w++) {
    const mc_case *x = case_of_result(p, run->window[w]);
    if (x) {
      p->cases[p->n] = x;
      p->suspects[p->n++] = run->window[w];
    }
  }
}

static void replay_close(replay *p) {
  for (int i = 0; i < p->n_loaded; i++)
    mc_case_file_free(&p->loaded[i]);
  free(p->loaded);
  free(p->cases);
  free(p->suspects);
}

/* Runs cases[0 .. k-1], then c, in one fresh process: true when the
   process breaks (a crash, or a fault blaming an earlier call). False when
   it does not, or a call times out (the process is then gone), or the
   attempt does not fit the budget (p->exhausted then says so). */
static bool replay_breaks(replay *p, const mc_case *const *cases, int k) {
  if (k + 1 > p->calls_left) {
    p->exhausted = true;
    return false;
  }
  restart_impl(p->run);
  bool broke = false, timed_out = false;
  for (int i = 0; i <= k && !broke && !timed_out; i++) {
    if (mc_now_seconds() > p->deadline) {
      p->exhausted = true;
      return false;
    }
    mc_impl_result r;
    call_impl(p->run, i < k ? cases[i] : p->c, -1, &r);
    p->calls_left--;
    broke = r.outcome == MC_OUTCOME_CRASH || r.blame_call != 0;
    timed_out = r.outcome == MC_OUTCOME_TIMEOUT;
    mc_tensor_free(&r.output);
  }
  return broke;
}

/* The suspect (position in p) that breaks the process for c, or -1 with
   why none in *why: the last case of the shortest run of suspects after
   which c crashes again, found by bisection, charged only when it alone
   before c makes c crash, and when c twice does not (a crash that any
   case before c brings out, c itself included, is no other case's). */
static int bisect_culprit(replay *p, const char **why) {
  *why = "the search ran out of its time or call budget";
  if (replay_breaks(p, &p->c, 1)) {
    *why = "it crashes when run twice in a fresh process, so no earlier case is needed";
    return -1;
  }
  if (!replay_breaks(p, p->cases, p->n)) {
    if (!p->exhausted)
      *why = "the crash did not happen again when these cases were re-run in a fresh process";
    return -1;
  }
  int passes = 0, breaks = p->n; /* c after the first `passes` cases passes alone */
  while (breaks - passes > 1 && !p->exhausted) {
    int mid = passes + (breaks - passes) / 2;
    if (replay_breaks(p, p->cases, mid))
      breaks = mid;
    else
      passes = mid;
  }
  if (p->exhausted)
    return -1;
  if (breaks == 1 || replay_breaks(p, &p->cases[breaks - 1], 1))
    return breaks - 1;
  if (!p->exhausted)
    *why = "the crash needs several of these cases together";
  return -1;
}

/* "a, b, c" of the ids of the suspects at positions [0, n) of p. */
static char *suspect_list(const replay *p, int n) {
  mc_text t = {0};
  for (int k = 0; k < n; k++)
    mc_text_printf(&t, "%s%s", k ? ", " : "", p->run->report->results[p->suspects[k]].id);
  char *list = mc_strdupf("%s", t.p ? t.p : "");
  mc_text_free(&t);
  return list;
}

/* Records the process fault c's crash (text crash) was, charging the
   culprit the search found, if any. */
static void record_process_fault(mc_runner *run, const mc_case *c, const char *crash) {
  replay p;
  replay_open(&p, run, c);
  char *list = suspect_list(&p, p.n);
  const char *why;
  int culprit = bisect_culprit(&p, &why);
  restart_impl(run); /* the next case starts clean, whatever the search left */
  const char *culprit_id = culprit >= 0 ? run->report->results[p.suspects[culprit]].id : NULL;
  char *detail = mc_strdupf(
      "the implementation's process crashed during %s (%s), which does not crash alone in a "
      "fresh process; suspects: the cases since the last fresh start (%s); %s%s%s%s",
      c->id, crash, list, culprit_id ? "culprit: " : "no single culprit found (",
      culprit_id ? culprit_id : why, culprit_id ? "" : ")",
      culprit_id ? ", found by re-running those cases in fresh processes" : "");
  if (culprit_id) {
    char *charged = mc_strdupf("broke the implementation's process: %s crashed after it (%s) but "
                               "not alone, and crashes again when run right after this case in a "
                               "fresh process",
                               c->id, crash);
    charge_crash(run, p.suspects[culprit], charged);
    free(charged);
  }
  mc_report_add_process_fault(run->report, c->id, culprit_id, detail);
  free(list);
  replay_close(&p);
}

/* c crashed in a process that had served the window's cases: runs it alone
   in a fresh process. When it crashes there too the crash is its own;
   otherwise *r becomes its result alone and the crash a process fault of
   the window, charged to the culprit when one is found. */
static void check_crash_alone(mc_runner *run, const mc_case *c, int index, mc_impl_result *r) {
  char crash[sizeof r->message];
  snprintf(crash, sizeof crash, "%s", r->message);
  mc_impl_result alone;
  int n_window = run->n_window;
  restart_impl(run);
  /* In a process ended after it (and waited for): what the case leaves
     behind, such as a copy it forked returning late, is its crash alone
     too, as it was in the shared process. */
  bool fresh = run->impl->options.fresh_process_per_case;
  run->impl->options.fresh_process_per_case = true;
  call_impl(run, c, index, &alone);
  run->impl->options.fresh_process_per_case = fresh;
  if (alone.outcome == MC_OUTCOME_CRASH || alone.outcome == MC_OUTCOME_TIMEOUT ||
      alone.blame_call) {
    mc_tensor_free(&alone.output);
    return; /* its own crash (or no clean answer alone): the verdict stands */
  }
  mc_tensor_free(&r->output);
  *r = alone;
  run->n_window = n_window; /* the suspects, for the search */
  record_process_fault(run, c, crash);
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

/* When the output holds movconf's fill somewhere, the same call again into
   a buffer of the second fill (mc_second_fill_wanted): only then is an
   element known unwritten, and one the implementation left where the
   expected value is the first fill fails. A late fault the second call
   brings is charged as any other; its output is then not kept. */
static void second_fill_for(mc_runner *run, const mc_case *c, int index, mc_impl_result *r) {
  if (!mc_second_fill_wanted(run->impl, r))
    return;
  mc_impl_result second;
  run->impl->options.second_fill = true;
  call_impl(run, c, index, &second);
  run->impl->options.second_fill = false;
  if (second.blame_call && result_of_call(run, second.blame_call) == index) {
    mc_tensor_free(&r->output); /* the first call wrote after returning: this case's crash */
    r->outcome = MC_OUTCOME_CRASH;
    snprintf(r->message, sizeof r->message, "%s", second.message);
  } else if (second.blame_call) {
    charge_blamed_call(run, &second);
  }
  if (second.blame_call) {
    restart_impl(run);
    second.outcome = MC_OUTCOME_CRASH;
  }
  mc_second_fill_keep(r, &second);
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

/* "D2S-S1, D2S-S2" (heap). */
static char *clauses_text(const mc_case *c) {
  mc_text t = {0};
  for (int i = 0; i < c->n_clauses; i++)
    mc_text_printf(&t, "%s%s", i ? ", " : "", c->clauses[i]);
  char *text = mc_strdupf("%s", t.p && !t.oom ? t.p : "");
  mc_text_free(&t);
  return text;
}

/* What the case is, for failure lines, grouping and --summary-by. */
void mc_describe_case(mc_case_result *res, const mc_case *c, const char *file) {
  res->id = mc_strdupf("%s", c->id);
  res->file = mc_strdupf("%s", file);
  res->op = c->op;
  res->data_type = c->n_inputs > 0 ? c->inputs[0].tensor.type : MC_TYPE_INVALID;
  res->inputs = mc_case_inputs_text(c);
  res->attributes = mc_case_attrs_text(c);
  snprintf(res->mode, sizeof res->mode, "%s", mc_case_mode(c));
  res->origin = mc_strdupf("%s", c->origin ? c->origin : "");
  res->clauses = clauses_text(c);
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
  second_fill_for(run, c, index, &result);
  double seconds = mc_now_seconds() - start;
  mc_case_result *res = mc_report_new_result(run->report);
  res->seconds = seconds;
  mc_describe_case(res, c, file);
  res->verdict = mc_judge(c, run->impl, &result, &res->detail);
  if (res->verdict == MC_VERDICT_WRONG_OUTPUT)
    res->picture = mc_judge_picture(c, &result);
  /* A rejection movconf made for an implementation that accepted the input is none of its own. */
  res->rejection = res->verdict == MC_VERDICT_MISSED_REJECTION
                       ? MC_REJECTION_NONE
                       : mc_judge_rejection(run->impl, &result);
  if (run->require_named_errors)
    require_named_error(res, c);
  mc_impl_result_free_outputs(&result);
  mc_expectation *x = expectation_of(run, c->id);
  if (x)
    x->matched++;
  mc_expect_apply(res, x);
  mc_runner_tally(run, res, +1);
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
bool mc_runner_stopped(mc_runner *run) {
  if (run->report->stopped_early)
    return true;
  char *reason = stop_reason(run);
  if (!reason)
    return false;
  run->report->stopped_early = mc_strdupf("stopped early: %s", reason);
  free(reason);
  return true;
}

void mc_runner_count_not_run(mc_runner *run, const mc_case_file *f, int from) {
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
    if (mc_runner_stopped(run)) {
      mc_runner_count_not_run(run, f, i);
      return;
    }
    const mc_case_result *res = mc_run_case(run, &f->cases[i], path);
    if (run->observe)
      run->observe(run->observer_ctx, run->report, res);
  }
}

bool mc_runner_take_file(mc_runner *run, const mc_selection_file *f) {
  if (run->started == 0)
    run->started = mc_now_seconds();
  bool was_stopped = run->report->stopped_early != NULL;
  if (f->error) {
    if (!was_stopped) /* a file not run is not reported */
      record_invalid_file(run, f->path, mc_strdupf("%s", f->error));
    return false;
  }
  char *problems = was_stopped ? NULL : mc_runner_file_problems(run, &f->file);
  if (problems) { /* none of its cases runs, as when it does not load */
    record_invalid_file(run, f->path, problems);
    return false;
  }
  if (was_stopped)
    mc_runner_count_not_run(run, &f->file, 0);
  return !was_stopped;
}

/* Makes the large fills of f's selected cases, or none (false): a --case
   that selects one case of a large file makes no fill of the others. */
static bool materialize_file(mc_case_file *f, const mc_case_filter *filter) {
  for (int i = 0; i < f->n_cases; i++)
    if (mc_case_selected(&f->cases[i], filter) && !mc_case_materialize(&f->cases[i]))
      return false;
  return true;
}

bool mc_run_selected_file(mc_runner *run, mc_selection_file *f) {
  if (!mc_runner_take_file(run, f))
    return run->report->stopped_early == NULL;
  if (!materialize_file(&f->file, &run->filter)) { /* as a file whose fills do not fit at load */
    record_invalid_file(run, f->path, mc_strdupf("%s: out of memory for its fills", f->path));
  } else {
    run->file = &f->file;
    run->file_path = f->path;
    run_cases(run, &f->file, f->path);
    run->file = NULL;
    run->file_path = NULL;
  }
  mc_case_file_release_fills(&f->file);
  return run->report->stopped_early == NULL;
}

bool mc_run_file(mc_runner *run, const char *path) {
  char err[1024];
  mc_selection_file f = {.path = path};
  if (!mc_case_file_load(path, &f.file, err, sizeof err))
    f.error = mc_strdupf("%s", err);
  bool going_on = mc_run_selected_file(run, &f);
  mc_case_file_free(&f.file);
  free(f.error);
  return going_on;
}

void mc_runner_close_report(mc_runner *run) {
  char *reason = run->report->stopped_early;
  if (reason) {
    run->report->stopped_early = mc_strdupf("%s; %ld selected %s did not run", reason, run->not_run,
                                            plural(run->not_run, "case", "cases"));
    free(reason);
  }
}

void mc_runner_finish(mc_runner *run) {
  mc_impl_result late;
  memset(&late, 0, sizeof late);
  if (run->impl->settle && run->impl->settle(run->impl, &late) && late.blame_call)
    charge_blamed_call(run, &late);
  mc_tensor_free(&late.output);
  mc_runner_close_report(run);
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

void mc_case_result_free(mc_case_result *res) {
  free(res->id);
  free(res->file);
  free(res->detail);
  free(res->expect_reason);
  free(res->inputs);
  free(res->attributes);
  free(res->clauses);
  free(res->origin);
  free(res->picture);
  memset(res, 0, sizeof *res);
}

void mc_run_report_free(mc_run_report *r) {
  for (int i = 0; i < r->count; i++)
    mc_case_result_free(&r->results[i]);
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
