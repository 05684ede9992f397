/* movconf help operations [--json]: the list of operations movconf knows
   (movconf/op_list.h through src/common/names.c), for scripts. */
#include <stdio.h>
#include <string.h>

#include "cases/json.h"
#include "cli/cli.h"
#include "movconf/ops.h"

static const char *kind_name(mc_attr_kind kind) {
  switch (kind) {
  case MC_ATTR_KIND_INT:
    return "int";
  case MC_ATTR_KIND_INT_LIST:
    return "int_list";
  case MC_ATTR_KIND_STRING:
    return "string";
  }
  return "invalid";
}

/* {"operations": [{"name", "slug", "prefix", "inputs": [{"name",
   "optional"}], "attributes": [{"name", "kind"}]}]}, one operation a line. */
static void write_json(mc_text *t) {
  mc_text_printf(t, "{\"operations\": [");
  for (int i = 0; i < MC_OP_COUNT; i++) {
    mc_op op = (mc_op)i;
    mc_text_printf(t, "%s\n  {\"name\": ", i ? "," : "");
    mc_json_write_string(t, mc_op_name(op));
    mc_text_printf(t, ", \"slug\": ");
    mc_json_write_string(t, mc_op_slug(op));
    mc_text_printf(t, ", \"prefix\": ");
    mc_json_write_string(t, mc_op_clause_prefix(op));
    mc_text_printf(t, ", \"inputs\": [");
    for (int k = 0; k < mc_op_input_count(op); k++) {
      mc_text_printf(t, "%s{\"name\": ", k ? ", " : "");
      mc_json_write_string(t, mc_op_input_name(op, k));
      mc_text_printf(t, ", \"optional\": %s}",
                     k >= mc_op_required_input_count(op) ? "true" : "false");
    }
    mc_text_printf(t, "], \"attributes\": [");
    for (int k = 0; k < mc_op_attr_count(op); k++) {
      mc_attr a = mc_op_attr(op, k);
      mc_text_printf(t, "%s{\"name\": ", k ? ", " : "");
      mc_json_write_string(t, mc_attr_name(a));
      mc_text_printf(t, ", \"kind\": \"%s\"}", kind_name(mc_attr_kind_of(a)));
    }
    mc_text_printf(t, "]}");
  }
  mc_text_printf(t, "\n]}\n");
}

int mc_cmd_help_operations(int argc, char **argv) {
  if (argc == 1 && strcmp(argv[0], "--json") == 0) {
    mc_text t = {0};
    write_json(&t);
    bool ok = !t.oom && fwrite(t.p, 1, t.len, stdout) == t.len && fflush(stdout) == 0;
    mc_text_free(&t);
    if (!ok)
      fprintf(stderr, "movconf help operations: cannot write the list\n");
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
