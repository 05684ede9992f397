/* Every operation has every hook of every layer's table. The hook tables
   are built from movconf/op_list.h, so a missing hook fails the link
   naming it; names.c's op_table is written by hand, and a row left out in
   its middle is a NULL the compiler accepts: this test names the operation
   and what it lacks. The hook checks stay as a guard should a table ever
   be written by hand again. */
#include "cases/bytes/fuzz_bytes.h"
#include "check.h"
#include "fuzz/fuzz_ops.h"
#include "gen/gen.h"
#include "movconf/ops.h"
#include "optimized/plan.h"
#include "oracle/oracle_ops.h"

static int missing;

static void need(bool present, mc_op op, const char *hook) {
  CHECK(present);
  if (!present) {
    fprintf(stderr, "operation %d (%s) has no %s\n", (int)op, mc_op_name(op), hook);
    missing++;
  }
}

int main(void) {
  for (int i = 0; i < MC_OP_COUNT; i++) {
    mc_op op = (mc_op)i;
    need(strcmp(mc_op_name(op), "invalid") != 0 && mc_op_slug(op) && mc_op_clause_prefix(op), op,
         "name, slug or clause prefix (src/common/names.c op_table)");
    need(mc_op_input_count(op) >= 1 && mc_op_input_name(op, 0), op,
         "inputs (src/common/names.c op_table)");
    need(mc_oracle_has_op(op), op, "oracle step function (src/oracle/oracle.c oracle_by_op)");
    need(mc_opt_has_validator(op), op, "validator (src/optimized/validate.c validators)");
    const char *kernel = mc_opt_missing_kernel(op);
    need(kernel == NULL, op, kernel ? kernel : "");
    need(mc_gen_param_names(op) != NULL, op, "generator parameters (src/gen/gen_ops.c gen_ops)");
    need(mc_fuzz_op_of(op) != NULL, op, "fuzz engine hooks (src/fuzz/fuzz_ops.c fuzz_ops)");
    need(mc_op_input_count(op) == 1 || (mc_fuzz_op_of(op) && mc_fuzz_op_of(op)->side_neutral), op,
         "side_neutral in its fuzz engine hooks (src/fuzz/ops/<slug>.c), having side inputs");
    need(mc_bytes_layout_complete(op), op,
         "fuzz byte values of every attribute (src/cases/bytes/ops/<slug>.c attrs)");
  }
  /* Spellings are the operation's own: ShuffleChannels has no `mode`, so
     none of DepthToSpace's spellings is neutral for it. */
  CHECK_STR(mc_fuzz_neutral_string(MC_OP_DEPTH_TO_SPACE, MC_ATTR_MODE), "blocks_first");
  CHECK_STR(mc_fuzz_neutral_string(MC_OP_SPACE_TO_DEPTH, MC_ATTR_MODE), "blocks_first");
  CHECK_STR(mc_fuzz_neutral_string(MC_OP_EXTRACT_IMAGE_PATCHES, MC_ATTR_AUTO_PAD), "valid");
  CHECK(mc_fuzz_neutral_string(MC_OP_SHUFFLE_CHANNELS, MC_ATTR_MODE) == NULL);
  CHECK(mc_fuzz_neutral_string(MC_OP_EXTRACT_IMAGE_PATCHES, MC_ATTR_MODE) == NULL);
  CHECK(mc_fuzz_neutral_string(MC_OP_INVALID, MC_ATTR_MODE) == NULL);
  /* Out of range: no hook, never a read past a table. */
  CHECK(!mc_oracle_has_op(MC_OP_COUNT) && !mc_oracle_has_op(MC_OP_INVALID));
  CHECK(!mc_opt_has_validator(MC_OP_COUNT) && !mc_opt_has_validator(MC_OP_INVALID));
  CHECK(!mc_gen_param_names(MC_OP_COUNT) && !mc_gen_param_names(MC_OP_INVALID));
  CHECK(!mc_fuzz_op_of(MC_OP_COUNT) && !mc_fuzz_op_of(MC_OP_INVALID));
  if (missing)
    fprintf(stderr, "%d hooks missing\n", missing);
  return check_report();
}
