/* The one list of verdicts (spec/runner.md "Verdicts"): a row each, in the
   order reports count and sort them. The enum mc_verdict (harness.h) and
   every table of verdicts are made from these rows, so a verdict cannot be
   known to one and missing from another.
     X(ID, name, failure, junit, meaning)
   ID: MC_VERDICT_<ID>; name: as reports and expectations spell it;
   failure: whether the case fails (pass and unsupported do not); junit:
   MC_JUNIT_<junit>, how JUnit shows it when no expectation applies;
   meaning: one line for --help and `movconf help verdicts`. */
#ifndef MOVCONF_HARNESS_VERDICT_LIST_H
#define MOVCONF_HARNESS_VERDICT_LIST_H

#define MC_VERDICT_LIST(X)                                                                         \
  X(PASS, "pass", false, PASSED, "the expected output bit for bit, or the expected rejection")     \
  X(WRONG_OUTPUT, "wrong-output", true, FAILURE, "right shape, wrong element type or bytes")       \
  X(WRONG_SHAPE, "wrong-shape", true, FAILURE, "the output's rank or dimensions differ")           \
  X(WRONG_ERROR, "wrong-error", true, FAILURE, "rejected, naming another error")                   \
  X(MISSED_REJECTION, "missed-rejection", true, FAILURE, "accepted an invalid input")              \
  X(WRONG_REJECTION, "wrong-rejection", true, FAILURE, "rejected a valid input")                   \
  X(UNSUPPORTED, "unsupported", false, SKIPPED,                                                    \
    "not claimed by the implementation: not a failure")                                            \
  X(CRASH, "crash", true, ERROR, "died, wrote out of bounds, or broke its interface")              \
  X(TIMEOUT, "timeout", true, ERROR, "no answer within --timeout")                                 \
  X(MEMORY_ERROR, "memory-error", true, ERROR, "a sanitizer reported a memory error (--sanitize)")

#endif
