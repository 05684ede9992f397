/* The generator's table of operations: a row per operation, its
   descriptor in src/gen/ops/<slug>.c. */
#include "gen/gen_build.h"

/* A row per operation of movconf/op_list.h, mc_gen_<slug> in src/gen/ops/<slug>.c: an
   operation whose file lacks it fails the link. */
#define MC_OP(NAME, slug) extern const mc_gen_op_desc mc_gen_##slug;
#include "movconf/op_list.h"
#undef MC_OP
static const mc_gen_op_desc *const gen_ops[] = {
#define MC_OP(NAME, slug) [MC_OP_##NAME] = &mc_gen_##slug,
#include "movconf/op_list.h"
#undef MC_OP
};
_Static_assert(sizeof gen_ops / sizeof gen_ops[0] == MC_OP_COUNT, "gen_ops: a row per operation");

const mc_gen_op_desc *mc_gen_op_of(mc_op op) {
  return (int)op >= 0 && op < MC_OP_COUNT ? gen_ops[op] : NULL;
}

const char *const *mc_gen_param_names(mc_op op) {
  const mc_gen_op_desc *desc = mc_gen_op_of(op);
  return desc ? desc->param_names : NULL;
}
