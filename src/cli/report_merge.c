/* movconf report merge: the JSON reports of the shards of one run (run
   --shard K/N) joined into the report of the whole run. */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cases/json.h"
#include "cli/cli.h"

static const char merge_usage[] =
    "usage: movconf report merge [options] SHARD.json...\n"
    "\n"
    "Joins the JSON reports of 'movconf run --shard K/N --json FILE', K from 1 to N,\n"
    "into the report of the whole run: the cases in the order the whole run lists\n"
    "them, the per-operation table recomputed. Refuses a report that is not a shard's,\n"
    "shards of different selections or implementations (same --op, --type, --case,\n"
    "--tier or PATHS, same N), a shard given twice and a missing shard, naming them.\n"
    "\n"
    "options:\n"
    "  --json FILE             write the merged report as JSON ('-': standard output,\n"
    "                          the table then goes to standard error)\n"
    "  --junit FILE            write it as JUnit XML ('-' as for --json)\n"
    "  --quiet                 print only the summary table, not each failure\n"
    "  -h, --help              show this text\n"
    "\n"
    "Exit status: as the whole run would have exited: 0 when no case failed\n"
    "unexpectedly, no expected failure passed, every file loaded and at least one case\n"
    "ran; 1 otherwise; 2 usage errors and reports that cannot be merged.\n";

enum { OPT_JSON = 256, OPT_JUNIT, OPT_QUIET };
static const struct option merge_options[] = {{"json", required_argument, NULL, OPT_JSON},
                                              {"junit", required_argument, NULL, OPT_JUNIT},
                                              {"quiet", no_argument, NULL, OPT_QUIET},
                                              {"help", no_argument, NULL, 'h'},
                                              {NULL, 0, NULL, 0}};

/* One shard's report, parsed. */
typedef struct shard_report {
  const char *path;
  cJSON *root;
  int index, count;
  const char *selection, *impl;
} shard_report;

static bool load_shard(const char *path, shard_report *s) {
  size_t len;
  int error;
  char *text = mc_read_file_bounded(path, (size_t)1 << 31, &len, &error);
  bool read = text != NULL;
  *s = (shard_report){.path = path, .root = read ? cJSON_ParseWithLength(text, len) : NULL};
  free(text);
  const cJSON *shard = cJSON_GetObjectItemCaseSensitive(s->root, "shard");
  if (!s->root) {
    fprintf(stderr, "movconf report merge: %s: not a JSON report (%s)\n", path,
            read ? "does not parse" : "cannot be read");
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

/* Every shard reports the files that did not load: once each. */
static void add_load_errors(mc_run_report *r, const shard_report *s) {
  const cJSON *item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(s->root, "invalid_files")) {
    if (!cJSON_IsString(item))
      continue;
    bool known = false;
    for (int i = 0; i < r->n_load_errors && !known; i++)
      known = strcmp(r->load_errors[i], item->valuestring) == 0;
    if (known)
      continue;
    r->load_errors =
        mc_realloc_or_abort(r->load_errors, (size_t)(r->n_load_errors + 1) * sizeof(char *));
    r->load_errors[r->n_load_errors++] = mc_unsafe_text(item->valuestring);
  }
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
  *r = (mc_run_report){.impl = mc_unsafe_text(s[0].impl), /* freed by mc_cmd_report_merge */
                       .with_expectations = cJSON_IsTrue(
                           cJSON_GetObjectItemCaseSensitive(first, "with_expectations")),
                       .slow_seconds = mc_json_member_number(
                           cJSON_GetObjectItemCaseSensitive(s[0].root, "summary"), "slow_seconds"),
                       .timeout_seconds = mc_json_member_number(first, "timeout_seconds")};
  for (int i = 0; i < n; i++) {
    if (!add_cases(r, &s[i]))
      return false;
    add_load_errors(r, &s[i]);
    add_process_faults(r, &s[i]);
    add_stop(r, &s[i]);
  }
  if (!order_cases(r))
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

typedef struct merge_options_t {
  const char *json_path, *junit_path;
  bool quiet;
} merge_opts;

/* -1 to go on, else the exit status. */
static int parse_merge_options(int argc, char **argv, merge_opts *o) {
  *o = (merge_opts){0};
  int opt;
  while ((opt = getopt_long(argc, argv, "h", merge_options, NULL)) != -1) {
    if (opt == 'h') {
      fputs(merge_usage, stdout);
      return 0;
    } else if (opt == OPT_JSON) {
      o->json_path = optarg;
    } else if (opt == OPT_JUNIT) {
      o->junit_path = optarg;
    } else if (opt == OPT_QUIET) {
      o->quiet = true;
    } else {
      return mc_option_error("report merge", argv[optind - 1], merge_options);
    }
  }
  if (optind >= argc) {
    fputs("movconf report merge: give the JSON reports of the shards\n", stderr);
    return mc_usage_error("report merge");
  }
  return -1;
}

/* No output replaces a shard's report or the other output. */
static int check_merge_outputs(const merge_opts *o, int n, char **paths) {
  const mc_named_file outputs[] = {{"--json", o->json_path}, {"--junit", o->junit_path}};
  mc_named_file *inputs = calloc((size_t)n, sizeof *inputs);
  for (int i = 0; i < n; i++)
    inputs[i] = (mc_named_file){"a shard's report", paths[i]};
  int status = mc_check_outputs("report merge", outputs, 2, inputs, n);
  free(inputs);
  return status;
}

static int write_merged(const merge_opts *o, const mc_run_report *r) {
  mc_report_files out;
  if (!mc_open_reports("report merge", o->json_path, o->junit_path, &out))
    return 2;
  mc_report_print_table(r, !o->quiet, out.table);
  if (r->stopped_early) {
    char *safe = mc_safe_text(r->stopped_early); /* it may name a case file */
    fprintf(out.table, "\n%s\n", safe);
    free(safe);
  }
  bool written = mc_write_reports("report merge", &out, r, o->json_path, o->junit_path);
  int status = mc_run_status("report merge", r);
  return written ? status : 1;
}

int mc_cmd_report_merge(int argc, char **argv) {
  merge_opts o;
  int status = parse_merge_options(argc, argv, &o);
  if (status >= 0)
    return status;
  int n = argc - optind;
  char **paths = argv + optind;
  if ((status = check_merge_outputs(&o, n, paths)) >= 0)
    return status;
  shard_report *shards = calloc((size_t)n, sizeof *shards);
  bool ok = true;
  for (int i = 0; i < n && ok; i++)
    ok = load_shard(paths[i], &shards[i]);
  ok = ok && shards_fit(shards, n);
  mc_run_report report = {0};
  ok = ok && merge(shards, n, &report);
  status = ok ? write_merged(&o, &report) : 2;
  free((char *)report.impl);
  mc_run_report_free(&report);
  for (int i = 0; i < n; i++)
    cJSON_Delete(shards[i].root);
  free(shards);
  return status;
}
