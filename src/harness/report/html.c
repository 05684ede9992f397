/* movconf report html: run and bench JSON reports as one self-contained
   HTML page (inline CSS, no script, no external reference). A report may
   have been crafted by anyone: every text of it is escaped, its pictures
   capped, and the page's policy forbids script and fetches. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/json.h"
#include "common/clauses.h"
#include "common/text.h"
#include "harness/harness.h"
#include "movconf/version.h"

#define MAX_REPORT_BYTES ((size_t)1 << 30)

/* ---- escaping ---- */

/* Markup's five special characters as entities: text that can neither
   open an element nor leave an attribute's quotes. */
static void put_html_text(mc_text *t, const char *s) {
  static const char *const entities[256] = {
      ['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;"};
  for (; s && *s; s++) {
    const char *entity = entities[(unsigned char)*s];
    if (entity)
      mc_text_put(t, entity, strlen(entity));
    else
      mc_text_put(t, s, 1);
  }
}

/* Every text read from a report goes through here (see harness.h). */
void mc_html_put_report_text(mc_text *t, const char *s) {
  char *safe = mc_safe_report_text(s);
  put_html_text(t, safe);
  free(safe);
}

/* A member of a report read back; "" when absent, so pages print nothing. */
static const char *string_of(const cJSON *obj, const char *key) {
  return mc_json_member_string(obj, key, "");
}

/* ---- pictures capped on read ---- */

/* A picture movconf writes is at most MC_PICTURE_EDGE x MC_PICTURE_EDGE
   cells of short texts, about 13 kB (spec/runner.md); a crafted report can
   hold one of millions of cells, which cJSON would take gigabytes to hold
   and the page would draw whole. So, before parsing, a picture whose JSON
   text is longer than PICTURE_MAX_BYTES is replaced (in place, padded with
   blanks) by {"omitted_bytes": N}; after, every picture is cut to
   MC_PICTURE_EDGE rows and columns, each cell to PICTURE_CELL_BYTES. */
#define PICTURE_MAX_BYTES ((size_t)64 << 10)
#define PICTURE_CELL_BYTES 256

/* The end of the JSON string whose opening quote is at text[i]: the index
   after its closing quote (len when it has none). */
static size_t string_end(const char *text, size_t len, size_t i) {
  for (i++; i < len && text[i] != '"'; i++)
    if (text[i] == '\\')
      i++;
  return i < len ? i + 1 : len;
}

static size_t skip_blanks(const char *text, size_t len, size_t i) {
  while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
    i++;
  return i;
}

/* The end of the object or array that opens at text[i]. */
static size_t container_end(const char *text, size_t len, size_t i) {
  size_t depth = 0;
  for (; i < len; i++) {
    if (text[i] == '"')
      i = string_end(text, len, i) - 1;
    else if (text[i] == '{' || text[i] == '[')
      depth++;
    else if ((text[i] == '}' || text[i] == ']') && --depth == 0)
      return i + 1;
  }
  return len;
}

/* A member name that may be "picture": spelt so, or with escapes (which
   movconf never writes in a name, so only a crafted report has them). */
static bool may_name_picture(const char *name, size_t n) {
  return (n == 7 && memcmp(name, "picture", 7) == 0) || memchr(name, '\\', n) != NULL;
}

static void omit_large_pictures(char *text, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (text[i] != '"')
      continue;
    size_t end = string_end(text, len, i), value = skip_blanks(text, len, end);
    bool member = value < len && text[value] == ':';
    if (member && may_name_picture(text + i + 1, end - i - 2)) {
      value = skip_blanks(text, len, value + 1);
      size_t stop = value < len && (text[value] == '{' || text[value] == '[')
                        ? container_end(text, len, value)
                        : value;
      if (stop - value > PICTURE_MAX_BYTES) {
        int n = snprintf(text + value, stop - value, "{\"omitted_bytes\":%zu}", stop - value);
        memset(text + value + n, ' ', stop - value - (size_t)n);
      }
    }
    i = end - 1;
  }
}

/* Drops the items of array after its first keep. */
static void truncate_array(cJSON *array, int keep) {
  cJSON *drop = cJSON_IsArray(array) ? array->child : NULL;
  for (int i = 0; drop && i < keep; i++)
    drop = drop->next;
  if (!drop)
    return;
  if (drop == array->child) {
    array->child = NULL;
  } else {
    array->child->prev = drop->prev; /* the first item's prev is the last */
    drop->prev->next = NULL;
  }
  drop->prev = NULL;
  cJSON_Delete(drop); /* it and every item after it */
}

/* A text of at most PICTURE_CELL_BYTES, cut at a character's start. */
static void cut_string(cJSON *item) {
  char *s = cJSON_GetStringValue(item);
  size_t n = s ? strlen(s) : 0;
  if (n <= PICTURE_CELL_BYTES)
    return;
  size_t cut = PICTURE_CELL_BYTES;
  while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
    cut--;
  s[cut] = '\0';
}

static void cap_picture(cJSON *pic) {
  static const char *const grids[] = {"expected", "got", "state", "from"};
  for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
    cJSON *rows = cJSON_GetObjectItemCaseSensitive(pic, grids[g]), *row, *cell;
    truncate_array(rows, MC_PICTURE_EDGE);
    cJSON_ArrayForEach(row, (cJSON_IsArray(rows) ? rows : NULL)) {
      truncate_array(row, MC_PICTURE_EDGE);
      cJSON_ArrayForEach(cell, (cJSON_IsArray(row) ? row : NULL)) {
        cut_string(cell);
      }
    }
  }
  cut_string(cJSON_GetObjectItemCaseSensitive(pic, "slice"));
}

static void cap_pictures(cJSON *root) {
  cJSON *c;
  cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "cases")) {
    cap_picture(cJSON_GetObjectItemCaseSensitive(c, "picture"));
  }
}

/* ---- the reports read ---- */

typedef enum report_kind { REPORT_RUN, REPORT_BENCH } report_kind;

typedef struct report {
  const char *path;
  report_kind kind;
  cJSON *root;
} report;

static int read_report(const char *path, report *r) {
  size_t len;
  int error = 0;
  char *text = mc_read_file_bounded(path, MAX_REPORT_BYTES, &len, &error);
  if (!text || len > MAX_REPORT_BYTES) {
    fprintf(stderr, "movconf report html: cannot read %s: %s\n", path,
            text              ? "larger than 1 GiB"
            : error == EINVAL ? "not a regular file"
                              : strerror(error));
    free(text);
    return 2;
  }
  r->path = path;
  omit_large_pictures(text, len);
  if (mc_json_count_values(text, len) > MC_REPORT_MAX_VALUES) { /* before cJSON allocates them */
    fprintf(stderr, "movconf report html: %s holds more than %zu JSON values\n", path,
            MC_REPORT_MAX_VALUES);
    free(text);
    return 2;
  }
  r->root = cJSON_ParseWithLength(text, len);
  free(text);
  cap_pictures(r->root);
  bool run = cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(r->root, "cases")) &&
             cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(r->root, "summary"));
  bool bench = cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(r->root, "workloads"));
  if (!run && !bench) {
    fprintf(stderr,
            "movconf report html: %s is neither a run report (movconf run --json) nor a bench "
            "report (movconf bench --json)\n",
            path);
    cJSON_Delete(r->root);
    r->root = NULL;
    return 2;
  }
  r->kind = run ? REPORT_RUN : REPORT_BENCH;
  return -1;
}

/* ---- a shard beside the run that holds it ---- */

static int compare_text(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const cJSON *cases_of(const report *r) {
  return cJSON_GetObjectItemCaseSensitive(r->root, "cases");
}

/* Whether every case of part (at least one) is a case of whole. */
static bool holds_cases(const report *whole, const report *part) {
  const char **ids =
      mc_realloc_or_abort(NULL, sizeof *ids * (size_t)(1 + cJSON_GetArraySize(cases_of(whole))));
  size_t n = 0;
  const cJSON *c;
  cJSON_ArrayForEach(c, cases_of(whole)) ids[n++] = string_of(c, "id");
  qsort(ids, n, sizeof *ids, compare_text);
  bool all = cJSON_GetArraySize(cases_of(part)) > 0;
  cJSON_ArrayForEach(c, cases_of(part)) {
    const char *id = string_of(c, "id");
    if (!bsearch(&id, ids, n, sizeof *ids, compare_text)) {
      all = false;
      break;
    }
  }
  free(ids);
  return all;
}

static bool is_shard(const report *r) {
  return r->kind == REPORT_RUN &&
         cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(r->root, "shard"));
}

/* A shard's report beside the merged (or whole) run that holds its cases
   would show those cases twice, as two columns: refused. */
static bool shard_beside_its_run(const report *reports, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; is_shard(&reports[i]) && j < n; j++)
      if (reports[j].kind == REPORT_RUN && !is_shard(&reports[j]) &&
          strcmp(string_of(reports[i].root, "implementation"),
                 string_of(reports[j].root, "implementation")) == 0 &&
          holds_cases(&reports[j], &reports[i])) {
        fprintf(stderr,
                "movconf report html: %s is a shard of the run that %s holds whole (its cases "
                "would show twice): give the merged report or the shards, not both\n",
                reports[i].path, reports[j].path);
        return true;
      }
  return false;
}

/* ---- counts ---- */

static const char *expectation_outcome(const cJSON *c) {
  return string_of(cJSON_GetObjectItemCaseSensitive(c, "expectation"), "outcome");
}

/* A name of no verdict counts as a failure, as before the verdict list. */
static bool is_failure_verdict(const char *v) {
  int k = mc_verdict_from_name(v);
  return k < 0 || mc_verdict_is_failure((mc_verdict)k);
}

/* As the terminal report lists them: failures and unexpected passes. */
static bool is_listed(const cJSON *c) {
  return is_failure_verdict(string_of(c, "verdict")) ||
         strcmp(expectation_outcome(c), "unexpected-pass") == 0;
}

typedef struct tally {
  int cases, passed, failed, unsupported, xfail;
  int by_verdict[MC_VERDICT_COUNT];
} tally;

static void count_case(tally *t, const cJSON *c) {
  const char *v = string_of(c, "verdict");
  bool foreseen = strcmp(expectation_outcome(c), "expected") == 0;
  int k = mc_verdict_from_name(v);
  t->cases++;
  if (k >= 0)
    t->by_verdict[k]++;
  t->passed += k == MC_VERDICT_PASS;
  t->unsupported += k == MC_VERDICT_UNSUPPORTED;
  t->failed += is_failure_verdict(v) && !foreseen;
  t->xfail += is_failure_verdict(v) && foreseen;
}

static tally op_tally(const report *r, int op) {
  tally t = {0};
  const cJSON *c;
  cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(r->root, "cases")) {
    if (op < 0 || strcmp(string_of(c, "op"), mc_op_name((mc_op)op)) == 0)
      count_case(&t, c);
  }
  return t;
}

/* ---- the page ---- */

static const char page_style[] =
    "body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2330;background:#f6f7f9;"
    "overflow-wrap:anywhere}.sub{font-weight:400;font-size:11px;color:#5b6475}"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:2px solid "
    "#d8dce3;padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}"
    ".meta{color:#5b6475;margin:0 0 16px}"
    "table{border-collapse:collapse;background:#fff;box-shadow:0 1px 2px #0002}"
    "th,td{border:1px solid #d8dce3;padding:4px 8px;text-align:right}"
    "th{background:#eef0f4;text-align:center}td.op,th.op{text-align:left;font-weight:600}"
    "td.cell{text-align:center;min-width:190px}.rate{font-size:18px;font-weight:700}"
    ".counts{font-size:12px;color:#333}.zero{color:#aab}"
    "details.case{background:#fff;border:1px solid #d8dce3;border-left:4px solid #c0392b;"
    "margin:4px 0;padding:4px 8px;border-radius:3px}details.case.xfail{border-left-color:#999}"
    "details.case summary{cursor:pointer;font-family:ui-monospace,monospace;font-size:13px}"
    "summary .inputs{color:#5b6475;margin-left:12px;font-size:12px}"
    ".verdict{display:inline-block;padding:0 6px;border-radius:3px;background:#c0392b;color:#fff;"
    "font-family:system-ui,sans-serif;font-size:12px;margin-right:6px}"
    "dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:8px 0}"
    "dt{color:#5b6475}dd{margin:0;font-family:ui-monospace,monospace;font-size:12.5px;"
    "word-break:break-word}"
    ".bar{position:relative;height:16px;width:420px;background:#eef0f4;border-radius:3px}"
    ".bar span{position:absolute;left:0;top:0;bottom:0;background:#2e86de;border-radius:3px}"
    ".bar i{position:absolute;top:-2px;bottom:-2px;width:2px;background:#1d2330}"
    "td.wl{text-align:left;font-family:ui-monospace,monospace}.bar i.ceiling{background:#c0392b;"
    "width:3px}"
    "table.pic td{min-width:28px;height:20px;padding:1px 3px;font:11px ui-monospace,monospace;"
    "text-align:center;white-space:nowrap;overflow-wrap:normal}table.pic "
    "td.ok{background:#e3f4e6}table.pic td.wrong{background:#f6b7b0;"
    "font-weight:700}table.pic td.unwritten{background:#c9c9c9;color:#555}table.pic "
    "td.moved{background:#ffe08a}table.pic th{font-size:11px;padding:1px 4px}"
    ".pics{display:flex;gap:24px;flex-wrap:wrap;margin:6px 0;overflow-x:auto}.legend "
    "span{display:inline-block;"
    "padding:0 6px;margin-right:6px;border:1px solid #ccc}"
    ".legend .ok{background:#e3f4e6}.legend .wrong{background:#f6b7b0}.legend "
    ".unwritten{background:#c9c9c9}.legend .moved{background:#ffe08a}";

/* What the page may load and run: nothing but its own inline CSS (the
   <style> element and style attributes). No script, no fetch, no form,
   no <base>: markup that escaped the escaping would still do nothing. */
#define PAGE_POLICY                                                                                \
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

/* A background for a pass rate: green only when every supported case
   passed; below, amber to red (a conformance suite at 97% is failing). */
static void put_rate_colour(mc_text *t, double rate) {
  int hue = rate >= 1.0 ? 125 : (int)lround(pow(rate, 4) * 48.0);
  mc_text_printf(t, " style=\"background:hsl(%d,65%%,82%%)\"", hue);
}

static void put_matrix_cell(mc_text *t, const report *r, int impl, int op) {
  tally n = op_tally(r, op);
  mc_text_printf(t,
                 "<td class=\"cell\" data-impl=\"%d\" data-op=\"%s\" data-cases=\"%d\" "
                 "data-passed=\"%d\" data-failed=\"%d\" data-unsupported=\"%d\"",
                 impl, op < 0 ? "total" : mc_op_name((mc_op)op), n.cases, n.passed, n.failed,
                 n.unsupported);
  int judged = n.cases - n.unsupported;
  if (judged <= 0) {
    mc_text_printf(t, "><span class=\"zero\">%s</span></td>", n.cases ? "all unsupported" : "-");
    return;
  }
  double rate = (double)n.passed / judged;
  put_rate_colour(t, rate);
  /* rounded down, so that 99.97% never shows as 100% */
  mc_text_printf(t,
                 "><div class=\"rate\">%.1f%%</div><div class=\"counts\">%d passed &middot; %d "
                 "failed &middot; %d unsupported",
                 floor(rate * 1000.0) / 10.0, n.passed, n.failed, n.unsupported);
  if (n.xfail)
    mc_text_printf(t, " &middot; %d xfail", n.xfail);
  mc_text_printf(t, "</div></td>");
}

/* The implementation's name, what follows its first " (" smaller, and
   the report's file (two runs of one implementation stay apart). */
static void put_impl_name(mc_text *t, const report *r) {
  const char *name = string_of(r->root, "implementation");
  const char *rest = strstr(name, " (");
  char *head = mc_strdupf("%.*s", rest ? (int)(rest - name) : (int)strlen(name), name);
  mc_html_put_report_text(t, head);
  free(head);
  mc_text_printf(t, "<div class=\"sub\">");
  mc_html_put_report_text(t, rest ? rest + 1 : "");
  mc_text_printf(t, "%s", rest ? " " : "");
  mc_html_put_report_text(t, r->path);
  mc_text_printf(t, "</div>");
}

static void put_impl_heading(mc_text *t, const report *r, int i) {
  mc_text_printf(t, "<th data-impl=\"%d\">", i);
  put_impl_name(t, r);
  mc_text_put(t, "</th>", 5);
}

static void put_matrix(mc_text *t, const report *runs, int n) {
  mc_text_printf(t, "<h2>Conformance matrix</h2>\n<table class=\"matrix\"><tr><th "
                    "class=\"op\">operation</th>");
  for (int i = 0; i < n; i++)
    put_impl_heading(t, &runs[i], i);
  mc_text_printf(t, "</tr>\n");
  for (int k = 0; k <= MC_OP_COUNT; k++) {
    int op = k == MC_OP_COUNT ? -1 : k;
    mc_text_printf(t, "<tr><td class=\"op\">%s</td>", op < 0 ? "total" : mc_op_name((mc_op)op));
    for (int i = 0; i < n; i++)
      put_matrix_cell(t, &runs[i], i, op);
    mc_text_printf(t, "</tr>\n");
  }
  mc_text_printf(t, "</table>\n<p class=\"meta\">The pass rate is of the cases the "
                    "implementation supports; expected failures (--expect) are not "
                    "counted as failed.</p>\n");
}

/* Per operation, each verdict's count (only the verdicts that occurred). */
static void put_verdict_table(mc_text *t, const report *r, int impl) {
  tally total = op_tally(r, -1);
  mc_text_printf(t,
                 "<table class=\"verdicts\" data-impl=\"%d\"><tr><th class=\"op\">operation</th>"
                 "<th>cases</th>",
                 impl);
  for (int v = 0; v < MC_VERDICT_COUNT; v++)
    if (total.by_verdict[v] || v == 0)
      mc_text_printf(t, "<th>%s</th>", mc_verdict_name((mc_verdict)v));
  mc_text_printf(t, "</tr>\n");
  for (int k = 0; k <= MC_OP_COUNT; k++) {
    int op = k == MC_OP_COUNT ? -1 : k;
    tally n = op_tally(r, op);
    if (!n.cases && op >= 0)
      continue;
    mc_text_printf(t, "<tr><td class=\"op\">%s</td><td>%d</td>",
                   op < 0 ? "total" : mc_op_name((mc_op)op), n.cases);
    for (int v = 0; v < MC_VERDICT_COUNT; v++)
      if (total.by_verdict[v] || v == 0)
        mc_text_printf(t, "<td data-verdict=\"%s\"%s>%d</td>", mc_verdict_name((mc_verdict)v),
                       n.by_verdict[v] ? "" : " class=\"zero\"", n.by_verdict[v]);
    mc_text_printf(t, "</tr>\n");
  }
  mc_text_printf(t, "</table>\n");
}

/* ---- the failures ---- */

static void put_field(mc_text *t, const char *name, const char *value) {
  if (!value || !*value)
    return;
  mc_text_printf(t, "<dt>%s</dt><dd>", name);
  mc_html_put_report_text(t, value);
  mc_text_put(t, "</dd>", 5);
}

/* The clauses a case cites, each with its text from movconf's registry
   (the ids of the report are checked against it: unknown ones stay bare). */
static void put_clauses(mc_text *t, const char *list) {
  if (!*list)
    return;
  mc_text_printf(t, "<dt>clauses</dt><dd class=\"clauses\">");
  char *copy = mc_strdupf("%s", list), *save = NULL;
  for (char *id = strtok_r(copy, ", ", &save); id; id = strtok_r(NULL, ", ", &save)) {
    const mc_clause *clause = mc_clause_find(id);
    mc_text_printf(t, "<div><b>");
    mc_html_put_report_text(t, id);
    mc_text_printf(t, "</b> ");
    mc_html_put_report_text(t, clause ? clause->summary : "");
    mc_text_printf(t, "</div>");
  }
  free(copy);
  mc_text_printf(t, "</dd>");
}

/* The group a listed case belongs to, as the terminal report names it. */
static const char *group_of(const cJSON *c) {
  const char *outcome = expectation_outcome(c);
  if (strcmp(outcome, "expected") == 0)
    return "xfail";
  if (strcmp(outcome, "unexpected-pass") == 0)
    return "xpass";
  return string_of(c, "verdict");
}

/* The exponent ending a number's text ("e-05" of "1.72851562e-05"), or
   NULL: a cut value keeps it, so that 1.7e-05 does not read as 1.7. */
static const char *number_exponent(const char *value) {
  const char *e = strrchr(value, 'e');
  if (!e || e == value || !strchr("0123456789.", e[-1]))
    return NULL;
  const char *digits = e + 1 + (e[1] == '-' || e[1] == '+');
  if (!*digits || strspn(digits, "0123456789") != strlen(digits))
    return NULL;
  return strspn(value, "-0123456789.") == (size_t)(e - value) ? e : NULL;
}

/* A value cut to CELL_CHARS bytes (at a character's start) with an
   ellipsis, so that 16 columns fit a page, a number's exponent kept after
   it; the title has it whole. */
#define CELL_CHARS 6
#define CELL_MANTISSA_CHARS 4 /* of a number with an exponent */
#define PICTURE_MAX_CELLS 256 /* at most, spec/runner.md */
static void put_cell_text(mc_text *t, const char *value) {
  size_t n = value ? strlen(value) : 0;
  if (n <= CELL_CHARS + 1) {
    mc_html_put_report_text(t, value);
    return;
  }
  const char *exponent = number_exponent(value);
  size_t cut = exponent ? CELL_MANTISSA_CHARS : CELL_CHARS;
  while (cut > 0 && ((unsigned char)value[cut] & 0xC0) == 0x80)
    cut--;
  char *head = mc_strdupf("%.*s", (int)cut, value);
  mc_html_put_report_text(t, head);
  free(head);
  mc_text_put(t, "&hellip;", 8);
  if (exponent)
    mc_html_put_report_text(t, exponent);
}

/* The class of a returned cell: its state when it is one a picture has
   (spec/runner.md), else "wrong" (a report someone crafted). */
static const char *state_class(const char *state) {
  static const char *const states[] = {"ok", "wrong", "unwritten", "moved"};
  for (size_t i = 0; i < sizeof states / sizeof states[0]; i++)
    if (strcmp(state, states[i]) == 0)
      return states[i];
  return "wrong";
}

/* The picture of a wrong output (a "picture" member, spec/runner.md): the
   expected and the returned slice, each cell classed by what it is. */
static void put_slice(mc_text *t, const cJSON *pic, const char *which) {
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive(pic, which);
  const cJSON *state = cJSON_GetObjectItemCaseSensitive(pic, "state");
  const cJSON *from = cJSON_GetObjectItemCaseSensitive(pic, "from");
  double row0 = mc_json_member_number(pic, "row0"), col0 = mc_json_member_number(pic, "col0");
  bool got = strcmp(which, "got") == 0;
  mc_text_printf(t, "<table class=\"pic\" data-which=\"%s\"><caption>%s</caption><tr><th></th>",
                 which, got ? "returned" : "expected");
  const cJSON *first = cJSON_GetArrayItem(rows, 0);
  for (int j = 0; j < cJSON_GetArraySize(first); j++)
    mc_text_printf(t, "<th>%.0f</th>", col0 + j);
  mc_text_printf(t, "</tr>");
  for (int i = 0; i < cJSON_GetArraySize(rows); i++) {
    const cJSON *row = cJSON_GetArrayItem(rows, i);
    const cJSON *srow = cJSON_GetArrayItem(state, i), *frow = cJSON_GetArrayItem(from, i);
    mc_text_printf(t, "<tr><th>%.0f</th>", row0 + i);
    for (int j = 0; j < cJSON_GetArraySize(row); j++) {
      const char *s = cJSON_GetStringValue(cJSON_GetArrayItem(srow, j));
      const char *f = cJSON_GetStringValue(cJSON_GetArrayItem(frow, j));
      const char *cls = !got || !s ? "ok" : state_class(s);
      const char *value = cJSON_GetStringValue(cJSON_GetArrayItem(row, j));
      mc_text_printf(t, "<td class=\"%s\" title=\"", cls);
      mc_html_put_report_text(t, value);
      if (got && f) {
        mc_text_put(t, " from ", 6);
        mc_html_put_report_text(t, f);
      }
      mc_text_put(t, "\">", 2);
      put_cell_text(t, value);
      mc_text_put(t, "</td>", 5);
    }
    mc_text_printf(t, "</tr>");
  }
  mc_text_printf(t, "</table>");
}

static void put_picture(mc_text *t, const cJSON *pic) {
  if (!cJSON_IsObject(pic))
    return;
  if (cJSON_GetObjectItemCaseSensitive(pic, "omitted_bytes")) {
    mc_text_printf(t,
                   "<p class=\"picture\">picture left out: %.0f bytes in the report, more than "
                   "the %zu a picture can take</p>",
                   mc_json_member_number(pic, "omitted_bytes"), PICTURE_MAX_BYTES);
    return;
  }
  mc_text_printf(t, "<div class=\"picture\"><p>");
  mc_html_put_report_text(t, string_of(pic, "slice"));
  mc_text_printf(t, "</p><div class=\"pics\">");
  put_slice(t, pic, "expected");
  put_slice(t, pic, "got");
  mc_text_printf(t, "</div><p class=\"legend\"><span class=\"ok\">correct</span><span "
                    "class=\"wrong\">wrong</span><span class=\"unwritten\">unwritten (movconf's "
                    "fill)</span><span class=\"moved\">taken from another place (hover: where "
                    "from)</span></p></div>");
}

/* open: the case is shown expanded (the first of each group). */
static void put_case(mc_text *t, const cJSON *c, bool open) {
  const char *group = group_of(c);
  bool xfail = strcmp(group, "xfail") == 0;
  mc_text_printf(t, "<details class=\"case%s\"%s><summary><span class=\"verdict\">",
                 xfail ? " xfail" : "", open ? " open" : "");
  mc_html_put_report_text(t, string_of(c, "verdict"));
  mc_text_put(t, "</span>", 7);
  mc_html_put_report_text(t, string_of(c, "id"));
  mc_text_printf(t, "<span class=\"inputs\">");
  mc_html_put_report_text(t, string_of(c, "inputs"));
  mc_text_printf(t, "</span></summary><dl>");
  put_field(t, "file", string_of(c, "file"));
  put_field(t, "type", string_of(c, "type"));
  put_field(t, "inputs", string_of(c, "inputs"));
  put_field(t, "attributes", string_of(c, "attributes"));
  put_clauses(t, string_of(c, "clauses"));
  put_field(t, "origin", string_of(c, "origin"));
  put_field(t, "detail", string_of(c, "detail"));
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(c, "expectation");
  if (x) {
    char *text = mc_strdupf("%s (%s): %s", string_of(x, "verdict"), string_of(x, "outcome"),
                            string_of(x, "reason"));
    put_field(t, "expected", text);
    free(text);
  }
  char seconds[64];
  snprintf(seconds, sizeof seconds, "%.4f s%s", mc_json_member_number(c, "seconds"),
           cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "slow")) ? " (slow)" : "");
  put_field(t, "time", seconds);
  mc_text_printf(t, "</dl>");
  put_picture(t, cJSON_GetObjectItemCaseSensitive(c, "picture"));
  mc_text_printf(t, "</details>\n");
}

/* Problems first, then foreseen failures; by operation, then group. */
static int listed_rank(const cJSON *c) {
  const char *g = group_of(c);
  int op = (int)mc_op_from_name(string_of(c, "op"));
  int v = strcmp(g, "xfail") == 0   ? MC_VERDICT_COUNT + 1
          : strcmp(g, "xpass") == 0 ? MC_VERDICT_COUNT
                                    : mc_verdict_from_name(g);
  bool foreseen = strcmp(g, "xfail") == 0;
  return (foreseen * (MC_OP_COUNT + 1) + (op < 0 ? MC_OP_COUNT : op)) * (MC_VERDICT_COUNT + 2) + v;
}

typedef struct ranked {
  int rank, order;
  const cJSON *c;
} ranked;

static int compare_ranked(const void *pa, const void *pb) {
  const ranked *a = pa, *b = pb;
  return a->rank != b->rank ? (a->rank > b->rank) - (a->rank < b->rank) : a->order - b->order;
}

/* How much a case's picture shows: its cells, and more when some cell
   says where its value came from or that it was never written. */
static int picture_score(const cJSON *c) {
  const cJSON *pic = cJSON_GetObjectItemCaseSensitive(c, "picture");
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive(pic, "state"), *row, *cell;
  int score = 0;
  cJSON_ArrayForEach(row, rows) {
    cJSON_ArrayForEach(cell, row) {
      const char *state = cJSON_GetStringValue(cell);
      score += 1 + (state && (strcmp(state, "moved") == 0 || strcmp(state, "unwritten") == 0)) *
                       PICTURE_MAX_CELLS;
    }
  }
  return score;
}

/* The case of list[from..to) shown first and expanded: the one whose
   picture shows most (the first on a tie), so that a group opens on what
   explains it. */
static int most_pictured(const ranked *list, int from, int to) {
  int best = from;
  for (int i = from + 1; i < to; i++)
    if (picture_score(list[i].c) > picture_score(list[best].c))
      best = i;
  return best;
}

static void put_failures(mc_text *t, const report *r, int impl) {
  const cJSON *cases = cJSON_GetObjectItemCaseSensitive(r->root, "cases");
  int n = 0;
  ranked *list = mc_realloc_or_abort(NULL, sizeof *list * (size_t)(cJSON_GetArraySize(cases) + 1));
  const cJSON *c;
  cJSON_ArrayForEach(c, cases) {
    if (is_listed(c))
      list[n] = (ranked){listed_rank(c), n, c}, n++;
  }
  qsort(list, (size_t)n, sizeof *list, compare_ranked);
  if (n == 0)
    mc_text_printf(t, "<p>No failures.</p>\n");
  for (int i = 0; i < n;) {
    int k = i;
    while (k < n && list[k].rank == list[i].rank)
      k++;
    mc_text_printf(t, "<h3 class=\"group\" data-impl=\"%d\" data-count=\"%d\">", impl, k - i);
    mc_html_put_report_text(t, string_of(list[i].c, "op"));
    mc_text_put(t, ": ", 2);
    mc_html_put_report_text(t, group_of(list[i].c));
    mc_text_printf(t, " (%d case%s)</h3>\n", k - i, k - i == 1 ? "" : "s");
    int shown = most_pictured(list, i, k); /* first, expanded */
    put_case(t, list[shown].c, true);
    for (; i < k; i++)
      if (i != shown)
        put_case(t, list[i].c, false);
  }
  free(list);
}

static void put_list(mc_text *t, const char *heading, const cJSON *items, const char *key) {
  if (cJSON_GetArraySize(items) == 0)
    return;
  mc_text_printf(t, "<h3>%s</h3><ul>", heading);
  const cJSON *item;
  cJSON_ArrayForEach(item, items) {
    mc_text_put(t, "<li>", 4);
    mc_html_put_report_text(t, key ? string_of(item, key) : cJSON_GetStringValue(item));
    mc_text_put(t, "</li>", 5);
  }
  mc_text_printf(t, "</ul>\n");
}

static void put_run(mc_text *t, const report *r, int impl) {
  mc_text_printf(t, "<h2 data-impl=\"%d\">", impl);
  put_impl_name(t, r);
  mc_text_printf(t, "</h2>\n<p class=\"meta\">movconf ");
  mc_html_put_report_text(t, string_of(r->root, "movconf_version"));
  const char *stopped =
      string_of(cJSON_GetObjectItemCaseSensitive(r->root, "summary"), "stopped_early");
  if (*stopped) {
    mc_text_printf(t, " &middot; <b>");
    mc_html_put_report_text(t, stopped);
    mc_text_printf(t, "</b>");
  }
  mc_text_printf(t, "</p>\n");
  put_verdict_table(t, r, impl);
  put_failures(t, r, impl);
  put_list(t, "Invalid case files", cJSON_GetObjectItemCaseSensitive(r->root, "invalid_files"),
           NULL);
  put_list(t, "Process faults", cJSON_GetObjectItemCaseSensitive(r->root, "process_faults"),
           "detail");
}

/* ---- bench ---- */

/* A bar of gbps with the ceiling's mark (red) and memcpy's (black), on a
   scale that holds all three: on a loaded machine any of them can lead. */
static void put_bar(mc_text *t, double gbps, double ceiling, double memcpy_gbps) {
  double top = fmax(fmax(gbps, ceiling), memcpy_gbps);
  double scale = top > 0 && isfinite(top) ? 100.0 / top : 0;
  mc_text_printf(t, "<div class=\"bar\"><span style=\"width:%.1f%%\"></span>", gbps * scale);
  if (ceiling > 0)
    mc_text_printf(t, "<i class=\"ceiling\" style=\"left:%.1f%%\" title=\"ceiling\"></i>",
                   ceiling * scale);
  if (memcpy_gbps > 0)
    mc_text_printf(t, "<i style=\"left:%.1f%%\" title=\"memcpy\"></i>", memcpy_gbps * scale);
  mc_text_printf(t, "</div>");
}

static void put_bench_row(mc_text *t, const cJSON *w) {
  double ceiling = mc_json_member_number(w, "ceiling_gb_per_s");
  mc_text_printf(t, "<tr class=\"workload\"><td class=\"wl\">");
  mc_html_put_report_text(t, string_of(w, "id"));
  mc_text_printf(t, "</td><td>");
  mc_html_put_report_text(t, string_of(w, "status"));
  mc_text_printf(t, "</td><td>%.2f</td><td>%.2f</td><td>%.0f%%</td><td>",
                 mc_json_member_number(w, "gb_per_s"), ceiling,
                 100.0 * mc_json_member_number(w, "ceiling_ratio"));
  put_bar(t, mc_json_member_number(w, "gb_per_s"), ceiling,
          mc_json_member_number(w, "memcpy_gb_per_s"));
  mc_text_printf(t, "</td></tr>\n");
  const cJSON *impl = cJSON_GetObjectItemCaseSensitive(w, "impl");
  if (!cJSON_IsObject(impl))
    return;
  mc_text_printf(t, "<tr class=\"impl\"><td class=\"wl\">&nbsp;&nbsp;");
  mc_html_put_report_text(t, string_of(impl, "name"));
  mc_text_printf(t, "</td><td>");
  mc_html_put_report_text(t, string_of(impl, "status"));
  mc_text_printf(t, "</td><td>%.2f</td><td></td><td>%.0f%%</td><td>",
                 mc_json_member_number(impl, "gb_per_s"),
                 100.0 * mc_json_member_number(impl, "ceiling_ratio"));
  put_bar(t, mc_json_member_number(impl, "gb_per_s"), ceiling, 0);
  mc_text_printf(t, "</td></tr>\n");
}

static void put_bench(mc_text *t, const report *r) {
  mc_text_printf(t, "<h2>Performance: ");
  mc_html_put_report_text(t, r->path);
  mc_text_printf(t,
                 "</h2>\n<p class=\"meta\">%.0f threads%s &middot; bar: GB/s; red mark: "
                 "the ceiling (multithreaded streaming stores of the same traffic); black "
                 "mark: memcpy</p>\n<table class=\"bench\"><tr><th>workload</th><th>status"
                 "</th><th>GB/s</th><th>ceiling GB/s</th><th>of ceiling</th><th></th></tr>\n",
                 mc_json_member_number(r->root, "threads"),
                 cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r->root, "quick")) ? ", --quick"
                                                                                  : "");
  const cJSON *w;
  cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(r->root, "workloads")) {
    put_bench_row(t, w);
  }
  mc_text_printf(t, "</table>\n");
}

/* ---- the whole page ---- */

static void put_page(mc_text *t, const report *reports, int n) {
  mc_text_printf(t,
                 "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                 "<meta http-equiv=\"Content-Security-Policy\" content=\"" PAGE_POLICY "\">"
                 "<meta name=\"viewport\" content=\"width=device-width\">"
                 "<title>movconf report</title><style>%s</style></head><body>\n"
                 "<h1>movconf report</h1><p class=\"meta\">made by movconf " MOVCONF_VERSION
                 " from %d report%s</p>\n",
                 page_style, n, n == 1 ? "" : "s");
  report *runs = mc_realloc_or_abort(NULL, sizeof *runs * (size_t)n);
  int n_runs = 0;
  for (int i = 0; i < n; i++)
    if (reports[i].kind == REPORT_RUN)
      runs[n_runs++] = reports[i];
  if (n_runs)
    put_matrix(t, runs, n_runs);
  for (int i = 0; i < n_runs; i++)
    put_run(t, &runs[i], i);
  for (int i = 0; i < n; i++)
    if (reports[i].kind == REPORT_BENCH)
      put_bench(t, &reports[i]);
  free(runs);
  mc_text_printf(t, "</body></html>\n");
}

bool mc_report_html(char *const *paths, int n, mc_text *page) {
  report *reports = mc_realloc_or_abort(NULL, sizeof *reports * (size_t)n);
  int loaded = 0, status = -1;
  for (; loaded < n && status < 0; loaded++)
    status = read_report(paths[loaded], &reports[loaded]);
  if (status < 0 && shard_beside_its_run(reports, n))
    status = 2;
  else if (status < 0)
    put_page(page, reports, n);
  else
    loaded--; /* the one that failed holds nothing */
  for (int i = 0; i < loaded; i++)
    cJSON_Delete(reports[i].root);
  free(reports);
  return status < 0;
}
