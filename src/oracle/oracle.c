/* Entry point of the literal oracle: request well-formedness, the common
   clauses MC-T1 and MC-L1, then the operation. */
#include "movconf/oracle.h"

#include <string.h>

#include "common/error.h"
#include "movconf/tensor.h"
#include "oracle/oracle_ops.h"

typedef mc_status (*oracle_fn)(const mc_request *, size_t, mc_tensor *, mc_error *);

/* A row per operation of movconf/op_list.h, mc_oracle_<slug>: an
   operation whose file lacks it fails the link ("undefined reference to
   mc_oracle_<slug>"). */
static const oracle_fn oracle_by_op[] = {
#define MC_OP(NAME, slug) [MC_OP_##NAME] = mc_oracle_##slug,
#include "movconf/op_list.h"
#undef MC_OP
};
_Static_assert(sizeof oracle_by_op / sizeof oracle_by_op[0] == MC_OP_COUNT,
               "oracle_by_op: a row per operation");

bool mc_oracle_has_op(mc_op op) {
  return (int)op >= 0 && op < MC_OP_COUNT && oracle_by_op[op] != NULL;
}

/* A tensor the caller hands in must describe itself consistently; this is
   API misuse, not a specification clause. */
static mc_status check_tensor_form(const mc_tensor *t, const char *name, mc_error *err) {
  if (!t)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "input %s is missing", name);
  if (t->rank < 0 || t->rank > MC_TENSOR_MAX_RANK)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "input %s has rank %d", name, t->rank);
  int64_t count;
  if (!mc_shape_elements(t->rank, t->shape, &count))
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL,
                   "input %s has a negative dimension or too many elements", name);
  size_t bytes;
  if (mc_type_get(t->type) && (!mc_storage_bytes(t->type, count, &bytes) || bytes != t->nbytes))
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL,
                   "input %s: nbytes %zu does not match its type and shape", name, t->nbytes);
  if (!t->data && t->nbytes > 0)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "input %s has no data", name);
  return MC_OK;
}

static mc_status check_request_form(const mc_request *req, mc_error *err) {
  if (req->op < 0 || req->op >= MC_OP_COUNT)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "unknown operation %d", (int)req->op);
  int most = mc_op_input_count(req->op), least = mc_op_required_input_count(req->op);
  if (req->n_inputs < least || req->n_inputs > most)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "%s takes %d to %d inputs, got %d",
                   mc_op_name(req->op), least, most, req->n_inputs);
  for (int i = 0; i < req->n_inputs; i++) {
    mc_status s = check_tensor_form(req->inputs[i], mc_op_input_name(req->op, i), err);
    if (s != MC_OK)
      return s;
  }
  return MC_OK;
}

static mc_status check_common_clauses(const mc_request *req, mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  if (!mc_type_get(data->type))
    return mc_fail(err, MC_E_UNSUPPORTED_TYPE, "MC-T1", "data element type %d is not supported",
                   (int)data->type);
  for (int i = 0; i < req->n_inputs; i++)
    if (req->inputs[i]->rank > MC_MAX_RANK)
      return mc_fail(err, MC_E_RANK_LIMIT, "MC-L1", "input %s has rank %d; the limit is %d",
                     mc_op_input_name(req->op, i), req->inputs[i]->rank, MC_MAX_RANK);
  return MC_OK;
}

mc_status mc_oracle_run(const mc_request *req, size_t max_output_bytes, mc_tensor *out,
                        mc_error *err) {
  mc_error_clear(err);
  if (!out)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "no output tensor given");
  memset(out, 0, sizeof *out);
  if (!req)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "no request given");
  mc_status s = check_request_form(req, err);
  if (s == MC_OK)
    s = check_common_clauses(req, err);
  if (s == MC_OK)
    s = oracle_by_op[req->op](req, max_output_bytes, out, err);
  if (s != MC_OK)
    mc_tensor_free(out);
  return s;
}

/* The marks mc_oracle_output_shape leaves in its output tensor's
   allocation (never freed: the tensor holds no data): asked, the operation
   is to stop at its output's allocation; given, it did, with the shape. */
static char shape_asked, shape_given;

/* MC-L3 and MC-L4 on an output that is not allocated, as mc_tensor_alloc
   checks them. */
static mc_status output_fits(mc_type type, int rank, const int64_t *shape, size_t cap) {
  int64_t count;
  size_t bytes;
  if (!mc_shape_elements(rank, shape, &count) || !mc_storage_bytes(type, count, &bytes))
    return MC_E_SHAPE_OVERFLOW;
  return bytes > cap ? MC_E_OUTPUT_TOO_LARGE : MC_OK;
}

mc_status mc_oracle_alloc_output(mc_tensor *out, mc_type type, int rank, const int64_t *shape,
                                 size_t cap, mc_error *err) {
  bool shape_only = out->allocation == &shape_asked;
  mc_status s = shape_only ? output_fits(type, rank, shape, cap)
                           : mc_tensor_alloc(out, type, rank, shape, cap);
  switch (s) {
  case MC_OK:
    break;
  case MC_E_SHAPE_OVERFLOW:
    return mc_fail(err, s, "MC-L3", "the output element count overflows int64");
  case MC_E_OUTPUT_TOO_LARGE:
    return mc_fail(err, s, "MC-L4", "the output exceeds the cap of %zu bytes", cap);
  default:
    return mc_fail(err, s, NULL, "cannot allocate the output");
  }
  if (!shape_only)
    return MC_OK;
  *out = (mc_tensor){.type = type, .rank = rank, .allocation = &shape_given};
  memcpy(out->shape, shape, (size_t)rank * sizeof *shape);
  return MC_E_INVALID_ARGUMENT; /* any status but MC_OK: the operation stops before its steps */
}

mc_status mc_oracle_output_shape(const mc_request *req, size_t max_output_bytes, mc_type *type,
                                 int *rank, int64_t *shape, mc_error *err) {
  mc_error_clear(err);
  if (!req)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "no request given");
  mc_tensor out = {.allocation = &shape_asked};
  mc_status s = check_request_form(req, err);
  if (s == MC_OK)
    s = check_common_clauses(req, err);
  if (s == MC_OK)
    s = oracle_by_op[req->op](req, max_output_bytes, &out, err);
  if (out.allocation != &shape_given)
    return s == MC_OK ? mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "no output shape given") : s;
  mc_error_clear(err);
  *type = out.type;
  *rank = out.rank;
  memcpy(shape, out.shape, (size_t)out.rank * sizeof *shape);
  return MC_OK;
}
