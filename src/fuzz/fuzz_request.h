/* What `movconf fuzz` works on (src/fuzz/fuzz*.c, private to the
   engine): a request that owns its tensors and strings, so that the
   shrinker can change it freely, and what the oracle says of it. */
#ifndef MOVCONF_FUZZ_FUZZ_REQUEST_H
#define MOVCONF_FUZZ_FUZZ_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cases/cases.h"
#include "fuzz/fuzz.h"
#include "fuzz/fuzz_random.h"
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

/* What one judged run shows. */
typedef struct mc_fuzz_outcome {
  mc_verdict verdict;
  mc_status expected;      /* the oracle's status: MC_OK or the error it expects */
  int64_t output_elements; /* of the oracle's output; -1 when it expects an error */
  bool unwritten;          /* a differing element still holds the output buffer's fill */
  /* The implementation's stop_at (the campaign's --time) came first: the
     run has no verdict (it says unsupported), whatever it did. */
  bool out_of_time;
  /* A crash after the call returned (a write to its output after run()
     returned): timing decides whether a shared process shows it, so it is
     judged again in a process of its own per call (record_failure). */
  bool late;
  /* Not 0: a late fault of an earlier call (mc_impl.calls numbered it)
     arrived during this judgment, with blamed_detail; this request was
     then run again in a fresh process for an answer of its own. */
  uint64_t blamed_call;
  char blamed_detail[512];
} mc_fuzz_outcome;

/* One run of the implementation on r, judged against the oracle: the
   verdict, (heap, NULL on pass) its detail, and (when outcome is not NULL)
   what the run shows about a failure's cause. Each call is numbered
   (mc_impl.calls), so that a late fault names the call it belongs to. A call cut short by
   impl->options.stop_at, or one not made because it has passed, is
   out_of_time with the verdict unsupported. */
mc_verdict mc_fuzz_judge(mc_impl *impl, const mc_owned_request *r, char **detail,
                         mc_fuzz_outcome *outcome);
/* Late faults of earlier calls one judgment takes before its call counts
   as answered by none (as many as the runner takes for a case). */
#define MC_FUZZ_MAX_BLAMES 4

/* What a failure shows about its cause (fuzz_cause.c): what must stay
   exactly (operation, verdict, the shape of the mismatch or the expected
   error) and what a shrink step may only lessen, never add to (rank, the
   output's size class, the side inputs and attributes not neutral: a block
   of 1, a crop or pad of 0, an attribute of 1, mode blocks_first, auto_pad
   valid), so that the shrunk case's key names the conditions the failure
   needs. */
typedef enum mc_fuzz_mismatch {
  MC_FUZZ_MISMATCH_UNKNOWN, /* not a wrong output, or elements narrower than a byte */
  MC_FUZZ_MISMATCH_UNWRITTEN,
  MC_FUZZ_MISMATCH_MISPLACED
} mc_fuzz_mismatch;

typedef struct mc_fuzz_cause {
  char exact[96];            /* "<op slug>-<verdict>[-expected-<error>]" */
  mc_fuzz_mismatch mismatch; /* may become known while shrinking, never change */
  int rank, size_class;
  /* The side inputs' element types: MC_FUZZ_SIDES_I64 (every one i64, or
     none: neutral), one other type for all, or MC_FUZZ_SIDES_MIXED, in
     that order of what a shrink step may only lessen (issue 39: a bug of
     32-bit side inputs and one of mixed types are two findings). */
  int side_types;
  /* bit i: side input i (an absent optional one is neutral); bit
     MC_MAX_INPUTS + j: attribute j of the op */
  unsigned not_neutral;
} mc_fuzz_cause;
#define MC_FUZZ_SIDES_I64 (-1)
#define MC_FUZZ_SIDES_MIXED (-2)
/* What r's side inputs' types are: MC_FUZZ_SIDES_I64, the one type they
   share, or MC_FUZZ_SIDES_MIXED. */
int mc_fuzz_side_types(const mc_owned_request *r);
_Static_assert(MC_MAX_INPUTS + MC_ATTR_COUNT <= 32, "mc_fuzz_cause.not_neutral: a bit each");

/* The value of string attribute id of op that changes nothing (the
   operation's fuzz byte layout says: mode blocks_first, auto_pad valid);
   NULL when op has no such attribute. */
const char *mc_fuzz_neutral_string(mc_op op, mc_attr id);
void mc_fuzz_cause_of(const mc_owned_request *r, const mc_fuzz_outcome *o, mc_fuzz_cause *c);
/* Whether a shrink step from was to now keeps the failure's cause. */
bool mc_fuzz_cause_kept(const mc_fuzz_cause *was, const mc_fuzz_cause *now);

/* The key of a failure's cause, without the element type:
   "<op slug>-<verdict>[-unwritten|-misplaced|-expected-<error>]-rank<R>-
   <small|4ki+|64ki+|1mi+>[-sides-<type>|-sides-mixed][-<side input or
   attribute not neutral>]...". */
void mc_fuzz_cause_key(const mc_owned_request *r, const mc_fuzz_outcome *o, char *key, size_t size);

/* Shrinks r in place toward a minimal request the implementation fails
   with the same cause key, until deadline (mc_now_seconds()); *detail
   (heap) and *outcome are the verdict's on the final request; *cut_short
   says that the deadline stopped it before a whole round of moves found
   nothing smaller. Returns the steps taken. */
int mc_fuzz_shrink(mc_impl *impl, mc_owned_request *r, double deadline, char **detail,
                   mc_fuzz_outcome *outcome, bool *cut_short);

/* Re-runs every written finding of s from its file alone, each in a fresh
   process with a fresh implementation (impl's options, the file's output
   cap), and marks each reproduced or flaky; with o->stop_at, they end
   within one --timeout and a second (fuzz_rerun.c). */
void mc_fuzz_rerun_findings(const mc_fuzz_options *o, const mc_impl_options *impl,
                            mc_fuzz_stats *s);

/* A request of op around the sizes where real kernels change path (thread
   splits, vector widths and tails, blocked channel counts): an output of
   about 2^12 to 2^24 elements; valid by construction. type: the data's
   element type, or MC_TYPE_INVALID for one drawn (mostly u8, f16, f32, f64).
   A size that would move more than max_bytes (mc_fuzz_large_bytes; data
   in, output out) is drawn a class smaller, down to 2^12; when even that
   moves more, false with *too_costly (issue 39: a slow implementation
   gets large requests it can answer in time). max_bytes 0: 2^12, whatever
   it moves (nothing is known of the implementation's speed yet). */
bool mc_fuzz_large_request(mc_rng *g, mc_op op, int type, double max_bytes, mc_owned_request *out,
                           bool *too_costly);
/* The bytes a large request of this many output elements of bits each
   moves: its data in and its output out, about as many. */
double mc_fuzz_large_bytes(int64_t elements, unsigned bits);

#endif
