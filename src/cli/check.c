/* movconf check-cases: are the case files themselves right? */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"

static const char check_usage[] =
    "usage: movconf check-cases [PATHS...]\n"
    "\n"
    "Validates case files (default: all of conformance/) without running them: the\n"
    "format of spec/case-format.md, every payload consistent with its type and shape,\n"
    "clause ids that exist in spec/ and belong to the case's operation, expected error\n"
    "names that exist, and case ids unique across all the files given.\n"
    "Exit status: 0 when every file is valid, 1 otherwise, 2 usage error.\n";

static void print_problem(void *ctx, const char *msg) {
  (void)ctx;
  printf("%s\n", msg);
}

int mc_cmd_check_cases(int argc, char **argv) {
  static const struct option options[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  int opt;
  while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
    if (opt != 'h')
      return mc_option_error("check-cases", argv[optind - 1], options);
    fputs(check_usage, stdout);
    return 0;
  }
  mc_path_list files;
  if (!mc_collect_case_files(argc - optind, argv + optind, &files)) {
    mc_path_list_free(&files);
    return 2;
  }
  int n_cases = 0, problems = mc_case_files_check(&files, print_problem, NULL, &n_cases);
  if (problems < 0) {
    fputs("movconf check-cases: out of memory\n", stderr);
    mc_path_list_free(&files);
    return 2;
  }
  printf("%d files, %d cases, %d problems\n", files.count, n_cases, problems);
  if (files.count == 0) {
    printf("no case files found\n");
    problems++;
  }
  mc_path_list_free(&files);
  return problems == 0 ? 0 : 1;
}
