/* Whether a request can go to an isolated implementation: see carried.h. */
#include "harness/impl/carried.h"

#include <stdio.h>

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
