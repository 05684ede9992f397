/* The fuzz engine's table of operations: a row per operation, its
   descriptor in src/fuzz/ops/<slug>.c. */
#include "fuzz/fuzz_ops.h"

/* A row per operation of movconf/op_list.h, mc_fuzz_<slug> in src/fuzz/ops/<slug>.c: an
   operation whose file lacks it fails the link. */
#define MC_OP(NAME, slug) extern const mc_fuzz_op_desc mc_fuzz_##slug;
#include "movconf/op_list.h"
#undef MC_OP
static const mc_fuzz_op_desc *const fuzz_ops[] = {
#define MC_OP(NAME, slug) [MC_OP_##NAME] = &mc_fuzz_##slug,
#include "movconf/op_list.h"
#undef MC_OP
};
_Static_assert(sizeof fuzz_ops / sizeof fuzz_ops[0] == MC_OP_COUNT,
               "fuzz_ops: a row per operation");

const mc_fuzz_op_desc *mc_fuzz_op_of(mc_op op) {
  return (int)op >= 0 && op < MC_OP_COUNT ? fuzz_ops[op] : NULL;
}
