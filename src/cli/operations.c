/* movconf help operations [--json]: the list of operations movconf knows
   (movconf/op_list.h through src/common/names.c), for scripts. */
#include <stdio.h>
#include <string.h>

#include "cases/json.h"
#include "cli/cli.h"

int mc_cmd_help_operations(int argc, char **argv) {
  if (argc == 1 && strcmp(argv[0], "--json") == 0) {
    mc_text t = {0};
    mc_json_write_op_list(&t);
    bool ok = mc_write_text_output("help operations", "-", &t);
    mc_text_free(&t);
    return ok ? 0 : 1;
  }
  if (argc > 0) {
    fprintf(stderr, "usage: movconf help operations [--json]\n");
    return 2;
  }
  for (int op = 0; op < MC_OP_COUNT; op++)
    printf("%s\t%s\t%s\n", mc_op_name((mc_op)op), mc_op_slug((mc_op)op),
           mc_op_clause_prefix((mc_op)op));
  return 0;
}
