/* The options that choose the cases a command reads: one parser, one set
   of messages and one help text (run and export take them all, show its
   --tier, clauses its --op). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

_Static_assert(MC_CASE_GLOBS_MAX == 64, "--case's message says 64");

const char mc_selection_options_help[] =
    "  --op OP                 only cases of one operation (BatchToSpace-2, batch_to_space_2,\n"
    "                          b2s...)\n"
    "  --type TYPE             only cases whose data input has this element type (f32, u4...)\n"
    "  --case GLOB             only cases whose id matches GLOB (e.g. 'eip/spec/*');\n"
    "                          given again, cases that match any of the GLOBs\n"
    "  --tier TIER             without PATHS: default (conformance/, under a second),\n"
    "                          large (conformance-large/: outputs to 2^24 elements, about\n"
    "                          15 s) or all (both)\n";

static const struct option selection_long_options[] = {MC_SELECTION_LONG_OPTIONS,
                                                       {NULL, 0, NULL, 0}};

mc_case_choice mc_case_choice_default(void) {
  return (mc_case_choice){.filter = {.op = MC_OP_INVALID, .type = MC_TYPE_INVALID}};
}

bool mc_is_selection_option(int opt) {
  return opt >= MC_OPT_OP && opt <= MC_OPT_TIER;
}

/* The problem with a selection option's value, or NULL. */
static const char *selection_problem(int opt, const char *value, mc_case_choice *c) {
  mc_case_filter *f = &c->filter;
  switch (opt) {
  case MC_OPT_OP:
    return (f->op = mc_op_from_option(value)) < 0
               ? "takes an operation (BatchToSpace-2, batch_to_space_2 or b2s...)"
               : NULL;
  case MC_OPT_TYPE:
    return (f->type = mc_type_from_name(value)) == MC_TYPE_INVALID
               ? "takes an element type name (boolean, u8, ..., f32, u1, u4, i4)"
               : NULL;
  case MC_OPT_CASE: /* each --case adds a pattern */
    if (f->n_case_globs == MC_CASE_GLOBS_MAX)
      return "is given more than 64 times";
    f->case_globs[f->n_case_globs++] = value;
    return NULL;
  default: /* MC_OPT_TIER */
    c->tier = value;
    return strcmp(value, "default") == 0 || strcmp(value, "large") == 0 || strcmp(value, "all") == 0
               ? NULL
               : "takes default, large or all";
  }
}

int mc_apply_selection_option(const char *command, int opt, const char *value, mc_case_choice *c) {
  const char *problem = selection_problem(opt, value, c);
  if (!problem)
    return -1;
  char *safe = mc_safe_text(value);
  fprintf(stderr, "movconf %s: --%s %s, not '%s'\n", command,
          mc_option_name(selection_long_options, opt), problem, safe);
  free(safe);
  if (opt == MC_OPT_OP)
    mc_suggest_op(value);
  return 2;
}

bool mc_collect_chosen_files(const mc_case_choice *c, int n_paths, char **paths,
                             mc_path_list *files) {
  return n_paths > 0 ? mc_collect_case_files(n_paths, paths, files)
                     : mc_collect_tier_files(c->tier, c->filter.op, files);
}
