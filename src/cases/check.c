/* The consistency checks of `movconf check-cases` (and `movconf run`) that
   go beyond parsing (unique ids, id prefixes, clause ids that exist and
   belong to the op, ids unique across files). */
#include "cases/cases.h"
#include "common/clauses.h"
#include "common/text.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct checker {
  const mc_case_file *file;
  void (*report)(void *ctx, const char *msg);
  void *ctx;
  int problems;
} checker;

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void
problem(checker *ck, const mc_case *c, const char *fmt, ...) {
  ck->problems++;
  if (!ck->report)
    return;
  char what[256], msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  const char *path = ck->file->path ? ck->file->path : "<input>";
  if (c)
    snprintf(msg, sizeof msg, "%s: case '%.120s': %s", path, c->id ? c->id : "?", what);
  else
    snprintf(msg, sizeof msg, "%s: %s", path, what);
  ck->report(ck->ctx, msg);
}

static bool starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void check_clauses(checker *ck, const mc_case *c) {
  char own[16];
  snprintf(own, sizeof own, "%s-", mc_op_clause_prefix(ck->file->op));
  for (int i = 0; i < c->n_clauses; i++) {
    const char *id = c->clauses[i];
    if (!mc_clause_find(id))
      problem(ck, c, "clause '%.40s' is not in the clause registry", id);
    else if (!starts_with(id, own) && !starts_with(id, "MC-"))
      problem(ck, c, "clause '%s' belongs to another operation (expected %s* or MC-*)", id, own);
    for (int k = 0; k < i; k++)
      if (strcmp(c->clauses[k], id) == 0) {
        problem(ck, c, "clause '%.40s' is listed twice", id);
        break;
      }
  }
}

static int compare_case_ids(const void *a, const void *b) {
  const mc_case *x = *(const mc_case *const *)a, *y = *(const mc_case *const *)b;
  int d = strcmp(x->id ? x->id : "", y->id ? y->id : "");
  if (d != 0)
    return d;
  return x < y ? -1 : x > y; /* file order among equals */
}

/* Sorting keeps this O(n log n) for files of many cases. */
static void check_unique_ids(checker *ck) {
  const mc_case_file *f = ck->file;
  if (f->n_cases < 2)
    return;
  const mc_case **sorted = malloc((size_t)f->n_cases * sizeof *sorted);
  if (!sorted) {
    problem(ck, NULL, "out of memory while checking that ids are unique");
    return;
  }
  for (int i = 0; i < f->n_cases; i++)
    sorted[i] = &f->cases[i];
  qsort(sorted, (size_t)f->n_cases, sizeof *sorted, compare_case_ids);
  for (int i = 1; i < f->n_cases; i++) {
    const mc_case *first = sorted[i - 1], *again = sorted[i];
    if (first->id && again->id && strcmp(first->id, again->id) == 0)
      problem(ck, again, "id is not unique: cases[%d] and cases[%d] share it",
              (int)(first - f->cases), (int)(again - f->cases));
  }
  free(sorted);
}

int mc_case_file_check(const mc_case_file *f, void (*report)(void *ctx, const char *msg),
                       void *ctx) {
  checker ck = {f, report, ctx, 0};
  if (!f)
    return 0;
  char prefix[16]; /* "b2s/" */
  mc_op_case_prefix(f->op, prefix, sizeof prefix - 1);
  strcat(prefix, "/");
  for (int i = 0; i < f->n_cases; i++) {
    const mc_case *c = &f->cases[i];
    if (c->op != f->op)
      problem(&ck, c, "case operation %s differs from the file's %s", mc_op_name(c->op),
              mc_op_name(f->op));
    if (!c->id || !starts_with(c->id, prefix))
      problem(&ck, c, "id must start with '%s' (the prefix of %s cases)", prefix,
              mc_op_name(f->op));
    check_clauses(&ck, c);
  }
  check_unique_ids(&ck);
  return ck.problems;
}

/* ---- case ids across files ---- */

/* An open-addressing set of ids, each with the file it was first seen in:
   a run of thousands of cases checks each id in constant time. The ids are
   kept in one growing buffer, not one allocation each. */
struct mc_case_ids {
  char **files;
  int n_files;
  mc_text arena; /* the ids, NUL-terminated, one after another */
  struct id_slot {
    size_t at; /* offset of the id in arena + 1; 0: empty */
    int file;
  } * slots;
  size_t cap, used;
};

mc_case_ids *mc_case_ids_new(void) {
  return calloc(1, sizeof(mc_case_ids));
}

void mc_case_ids_free(mc_case_ids *ids) {
  if (!ids)
    return;
  for (int i = 0; i < ids->n_files; i++)
    free(ids->files[i]);
  free(ids->files);
  mc_text_free(&ids->arena);
  free(ids->slots);
  free(ids);
}

static size_t hash_id(const char *s) {
  uint64_t h = 1469598103934665603u; /* FNV-1a */
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211u;
  return (size_t)h;
}

/* The slot holding id, or the empty slot where it goes. */
static struct id_slot *find_slot(const mc_case_ids *ids, struct id_slot *slots, size_t cap,
                                 const char *id) {
  size_t i = hash_id(id) & (cap - 1);
  while (slots[i].at && strcmp(ids->arena.p + slots[i].at - 1, id) != 0)
    i = (i + 1) & (cap - 1);
  return &slots[i];
}

/* Keeps the table at most half full; false when out of memory. */
static bool make_room(mc_case_ids *ids, size_t more) {
  if (2 * (ids->used + more) <= ids->cap)
    return true;
  size_t cap = ids->cap ? ids->cap : 1024;
  while (2 * (ids->used + more) > cap)
    cap *= 2;
  struct id_slot *slots = calloc(cap, sizeof *slots);
  if (!slots)
    return false;
  for (size_t i = 0; i < ids->cap; i++)
    if (ids->slots[i].at)
      *find_slot(ids, slots, cap, ids->arena.p + ids->slots[i].at - 1) = ids->slots[i];
  free(ids->slots);
  ids->slots = slots;
  ids->cap = cap;
  return true;
}

/* Copies id into the arena; its offset + 1, or 0 when out of memory. */
static size_t keep_id(mc_case_ids *ids, const char *id) {
  size_t at = ids->arena.len;
  mc_text_put(&ids->arena, id, strlen(id) + 1);
  return ids->arena.oom ? 0 : at + 1;
}

/* Records path as the file of the ids about to be added; its index, or -1. */
static int add_file(mc_case_ids *ids, const char *path) {
  char **files = realloc(ids->files, (size_t)(ids->n_files + 1) * sizeof *files);
  if (!files)
    return -1;
  ids->files = files;
  files[ids->n_files] = mc_strdupf("%s", path ? path : "<input>");
  return ids->n_files++;
}

int mc_case_ids_check_file(mc_case_ids *ids, const mc_case_file *f,
                           void (*report)(void *ctx, const char *msg), void *ctx) {
  checker ck = {f, report, ctx, 0};
  int file = make_room(ids, (size_t)f->n_cases) ? add_file(ids, f->path) : -1;
  for (int i = 0; i < f->n_cases && file >= 0; i++) {
    const mc_case *c = &f->cases[i];
    if (!c->id)
      continue;
    struct id_slot *slot = find_slot(ids, ids->slots, ids->cap, c->id);
    if (!slot->at) {
      *slot = (struct id_slot){keep_id(ids, c->id), file};
      ids->used += slot->at != 0;
      file = slot->at ? file : -1;   /* out of memory */
    } else if (slot->file != file) { /* repeats within f are mc_case_file_check's */
      problem(&ck, c, "id already used by a case of %s (ids are unique across files)",
              ids->files[slot->file]);
    }
  }
  if (file < 0)
    problem(&ck, NULL, "out of memory while checking that ids are unique across files");
  return ck.problems;
}

int mc_case_files_check(const mc_path_list *files, void (*report)(void *ctx, const char *msg),
                        void *ctx, int *n_cases) {
  mc_case_ids *ids = mc_case_ids_new();
  if (!ids)
    return -1;
  int problems = 0;
  for (int i = 0; i < files->count; i++) {
    mc_case_file f;
    char err[1024];
    if (!mc_case_file_load(files->paths[i], &f, err, sizeof err)) {
      report(ctx, err);
      problems++;
      continue;
    }
    problems += mc_case_file_check(&f, report, ctx);
    problems += mc_case_ids_check_file(ids, &f, report, ctx);
    *n_cases += f.n_cases;
    mc_case_file_free(&f);
  }
  mc_case_ids_free(ids);
  return problems;
}
