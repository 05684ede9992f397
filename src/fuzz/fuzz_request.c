/* Owned requests for `movconf fuzz`, judged against the oracle: see
   fuzz_request.h. */
#include "fuzz/fuzz_request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/payload.h"
#include "common/clock.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"

static bool copy_tensor(const mc_tensor *from, mc_tensor *to) {
  if (mc_tensor_alloc(to, from->type, from->rank, from->shape, (size_t)-1) != MC_OK)
    return false;
  if (from->nbytes)
    memcpy(to->data, from->data, from->nbytes);
  return true;
}

void mc_owned_request_link(mc_owned_request *r) {
  for (int i = 0; i < r->req.n_inputs; i++)
    r->req.inputs[i] = &r->tensors[i];
  for (int i = 0; i < MC_ATTR_COUNT; i++)
    if (mc_attr_kind_of((mc_attr)i) == MC_ATTR_KIND_STRING)
      mc_attrs_set_string(&r->req.attrs, (mc_attr)i, r->strings[i]);
}

bool mc_owned_request_copy(const mc_request *req, size_t max_output_bytes, mc_owned_request *out) {
  memset(out, 0, sizeof *out);
  out->req.op = req->op;
  out->req.n_inputs = req->n_inputs;
  out->req.attrs = req->attrs;
  out->data_fill = MC_PAYLOAD_HEX;
  out->max_output_bytes = max_output_bytes;
  bool ok = true;
  for (int i = 0; i < req->n_inputs && ok; i++)
    ok = copy_tensor(req->inputs[i], &out->tensors[i]);
  for (int i = 0; i < MC_ATTR_COUNT && ok; i++) {
    if (mc_attr_kind_of((mc_attr)i) != MC_ATTR_KIND_STRING)
      continue;
    const char *s = mc_attrs_string(&req->attrs, (mc_attr)i);
    ok = !s || (out->strings[i] = strdup(s)) != NULL;
  }
  if (!ok) {
    mc_owned_request_free(out);
    return false;
  }
  mc_owned_request_link(out);
  return true;
}

void mc_owned_request_free(mc_owned_request *r) {
  for (int i = 0; i < MC_MAX_INPUTS; i++)
    if (r->tensors[i].data)
      mc_tensor_free(&r->tensors[i]);
  for (int i = 0; i < MC_ATTR_COUNT; i++)
    free(r->strings[i]);
  memset(r, 0, sizeof *r);
}

bool mc_owned_request_set_data(mc_owned_request *r, mc_type type, int rank, const int64_t *shape,
                               int64_t start) {
  mc_tensor data;
  /* Limited as the largest data a request has, not by the output cap: a
     cap of a few bytes (a failure of MC-L4) must not stop its data
     changing while it shrinks (issue 39). */
  if (mc_tensor_alloc(&data, type, rank, shape, MC_DEFAULT_MAX_OUTPUT_BYTES) != MC_OK)
    return false;
  mc_fill_counter(&data, mc_tensor_elements(&data), start);
  if (r->tensors[0].data)
    mc_tensor_free(&r->tensors[0]);
  r->tensors[0] = data;
  r->data_fill = MC_PAYLOAD_FILL_COUNTER;
  r->fill_start = start;
  mc_owned_request_link(r);
  return true;
}

void mc_fuzz_case_make(const mc_owned_request *r, mc_fuzz_case *out) {
  memset(out, 0, sizeof *out);
  mc_case *c = &out->c;
  c->id = "fuzz";
  c->origin = "movconf fuzz";
  c->op = r->req.op;
  c->n_inputs = r->req.n_inputs;
  c->attrs = r->req.attrs;
  for (int i = 0; i < r->req.n_inputs; i++) {
    c->inputs[i].tensor = r->tensors[i];
    c->inputs[i].kind = i == 0 ? r->data_fill : MC_PAYLOAD_HEX;
    c->inputs[i].fill_start = i == 0 ? r->fill_start : 0;
  }
  mc_error err;
  out->oracle_status = mc_oracle_run(&r->req, r->max_output_bytes, &c->expected.tensor, &err);
  out->oracle_clause = out->oracle_status != MC_OK ? err.clause : NULL;
  c->expect_error = out->oracle_status != MC_OK;
  c->expected_error = out->oracle_status;
  c->expected.kind = MC_PAYLOAD_HEX;
}

void mc_fuzz_case_free(mc_fuzz_case *fc) {
  if (fc->c.expected.tensor.data)
    mc_tensor_free(&fc->c.expected.tensor);
  memset(fc, 0, sizeof *fc);
}

/* Whether most elements that differ from the oracle's were never written:
   they held the output buffer's fill in both calls (mc_second_fill_run). */
static bool has_unwritten(const mc_impl_result *r, const mc_tensor *want) {
  const mc_tensor *got = &r->output;
  if (got->type != want->type || got->nbytes != want->nbytes || !got->data)
    return false;
  mc_differences d = mc_count_differences(want, mc_differing_output(want, r), r);
  return d.unwritten > d.differing - d.unwritten;
}

/* Calls impl on req as the MC_FUZZ_MAX_BLAMES-th call at most: a late
   fault of an earlier call that arrives instead of this call's answer is
   kept in *o (the first one) and the call made again in a fresh process,
   as the runner does (spec/runner.md, "Faults that surface later"). */
static void call_for_own_answer(mc_impl *impl, const mc_request *req, mc_impl_result *res,
                                mc_fuzz_outcome *o) {
  impl->calls++;
  impl->run(impl, req, res);
  for (int k = 0; res->blame_call && k < MC_FUZZ_MAX_BLAMES; k++) {
    if (!o->blamed_call) {
      o->blamed_call = res->blame_call;
      snprintf(o->blamed_detail, sizeof o->blamed_detail, "%s", res->message);
    }
    mc_impl_result_free_outputs(res);
    memset(res, 0, sizeof *res);
    if (impl->restart)
      impl->restart(impl);
    impl->calls++;
    impl->run(impl, req, res);
  }
  if (res->blame_call) {
    res->blame_call = 0;
    res->late = false;
    snprintf(res->message, sizeof res->message,
             "no answer of its own: faults of earlier calls kept arriving instead");
  }
}

mc_verdict mc_fuzz_judge(mc_impl *impl, const mc_owned_request *r, char **detail,
                         mc_fuzz_outcome *outcome) {
  mc_fuzz_outcome o = {.verdict = MC_VERDICT_UNSUPPORTED, .output_elements = -1};
  if (mc_stop_passed(impl->options.stop_at)) {
    o.out_of_time = true;
    if (outcome)
      *outcome = o;
    return o.verdict;
  }
  mc_fuzz_case fc;
  mc_fuzz_case_make(r, &fc);
  mc_impl_result result;
  memset(&result, 0, sizeof result);
  impl->options.max_output_bytes = r->max_output_bytes; /* the oracle's cap, or verdicts differ */
  call_for_own_answer(impl, &r->req, &result, &o);
  o.verdict = mc_judge(&fc.c, impl, &result, detail);
  o.late = o.verdict == MC_VERDICT_CRASH && result.late;
  bool unanswered = false; /* the second call was cut short by --time: no cause can be told */
  if (o.verdict == MC_VERDICT_WRONG_OUTPUT) { /* which elements were unwritten, for the cause */
    mc_second_fill_run(impl, &r->req, &result);
    unanswered = mc_second_fill_wanted(impl, &result) && !result.refilled.data &&
                 mc_stop_passed(impl->options.stop_at);
    free(*detail);
    o.verdict = mc_judge(&fc.c, impl, &result, detail);
  }
  o.expected = fc.oracle_status;
  if (fc.oracle_status == MC_OK)
    o.output_elements = mc_tensor_elements(&fc.c.expected.tensor);
  o.unwritten =
      o.verdict == MC_VERDICT_WRONG_OUTPUT && has_unwritten(&result, &fc.c.expected.tensor);
  if ((o.verdict == MC_VERDICT_TIMEOUT && mc_stop_passed(impl->options.stop_at)) || unanswered) {
    const mc_fuzz_outcome blamed = o; /* an earlier call's fault still counts */
    o = (mc_fuzz_outcome){
        .verdict = MC_VERDICT_UNSUPPORTED, .output_elements = -1, .out_of_time = true};
    o.blamed_call = blamed.blamed_call;
    memcpy(o.blamed_detail, blamed.blamed_detail, sizeof o.blamed_detail);
    free(*detail);
    *detail = NULL;
  }
  mc_impl_result_free_outputs(&result);
  if (outcome)
    *outcome = o;
  mc_fuzz_case_free(&fc);
  return o.verdict;
}
