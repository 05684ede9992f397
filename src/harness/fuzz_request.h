/* What `movconf fuzz` works on (src/harness/fuzz*.c, private to the
   harness): a request that owns its tensors and strings, so that the
   shrinker can change it freely, and what the oracle says of it. */
#ifndef MOVCONF_HARNESS_FUZZ_REQUEST_H
#define MOVCONF_HARNESS_FUZZ_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cases/cases.h"
#include "harness/harness.h"
#include "movconf/ops.h"

typedef struct mc_owned_request {
  mc_request req;                   /* inputs point into tensors, strings into strings */
  mc_tensor tensors[MC_MAX_INPUTS]; /* owned */
  char *strings[MC_ATTR_COUNT];     /* owned string attributes; NULL when absent */
  /* How the data input's bytes were made: MC_PAYLOAD_FILL_COUNTER (from
     fill_start: index-filled, so the runner can say where an element came
     from) or MC_PAYLOAD_HEX (anything else). */
  mc_payload_kind data_fill;
  int64_t fill_start;
  size_t max_output_bytes;
} mc_owned_request;

/* A deep copy of req (strings and tensors); false when memory runs out
   (then *out owns nothing). The data fill is MC_PAYLOAD_HEX. */
bool mc_owned_request_copy(const mc_request *req, size_t max_output_bytes, mc_owned_request *out);
void mc_owned_request_free(mc_owned_request *r);
/* Points r's request at r's own tensors and strings again (after r was
   copied or moved as a struct). */
void mc_owned_request_link(mc_owned_request *r);
/* Replaces the data input by a tensor of type and shape filled by a
   counter from start (element i holds start + i in its low bits). */
bool mc_owned_request_set_data(mc_owned_request *r, mc_type type, int rank, const int64_t *shape,
                               int64_t start);

/* The request as a case with the oracle's verdict as its expectation: the
   expected output, or the expected error. Points into r and owns the
   expected output (release with mc_fuzz_case_free). */
typedef struct mc_fuzz_case {
  mc_case c;
  mc_status oracle_status;
  const char *oracle_clause; /* the clause the oracle's error cites, or NULL */
} mc_fuzz_case;

void mc_fuzz_case_make(const mc_owned_request *r, mc_fuzz_case *out);
void mc_fuzz_case_free(mc_fuzz_case *fc);

/* One run of the implementation on r, judged against the oracle: the
   verdict, (heap, NULL on pass) its detail, and (when expected is not NULL)
   the oracle's status: MC_OK or the error it expects. */
mc_verdict mc_fuzz_judge(mc_impl *impl, const mc_owned_request *r, char **detail,
                         mc_status *expected);

/* Shrinks r in place toward a minimal request the implementation fails the
   same way (same verdict, same oracle status), for at most seconds; *detail
   (heap) is the verdict's detail on the final request. Returns the steps
   taken. */
int mc_fuzz_shrink(mc_impl *impl, mc_owned_request *r, double seconds, char **detail);

/* A reproducible stream of random numbers (splitmix64 of a seed). */
typedef struct mc_rng {
  uint64_t seed, index;
} mc_rng;

uint64_t mc_rng_next(mc_rng *g);
/* Uniform in [0, n); 0 when n is 0. */
uint64_t mc_rng_below(mc_rng *g, uint64_t n);

/* A request of op around the sizes where real kernels change path (thread
   splits, vector widths and tails, blocked channel counts): an output of
   about 2^12 to 2^24 elements; valid by construction. type: the data's
   element type, or MC_TYPE_INVALID for one drawn (mostly u8, f16, f32, f64). */
bool mc_fuzz_large_request(mc_rng *g, mc_op op, int type, mc_owned_request *out);

#endif
