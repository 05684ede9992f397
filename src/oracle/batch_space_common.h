/* What the oracles of BatchToSpace-2 and SpaceToBatch-2 (inverse
   operations) share: the side inputs read as int64 and the validity clauses
   both operations have, V1 to V8, under each operation's own clause ids. */
#ifndef MOVCONF_ORACLE_BATCH_SPACE_COMMON_H
#define MOVCONF_ORACLE_BATCH_SPACE_COMMON_H

#include "oracle/oracle_ops.h"

/* The three side inputs read as int64 after V2-V4 and MC-L2. */
typedef struct mc_side_values {
  int64_t block[MC_MAX_RANK];
  int64_t begin[MC_MAX_RANK]; /* crops_begin or pads_begin */
  int64_t end[MC_MAX_RANK];   /* crops_end or pads_end */
} mc_side_values;

/* Clause ids of the checks both operations share, per operation. */
typedef struct mc_batch_space_clauses {
  const char *rank, *type, *side_rank, *length, *block_min, *block_first;
} mc_batch_space_clauses;

/* V1-V4, MC-L2 and V5-V6: the clauses BatchToSpace and SpaceToBatch share. */
mc_status mc_oracle_batch_space_shared(const mc_request *req, const mc_batch_space_clauses *cl,
                                       mc_side_values *sv, mc_error *err);

/* V7 and V8 of both operations: begin/end amounts >= 0, and 0 on axis 0. */
mc_status mc_oracle_batch_space_amounts(const mc_request *req, const mc_side_values *sv,
                                        mc_status negative, const char *negative_clause,
                                        mc_status first, const char *first_clause, mc_error *err);

#endif
