/* Judging one case: what an implementation did against what the case expects. */
#ifndef MOVCONF_CLI_JUDGE_H
#define MOVCONF_CLI_JUDGE_H

#include "cases/cases.h"
#include "cli/cli.h"
#include "cli/impl.h"

/* The verdict, and in *detail (heap, NULL on pass) what went wrong: the
   first differing element with its multi-index and bits, and - when the
   data input was index-filled so that every element is distinct - the data
   elements the wrong and the expected value come from. */
mc_verdict mc_judge(const mc_case *c, const mc_impl *impl, const mc_impl_result *r, char **detail);

/* How the implementation's answer rejected the input, if it did. */
mc_rejection mc_judge_rejection(const mc_impl *impl, const mc_impl_result *r);

#endif
