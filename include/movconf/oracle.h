/* The literal oracle: each operation as the specification's own steps. */
#ifndef MOVCONF_ORACLE_H
#define MOVCONF_ORACLE_H

#include "movconf/ops.h"

/* Validates req clause by clause in the order spec/check-order.md fixes,
   then computes the output. On MC_OK, *out owns its buffer (mc_tensor_free).
   On an error, *out is zeroed and err (if non-NULL) names status, clause and a
   message. max_output_bytes caps the output (clause MC-L4). */
mc_status mc_oracle_run(const mc_request *req, size_t max_output_bytes, mc_tensor *out,
                        mc_error *err);

/* The output's type, rank and shape by the operation's own rule, after the
   same checks as mc_oracle_run, without computing the output (nothing is
   allocated for it): MC_OK, or the error mc_oracle_run would give. */
mc_status mc_oracle_output_shape(const mc_request *req, size_t max_output_bytes, mc_type *type,
                                 int *rank, int64_t *shape, mc_error *err);

#endif
