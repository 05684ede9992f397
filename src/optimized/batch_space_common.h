/* What the validation of BatchToSpace-2 and SpaceToBatch-2 (inverse
   operations) shares: the side inputs, checked and read into the plan, with
   each operation's own clause ids and error codes. */
#ifndef MOVCONF_OPTIMIZED_BATCH_SPACE_COMMON_H
#define MOVCONF_OPTIMIZED_BATCH_SPACE_COMMON_H

#include "optimized/plan.h"

/* The clause ids and error codes that differ between the two operations. */
typedef struct mc_batch_space_rules {
  const char *v1, *v2, *v3, *v4, *v5, *v6, *v7, *v8;
  mc_status negative, first_not_zero;
  const char *offset_name; /* "crop" or "pad" */
} mc_batch_space_rules;

/* V1 to V8, MC-L2 included: everything both operations check before their
   own arithmetic; fills plan->block, begin and end. */
mc_status mc_opt_check_batch_space(const mc_request *req, mc_opt_plan *plan,
                                   const mc_batch_space_rules *r, mc_error *err);

#endif
