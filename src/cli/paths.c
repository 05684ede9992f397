/* Small helpers of the CLI: strings, the default case files, --op values. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/cli.h"

const char *mc_default_dir(const char *name) {
  static struct {
    char name[32];
    char path[4096];
  } known[4];
  struct stat st;
  if (stat(name, &st) == 0)
    return name;
  int i = 0;
  while (i < 3 && known[i].name[0] && strcmp(known[i].name, name) != 0)
    i++;
  snprintf(known[i].name, sizeof known[i].name, "%s", name);
  snprintf(known[i].path, sizeof known[i].path, "%s/%s", MOVCONF_SOURCE_DIR, name);
  return known[i].path;
}

bool mc_collect_case_files(int n, char **paths, mc_path_list *out) {
  memset(out, 0, sizeof *out);
  const char *fallback[1] = {mc_default_dir("conformance")};
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
