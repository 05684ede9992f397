/* Inside the round-trip properties: an operation's descriptor, in
   fuzz/ops/<slug>.c, a row of roundtrip.c's table. */
#ifndef MOVCONF_FUZZ_ROUNDTRIP_OPS_H
#define MOVCONF_FUZZ_ROUNDTRIP_OPS_H

#include "movconf/ops.h"

typedef struct mc_roundtrip_op {
  /* req (accepted) must return its data unchanged. */
  bool (*is_identity)(const mc_request *req);
  /* inv holds a copy of req with the forward output as its data: make it
     the inverse (op, attributes); false when req has none. NULL: the
     operation has no inverse. */
  bool (*inverse)(const mc_request *req, mc_request *inv);
} mc_roundtrip_op;

/* Every value of side input t equals v (t was accepted: integer, 1-D). */
bool mc_roundtrip_side_all(const mc_tensor *t, int64_t v);

#endif
