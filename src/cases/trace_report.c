/* The traceability matrix for people and machines: the table `movconf
   clauses` prints and its JSON form. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "cases/trace.h"
#include "common/clauses.h"

/* The operation whose clauses carry id's prefix ("B2S-V9"), or -1 for the
   common MC-* clauses. */
int mc_clause_op(const char *id) {
  for (int op = 0; op < MC_OP_COUNT; op++) {
    const char *prefix = mc_op_clause_prefix((mc_op)op);
    size_t n = strlen(prefix);
    if (strncmp(id, prefix, n) == 0 && id[n] == '-')
      return op;
  }
  return -1;
}

/* Whether a clause must be cited: all of them, or with --op that
   operation's own. */
static bool clause_required(int op_filter, const char *id) {
  return op_filter < 0 || mc_clause_op(id) == op_filter;
}

static bool clause_shown(int op_filter, const char *id) {
  int op = mc_clause_op(id);
  return op_filter < 0 || op < 0 || op == op_filter;
}

static const char *kind_letter(mc_clause_kind k) {
  return k == MC_CLAUSE_VALIDITY ? "V" : k == MC_CLAUSE_LIMIT ? "L" : "S";
}

static const char *kind_name(mc_clause_kind k) {
  return k == MC_CLAUSE_VALIDITY ? "validity" : k == MC_CLAUSE_LIMIT ? "limit" : "step";
}

/* A bounded text cell of the matrix; what does not fit is cut. */
typedef struct cell {
  char text[512];
  size_t len;
} cell;

static void cell_add(cell *c, const char *sep, const char *item) {
  int n = snprintf(c->text + c->len, sizeof c->text - c->len, "%s%s", c->len ? sep : "", item);
  if (n > 0)
    c->len = c->len + (size_t)n < sizeof c->text ? c->len + (size_t)n : sizeof c->text - 1;
}

/* "f32,u8" from a type mask; "all 18 types" when every type is there. */
static void format_types(uint32_t types, cell *c) {
  if (types == (UINT32_C(1) << MC_TYPE_COUNT) - 1) {
    char all[32];
    snprintf(all, sizeof all, "all %d types", MC_TYPE_COUNT);
    cell_add(c, "", all);
    return;
  }
  for (int t = 0; t < MC_TYPE_COUNT; t++)
    if (types >> t & 1)
      cell_add(c, ",", mc_type_name((mc_type)t));
}

/* "2-5,17" from a rank mask. */
static void format_ranks(uint64_t ranks, cell *c) {
  for (int r = 0; r < 64; r++) {
    if (!(ranks >> r & 1))
      continue;
    int last = r;
    while (last + 1 < 64 && (ranks >> (last + 1) & 1))
      last++;
    char range[32];
    snprintf(range, sizeof range, last == r ? "%d" : "%d-%d", r, last);
    cell_add(c, ",", range);
    r = last;
  }
}

static void format_errors(uint64_t errors, cell *c) {
  for (int s = 0; s < MC_STATUS_COUNT; s++)
    if (errors >> s & 1)
      cell_add(c, ",", mc_status_name((mc_status)s));
}

static void print_group_heading(FILE *out, int op) {
  if (op < 0)
    fprintf(out, "\ncommon clauses (spec/common.md)\n");
  else
    fprintf(out, "\n%s (spec/%s.md)\n", mc_op_name((mc_op)op), mc_op_slug((mc_op)op));
}

void mc_trace_print_matrix(FILE *out, const mc_trace *t, int op_filter) {
  fprintf(out, "%-9s %-4s %6s %7s  %-28s %-8s %s\n", "clause", "kind", "cases", "invalid",
          "data types", "ranks", "expected errors");
  int group = -2;
  for (int i = 0; i < t->n_clauses; i++) {
    const mc_clause *c = &t->table[i];
    if (!clause_shown(op_filter, c->id))
      continue;
    if (mc_clause_op(c->id) != group)
      print_group_heading(out, group = mc_clause_op(c->id));
    const mc_clause_use *u = &t->uses[i];
    cell types = {.len = 0}, ranks = {.len = 0}, errors = {.len = 0};
    format_types(u->types, &types);
    format_ranks(u->ranks, &ranks);
    format_errors(u->errors, &errors);
    fprintf(out, "%-9s %-4s %6d %7d  %-28s %-*s%s", c->id, kind_letter(c->kind), u->cases,
            u->invalid_cases, types.len ? types.text : "-", errors.len ? 9 : 0,
            ranks.len ? ranks.text : "-", errors.text);
    if (u->cases == 0)
      fputs(clause_required(op_filter, c->id) ? "   <-- no case" : "   (not required with --op)",
            out);
    fputs("\n", out);
  }
}

/* The uncited required clauses, listed; returns how many. */
int mc_trace_print_uncited(FILE *out, const mc_trace *t, int op_filter) {
  int uncited = 0;
  for (int i = 0; i < t->n_clauses; i++)
    if (t->uses[i].cases == 0 && clause_required(op_filter, t->table[i].id))
      fprintf(out, "%s%s", uncited++ ? ", " : "\nclauses no case cites: ", t->table[i].id);
  if (uncited)
    fprintf(out, "\n");
  return uncited;
}

static cJSON *json_bits(uint64_t bits, int count, const char *(*name)(int)) {
  cJSON *array = cJSON_CreateArray();
  for (int i = 0; i < count; i++)
    if (bits >> i & 1)
      cJSON_AddItemToArray(array, name ? cJSON_CreateString(name(i)) : cJSON_CreateNumber(i));
  return array;
}

static const char *type_name_of(int t) {
  return mc_type_name((mc_type)t);
}

static const char *status_name_of(int s) {
  return mc_status_name((mc_status)s);
}

static cJSON *json_clause(const mc_clause *c, const mc_clause_use *u, bool required) {
  cJSON *item = cJSON_CreateObject();
  cJSON_AddStringToObject(item, "id", c->id);
  cJSON_AddStringToObject(item, "kind", kind_name(c->kind));
  int op = mc_clause_op(c->id);
  cJSON_AddStringToObject(item, "op", op < 0 ? "common" : mc_op_name((mc_op)op));
  cJSON_AddStringToObject(item, "summary", c->summary);
  cJSON_AddBoolToObject(item, "required", required);
  cJSON_AddNumberToObject(item, "cases", u->cases);
  cJSON_AddNumberToObject(item, "invalid_cases", u->invalid_cases);
  cJSON_AddItemToObject(item, "types", json_bits(u->types, MC_TYPE_COUNT, type_name_of));
  cJSON_AddItemToObject(item, "ranks", json_bits(u->ranks, 64, NULL));
  cJSON_AddItemToObject(item, "errors", json_bits(u->errors, MC_STATUS_COUNT, status_name_of));
  return item;
}

bool mc_trace_write_json(const mc_trace *t, int op_filter, int files, int load_errors,
                         const char *path) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddNumberToObject(root, "files", files);
  cJSON_AddNumberToObject(root, "invalid_files", load_errors);
  cJSON_AddNumberToObject(root, "cases", t->n_cases);
  cJSON_AddNumberToObject(root, "unknown_citations", t->unknown_citations);
  cJSON *clauses = cJSON_AddArrayToObject(root, "clauses");
  cJSON *uncited = cJSON_AddArrayToObject(root, "uncited");
  for (int i = 0; i < t->n_clauses; i++) {
    const mc_clause *c = &t->table[i];
    if (!clause_shown(op_filter, c->id))
      continue;
    bool required = clause_required(op_filter, c->id);
    cJSON_AddItemToArray(clauses, json_clause(c, &t->uses[i], required));
    if (required && t->uses[i].cases == 0)
      cJSON_AddItemToArray(uncited, cJSON_CreateString(c->id));
  }
  char *text = cJSON_Print(root);
  bool ok = text && mc_write_file_atomic(path, text, strlen(text));
  cJSON_free(text);
  cJSON_Delete(root);
  return ok;
}
