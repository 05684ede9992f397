/* movconf show: one case, for a person; with --impl, what an
   implementation makes of it. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"

static const char show_usage[] =
    "usage: movconf show CASE_ID [--impl SPEC] [--full] [--tier TIER] [PATHS...]\n"
    "\n"
    "Prints one case of the case files (default: conformance/, then conformance-large/\n"
    "when no case there has the id): its origin, the\n"
    "clauses it exercises, its attributes, its inputs (type, shape, how the data was\n"
    "given, the elements row by row) and the expected output or error. CASE_ID may be a\n"
    "glob ('d2s/spec/*'); every matching case is shown.\n"
    "\n"
    "  --full               every element and every difference, not the first rows\n"
    "  --tier TIER          without PATHS, look only in: default (conformance/), large\n"
    "                       (conformance-large/) or all (both)\n"
    "  -h, --help           show this text\n"
    "\n"
    "implementation: with --impl, the case also runs on an implementation (as in\n"
    "movconf run --fresh-process-per-case) and show prints what it returned, its\n"
    "verdict, and each differing element beside the expected one with the data\n"
    "element it came from (when the data input is index-filled):\n";

/* Then mc_impl_options_help, then: */
static const char show_usage_tail[] =
    "\n"
    "Exit status: 0 shown (and, with --impl, passed), 1 not found or failed, 2 usage error.\n";

typedef struct show_options {
  const char *id;
  mc_impl_choice impl; /* spec NULL: no --impl */
  bool full;
  mc_case_choice cases; /* its tier alone; NULL: the default tier, then the large one */
  int n_paths;
  char **paths;
} show_options;

/* -1 to go on, else the exit status. */
static int parse_show_options(int argc, char **argv, show_options *o) {
  static const struct option options[] = {MC_IMPL_LONG_OPTIONS,
                                          {"full", no_argument, NULL, 'f'},
                                          {"tier", required_argument, NULL, MC_OPT_TIER},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
  *o = (show_options){.impl = mc_impl_choice_default(), .cases = mc_case_choice_default()};
  o->impl.spec = NULL;
  int opt;
  while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
    if (opt == 'h') {
      printf("%s%s%s", show_usage, mc_impl_options_help, show_usage_tail);
      return 0;
    } else if (opt == 'f') {
      o->full = true;
    } else if (opt == MC_OPT_TIER) {
      if (mc_apply_selection_option("show", opt, optarg, &o->cases) >= 0)
        return 2;
    } else if (!mc_is_impl_option(opt)) {
      return mc_option_error("show", argv[optind - 1], options);
    } else if (mc_apply_impl_option("show", opt, optarg, &o->impl) >= 0) {
      return 2;
    }
  }
  if (optind >= argc) {
    fprintf(stderr, "movconf show: which case? (movconf show CASE_ID)\n");
    return mc_usage_error("show");
  }
  o->id = argv[optind];
  o->paths = argv + optind + 1;
  o->n_paths = argc - optind - 1;
  return -1;
}

/* Shows the cases matching o->id in the n folders or files of paths; -1
   when they cannot be listed, else how many were shown. */
static int show_in(const show_options *o, int n, char **paths, mc_impl *impl, int *failed) {
  mc_path_list files;
  int shown = mc_collect_case_files(n, paths, &files)
                  ? mc_show_matching(stdout, o->id, &files, impl, o->full, failed)
                  : -1;
  mc_path_list_free(&files);
  return shown;
}

/* "conformance, conformance-large": where a search looked. */
static void print_places(int n, char **paths) {
  for (int i = 0; i < n; i++)
    fprintf(stderr, "%s%s", i ? ", " : "", paths[i]);
}

int mc_cmd_show(int argc, char **argv) {
  show_options o;
  int status = parse_show_options(argc, argv, &o);
  if (status < 0)
    status = mc_check_threads_environment("show", o.impl.options.threads);
  if (status >= 0)
    return status;
  /* A process of its own for each case shown: a late write (a thread still
     at work after run() returned) is then this case's crash, as in run,
     not missed when the implementation ends (tests/plugin_faults.sh). */
  o.impl.options.fresh_process_per_case = true;
  mc_impl *impl = NULL;
  char err[1024];
  if (o.impl.spec && !(impl = mc_impl_open(o.impl.spec, &o.impl.options, err, sizeof err))) {
    fprintf(stderr, "movconf show: %s\n", err);
    return 2;
  }
  /* Without paths, the tiers the way run has them; without --tier, the
     large tier only when the default one lacks the id (it loads slowly). */
  char *places[2], **paths = o.paths;
  int n = o.n_paths, failed = 0;
  if (n == 0) {
    n = mc_tier_folders(o.cases.tier ? o.cases.tier : "default", places);
    paths = places;
  }
  int shown = show_in(&o, n, paths, impl, &failed);
  if (shown == 0 && o.n_paths == 0 && !o.cases.tier) {
    n = mc_tier_folders("all", places);
    shown = show_in(&o, 1, places + 1, impl, &failed);
  }
  if (shown == 0) {
    fprintf(stderr, "movconf show: no case has the id '%s' (looked in ", o.id);
    print_places(n, paths);
    fprintf(stderr, ")\n");
  }
  mc_impl_close(impl);
  return shown < 0 ? 2 : shown == 0 || failed ? 1 : 0;
}
