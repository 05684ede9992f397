/* What names a fuzzing failure (a finding): see mc_finding_key in harness.h. */
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
