/* The tables of verdict/verdict_list.h: names, failure, JUnit kind, meaning. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "harness/harness.h"

typedef struct verdict_row {
  const char *name;
  bool failure;
  mc_junit_kind junit;
  const char *meaning;
} verdict_row;

#define MC_VERDICT_TABLE_ROW(id, name, failure, junit, meaning)                                    \
  [MC_VERDICT_##id] = {name, failure, MC_JUNIT_##junit, meaning},
static const verdict_row rows[] = {MC_VERDICT_LIST(MC_VERDICT_TABLE_ROW)};
#undef MC_VERDICT_TABLE_ROW
_Static_assert(sizeof rows / sizeof rows[0] == MC_VERDICT_COUNT, "a row per verdict");

static const char *const junit_names[] = {
    [MC_JUNIT_PASSED] = "passed",
    [MC_JUNIT_SKIPPED] = "skipped",
    [MC_JUNIT_FAILURE] = "failure",
    [MC_JUNIT_ERROR] = "error",
};
_Static_assert(sizeof junit_names / sizeof junit_names[0] == MC_JUNIT_ERROR + 1,
               "a name per JUnit kind");

static const verdict_row *row_of(mc_verdict v) {
  return v >= 0 && v < MC_VERDICT_COUNT ? &rows[v] : NULL;
}

const char *mc_verdict_name(mc_verdict v) {
  return row_of(v) ? row_of(v)->name : "unknown";
}

int mc_verdict_from_name(const char *name) {
  for (int v = 0; name && v < MC_VERDICT_COUNT; v++)
    if (strcmp(name, rows[v].name) == 0)
      return v;
  return -1;
}

bool mc_verdict_is_failure(mc_verdict v) {
  return row_of(v) && row_of(v)->failure;
}

mc_junit_kind mc_verdict_junit_kind(mc_verdict v) {
  return row_of(v) ? row_of(v)->junit : MC_JUNIT_FAILURE;
}

const char *mc_verdict_meaning(mc_verdict v) {
  return row_of(v) ? row_of(v)->meaning : "unknown";
}

const char *mc_junit_kind_name(mc_junit_kind k) {
  return k >= MC_JUNIT_PASSED && k <= MC_JUNIT_ERROR ? junit_names[k] : "unknown";
}

void mc_verdicts_print_help(FILE *out) {
  fputs("Verdicts (movconf help verdicts):\n", out);
  for (int v = 0; v < MC_VERDICT_COUNT; v++)
    fprintf(out, "  %-18s%s\n", rows[v].name, rows[v].meaning);
}

char *mc_verdicts_failure_names(void) {
  mc_text t = {0};
  for (int v = 0; v < MC_VERDICT_COUNT; v++)
    if (rows[v].failure)
      mc_text_printf(&t, "%s%s", t.len ? ", " : "", rows[v].name);
  char *names = mc_strdupf("%s", t.oom || !t.p ? "" : t.p);
  mc_text_free(&t);
  return names;
}

bool mc_verdicts_write_json(FILE *out) {
  cJSON *list = cJSON_CreateArray();
  for (int v = 0; list && v < MC_VERDICT_COUNT; v++) {
    cJSON *item = cJSON_CreateObject();
    if (!item || !cJSON_AddItemToArray(list, item))
      break;
    cJSON_AddStringToObject(item, "name", rows[v].name);
    cJSON_AddBoolToObject(item, "failure", rows[v].failure);
    cJSON_AddStringToObject(item, "junit", junit_names[rows[v].junit]);
    cJSON_AddStringToObject(item, "meaning", rows[v].meaning);
  }
  char *text = list && cJSON_GetArraySize(list) == MC_VERDICT_COUNT ? cJSON_Print(list) : NULL;
  cJSON_Delete(list);
  bool ok = text && fprintf(out, "%s\n", text) >= 0;
  free(text);
  return ok;
}
