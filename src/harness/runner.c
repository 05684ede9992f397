/* Running cases: each selected case of a file through an implementation,
   judged, its expectation applied, recorded in the run's report. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "harness/harness.h"
#include "movconf/tensor.h"

static void *grown_or_abort(void *p, size_t size) {
  void *grown = realloc(p, size);
  if (!grown) {
    fputs("movconf: out of memory\n", stderr);
    abort();
  }
  return grown;
}

static mc_case_result *new_result(mc_run_report *r) {
  if (r->count == r->capacity) {
    r->capacity = r->capacity ? 2 * r->capacity : 256;
    r->results = grown_or_abort(r->results, (size_t)r->capacity * sizeof *r->results);
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

const mc_case_result *mc_run_case(mc_runner *run, const mc_case *c, const char *file) {
  mc_request req = mc_case_request(c);
  mc_impl_result result;
  memset(&result, 0, sizeof result);
  run->impl->run(run->impl, &req, &result);
  mc_case_result *res = new_result(run->report);
  res->verdict = mc_judge(c, run->impl, &result, &res->detail);
  res->rejection = mc_judge_rejection(run->impl, &result);
  mc_tensor_free(&result.output);
  res->id = mc_strdupf("%s", c->id);
  res->file = mc_strdupf("%s", file);
  res->op = c->op;
  res->data_type = c->n_inputs > 0 ? c->inputs[0].tensor.type : MC_TYPE_INVALID;
  mc_expectation *x = run->expectations ? mc_expectations_match(run->expectations, c->id) : NULL;
  if (x)
    x->matched++;
  mc_expect_apply(res, x);
  return res;
}

bool mc_run_file(mc_runner *run, const char *path) {
  mc_case_file f;
  char err[1024];
  mc_run_report *r = run->report;
  if (!mc_case_file_load(path, &f, err, sizeof err)) {
    r->load_errors =
        grown_or_abort(r->load_errors, (size_t)(r->n_load_errors + 1) * sizeof(char *));
    r->load_errors[r->n_load_errors++] = mc_strdupf("%s", err);
    return !run->fail_fast;
  }
  bool go_on = true;
  for (int i = 0; i < f.n_cases && go_on; i++) {
    if (!mc_case_selected(&f.cases[i], &run->filter))
      continue;
    const mc_case_result *res = mc_run_case(run, &f.cases[i], path);
    if (run->observe)
      run->observe(run->observer_ctx, r, res);
    go_on = !run->fail_fast || !mc_case_result_is_problem(res);
  }
  mc_case_file_free(&f);
  return go_on;
}

void mc_run_report_free(mc_run_report *r) {
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
  memset(r, 0, sizeof *r);
}
