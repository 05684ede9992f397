/* --summary-by: where a run's failures cluster, one row per rank, element
   type, mode or case file, most failures first, or per output size class,
   smallest first; every case in one column, so that a row adds up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "harness/harness.h"

static const char *const key_names[MC_SUMMARY_KEY_COUNT] = {
    [MC_SUMMARY_RANK] = "rank", [MC_SUMMARY_TYPE] = "type", [MC_SUMMARY_MODE] = "mode",
    [MC_SUMMARY_FILE] = "file", [MC_SUMMARY_SIZE] = "size",
};

bool mc_summary_key_from_name(const char *name, mc_summary_key *key) {
  for (int k = 0; name && k < MC_SUMMARY_KEY_COUNT; k++)
    if (strcmp(name, key_names[k]) == 0) {
      *key = (mc_summary_key)k;
      return true;
    }
  return false;
}

const char *mc_summary_key_name(mc_summary_key key) {
  return key >= 0 && key < MC_SUMMARY_KEY_COUNT ? key_names[key] : "unknown";
}

typedef struct row {
  char *value; /* the key's value, made safe for the terminal */
  int rank;    /* by rank or size: sorted as this number, not as text (else 0) */
  int cases, pass, failed, xfail, unsupported;
} row;

typedef struct rows {
  row *items;
  int count, cap;
} rows;

/* The power of 2 at or below n (n >= 1). */
static int floor_log2(int64_t n) {
  int k = 0;
  while (n >>= 1)
    k++;
  return k;
}

/* The size class of a result's expected output, "2^16..2^17-1", and in
   *order where it sorts: a threshold where a kernel changes path shows as
   the first class that fails. */
static char *size_class(const mc_case_result *c, int *order) {
  if (c->output_elements < 0) {
    *order = -2;
    return mc_strdupf("error expected");
  }
  if (c->output_elements == 0) {
    *order = -1;
    return mc_strdupf("0 (empty)");
  }
  *order = floor_log2(c->output_elements);
  return *order ? mc_strdupf("2^%d..2^%d-1", *order, *order + 1) : mc_strdupf("1");
}

/* The key's value for one result (heap, unsafe text). */
static char *value_of(const mc_case_result *c, mc_summary_key key) {
  switch (key) {
  case MC_SUMMARY_RANK:
    return mc_strdupf("%d", c->rank);
  case MC_SUMMARY_TYPE:
    return mc_strdupf("%s", mc_type_name((mc_type)c->data_type));
  case MC_SUMMARY_MODE:
    return mc_strdupf("%s", c->mode);
  case MC_SUMMARY_SIZE: {
    int order;
    return size_class(c, &order);
  }
  case MC_SUMMARY_FILE:
  case MC_SUMMARY_KEY_COUNT:
    break;
  }
  return mc_strdupf("%s", c->file ? c->file : "");
}

/* The row of value, added when new; *last is a guess (results come in runs
   of one file, one type...), so most lookups take one comparison. */
static row *row_of(rows *t, const char *value, int rank, int *last) {
  if (*last >= 0 && strcmp(t->items[*last].value, value) == 0)
    return &t->items[*last];
  for (int i = 0; i < t->count; i++)
    if (strcmp(t->items[i].value, value) == 0)
      return &t->items[*last = i];
  if (t->count == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 16;
    t->items = mc_realloc_or_abort(t->items, (size_t)t->cap * sizeof *t->items);
  }
  t->items[t->count] = (row){.value = mc_strdupf("%s", value), .rank = rank};
  return &t->items[*last = t->count++];
}

/* Each case counts in one column: failed (makes the run fail, an
   unexpected pass too), else xfail, unsupported or pass. */
static void count_into(row *w, const mc_case_result *c) {
  w->cases++;
  if (mc_case_result_is_problem(c))
    w->failed++;
  else if (c->expect == MC_EXPECT_MET)
    w->xfail++;
  else if (c->verdict == MC_VERDICT_UNSUPPORTED)
    w->unsupported++;
  else
    w->pass++;
}

/* Sizes in size order: a threshold reads as the first class that fails. */
static int by_value(const void *a, const void *b) {
  const row *x = a, *y = b;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return strcmp(x->value, y->value);
}

static int by_failed_then_value(const void *a, const void *b) {
  const row *x = a, *y = b;
  if (x->failed != y->failed)
    return x->failed > y->failed ? -1 : 1;
  return by_value(a, b);
}

static void tabulate(const mc_run_report *r, mc_summary_key key, rows *t) {
  int last = -1;
  for (int i = 0; i < r->count; i++) {
    char *raw = value_of(&r->results[i], key);
    char *safe = mc_safe_text(raw); /* ids, files and modes come from case files */
    int rank = key == MC_SUMMARY_RANK ? r->results[i].rank : 0;
    if (key == MC_SUMMARY_SIZE)
      free(size_class(&r->results[i], &rank));
    count_into(row_of(t, safe, rank, &last), &r->results[i]);
    free(safe);
    free(raw);
  }
  if (t->count > 1)
    qsort(t->items, (size_t)t->count, sizeof *t->items,
          key == MC_SUMMARY_SIZE ? by_value : by_failed_then_value);
}

void mc_report_print_breakdown(const mc_run_report *r, mc_summary_key key, FILE *out) {
  rows t = {0};
  tabulate(r, key, &t);
  char header[32];
  snprintf(header, sizeof header, "by %s", mc_summary_key_name(key));
  int width = (int)strlen(header);
  for (int i = 0; i < t.count; i++)
    if ((int)strlen(t.items[i].value) > width)
      width = (int)strlen(t.items[i].value);
  fprintf(out, "\n%-*s %6s %6s %6s %6s %11s\n", width, header, "cases", "pass", "failed", "xfail",
          "unsupported");
  for (int i = 0; i < t.count; i++) {
    const row *w = &t.items[i];
    fprintf(out, "%-*s %6d %6d %6d %6d %11d\n", width, w->value, w->cases, w->pass, w->failed,
            w->xfail, w->unsupported);
    free(w->value);
  }
  free(t.items);
}
