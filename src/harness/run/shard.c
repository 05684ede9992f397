/* run --shard K/N: a deterministic, disjoint part of the selected cases,
   balanced by expected cost rather than by file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "harness/run/shard.h"
#include "movconf/tensor.h"

typedef struct shard_entry {
  char *id;
  int position; /* in the whole selection: file order, then case order */
  double cost;
  int shard; /* 1..N */
} shard_entry;

bool mc_parse_shard(const char *text, int *k, int *n) {
  char slash;
  int used = 0;
  if (sscanf(text, "%d%c%d%n", k, &slash, n, &used) != 3 || slash != '/' || text[used] != '\0' ||
      text[0] < '0' || text[0] > '9')
    return false;
  return *n >= 1 && *n <= MC_MAX_SHARDS && *k >= 1 && *k <= *n;
}

/* A case's expected cost: the elements it moves in and out (at least 1). */
static double case_cost(const mc_case *c) {
  double cost = 1;
  int64_t count;
  for (int i = 0; i < c->n_inputs; i++)
    if (mc_shape_elements(c->inputs[i].tensor.rank, c->inputs[i].tensor.shape, &count))
      cost += (double)count;
  if (!c->expect_error &&
      mc_shape_elements(c->expected.tensor.rank, c->expected.tensor.shape, &count))
    cost += (double)count;
  return cost;
}

static int compare_heavier(const void *pa, const void *pb) {
  const shard_entry *a = pa, *b = pb;
  if (a->cost != b->cost)
    return a->cost > b->cost ? -1 : 1;
  return strcmp(a->id, b->id);
}

static int compare_id(const void *pa, const void *pb) {
  return strcmp(((const shard_entry *)pa)->id, ((const shard_entry *)pb)->id);
}

/* FNV-1a, 64 bits: enough to tell selections apart, not a defence. */
static uint64_t fnv1a(uint64_t h, const char *text) {
  for (const unsigned char *p = (const unsigned char *)text; *p; p++)
    h = (h ^ *p) * 1099511628211u;
  return h;
}

static void add_entry(mc_shard_plan *p, const mc_case *c, int *cap) {
  if (p->n == *cap) {
    *cap = *cap ? *cap * 2 : 256;
    p->entries = mc_realloc_or_abort(p->entries, (size_t)*cap * sizeof *p->entries);
  }
  p->entries[p->n] =
      (shard_entry){.id = mc_strdupf("%s", c->id), .position = p->n, .cost = case_cost(c)};
  p->n++;
}

/* Every selected case of the files that loaded (a file that did not is
   reported by the run itself, in every shard). */
static void collect(mc_shard_plan *p, const mc_selection *sel, const mc_case_filter *filter) {
  int cap = 0;
  for (int i = 0; i < sel->count; i++) {
    const mc_case_file *f = &sel->files[i].file;
    for (int j = 0; !sel->files[i].error && j < f->n_cases; j++)
      if (mc_case_selected(&f->cases[j], filter))
        add_entry(p, &f->cases[j], &cap);
  }
}

/* Greedy: the heaviest case first, each to the lightest shard so far. */
static void assign(mc_shard_plan *p, int n_shards) {
  double load[MC_MAX_SHARDS] = {0};
  qsort(p->entries, (size_t)p->n, sizeof *p->entries, compare_heavier);
  for (int i = 0; i < p->n; i++) {
    int lightest = 0;
    for (int s = 1; s < n_shards; s++)
      if (load[s] < load[lightest])
        lightest = s;
    load[lightest] += p->entries[i].cost;
    p->entries[i].shard = lightest + 1;
  }
  p->info.cost = load[p->info.index - 1];
}

void mc_shard_plan_make(const mc_selection *sel, const mc_case_filter *filter, int k, int n,
                        mc_shard_plan *p) {
  *p = (mc_shard_plan){.info = {.index = k, .count = n}};
  collect(p, sel, filter);
  uint64_t h = 14695981039346656037u;
  for (int i = 0; i < p->n; i++) /* still in selection order */
    h = fnv1a(fnv1a(h, p->entries[i].id), "\n");
  char tail[32];
  snprintf(tail, sizeof tail, "shards %d", n);
  snprintf(p->info.selection, sizeof p->info.selection, "%016llx",
           (unsigned long long)fnv1a(h, tail));
  p->info.selected = p->n;
  assign(p, n);
  qsort(p->entries, (size_t)p->n, sizeof *p->entries, compare_id);
}

static const shard_entry *find(const mc_shard_plan *p, const char *id) {
  shard_entry key = {.id = (char *)id};
  return bsearch(&key, p->entries, (size_t)p->n, sizeof *p->entries, compare_id);
}

bool mc_shard_keep(void *ctx, const mc_case *c) {
  const mc_shard_plan *p = ctx;
  const shard_entry *e = find(p, c->id);
  return e && e->shard == p->info.index;
}

bool mc_shard_elsewhere_matches(const mc_shard_plan *p, mc_expectations *e,
                                const mc_expectation *x) {
  for (int i = 0; i < p->n; i++)
    if (p->entries[i].shard != p->info.index && mc_expectations_match(e, p->entries[i].id) == x)
      return true;
  return false;
}

void mc_shard_set_positions(const mc_shard_plan *p, mc_run_report *r) {
  for (int i = 0; i < r->count; i++) {
    const shard_entry *e = find(p, r->results[i].id);
    r->results[i].position = e ? e->position : -1;
  }
}

void mc_shard_plan_free(mc_shard_plan *p) {
  for (int i = 0; i < p->n; i++)
    free(p->entries[i].id);
  free(p->entries);
  *p = (mc_shard_plan){0};
}
