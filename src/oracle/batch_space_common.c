/* The clauses BatchToSpace-2 and SpaceToBatch-2 share (batch_space_common.h).
   Clauses: spec/batch_to_space_2.md, spec/space_to_batch_2.md. */
#include "oracle/batch_space_common.h"

#include "common/error.h"
#include "movconf/tensor.h"

mc_status mc_oracle_batch_space_shared(const mc_request *req, const mc_batch_space_clauses *cl,
                                       mc_side_values *sv, mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  const int n = data->rank;
  if (n < 2)
    return mc_fail(err, MC_E_DATA_RANK, cl->rank, "data has rank %d; at least 2 is required", n);
  for (int k = 1; k < 4; k++)
    if (!mc_type_is_side_integer(req->inputs[k]->type))
      return mc_fail(err, MC_E_SIDE_INPUT_TYPE, cl->type,
                     "%s has type %s; an integer type is required", mc_op_input_name(req->op, k),
                     mc_type_name(req->inputs[k]->type));
  for (int k = 1; k < 4; k++)
    if (req->inputs[k]->rank != 1)
      return mc_fail(err, MC_E_SIDE_INPUT_RANK, cl->side_rank, "%s has rank %d; it must be 1-D",
                     mc_op_input_name(req->op, k), req->inputs[k]->rank);
  for (int k = 1; k < 4; k++)
    if (req->inputs[k]->shape[0] != n)
      return mc_fail(err, MC_E_SIDE_INPUT_LENGTH, cl->length,
                     "%s has %lld elements; the data rank is %d", mc_op_input_name(req->op, k),
                     (long long)req->inputs[k]->shape[0], n);
  int64_t *dest[4] = {NULL, sv->block, sv->begin, sv->end};
  for (int k = 1; k < 4; k++)
    for (int i = 0; i < n; i++)
      if (!mc_side_value(req->inputs[k], i, &dest[k][i]))
        return mc_fail(err, MC_E_VALUE_OUT_OF_RANGE, "MC-L2", "%s[%d] is above INT64_MAX",
                       mc_op_input_name(req->op, k), i);
  for (int i = 0; i < n; i++)
    if (sv->block[i] < 1)
      return mc_fail(err, MC_E_BLOCK_BELOW_ONE, cl->block_min,
                     "block_shape[%d] is %lld; it must be >= 1", i, (long long)sv->block[i]);
  if (sv->block[0] != 1)
    return mc_fail(err, MC_E_BLOCK_FIRST_NOT_ONE, cl->block_first,
                   "block_shape[0] is %lld; it must be 1", (long long)sv->block[0]);
  return MC_OK;
}

mc_status mc_oracle_batch_space_amounts(const mc_request *req, const mc_side_values *sv,
                                        mc_status negative, const char *negative_clause,
                                        mc_status first, const char *first_clause, mc_error *err) {
  const int n = req->inputs[0]->rank;
  const int64_t *amounts[2] = {sv->begin, sv->end};
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < n; i++)
      if (amounts[k][i] < 0)
        return mc_fail(err, negative, negative_clause, "%s[%d] is %lld; it must be >= 0",
                       mc_op_input_name(req->op, k + 2), i, (long long)amounts[k][i]);
  for (int k = 0; k < 2; k++)
    if (amounts[k][0] != 0)
      return mc_fail(err, first, first_clause, "%s[0] is %lld; it must be 0",
                     mc_op_input_name(req->op, k + 2), (long long)amounts[k][0]);
  return MC_OK;
}
