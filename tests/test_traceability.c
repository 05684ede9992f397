/* Decisions and rules stay tied to cases: every errata entry of
   spec/errata.md names at least one case and every case it names exists in
   conformance/; every validity and limit clause has an invalid case that
   cites it (MC-T1 excepted: no case file can name an unknown type). The
   clause counts are the ones `movconf clauses` prints (src/cases/trace.c),
   which also fails on a clause no case cites at all. */
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>

#include "cases/cases.h"
#include "cases/trace.h"
#include "check.h"
#include "common/clauses.h"
#include "movconf/ops.h"

typedef struct id_set {
  char **ids;
  int count;
} id_set;

static int compare_ids(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool id_set_has(const id_set *s, const char *id) {
  return bsearch(&id, s->ids, (size_t)s->count, sizeof *s->ids, compare_ids) != NULL;
}

/* Case ids of conformance/, and the clauses they cite. */
static id_set load_conformance(mc_trace *trace) {
  id_set set = {0};
  mc_path_list files = {0};
  const char *root[1] = {MOVCONF_SOURCE_DIR "/conformance"};
  CHECK(mc_find_case_files(root, 1, &files, NULL, 0));
  for (int i = 0; i < files.count; i++) {
    mc_case_file f;
    char err[512];
    if (!mc_case_file_load(files.paths[i], &f, err, sizeof err)) {
      CHECK(false);
      fprintf(stderr, "  %s\n", err);
      continue;
    }
    mc_trace_add_file(trace, &f);
    set.ids = realloc(set.ids, (size_t)(set.count + f.n_cases) * sizeof *set.ids);
    for (int k = 0; k < f.n_cases; k++)
      set.ids[set.count++] = strdup(f.cases[k].id);
    mc_case_file_free(&f);
  }
  mc_path_list_free(&files);
  qsort(set.ids, (size_t)set.count, sizeof *set.ids, compare_ids);
  return set;
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *text = malloc((size_t)n + 1);
  size_t got = fread(text, 1, (size_t)n, f);
  text[got] = '\0';
  fclose(f);
  return text;
}

/* Checks one "## E<n>" section: the case ids it cites in backticks. */
static void check_section(const char *title, const char *body, size_t len, const id_set *ids,
                          regex_t *case_ref) {
  char *section = strndup(body, len);
  int cited = 0;
  regmatch_t m[2];
  for (const char *p = section; regexec(case_ref, p, 2, m, 0) == 0; p += m[0].rm_eo) {
    char *id = strndup(p + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
    cited++;
    CHECK(id_set_has(ids, id));
    if (!id_set_has(ids, id))
      fprintf(stderr, "  %.40s cites missing case %s\n", title, id);
    free(id);
  }
  CHECK(cited > 0);
  if (cited == 0)
    fprintf(stderr, "  %.40s cites no case\n", title);
  free(section);
}

/* A case id in backticks: an operation's clause prefix in lower case, then
   its path (`sl/hand/...`), for every operation of the table. */
static void case_ref_pattern(char *out, size_t n) {
  size_t at = (size_t)snprintf(out, n, "`((");
  for (int op = 0; op < MC_OP_COUNT && at < n; op++) {
    at += (size_t)snprintf(out + at, n - at, "%s", op ? "|" : "");
    for (const char *c = mc_op_clause_prefix((mc_op)op); *c && at + 1 < n; c++)
      out[at++] = (char)tolower((unsigned char)*c);
    out[at < n ? at : n - 1] = '\0';
  }
  snprintf(out + at, n - at, ")/[a-z0-9/_.+-]+)`");
}

static int check_errata(const id_set *ids) {
  char *text = read_text(MOVCONF_SOURCE_DIR "/spec/errata.md");
  CHECK(text != NULL);
  if (!text)
    return 0;
  regex_t case_ref;
  char pattern[512];
  case_ref_pattern(pattern, sizeof pattern);
  CHECK(regcomp(&case_ref, pattern, REG_EXTENDED) == 0);
  int sections = 0;
  for (char *heading = strstr(text, "\n## "); heading;) {
    char *next = strstr(heading + 1, "\n## ");
    size_t len = next ? (size_t)(next - heading) : strlen(heading);
    if (strncmp(heading, "\n## E", 5) == 0) {
      check_section(heading + 1, heading, len, ids, &case_ref);
      sections++;
    }
    heading = next;
  }
  regfree(&case_ref);
  free(text);
  return sections;
}

int main(void) {
  mc_trace trace;
  CHECK(mc_trace_init(&trace));
  id_set ids = load_conformance(&trace);
  int sections = check_errata(&ids);
  CHECK(sections >= 17);
  CHECK_EQ_I64(trace.unknown_citations, 0);
  int rules = 0;
  for (int t = 0; t < trace.n_clauses; t++) {
    const mc_clause *c = &trace.table[t];
    if (c->kind == MC_CLAUSE_STEP || strcmp(c->id, "MC-T1") == 0)
      continue;
    rules++;
    CHECK(trace.uses[t].invalid_cases > 0);
    if (trace.uses[t].invalid_cases == 0)
      fprintf(stderr, "  no invalid case cites %s\n", c->id);
  }
  printf("%d cases, %d errata entries, %d validity and limit clauses with invalid cases\n",
         ids.count, sections, rules);
  for (int i = 0; i < ids.count; i++)
    free(ids.ids[i]);
  free(ids.ids);
  mc_trace_free(&trace);
  return check_report();
}
