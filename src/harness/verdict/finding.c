/* What names a fuzzing failure (a finding) and the verdict of an answer
   beside the reference's: see mc_finding_key in harness.h. */
#include <stdio.h>

#include "harness/harness.h"

void mc_finding_key(mc_op op, mc_verdict v, mc_status expected, char *key, size_t size) {
  /* A wrong output says nothing more by its expected status (ok); a wrong
     rejection, missed rejection or crash on an invalid input depends on
     which error was due. */
  if (v != MC_VERDICT_WRONG_OUTPUT && expected != MC_OK)
    snprintf(key, size, "%s-%s-expected-%s", mc_op_slug(op), mc_verdict_name(v),
             mc_status_name(expected));
  else
    snprintf(key, size, "%s-%s", mc_op_slug(op), mc_verdict_name(v));
}

mc_verdict mc_verdict_of_answers(mc_status expected, const mc_tensor *want, mc_status got,
                                 const mc_tensor *out) {
  if (expected != got)
    return expected == MC_OK ? MC_VERDICT_WRONG_REJECTION
           : got == MC_OK    ? MC_VERDICT_MISSED_REJECTION
                             : MC_VERDICT_WRONG_ERROR;
  if (got != MC_OK || !out)
    return MC_VERDICT_PASS;
  mc_comparison c = mc_compare_tensors(want, out);
  if (!c.same_shape)
    return MC_VERDICT_WRONG_SHAPE;
  return c.same_type && c.same_bytes ? MC_VERDICT_PASS : MC_VERDICT_WRONG_OUTPUT;
}
