/* Small helpers of the CLI: strings, the default case files, --op values. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/cli.h"

bool mc_collect_case_files(int n, char **paths, mc_path_list *out) {
  memset(out, 0, sizeof *out);
  struct stat st;
  const char *fallback[1] = {stat("conformance", &st) == 0 ? "conformance"
                                                           : MOVCONF_SOURCE_DIR "/conformance"};
  char err[4200];
  bool ok = n == 0 ? mc_find_case_files(fallback, 1, out, err, sizeof err)
                   : mc_find_case_files((const char *const *)paths, n, out, err, sizeof err);
  if (!ok)
    fprintf(stderr, "movconf: %s\n", err);
  return ok;
}

int mc_op_from_option(const char *text) {
  int op = mc_op_from_name(text);
  for (int i = 0; op < 0 && i < MC_OP_COUNT; i++)
    if (strcasecmp(text, mc_op_clause_prefix((mc_op)i)) == 0)
      op = i;
  return op;
}
