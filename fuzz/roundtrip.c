/* Round-trip properties: see roundtrip.h. Each operation's are in
   fuzz/ops/<slug>.c, a row of the table below. */
#include "roundtrip.h"

#include "movconf/tensor.h"
#include "roundtrip_ops.h"

/* A row per operation of movconf/op_list.h, mc_roundtrip_<slug> in fuzz/ops/<slug>.c: an
   operation whose file lacks it fails the link. */
#define MC_OP(NAME, slug) extern const mc_roundtrip_op mc_roundtrip_##slug;
#include "movconf/op_list.h"
#undef MC_OP
static const mc_roundtrip_op *const roundtrip_ops[] = {
#define MC_OP(NAME, slug) [MC_OP_##NAME] = &mc_roundtrip_##slug,
#include "movconf/op_list.h"
#undef MC_OP
};
_Static_assert(sizeof roundtrip_ops / sizeof roundtrip_ops[0] == MC_OP_COUNT,
               "roundtrip_ops: a row per operation");

static const mc_roundtrip_op *roundtrip_op(mc_op op) {
  return (int)op >= 0 && op < MC_OP_COUNT ? roundtrip_ops[op] : NULL;
}

bool mc_roundtrip_side_all(const mc_tensor *t, int64_t v) {
  int64_t n = t->shape[0];
  for (int64_t i = 0; i < n; i++) {
    int64_t x;
    if (!mc_side_value(t, i, &x) || x != v)
      return false;
  }
  return true;
}

bool mc_roundtrip_is_identity(const mc_request *req) {
  const mc_roundtrip_op *desc = roundtrip_op(req->op);
  return desc && desc->is_identity(req);
}

bool mc_roundtrip_inverse(const mc_request *req, const mc_tensor *forward, mc_request *inv) {
  const mc_roundtrip_op *desc = roundtrip_op(req->op);
  *inv = *req;
  inv->inputs[0] = forward;
  return desc && desc->inverse && desc->inverse(req, inv);
}
