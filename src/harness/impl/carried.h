/* What both isolated implementations (impl/plugin/, impl/exec/) check
   before a request leaves movconf, in one place so that a plugin and an
   adapter refuse the same requests, and judge a start cut short, with the
   same words. */
#ifndef MOVCONF_HARNESS_IMPL_CARRIED_H
#define MOVCONF_HARNESS_IMPL_CARRIED_H

#include <stdbool.h>

#include "harness/harness.h"

/* Whether the isolated implementations can carry req at all: a known
   operation, an input count it accepts (mc_op_input_count_ok), every input
   a tensor with its bytes. When not, fills r as a rejection (invalid
   argument: "malformed request: not sent to the <to_whom>") and returns
   false. */
bool mc_impl_request_carried(const mc_request *req, const char *to_whom, mc_impl_result *r);

/* After a failed (re)start of the <what> process: when the run's own stop
   (stop_at, fuzz --time) has passed, the start was cut short by movconf,
   not failed by the implementation, as a call cut short by it is not its
   fault either. Then fills r as a timeout saying so and returns true; else
   false (the failure is the implementation's). */
bool mc_impl_start_cut_short(double stop_at, const char *what, mc_impl_result *r);

#endif
