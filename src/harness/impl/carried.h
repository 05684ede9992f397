/* What both isolated implementations (impl/plugin/, impl/exec/) check
   before a request leaves movconf, in one place so that a plugin and an
   adapter refuse the same requests with the same words. */
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

#endif
