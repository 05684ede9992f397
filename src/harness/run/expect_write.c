/* --write-expect FILE: an expectations file (the format --expect reads,
   spec/runner.md) written from a run's failures, like WPT's metadata
   update: one entry per failing case or, by generator group, one entry for
   a whole group when every case of it that ran failed the same way. Each
   reason is a placeholder to replace with why. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cases/cases.h"
#include "common/text.h"
#include "harness/harness.h"

/* "d2s/gen/block-below-one/" of a generated case's id, or NULL. */
static char *generator_group(const char *id) {
  const char *gen = strstr(id, "/gen/");
  const char *last = strrchr(id, '/');
  if (!gen || !last || last <= gen + 4)
    return NULL;
  return mc_strdupf("%.*s", (int)(last - id + 1), id);
}

static bool in_group(const mc_case_result *r, const char *group) {
  return strncmp(r->id, group, strlen(group)) == 0;
}

/* Whether every case of the group that ran has verdict v. */
static bool group_uniform(const mc_run_report *r, const char *group, mc_verdict v) {
  for (int i = 0; i < r->count; i++)
    if (in_group(&r->results[i], group) && r->results[i].verdict != MC_VERDICT_UNSUPPORTED &&
        r->results[i].verdict != v)
      return false;
  return true;
}

static void add_entry(cJSON *list, const char *glob, const mc_case_result *first, int cases) {
  cJSON *entry = cJSON_CreateObject();
  cJSON_AddStringToObject(entry, "case", glob);
  cJSON_AddStringToObject(entry, "verdict", mc_verdict_name(first->verdict));
  char *reason = mc_strdupf(MC_EXPECT_PLACEHOLDER "%s (%s%.200s)",
                            cases > 1 ? " (every case of the group)" : "",
                            cases > 1 ? "the first: " : "", first->detail ? first->detail : "");
  cJSON_AddStringToObject(entry, "reason", reason);
  free(reason);
  cJSON_AddItemToArray(list, entry);
}

static int count_group(const mc_run_report *r, const char *group, bool *covered) {
  int n = 0;
  for (int k = 0; k < r->count; k++)
    if (in_group(&r->results[k], group) && mc_verdict_is_failure(r->results[k].verdict)) {
      covered[k] = true;
      n++;
    }
  return n;
}

/* cJSON_Print's text with its tabs as spaces: the file is edited by hand,
   in editors that show a tab anywhere from 2 to 8 columns wide. A tab
   that begins a line is an indent (two spaces), any other one follows a
   key's colon (one space); tabs inside strings are escaped as \t. */
static char *print_with_spaces(const cJSON *json) {
  char *tabbed = cJSON_Print(json);
  if (!tabbed)
    return NULL;
  mc_text t = {0};
  bool line_start = true;
  for (const char *p = tabbed; *p; p++) {
    if (*p == '\t')
      mc_text_put(&t, "  ", line_start ? 2 : 1);
    else
      mc_text_put(&t, p, 1);
    line_start = *p == '\n' || (line_start && *p == '\t');
  }
  mc_text_put(&t, "\n", 1); /* a text file ends its last line */
  free(tabbed);
  if (t.oom) {
    mc_text_free(&t);
    return NULL;
  }
  return t.p;
}

int mc_expectations_write(const mc_run_report *r, const char *path, bool by_group) {
  bool *covered = calloc((size_t)r->count + 1, sizeof *covered);
  cJSON *list = cJSON_CreateArray();
  int entries = 0;
  for (int i = 0; covered && list && i < r->count; i++) {
    const mc_case_result *res = &r->results[i];
    if (covered[i] || !mc_verdict_is_failure(res->verdict))
      continue;
    char *group = by_group ? generator_group(res->id) : NULL;
    if (group && group_uniform(r, group, res->verdict)) {
      char *glob = mc_strdupf("%s*", group);
      add_entry(list, glob, res, count_group(r, group, covered));
      free(glob);
    } else {
      add_entry(list, res->id, res, 1);
      covered[i] = true;
    }
    free(group);
    entries++;
  }
  char *text = list ? print_with_spaces(list) : NULL;
  bool ok = text && mc_write_text_file(path, text);
  free(text);
  cJSON_Delete(list);
  free(covered);
  return ok ? entries : -1;
}
