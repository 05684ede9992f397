/* movconf report merge: the JSON reports of the shards of one run (run
   --shard K/N) joined into the report of the whole run. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/json.h"
#include "common/text.h"
#include "harness/harness.h"

/* One shard's report, parsed. */
typedef struct shard_report {
  const char *path;
  cJSON *root;
  int index, count;
  const char *selection, *impl;
} shard_report;

/* What the shards' reports may take together, whoever made them: their
   text, and the items cJSON makes of it (counted before it parses). */
#define MERGE_MAX_BYTES ((size_t)1 << 31)
typedef struct merge_budget {
  size_t bytes, values; /* left */
} merge_budget;

/* The shard's text, within what is left of the budget (then taken from
   it); NULL with why when it cannot be read or does not fit. */
static char *read_within(const char *path, merge_budget *b, size_t *len, char *why, size_t n) {
  int error;
  char *text = mc_read_file_bounded(path, b->bytes, len, &error);
  size_t values = text && *len <= b->bytes ? mc_json_count_values(text, *len) : 0;
  if (!text)
    snprintf(why, n, "cannot be read: %s",
             error == EINVAL ? "not a regular file" : strerror(error));
  else if (*len > b->bytes)
    snprintf(why, n, "the reports to merge come to more than %zu bytes", MERGE_MAX_BYTES);
  else if (values > b->values)
    snprintf(why, n, "the reports to merge hold more than %zu JSON values", MC_REPORT_MAX_VALUES);
  else {
    b->bytes -= *len;
    b->values -= values;
    return text;
  }
  free(text);
  return NULL;
}

static bool load_shard(const char *path, shard_report *s, merge_budget *budget) {
  size_t len;
  char why[160];
  char *text = read_within(path, budget, &len, why, sizeof why);
  *s = (shard_report){.path = path, .root = text ? cJSON_ParseWithLength(text, len) : NULL};
  free(text);
  if (!text) {
    fprintf(stderr, "movconf report merge: %s: %s\n", path, why);
    return false;
  }
  const cJSON *shard = cJSON_GetObjectItemCaseSensitive(s->root, "shard");
  if (!s->root) {
    fprintf(stderr, "movconf report merge: %s: not a JSON report (does not parse)\n", path);
    return false;
  }
  s->index = (int)mc_json_member_number(shard, "index");
  s->count = (int)mc_json_member_number(shard, "count");
  s->selection = mc_json_member_string(shard, "selection", NULL);
  s->impl = mc_json_member_string(s->root, "implementation", NULL);
  if (!cJSON_IsObject(shard) || !s->selection || !s->impl || s->count < 1 ||
      s->count > MC_MAX_SHARDS || s->index < 1 || s->index > s->count ||
      !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(s->root, "cases"))) {
    fprintf(stderr,
            "movconf report merge: %s is not the JSON report of a shard (movconf run "
            "--shard K/N --json FILE)\n",
            path);
    return false;
  }
  return true;
}

/* Same selection, same N, same implementation; each K once, none missing. */
static bool shards_fit(const shard_report *s, int n) {
  for (int i = 1; i < n; i++)
    if (strcmp(s[i].selection, s[0].selection) != 0 || s[i].count != s[0].count ||
        strcmp(s[i].impl, s[0].impl) != 0) {
      fprintf(stderr,
              "movconf report merge: %s (shard %d/%d of selection %s, %s) and %s (shard %d/%d "
              "of selection %s, %s) are not shards of the same run\n",
              s[0].path, s[0].index, s[0].count, s[0].selection, s[0].impl, s[i].path, s[i].index,
              s[i].count, s[i].selection, s[i].impl);
      return false;
    }
  const char *seen[MC_MAX_SHARDS + 1] = {0};
  for (int i = 0; i < n; i++) {
    if (seen[s[i].index]) {
      fprintf(stderr, "movconf report merge: shard %d/%d is given twice: %s and %s\n", s[i].index,
              s[i].count, seen[s[i].index], s[i].path);
      return false;
    }
    seen[s[i].index] = s[i].path;
  }
  bool whole = true;
  for (int k = 1; k <= s[0].count; k++)
    if (!seen[k]) {
      fprintf(stderr, "movconf report merge: shard %d/%d of selection %s is missing\n", k,
              s[0].count, s[0].selection);
      whole = false;
    }
  return whole;
}

static void add_result(mc_run_report *r, const mc_case_result *c) {
  if (r->count == r->capacity) {
    r->capacity = r->capacity ? r->capacity * 2 : 256;
    r->results = mc_realloc_or_abort(r->results, (size_t)r->capacity * sizeof *r->results);
  }
  r->results[r->count++] = *c;
}

static bool add_cases(mc_run_report *r, const shard_report *s) {
  const cJSON *item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(s->root, "cases")) {
    mc_case_result c;
    bool ok = mc_case_result_from_json(item, &c);
    add_result(r, &c); /* freed with the report either way */
    if (!ok) {
      fprintf(stderr, "movconf report merge: %s: case %d is not one of a run report\n", s->path,
              r->count);
      return false;
    }
  }
  return true;
}

/* Files that did not load, all shards together: far more than any
   selection has case files. */
#define MERGE_MAX_INVALID_FILES 65536

/* One name in a shard's invalid_files, and where it stands in all of them. */
typedef struct named_file {
  const char *name, *shard;
  size_t order;
} named_file;

static int compare_name(const void *pa, const void *pb) {
  const named_file *a = pa, *b = pb;
  int c = strcmp(a->name, b->name);
  return c ? c : (a->order > b->order) - (a->order < b->order);
}

static int compare_order(const void *pa, const void *pb) {
  const named_file *a = pa, *b = pb;
  return (a->order > b->order) - (a->order < b->order);
}

/* Every name of every shard's invalid_files, in the shards' order; *n of them. */
static named_file *collect_load_errors(const shard_report *s, int shards, size_t *n) {
  size_t total = 0;
  for (int i = 0; i < shards; i++)
    total +=
        (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(s[i].root, "invalid_files"));
  named_file *names = mc_realloc_or_abort(NULL, (total ? total : 1) * sizeof *names);
  *n = 0;
  for (int i = 0; i < shards; i++) {
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(s[i].root, "invalid_files")) {
      if (!cJSON_IsString(item))
        continue;
      names[*n] = (named_file){item->valuestring, s[i].path, *n};
      ++*n;
    }
  }
  return names;
}

/* Every shard reports the files that did not load: once each, in the order
   first named. Sorted by name, not compared pairwise: a report may name
   tens of thousands. */
static bool add_load_errors(mc_run_report *r, const shard_report *s, int shards) {
  size_t n, unique = 0;
  named_file *names = collect_load_errors(s, shards, &n);
  qsort(names, n, sizeof *names, compare_name);
  for (size_t i = 0; i < n; i++)
    if (i == 0 || strcmp(names[i].name, names[unique - 1].name) != 0)
      names[unique++] = names[i];
  qsort(names, unique, sizeof *names, compare_order);
  bool fits = unique <= MERGE_MAX_INVALID_FILES;
  if (!fits)
    fprintf(stderr, "movconf report merge: %s: the reports name more than %d invalid files\n",
            names[MERGE_MAX_INVALID_FILES].shard, MERGE_MAX_INVALID_FILES);
  else if (unique > 0) {
    r->load_errors = mc_realloc_or_abort(NULL, unique * sizeof(char *));
    for (size_t i = 0; i < unique; i++)
      r->load_errors[r->n_load_errors++] = mc_unsafe_text(names[i].name);
  }
  free(names);
  return fits;
}

static void add_process_faults(mc_run_report *r, const shard_report *s) {
  const cJSON *item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(s->root, "process_faults")) {
    r->process_faults = mc_realloc_or_abort(r->process_faults, (size_t)(r->n_process_faults + 1) *
                                                                   sizeof *r->process_faults);
    r->process_faults[r->n_process_faults++] = mc_process_fault_from_json(item);
  }
}

/* A shard that stopped early stops the whole run: said with its number. */
static void add_stop(mc_run_report *r, const shard_report *s) {
  const char *why = mc_json_member_string(cJSON_GetObjectItemCaseSensitive(s->root, "summary"),
                                          "stopped_early", NULL);
  if (!why)
    return;
  char *text = mc_unsafe_text(why);
  char *joined = r->stopped_early
                     ? mc_strdupf("%s\nshard %d/%d: %s", r->stopped_early, s->index, s->count, text)
                     : mc_strdupf("shard %d/%d: %s", s->index, s->count, text);
  free(text);
  free(r->stopped_early);
  r->stopped_early = joined;
}

static int compare_position(const void *pa, const void *pb) {
  const mc_case_result *a = pa, *b = pb;
  return (a->position > b->position) - (a->position < b->position);
}

static int compare_id(const void *pa, const void *pb) {
  return strcmp(((const mc_case_result *)pa)->id, ((const mc_case_result *)pb)->id);
}

/* The case that two shards ran (by id or by position), or NULL. */
static const mc_case_result *repeated(mc_run_report *r, int (*order)(const void *, const void *)) {
  qsort(r->results, (size_t)r->count, sizeof *r->results, order);
  for (int i = 1; i < r->count; i++)
    if (order(&r->results[i], &r->results[i - 1]) == 0)
      return &r->results[i];
  return NULL;
}

/* The cases in the whole run's order; false when two shards ran one case. */
static bool order_cases(mc_run_report *r) {
  const mc_case_result *twice = repeated(r, compare_id);
  if (!twice)
    twice = repeated(r, compare_position);
  if (twice) {
    char *safe = mc_safe_text(twice->id);
    fprintf(stderr, "movconf report merge: case '%s' is in more than one shard\n", safe);
    free(safe);
  }
  return !twice;
}

static bool merge(const shard_report *s, int n, mc_run_report *r) {
  const cJSON *first = cJSON_GetObjectItemCaseSensitive(s[0].root, "shard");
  *r = (mc_run_report){.impl = mc_unsafe_text(s[0].impl), /* the caller frees it */
                       .with_expectations = cJSON_IsTrue(
                           cJSON_GetObjectItemCaseSensitive(first, "with_expectations")),
                       .slow_seconds = mc_json_member_number(
                           cJSON_GetObjectItemCaseSensitive(s[0].root, "summary"), "slow_seconds"),
                       .timeout_seconds = mc_json_member_number(first, "timeout_seconds")};
  for (int i = 0; i < n; i++) {
    if (!add_cases(r, &s[i]))
      return false;
    add_process_faults(r, &s[i]);
    add_stop(r, &s[i]);
  }
  if (!add_load_errors(r, s, n) || !order_cases(r))
    return false;
  int selected = (int)mc_json_member_number(first, "selected_cases");
  if (r->count != selected && !r->stopped_early && r->n_load_errors == 0) {
    fprintf(stderr,
            "movconf report merge: the shards have %d cases of the %d selected, and none "
            "stopped early: a report is not whole\n",
            r->count, selected);
    return false;
  }
  return true;
}

bool mc_report_merge(char *const *paths, int n, mc_run_report *r) {
  *r = (mc_run_report){0};
  if (n > MC_MAX_SHARDS) { /* before reading any: no run has more shards */
    fprintf(stderr, "movconf report merge: %d reports given; a run has at most %d shards\n", n,
            MC_MAX_SHARDS);
    return false;
  }
  shard_report *shards = mc_realloc_or_abort(NULL, sizeof *shards * (size_t)n);
  memset(shards, 0, sizeof *shards * (size_t)n);
  merge_budget budget = {MERGE_MAX_BYTES, MC_REPORT_MAX_VALUES};
  bool ok = true;
  for (int i = 0; i < n && ok; i++)
    ok = load_shard(paths[i], &shards[i], &budget);
  ok = ok && shards_fit(shards, n);
  *r = (mc_run_report){0};
  ok = ok && merge(shards, n, r);
  for (int i = 0; i < n; i++)
    cJSON_Delete(shards[i].root);
  free(shards);
  return ok;
}
