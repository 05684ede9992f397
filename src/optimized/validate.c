/* Validation for the optimized kernels. It follows spec/check-order.md and
   computes the output shape straight from each operation's output formula
   (the O clauses), never building the literal steps' intermediates, so that
   it is an independent second reading of the spec next to the oracle. Here:
   the checks every operation shares and the table of the operations'
   validators, each in its operation's file (src/optimized/<slug>.c). */
#include <string.h>

#include "common/checked.h"
#include "common/error.h"
#include "movconf/tensor.h"
#include "optimized/plan.h"

/* ---- Check 0: the request describes itself consistently (API misuse) ---- */

static mc_status check_input_tensor(const mc_tensor *t, mc_op op, int index, mc_error *err) {
  const char *name = mc_op_input_name(op, index);
  if (!t)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "no tensor given for input %s", name);
  if (t->rank < 0 || t->rank > MC_TENSOR_MAX_RANK)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "input %s claims rank %d", name, t->rank);
  int64_t elements;
  if (!mc_shape_elements(t->rank, t->shape, &elements))
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL,
                   "input %s: a dimension is negative or the element count is not representable",
                   name);
  /* An unknown type has no storage size; MC-T1 or V2 reports it later. */
  size_t expected_bytes;
  if (mc_type_get(t->type) &&
      (!mc_storage_bytes(t->type, elements, &expected_bytes) || expected_bytes != t->nbytes))
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL,
                   "input %s: %zu bytes given, its type and shape need another size", name,
                   t->nbytes);
  if (t->nbytes > 0 && !t->data)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "input %s has bytes but no buffer", name);
  return MC_OK;
}

static mc_status check_request_shape(const mc_request *req, mc_error *err) {
  if (req->op < 0 || req->op >= MC_OP_COUNT)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "operation code %d is not known",
                   (int)req->op);
  int most = mc_op_input_count(req->op), least = mc_op_required_input_count(req->op);
  if (req->n_inputs < least || req->n_inputs > most)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "%s needs %d to %d inputs, %d were given",
                   mc_op_name(req->op), least, most, req->n_inputs);
  for (int i = 0; i < req->n_inputs; i++) {
    mc_status s = check_input_tensor(req->inputs[i], req->op, i, err);
    if (s != MC_OK)
      return s;
  }
  return MC_OK;
}

/* ---- Checks 1 and 2: MC-T1, MC-L1 ---- */

static mc_status check_type_and_ranks(const mc_request *req, mc_error *err) {
  if (!mc_type_get(req->inputs[0]->type))
    return mc_fail(err, MC_E_UNSUPPORTED_TYPE, "MC-T1", "data has unknown element type code %d",
                   (int)req->inputs[0]->type);
  for (int i = 0; i < req->n_inputs; i++)
    if (req->inputs[i]->rank > MC_MAX_RANK)
      return mc_fail(err, MC_E_RANK_LIMIT, "MC-L1", "input %s has %d axes, more than %d allowed",
                     mc_op_input_name(req->op, i), req->inputs[i]->rank, MC_MAX_RANK);
  return MC_OK;
}

mc_status mc_opt_overflow(mc_error *err, const char *what) {
  return mc_fail(err, MC_E_SHAPE_OVERFLOW, "MC-L3", "%s does not fit in int64", what);
}

/* ---- Check 6: the output's size and the cap ---- */

static mc_status check_output_size(mc_opt_plan *plan, size_t max_output_bytes, mc_error *err) {
  if (!mc_shape_elements(plan->out_rank, plan->out_shape, &plan->out_elements))
    return mc_opt_overflow(err, "the output element count");
  if (!mc_storage_bytes(plan->type, plan->out_elements, &plan->out_bytes))
    return mc_opt_overflow(err, "the output byte size");
  if (plan->out_bytes > max_output_bytes)
    return mc_fail(err, MC_E_OUTPUT_TOO_LARGE, "MC-L4",
                   "the output needs %zu bytes, over the cap of %zu", plan->out_bytes,
                   max_output_bytes);
  return MC_OK;
}

typedef mc_status (*validate_fn)(const mc_request *, mc_opt_plan *, mc_error *);

/* A row per operation of movconf/op_list.h, mc_opt_validate_<slug> (in
   src/optimized/<slug>.c): a missing one fails the link. */
static const validate_fn validators[] = {
#define MC_OP(NAME, slug) [MC_OP_##NAME] = mc_opt_validate_##slug,
#include "movconf/op_list.h"
#undef MC_OP
};
_Static_assert(sizeof validators / sizeof validators[0] == MC_OP_COUNT,
               "validators: a row per operation");

bool mc_opt_has_validator(mc_op op) {
  return (int)op >= 0 && op < MC_OP_COUNT && validators[op] != NULL;
}

mc_status mc_opt_validate(const mc_request *req, size_t max_output_bytes, mc_opt_plan *plan,
                          mc_error *err) {
  mc_error_clear(err);
  if (!plan)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "no plan to fill");
  memset(plan, 0, sizeof *plan);
  if (!req)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "no request given");
  mc_status s = check_request_shape(req, err);
  if (s == MC_OK)
    s = check_type_and_ranks(req, err);
  if (s != MC_OK)
    return s;
  const mc_tensor *data = req->inputs[0];
  plan->op = req->op;
  plan->type = data->type;
  plan->rank = data->rank;
  plan->out_rank = data->rank;
  memcpy(plan->in_shape, data->shape, (size_t)data->rank * sizeof data->shape[0]);
  plan->block_size = 1;
  s = validators[req->op](req, plan, err);
  if (s == MC_OK)
    s = check_output_size(plan, max_output_bytes, err);
  return s;
}
