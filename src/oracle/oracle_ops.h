/* Internal interface of the literal oracle: one function per operation, in
   src/oracle/<slug>.c, and the steps all share. What an inverse pair shares
   is in its own header (batch_space_common.h, space_depth_common.h). Every
   check cites its clause id. */
#ifndef MOVCONF_ORACLE_OPS_H
#define MOVCONF_ORACLE_OPS_H

#include "common/layout.h"
#include "movconf/ops.h"

/* Each runs the op's validity clauses in spec/check-order.md order, then its
   steps. The request is well-formed, MC-T1 and MC-L1 hold. */
#define MC_OP(NAME, slug)                                                                          \
  mc_status mc_oracle_##slug(const mc_request *req, size_t cap, mc_tensor *out, mc_error *err);
#include "movconf/op_list.h"
#undef MC_OP

/* The oracle has a step function for op (tests/test_op_tables.c). */
bool mc_oracle_has_op(mc_op op);

/* Allocates the output after the last MC-L3 (element count) and MC-L4
   (byte cap) checks. Every operation calls it once, after its validity
   clauses and before its first step, and returns at once when it fails:
   mc_oracle_output_shape stops each operation there. */
mc_status mc_oracle_alloc_output(mc_tensor *out, mc_type type, int rank, const int64_t *shape,
                                 size_t cap, mc_error *err);

#endif
