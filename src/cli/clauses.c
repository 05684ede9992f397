/* movconf clauses: the traceability matrix from the clauses of spec/ to the
   cases that cite them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/trace.h"
#include "cli/cli.h"
#include "common/clauses.h"

static const char clauses_usage[] =
    "usage: movconf clauses [PATHS...] [--op OP] [--json FILE]\n"
    "\n"
    "Prints the traceability matrix of the case files (default: all of conformance/):\n"
    "for every clause of spec/, grouped by operation, the number of cases citing it,\n"
    "how many of them expect an error, the element types and ranks of their data\n"
    "input, and the error names they expect.\n"
    "\n"
    "  --op OP      only cases of one operation (BatchToSpace-2, batch_to_space_2,\n"
    "               b2s...); its clauses must be cited, the common MC-* clauses are\n"
    "               shown but not required\n"
    "  --json FILE  also write the matrix as JSON\n"
    "  -h, --help   show this text\n"
    "\n"
    "Exit status: 0 when every required clause is cited by at least one case and every\n"
    "file loaded; 1 when a clause has no case (they are listed), a file does not load\n"
    "or a case cites an id that is not a clause; 2 usage error.\n";

typedef struct clauses_options {
  int op; /* mc_op, or -1 for all */
  const char *json_path;
  int n_paths;
  char **paths;
} clauses_options;

/* Returns -1 when the options are good, else the exit status. */
static int parse_clauses_options(int argc, char **argv, clauses_options *o) {
  static const struct option options[] = {{"op", required_argument, NULL, MC_OPT_OP},
                                          {"json", required_argument, NULL, 'j'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  o->op = -1;
  int opt;
  while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
    if (opt == 'h') {
      fputs(clauses_usage, stdout);
      return 0;
    }
    if (opt == 'j') {
      o->json_path = optarg;
    } else if (opt == MC_OPT_OP) {
      mc_case_choice c = mc_case_choice_default();
      if (mc_apply_selection_option("clauses", opt, optarg, &c) >= 0)
        return 2;
      o->op = c.filter.op;
    } else if (opt == '?') {
      return mc_option_error("clauses", argv[optind - 1], options);
    }
  }
  o->paths = argv + optind;
  o->n_paths = argc - optind;
  return -1;
}

static int clauses_with_files(const clauses_options *o, const mc_path_list *files) {
  mc_trace t;
  if (!mc_trace_init(&t)) {
    fputs("movconf clauses: out of memory\n", stderr);
    return 2;
  }
  int load_errors = mc_trace_add_files(&t, files, o->op, stdout);
  mc_trace_print_matrix(stdout, &t, o->op);
  int uncited = mc_trace_print_uncited(stdout, &t, o->op);
  printf("\n%d case files, %d cases; ", files->count, t.n_cases);
  if (uncited)
    printf("%d clauses have no case", uncited);
  else
    printf("every %sclause has a case", o->op < 0 ? "" : "required ");
  if (load_errors)
    printf("; %d files did not load", load_errors);
  if (t.unknown_citations)
    printf("; %d citations of ids that are not clauses (see movconf check-cases)",
           t.unknown_citations);
  printf("\n");
  bool written =
      !o->json_path || mc_trace_write_json(&t, o->op, files->count, load_errors, o->json_path);
  bool good = uncited == 0 && load_errors == 0 && t.unknown_citations == 0 && t.n_cases > 0;
  if (t.n_cases == 0)
    printf("no cases found\n");
  mc_trace_free(&t);
  return good && written ? 0 : 1;
}

/* --json can be written and is none of the case files. -1 to go on, else 2. */
static int check_clauses_output(const clauses_options *o, const mc_path_list *files) {
  const mc_named_file json = {"--json", o->json_path};
  mc_named_file *inputs = mc_case_file_inputs(files, 0);
  int status = mc_check_outputs("clauses", &json, 1, inputs, files->count);
  free(inputs);
  return status;
}

int mc_cmd_clauses(int argc, char **argv) {
  clauses_options o;
  int status = parse_clauses_options(argc, argv, &o);
  if (status < 0) {
    mc_path_list files;
    if (!mc_collect_case_files(o.n_paths, o.paths, &files))
      status = 2;
    else if ((status = check_clauses_output(&o, &files)) < 0)
      status = clauses_with_files(&o, &files);
    mc_path_list_free(&files);
  }
  return status;
}
