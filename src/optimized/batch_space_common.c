/* The validation BatchToSpace-2 and SpaceToBatch-2 share
   (batch_space_common.h), in the order of spec/check-order.md. */
#include "optimized/batch_space_common.h"

#include "common/error.h"
#include "movconf/tensor.h"

/* V2, V3, V4: each clause over the three side inputs before the next clause. */
static mc_status check_side_inputs_form(const mc_request *req, int n, const mc_batch_space_rules *r,
                                        mc_error *err) {
  for (int i = 1; i <= 3; i++)
    if (!mc_type_is_side_integer(req->inputs[i]->type))
      return mc_fail(err, MC_E_SIDE_INPUT_TYPE, r->v2, "%s has type %s, not a side-input integer",
                     mc_op_input_name(req->op, i), mc_type_name(req->inputs[i]->type));
  for (int i = 1; i <= 3; i++)
    if (req->inputs[i]->rank != 1)
      return mc_fail(err, MC_E_SIDE_INPUT_RANK, r->v3, "%s has rank %d, it must be 1-D",
                     mc_op_input_name(req->op, i), req->inputs[i]->rank);
  for (int i = 1; i <= 3; i++)
    if (req->inputs[i]->shape[0] != n)
      return mc_fail(err, MC_E_SIDE_INPUT_LENGTH, r->v4,
                     "%s has %lld values; data has %d axes, one value each",
                     mc_op_input_name(req->op, i), (long long)req->inputs[i]->shape[0], n);
  return MC_OK;
}

/* MC-L2: every value of the three side inputs, in input then index order. */
static mc_status read_side_inputs(const mc_request *req, int n, mc_opt_plan *plan, mc_error *err) {
  int64_t *dest[3] = {plan->block, plan->begin, plan->end};
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < n; k++)
      if (!mc_side_value(req->inputs[i + 1], k, &dest[i][k]))
        return mc_fail(err, MC_E_VALUE_OUT_OF_RANGE, "MC-L2", "%s[%d] is above INT64_MAX",
                       mc_op_input_name(req->op, i + 1), k);
  return MC_OK;
}

/* V5 to V8 on the values just read. */
static mc_status check_side_values(const mc_opt_plan *plan, const mc_batch_space_rules *r,
                                   mc_error *err) {
  int n = plan->rank;
  for (int k = 0; k < n; k++)
    if (plan->block[k] < 1)
      return mc_fail(err, MC_E_BLOCK_BELOW_ONE, r->v5, "block_shape[%d] = %lld is below 1", k,
                     (long long)plan->block[k]);
  if (plan->block[0] != 1)
    return mc_fail(err, MC_E_BLOCK_FIRST_NOT_ONE, r->v6,
                   "block_shape[0] = %lld; the batch axis takes no block",
                   (long long)plan->block[0]);
  const int64_t *lists[2] = {plan->begin, plan->end};
  const char *sides[2] = {"begin", "end"};
  for (int s = 0; s < 2; s++)
    for (int k = 0; k < n; k++)
      if (lists[s][k] < 0)
        return mc_fail(err, r->negative, r->v7, "%ss_%s[%d] = %lld is negative", r->offset_name,
                       sides[s], k, (long long)lists[s][k]);
  for (int s = 0; s < 2; s++)
    if (lists[s][0] != 0)
      return mc_fail(err, r->first_not_zero, r->v8, "%ss_%s[0] = %lld; the batch axis keeps 0",
                     r->offset_name, sides[s], (long long)lists[s][0]);
  return MC_OK;
}

/* Everything both operations check before their own arithmetic. */
mc_status mc_opt_check_batch_space(const mc_request *req, mc_opt_plan *plan,
                                   const mc_batch_space_rules *r, mc_error *err) {
  if (plan->rank < 2)
    return mc_fail(err, MC_E_DATA_RANK, r->v1, "data has rank %d; at least 2 is needed",
                   plan->rank);
  mc_status s = check_side_inputs_form(req, plan->rank, r, err);
  if (s == MC_OK)
    s = read_side_inputs(req, plan->rank, plan, err);
  if (s == MC_OK)
    s = check_side_values(plan, r, err);
  return s;
}
