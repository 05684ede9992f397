/* movconf clauses: the traceability matrix from the clauses of spec/ to the
   cases that cite them. */
#include <cjson/cJSON.h>
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
  static const struct option options[] = {{"op", required_argument, NULL, 'o'},
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
    } else if (opt == 'o' && (o->op = mc_op_from_option(optarg)) < 0) {
      fprintf(stderr,
              "movconf clauses: --op takes an operation (BatchToSpace-2, "
              "batch_to_space_2 or b2s...), not '%s'\n",
              optarg);
      return 2;
    } else if (opt == '?') {
      return mc_usage_error("clauses");
    }
  }
  o->paths = argv + optind;
  o->n_paths = argc - optind;
  return -1;
}

/* The operation whose clauses carry id's prefix ("B2S-V9"), or -1 for the
   common MC-* clauses. */
static int clause_op(const char *id) {
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
static bool clause_required(const clauses_options *o, const char *id) {
  return o->op < 0 || clause_op(id) == o->op;
}

static bool clause_shown(const clauses_options *o, const char *id) {
  int op = clause_op(id);
  return o->op < 0 || op < 0 || op == o->op;
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

static void print_group_heading(int op) {
  if (op < 0)
    printf("\ncommon clauses (spec/common.md)\n");
  else
    printf("\n%s (spec/%s.md)\n", mc_op_name((mc_op)op), mc_op_slug((mc_op)op));
}

static void print_matrix(const mc_trace *t, const clauses_options *o) {
  printf("%-9s %-4s %6s %7s  %-28s %-8s %s\n", "clause", "kind", "cases", "invalid", "data types",
         "ranks", "expected errors");
  int group = -2;
  for (int i = 0; i < t->n_clauses; i++) {
    const mc_clause *c = &t->table[i];
    if (!clause_shown(o, c->id))
      continue;
    if (clause_op(c->id) != group)
      print_group_heading(group = clause_op(c->id));
    const mc_clause_use *u = &t->uses[i];
    cell types = {.len = 0}, ranks = {.len = 0}, errors = {.len = 0};
    format_types(u->types, &types);
    format_ranks(u->ranks, &ranks);
    format_errors(u->errors, &errors);
    printf("%-9s %-4s %6d %7d  %-28s %-*s%s", c->id, kind_letter(c->kind), u->cases,
           u->invalid_cases, types.len ? types.text : "-", errors.len ? 9 : 0,
           ranks.len ? ranks.text : "-", errors.text);
    if (u->cases == 0)
      fputs(clause_required(o, c->id) ? "   <-- no case" : "   (not required with --op)", stdout);
    fputs("\n", stdout);
  }
}

/* The uncited required clauses, listed; returns how many. */
static int report_uncited(const mc_trace *t, const clauses_options *o) {
  int uncited = 0;
  for (int i = 0; i < t->n_clauses; i++)
    if (t->uses[i].cases == 0 && clause_required(o, t->table[i].id))
      printf("%s%s", uncited++ ? ", " : "\nclauses no case cites: ", t->table[i].id);
  if (uncited)
    printf("\n");
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
  int op = clause_op(c->id);
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

static bool write_matrix_json(const mc_trace *t, const clauses_options *o, int files,
                              int load_errors, const char *path) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddNumberToObject(root, "files", files);
  cJSON_AddNumberToObject(root, "invalid_files", load_errors);
  cJSON_AddNumberToObject(root, "cases", t->n_cases);
  cJSON_AddNumberToObject(root, "unknown_citations", t->unknown_citations);
  cJSON *clauses = cJSON_AddArrayToObject(root, "clauses");
  cJSON *uncited = cJSON_AddArrayToObject(root, "uncited");
  for (int i = 0; i < t->n_clauses; i++) {
    const mc_clause *c = &t->table[i];
    if (!clause_shown(o, c->id))
      continue;
    bool required = clause_required(o, c->id);
    cJSON_AddItemToArray(clauses, json_clause(c, &t->uses[i], required));
    if (required && t->uses[i].cases == 0)
      cJSON_AddItemToArray(uncited, cJSON_CreateString(c->id));
  }
  char *text = cJSON_Print(root);
  bool ok = text && mc_write_text_file(path, text);
  cJSON_free(text);
  cJSON_Delete(root);
  return ok;
}

/* Loads every file into the trace; returns the number that did not load. */
static int trace_files(const mc_path_list *files, int op, mc_trace *t) {
  int load_errors = 0;
  for (int i = 0; i < files->count; i++) {
    mc_case_file f;
    char err[1024];
    if (!mc_case_file_load(files->paths[i], &f, err, sizeof err)) {
      printf("%s\n", err);
      load_errors++;
      continue;
    }
    if (op < 0 || (int)f.op == op)
      mc_trace_add_file(t, &f);
    mc_case_file_free(&f);
  }
  return load_errors;
}

static int clauses_with_files(const clauses_options *o, const mc_path_list *files) {
  mc_trace t;
  if (!mc_trace_init(&t)) {
    fputs("movconf clauses: out of memory\n", stderr);
    return 2;
  }
  int load_errors = trace_files(files, o->op, &t);
  print_matrix(&t, o);
  int uncited = report_uncited(&t, o);
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
  bool written = !o->json_path || write_matrix_json(&t, o, files->count, load_errors, o->json_path);
  bool good = uncited == 0 && load_errors == 0 && t.unknown_citations == 0 && t.n_cases > 0;
  if (t.n_cases == 0)
    printf("no cases found\n");
  mc_trace_free(&t);
  return good && written ? 0 : 1;
}

int mc_cmd_clauses(int argc, char **argv) {
  clauses_options o;
  int status = parse_clauses_options(argc, argv, &o);
  if (status < 0) {
    mc_path_list files;
    if (mc_collect_case_files(o.n_paths, o.paths, &files))
      status = clauses_with_files(&o, &files);
    else
      status = 2;
    mc_path_list_free(&files);
  }
  return status;
}
