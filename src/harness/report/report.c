/* Reports of a run: the table people read, JSON and JUnit XML for machines. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/json.h"
#include "common/text.h"
#include "harness/harness.h"
#include "movconf/version.h"

bool mc_case_result_is_problem(const mc_case_result *r) {
  switch (r->expect) {
  case MC_EXPECT_NONE:
    return mc_verdict_is_failure(r->verdict);
  case MC_EXPECT_UNEXPECTED_PASS:
  case MC_EXPECT_OTHER_FAILURE:
    return true;
  case MC_EXPECT_MET:
  case MC_EXPECT_NOT_RUN:
    break;
  }
  return false;
}

typedef struct tally {
  int cases;
  int by_verdict[MC_VERDICT_COUNT];
  int expected;          /* failures an expectation foresaw */
  int unexpected_passes; /* cases expected to fail that passed */
  int problems;          /* cases that make the run fail */
  int unnamed_passes;    /* passes that were rejections without an error name */
  int failed;            /* failures no expectation foresaw */
} tally;

static void count(tally *t, const mc_case_result *c) {
  t->cases++;
  t->by_verdict[c->verdict]++;
  t->expected += c->expect == MC_EXPECT_MET;
  t->unexpected_passes += c->expect == MC_EXPECT_UNEXPECTED_PASS;
  t->problems += mc_case_result_is_problem(c);
  t->unnamed_passes += c->verdict == MC_VERDICT_PASS && c->rejection == MC_REJECTION_UNNAMED;
  t->failed += mc_verdict_is_failure(c->verdict) && c->expect != MC_EXPECT_MET;
}

static void tally_all(const mc_run_report *r, tally *per_op, tally *total) {
  memset(per_op, 0, MC_OP_COUNT * sizeof *per_op);
  memset(total, 0, sizeof *total);
  for (int i = 0; i < r->count; i++) {
    count(&per_op[r->results[i].op], &r->results[i]);
    count(total, &r->results[i]);
  }
}

/* ---- the table ---- */

/* Columns: cases, pass, then only the verdicts that occurred. */
typedef struct columns {
  bool verdict[MC_VERDICT_COUNT];
  bool unnamed; /* some passes were rejections without an error name */
  bool expectations;
} columns;

#define UNNAMED_COLUMN "pass-unnamed"

static int column_width(const char *name) {
  return strlen(name) < 5 ? 5 : (int)strlen(name);
}

static void print_header(FILE *out, const columns *cols) {
  fprintf(out, "%-24s %6s", "operation", "cases");
  for (int v = 0; v < MC_VERDICT_COUNT; v++) {
    if (cols->verdict[v])
      fprintf(out, " %*s", column_width(mc_verdict_name((mc_verdict)v)),
              mc_verdict_name((mc_verdict)v));
    if (v == MC_VERDICT_PASS && cols->unnamed)
      fprintf(out, " %s", UNNAMED_COLUMN);
  }
  if (cols->expectations)
    fprintf(out, " %5s %5s", "xfail", "xpass");
  fprintf(out, "\n");
}

static void print_row(FILE *out, const char *name, const tally *t, const columns *cols) {
  fprintf(out, "%-24s %6d", name, t->cases);
  for (int v = 0; v < MC_VERDICT_COUNT; v++) {
    if (cols->verdict[v])
      fprintf(out, " %*d", column_width(mc_verdict_name((mc_verdict)v)), t->by_verdict[v]);
    if (v == MC_VERDICT_PASS && cols->unnamed)
      fprintf(out, " %*d", column_width(UNNAMED_COLUMN), t->unnamed_passes);
  }
  if (cols->expectations)
    fprintf(out, " %5d %5d", t->expected, t->unexpected_passes);
  fprintf(out, "\n");
}

/* Writes text made safe (mc_safe_text): no escape sequence an
   implementation wrote reaches the terminal. */
static void put_safe(FILE *out, const char *text) {
  char *safe = mc_safe_text(text);
  fputs(safe, out);
  free(safe);
}

static bool is_slow(const mc_run_report *r, const mc_case_result *c) {
  return r->slow_seconds > 0 && c->seconds >= r->slow_seconds && c->verdict != MC_VERDICT_TIMEOUT;
}

/* "PREFIX: ID (FILE)", " (slow: 8.1 s)" when it was, and a newline. */
static void print_case_line(FILE *out, const mc_run_report *r, const char *prefix,
                            const mc_case_result *c, const char *in_brackets) {
  fprintf(out, "%s: ", prefix);
  put_safe(out, c->id);
  fputs(" (", out);
  put_safe(out, in_brackets);
  fputs(")", out);
  if (is_slow(r, c))
    fprintf(out, " (slow: %.1f s)", c->seconds);
  fputs("\n", out);
}

static void print_indented(FILE *out, const char *before, const char *text, const char *after) {
  fputs(before, out);
  put_safe(out, text);
  fputs(after, out);
}

/* "  inputs data u8 [9,2,2,2]; block_size 2, mode "blocks_first"": what
   the case is, so that a reader need not open its file. */
static void print_inputs(FILE *out, const mc_case_result *c) {
  print_indented(out, "  inputs ", c->inputs ? c->inputs : "", "");
  if (c->attributes && *c->attributes)
    print_indented(out, "; ", c->attributes, "");
  fputs("\n", out);
}

static void print_case(FILE *out, const mc_run_report *r, const mc_case_result *c) {
  const char *verdict = mc_verdict_name(c->verdict);
  if (c->expect == MC_EXPECT_UNEXPECTED_PASS) {
    print_case_line(out, r, "xpass", c, c->file);
    fprintf(out, "  expected %s, but it passed: ", mc_verdict_name(c->expected_verdict));
    print_indented(out, "", c->expect_reason, "\n");
  } else if (c->expect == MC_EXPECT_OTHER_FAILURE) {
    print_case_line(out, r, verdict, c, c->file);
    print_indented(out, "  ", c->detail, "\n");
    fprintf(out, "  (expected %s: ", mc_verdict_name(c->expected_verdict));
    print_indented(out, "", c->expect_reason, ")\n");
    print_inputs(out, c);
  } else if (c->expect == MC_EXPECT_MET) {
    char prefix[64];
    snprintf(prefix, sizeof prefix, "xfail %s", verdict);
    print_case_line(out, r, prefix, c, c->expect_reason);
  } else {
    print_case_line(out, r, verdict, c, c->file);
    print_indented(out, "  ", c->detail, "\n");
    print_inputs(out, c);
  }
}

int mc_report_problems(const mc_run_report *r) {
  int n = 0;
  for (int i = 0; i < r->count; i++)
    n += mc_case_result_is_problem(&r->results[i]);
  return n;
}

int mc_report_unattributed_faults(const mc_run_report *r) {
  int n = 0;
  for (int i = 0; i < r->n_process_faults; i++)
    n += r->process_faults[i].culprit == NULL;
  return n;
}

/* ---- the failure list: grouped, the most diagnostic first ---- */

static bool is_listed(const mc_run_report *r, const mc_case_result *c) {
  (void)r; /* as is_slow, for select_sorted */
  return mc_verdict_is_failure(c->verdict) || c->expect == MC_EXPECT_UNEXPECTED_PASS;
}

static int compare_int(long long a, long long b) {
  return (a > b) - (a < b);
}

/* Problems before foreseen failures; then by operation and verdict (the
   groups); within a group index-filled cases first (their detail says
   which input element each wrong value came from), small before large,
   then by rank, mode and type; the run's order last. */
static int compare_listed(const void *pa, const void *pb) {
  const mc_case_result *a = *(const mc_case_result *const *)pa;
  const mc_case_result *b = *(const mc_case_result *const *)pb;
  int d = compare_int(a->expect == MC_EXPECT_MET, b->expect == MC_EXPECT_MET);
  if (!d)
    d = compare_int(a->op, b->op);
  if (!d)
    d = compare_int(a->expect == MC_EXPECT_UNEXPECTED_PASS, b->expect == MC_EXPECT_UNEXPECTED_PASS);
  if (!d)
    d = compare_int(a->verdict, b->verdict);
  if (!d)
    d = compare_int(!a->index_filled, !b->index_filled);
  if (!d)
    d = compare_int(a->elements, b->elements);
  if (!d)
    d = compare_int(a->rank, b->rank);
  if (!d)
    d = strcmp(a->mode, b->mode);
  if (!d)
    d = compare_int(a->data_type, b->data_type);
  return d ? d : compare_int(a - b, 0); /* a and b point into one array */
}

/* The group a listed case heads or continues: "SpaceToDepth-1: crash". */
static void group_name(const mc_case_result *c, char *buf, size_t n) {
  const char *what = c->expect == MC_EXPECT_MET               ? "xfail"
                     : c->expect == MC_EXPECT_UNEXPECTED_PASS ? "xpass"
                                                              : mc_verdict_name(c->verdict);
  snprintf(buf, n, "%s: %s", mc_op_name((mc_op)c->op), what);
}

static int group_size(const mc_case_result *const *sorted, int n, int from) {
  char head[128], other[128];
  group_name(sorted[from], head, sizeof head);
  int k = from + 1;
  for (; k < n; k++) {
    group_name(sorted[k], other, sizeof other);
    if (strcmp(head, other) != 0)
      break;
  }
  return k - from;
}

/* The results that keep (r, c) holds for, sorted by compare (heap; NULL
   when memory ran out), their number in *n. */
static const mc_case_result **
select_sorted(const mc_run_report *r, bool (*keep)(const mc_run_report *, const mc_case_result *),
              int (*compare)(const void *, const void *), int *n) {
  const mc_case_result **sorted = malloc((size_t)(r->count ? r->count : 1) * sizeof *sorted);
  *n = 0;
  if (!sorted)
    return NULL;
  for (int i = 0; i < r->count; i++)
    if (keep(r, &r->results[i]))
      sorted[(*n)++] = &r->results[i];
  if (*n > 1)
    qsort(sorted, (size_t)*n, sizeof *sorted, compare);
  return sorted;
}

static void print_failures(FILE *out, const mc_run_report *r) {
  int n;
  const mc_case_result **sorted = select_sorted(r, is_listed, compare_listed, &n);
  for (int i = 0; i < n;) {
    int size = group_size(sorted, n, i);
    char head[128];
    group_name(sorted[i], head, sizeof head);
    fprintf(out, "== %s (%d case%s) ==\n", head, size, size == 1 ? "" : "s");
    for (int k = i; k < i + size; k++)
      print_case(out, r, sorted[k]);
    i += size;
  }
  free(sorted);
}

/* ---- slow cases ---- */

#define SLOWEST_SHOWN 5

static int compare_slower(const void *pa, const void *pb) {
  const mc_case_result *a = *(const mc_case_result *const *)pa;
  const mc_case_result *b = *(const mc_case_result *const *)pb;
  return (a->seconds < b->seconds) - (a->seconds > b->seconds);
}

/* "slow: 2 cases took 2.0 s or more (--timeout 10 s): ID 8.12 s, ..." */
static void print_slow(FILE *out, const mc_run_report *r) {
  int n;
  const mc_case_result **slow = select_sorted(r, is_slow, compare_slower, &n);
  if (n > 0) {
    fprintf(out, "slow: %d case%s took %.1f s or more", n, n == 1 ? "" : "s", r->slow_seconds);
    if (r->timeout_seconds > 0)
      fprintf(out, " (--timeout %g s)", r->timeout_seconds);
    for (int k = 0; k < n && k < SLOWEST_SHOWN; k++) {
      print_indented(out, k ? ", " : ": ", slow[k]->id, "");
      fprintf(out, " %.2f s", slow[k]->seconds);
    }
    fputs(n > SLOWEST_SHOWN ? ", ...\n" : "\n", out);
  }
  free(slow);
}

/* ---- the table and the summary line ---- */

static void print_summary_line(FILE *out, const mc_run_report *r, const tally *total) {
  fprintf(out, "\n%d passed", total->by_verdict[MC_VERDICT_PASS]);
  if (total->unnamed_passes)
    fprintf(out, " (%d only rejected, without naming the error: the reason was not checked)",
            total->unnamed_passes);
  fprintf(out, ", %d failed", total->failed);
  if (r->with_expectations)
    fprintf(out, ", %d xfail, %d xpass", total->expected, total->unexpected_passes);
  fprintf(out, ", %d unsupported", total->by_verdict[MC_VERDICT_UNSUPPORTED]);
  if (r->n_process_faults)
    fprintf(out, ", %d process faults", r->n_process_faults);
  if (r->n_load_errors)
    fprintf(out, ", %d invalid case files", r->n_load_errors);
  fprintf(out, "\n");
}

void mc_report_print_stopped(const mc_run_report *r, FILE *out) {
  if (r->stopped_early) {
    char *safe = mc_safe_text(r->stopped_early); /* it may name a case file */
    fprintf(out, "\n%s\n", safe);
    free(safe);
  }
}

void mc_report_print_table(const mc_run_report *r, bool list_failures, FILE *out) {
  if (list_failures)
    print_failures(out, r);
  for (int i = 0; i < r->n_process_faults; i++)
    print_indented(out, "process fault: ", r->process_faults[i].detail, "\n");
  for (int i = 0; i < r->n_load_errors; i++)
    print_indented(out, "invalid case file: ", r->load_errors[i], "\n");
  if (list_failures)
    print_slow(out, r);
  tally per_op[MC_OP_COUNT], total;
  tally_all(r, per_op, &total);
  columns cols = {.expectations = r->with_expectations, .unnamed = total.unnamed_passes > 0};
  cols.verdict[MC_VERDICT_PASS] = true;
  for (int v = 0; v < MC_VERDICT_COUNT; v++)
    cols.verdict[v] = cols.verdict[v] || total.by_verdict[v] > 0;
  print_indented(out, "\nimplementation: ", r->impl, "\n");
  print_header(out, &cols);
  for (int op = 0; op < MC_OP_COUNT; op++)
    if (per_op[op].cases > 0)
      print_row(out, mc_op_name((mc_op)op), &per_op[op], &cols);
  print_row(out, "total", &total, &cols);
  if (cols.unnamed)
    fprintf(out, "(" UNNAMED_COLUMN ": passes that only rejected an invalid input, without naming "
                 "movconf's error; --require-named-errors fails them)\n");
  print_summary_line(out, r, &total);
}

/* ---- JSON ---- */

bool mc_write_text_file(const char *path, const char *text) {
  mc_output out;
  if (!mc_output_open(&out, path)) {
    fprintf(stderr, "movconf: cannot write %s: %s\n", path, strerror(errno));
    return false;
  }
  if (fputs(text, out.f) < 0) {
    mc_output_discard(&out);
  } else if (mc_output_commit(&out)) {
    return true;
  }
  fprintf(stderr, "movconf: error writing %s\n", path);
  return false;
}

static const char *expect_state_name(mc_expect_state s) {
  switch (s) {
  case MC_EXPECT_MET:
    return "expected";
  case MC_EXPECT_UNEXPECTED_PASS:
    return "unexpected-pass";
  case MC_EXPECT_OTHER_FAILURE:
    return "other-failure";
  case MC_EXPECT_NOT_RUN:
    return "unsupported";
  case MC_EXPECT_NONE:
    break;
  }
  return "none";
}

/* A string member made safe (mc_safe_text): the report stays valid UTF-8
   whatever bytes an implementation or a file name brought. */
static void add_safe_string(cJSON *obj, const char *key, const char *text) {
  char *safe = mc_safe_text(text);
  cJSON_AddStringToObject(obj, key, safe);
  free(safe);
}

/* The picture (mc_judge_picture's JSON: element values and indices that
   movconf wrote, nothing an implementation or case file chose). */
static cJSON *picture_json(const char *text) {
  cJSON *p = cJSON_Parse(text);
  return p ? p : cJSON_CreateNull();
}

static cJSON *json_case(const mc_run_report *r, const mc_case_result *c) {
  cJSON *item = cJSON_CreateObject();
  add_safe_string(item, "id", c->id);
  cJSON_AddStringToObject(item, "op", mc_op_name((mc_op)c->op));
  cJSON_AddStringToObject(item, "type", mc_type_name((mc_type)c->data_type));
  add_safe_string(item, "file", c->file);
  cJSON_AddStringToObject(item, "verdict", mc_verdict_name(c->verdict));
  if (c->detail)
    add_safe_string(item, "detail", c->detail);
  if (c->expect != MC_EXPECT_NONE) {
    cJSON *x = cJSON_AddObjectToObject(item, "expectation");
    cJSON_AddStringToObject(x, "verdict", mc_verdict_name(c->expected_verdict));
    add_safe_string(x, "reason", c->expect_reason);
    cJSON_AddStringToObject(x, "outcome", expect_state_name(c->expect));
  }
  cJSON_AddBoolToObject(item, "problem", mc_case_result_is_problem(c));
  cJSON_AddBoolToObject(item, "slow", is_slow(r, c));
  cJSON_AddNumberToObject(item, "seconds", c->seconds);
  if (c->inputs)
    add_safe_string(item, "inputs", c->inputs);
  if (c->attributes)
    add_safe_string(item, "attributes", c->attributes);
  if (c->rejection != MC_REJECTION_NONE)
    cJSON_AddStringToObject(item, "rejection",
                            c->rejection == MC_REJECTION_NAMED ? "named" : "unnamed");
  if (r->shard)
    cJSON_AddNumberToObject(item, "position", c->position);
  if (c->clauses && is_listed(r, c)) /* what a reader of a failure wants; passes stay short */
    add_safe_string(item, "clauses", c->clauses);
  if (c->origin && is_listed(r, c))
    add_safe_string(item, "origin", c->origin);
  if (c->picture)
    cJSON_AddItemToObject(item, "picture", picture_json(c->picture));
  return item;
}

/* ---- a case of a JSON report read back (report merge) ---- */

/* A string member as the run had it (the writer made it safe), or NULL. */
static char *member_text(const cJSON *obj, const char *key) {
  const char *text = mc_json_member_string(obj, key, NULL);
  return text ? mc_unsafe_text(text) : NULL;
}

static int member_verdict(const cJSON *obj) {
  const char *name = mc_json_member_string(obj, "verdict", NULL);
  return name ? mc_verdict_from_name(name) : -1;
}

static mc_expect_state expect_state_from_name(const char *name) {
  for (int s = MC_EXPECT_NONE; name && s <= MC_EXPECT_NOT_RUN; s++)
    if (strcmp(name, expect_state_name((mc_expect_state)s)) == 0)
      return (mc_expect_state)s;
  return MC_EXPECT_NONE;
}

/* The picture as json_case wrote it, back as its JSON text. */
static char *picture_text(const cJSON *item) {
  const cJSON *picture = cJSON_GetObjectItemCaseSensitive(item, "picture");
  return cJSON_IsObject(picture) ? cJSON_PrintUnformatted(picture) : NULL;
}

bool mc_case_result_from_json(const cJSON *item, mc_case_result *c) {
  const char *op = mc_json_member_string(item, "op", NULL);
  const char *type = mc_json_member_string(item, "type", NULL);
  const char *rejection = mc_json_member_string(item, "rejection", NULL);
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(item, "expectation");
  *c = (mc_case_result){.id = member_text(item, "id"),
                        .file = member_text(item, "file"),
                        .op = op ? (int)mc_op_from_name(op) : -1,
                        .data_type = type ? (int)mc_type_from_name(type) : -1,
                        .verdict = (mc_verdict)member_verdict(item),
                        .detail = member_text(item, "detail"),
                        .inputs = member_text(item, "inputs"),
                        .attributes = member_text(item, "attributes"),
                        .clauses = member_text(item, "clauses"),
                        .origin = member_text(item, "origin"),
                        .picture = picture_text(item),
                        .seconds = mc_json_member_number(item, "seconds"),
                        .position = (int)mc_json_member_number(item, "position"),
                        .output_elements = -1};
  snprintf(c->mode, sizeof c->mode, "-");
  if (rejection)
    c->rejection = strcmp(rejection, "named") == 0 ? MC_REJECTION_NAMED : MC_REJECTION_UNNAMED;
  if (cJSON_IsObject(x)) {
    c->expect = expect_state_from_name(mc_json_member_string(x, "outcome", NULL));
    c->expected_verdict = (mc_verdict)member_verdict(x);
    c->expect_reason = member_text(x, "reason");
  }
  return c->id && c->file && (int)c->verdict >= 0 && c->op >= 0 && c->op < MC_OP_COUNT &&
         c->data_type >= 0 && (c->expect == MC_EXPECT_NONE || (int)c->expected_verdict >= 0);
}

static cJSON *json_process_fault(const mc_process_fault *p) {
  cJSON *item = cJSON_CreateObject();
  add_safe_string(item, "observed_in", p->observed_in);
  if (p->culprit)
    add_safe_string(item, "culprit", p->culprit);
  else
    cJSON_AddNullToObject(item, "culprit");
  add_safe_string(item, "detail", p->detail);
  return item;
}

mc_process_fault mc_process_fault_from_json(const cJSON *item) {
  return (mc_process_fault){.observed_in = member_text(item, "observed_in"),
                            .culprit = member_text(item, "culprit"),
                            .detail = member_text(item, "detail")};
}

/* Which shard of which selection (run --shard), for report merge. */
static void add_shard(cJSON *root, const mc_run_report *r) {
  cJSON *s = cJSON_AddObjectToObject(root, "shard");
  cJSON_AddNumberToObject(s, "index", r->shard->index);
  cJSON_AddNumberToObject(s, "count", r->shard->count);
  cJSON_AddStringToObject(s, "selection", r->shard->selection);
  cJSON_AddNumberToObject(s, "selected_cases", r->shard->selected);
  cJSON_AddNumberToObject(s, "cost", r->shard->cost);
  cJSON_AddBoolToObject(s, "with_expectations", r->with_expectations);
  cJSON_AddNumberToObject(s, "timeout_seconds", r->timeout_seconds);
}

bool mc_report_write_json(const mc_run_report *r, FILE *out) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "movconf_version", MOVCONF_VERSION);
  add_safe_string(root, "implementation", r->impl);
  if (r->shard)
    add_shard(root, r);
  tally per_op[MC_OP_COUNT], total;
  tally_all(r, per_op, &total);
  cJSON *summary = cJSON_AddObjectToObject(root, "summary");
  cJSON_AddNumberToObject(summary, "cases", total.cases);
  for (int v = 0; v < MC_VERDICT_COUNT; v++)
    cJSON_AddNumberToObject(summary, mc_verdict_name((mc_verdict)v), total.by_verdict[v]);
  cJSON_AddNumberToObject(summary, "expected_failures", total.expected);
  cJSON_AddNumberToObject(summary, "unexpected_passes", total.unexpected_passes);
  cJSON_AddNumberToObject(summary, "problems", total.problems);
  cJSON_AddNumberToObject(summary, "failed", total.failed);
  cJSON_AddNumberToObject(summary, "unnamed_rejection_passes", total.unnamed_passes);
  double seconds = 0;
  int slow = 0;
  for (int i = 0; i < r->count; i++) {
    seconds += r->results[i].seconds;
    slow += is_slow(r, &r->results[i]);
  }
  cJSON_AddNumberToObject(summary, "seconds", seconds);
  cJSON_AddNumberToObject(summary, "slow", slow);
  cJSON_AddNumberToObject(summary, "slow_seconds", r->slow_seconds);
  if (r->stopped_early)
    add_safe_string(summary, "stopped_early", r->stopped_early);
  else
    cJSON_AddNullToObject(summary, "stopped_early");
  cJSON_AddNumberToObject(summary, "invalid_files", r->n_load_errors);
  cJSON_AddNumberToObject(summary, "process_faults", r->n_process_faults);
  cJSON *cases = cJSON_AddArrayToObject(root, "cases");
  for (int i = 0; i < r->count; i++)
    cJSON_AddItemToArray(cases, json_case(r, &r->results[i]));
  cJSON *errors = cJSON_AddArrayToObject(root, "invalid_files");
  for (int i = 0; i < r->n_load_errors; i++) {
    char *safe = mc_safe_text(r->load_errors[i]);
    cJSON_AddItemToArray(errors, cJSON_CreateString(safe));
    free(safe);
  }
  cJSON *faults = cJSON_AddArrayToObject(root, "process_faults");
  for (int i = 0; i < r->n_process_faults; i++)
    cJSON_AddItemToArray(faults, json_process_fault(&r->process_faults[i]));
  char *text = cJSON_Print(root);
  bool ok = text && fputs(text, out) >= 0 && fputc('\n', out) != EOF && fflush(out) == 0;
  cJSON_free(text);
  cJSON_Delete(root);
  return ok;
}

/* ---- JUnit XML ---- */

/* Text made safe (mc_safe_text, so only characters XML 1.0 allows remain)
   and escaped for an attribute value. */
static void xml_escaped(FILE *f, const char *text) {
  char *safe = mc_safe_text(text);
  for (const char *s = safe; *s; s++) {
    switch (*s) {
    case '<':
      fputs("&lt;", f);
      break;
    case '>':
      fputs("&gt;", f);
      break;
    case '&':
      fputs("&amp;", f);
      break;
    case '"':
      fputs("&quot;", f);
      break;
    default:
      fputc(*s, f);
    }
  }
  free(safe);
}

/* How a case appears in JUnit: an expectation decides first, then the verdict's row. */
static mc_junit_kind junit_kind_of(const mc_case_result *c) {
  if (c->expect == MC_EXPECT_UNEXPECTED_PASS)
    return MC_JUNIT_FAILURE;
  if (c->expect == MC_EXPECT_MET && c->verdict != MC_VERDICT_PASS)
    return MC_JUNIT_SKIPPED;
  return mc_verdict_junit_kind(c->verdict);
}

/* What a CI page shows under a failing case: its inputs, its file and how
   to see it again, so that a reader need not open the case file. */
static void junit_case_text(FILE *f, const mc_case_result *c) {
  fputs("inputs ", f);
  xml_escaped(f, c->inputs ? c->inputs : "");
  if (c->attributes && *c->attributes) {
    fputs("; ", f);
    xml_escaped(f, c->attributes);
  }
  fputs("\nfile ", f);
  xml_escaped(f, c->file ? c->file : "");
  fputs("\nre-run with this run's --impl: movconf show --impl SPEC '", f);
  xml_escaped(f, c->id);
  fputs("' '", f);
  xml_escaped(f, c->file ? c->file : "");
  fputs("'\n", f);
}

static void junit_element(FILE *f, const char *element, const char *type, const char *message,
                          const mc_case_result *c) {
  fprintf(f, "      <%s type=\"", element);
  xml_escaped(f, type);
  fputs("\" message=\"", f);
  xml_escaped(f, message ? message : "");
  fputs("\">", f);
  junit_case_text(f, c);
  fprintf(f, "</%s>\n", element);
}

static void write_junit_case(FILE *f, const mc_case_result *c) {
  fputs("    <testcase classname=\"", f);
  xml_escaped(f, mc_op_name((mc_op)c->op));
  fputs("\" name=\"", f);
  xml_escaped(f, c->id);
  fputs("\" file=\"", f);
  xml_escaped(f, c->file);
  fprintf(f, "\" time=\"%.6f", c->seconds);
  mc_junit_kind kind = junit_kind_of(c);
  if (kind == MC_JUNIT_PASSED) {
    fputs("\"/>\n", f);
    return;
  }
  fputs("\">\n", f);
  const char *verdict = mc_verdict_name(c->verdict);
  if (c->expect == MC_EXPECT_UNEXPECTED_PASS) {
    char *m = mc_strdupf("expected %s (%s), but the case passed",
                         mc_verdict_name(c->expected_verdict), c->expect_reason);
    junit_element(f, "failure", "unexpected-pass", m, c);
    free(m);
  } else if (c->expect == MC_EXPECT_MET) {
    char *m = mc_strdupf("expected %s: %s", verdict, c->expect_reason);
    fputs("      <skipped message=\"", f);
    xml_escaped(f, m);
    fputs("\"/>\n", f);
    free(m);
  } else if (kind == MC_JUNIT_SKIPPED) {
    fputs("      <skipped message=\"", f);
    xml_escaped(f, c->detail ? c->detail : verdict);
    fputs("\"/>\n", f);
  } else {
    junit_element(f, mc_junit_kind_name(kind), verdict, c->detail, c);
  }
  fputs("    </testcase>\n", f);
}

typedef struct junit_counts {
  int tests, failures, errors, skipped;
  double seconds;
} junit_counts;

static void junit_count(junit_counts *n, const mc_case_result *c) {
  mc_junit_kind k = junit_kind_of(c);
  n->tests++;
  n->seconds += c->seconds;
  n->failures += k == MC_JUNIT_FAILURE;
  n->errors += k == MC_JUNIT_ERROR;
  n->skipped += k == MC_JUNIT_SKIPPED;
}

static void write_junit_process_faults(FILE *f, const mc_run_report *r) {
  if (r->n_process_faults == 0)
    return;
  fprintf(f, "  <testsuite name=\"process faults\" tests=\"%d\" errors=\"%d\">\n",
          r->n_process_faults, r->n_process_faults);
  for (int i = 0; i < r->n_process_faults; i++) {
    fputs("    <testcase classname=\"process faults\" name=\"", f);
    xml_escaped(f, r->process_faults[i].observed_in);
    fputs("\">\n      <error type=\"crash\" message=\"", f);
    xml_escaped(f, r->process_faults[i].detail);
    fputs("\"/>\n    </testcase>\n", f);
  }
  fputs("  </testsuite>\n", f);
}

bool mc_report_write_junit(const mc_run_report *r, FILE *f) {
  junit_counts total = {0}, per_op[MC_OP_COUNT];
  memset(per_op, 0, sizeof per_op);
  for (int i = 0; i < r->count; i++) {
    junit_count(&total, &r->results[i]);
    junit_count(&per_op[r->results[i].op], &r->results[i]);
  }
  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"movconf\" tests=\"%d\" "
          "failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.6f\">\n",
          total.tests + r->n_load_errors + r->n_process_faults, total.failures,
          total.errors + r->n_load_errors + r->n_process_faults, total.skipped, total.seconds);
  for (int op = 0; op < MC_OP_COUNT; op++) {
    const junit_counts *n = &per_op[op];
    if (n->tests == 0)
      continue;
    fprintf(f,
            "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
            "skipped=\"%d\" time=\"%.6f\">\n",
            mc_op_name((mc_op)op), n->tests, n->failures, n->errors, n->skipped, n->seconds);
    for (int i = 0; i < r->count; i++)
      if (r->results[i].op == op)
        write_junit_case(f, &r->results[i]);
    fputs("  </testsuite>\n", f);
  }
  for (int i = 0; i < r->n_load_errors; i++) {
    fputs("  <testsuite name=\"case files\" tests=\"1\" errors=\"1\">\n    <testcase "
          "classname=\"case files\" name=\"load\">\n      <error message=\"",
          f);
    xml_escaped(f, r->load_errors[i]);
    fputs("\"/>\n    </testcase>\n  </testsuite>\n", f);
  }
  write_junit_process_faults(f, r);
  fputs("</testsuites>\n", f);
  return fflush(f) == 0 && !ferror(f);
}
