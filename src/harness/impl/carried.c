/* Whether a request can go to an isolated implementation: see carried.h. */
#include "harness/impl/carried.h"

#include <stdio.h>

#include "common/clock.h"

bool mc_impl_request_carried(const mc_request *req, const char *to_whom, mc_impl_result *r) {
  bool ok = mc_op_input_count_ok(req->op, req->n_inputs);
  for (int i = 0; ok && i < req->n_inputs; i++)
    ok = req->inputs[i] && (req->inputs[i]->data || req->inputs[i]->nbytes == 0);
  if (!ok) {
    r->outcome = MC_OUTCOME_REJECTED;
    r->status = MC_E_INVALID_ARGUMENT;
    snprintf(r->message, sizeof r->message, "malformed request: not sent to the %s", to_whom);
  }
  return ok;
}

bool mc_impl_start_cut_short(double stop_at, const char *what, mc_impl_result *r) {
  if (!mc_stop_passed(stop_at))
    return false;
  r->outcome = MC_OUTCOME_TIMEOUT;
  snprintf(r->message, sizeof r->message,
           "the %s was still starting when the time allowed (--time) ran out", what);
  return true;
}
