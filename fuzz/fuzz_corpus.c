/* fuzz_corpus: writes the seed corpora of the fuzz targets from the
   conformance cases (fuzz/README.md, "Seed corpus and dictionary").

     fuzz_corpus [--check] [--root DIR] [--conformance DIR] [--out DIR]

   Deterministic: the same cases give the same bytes.
     OUT/diff/<id>        every case of CONFORMANCE (but regressions/ and the
                          generated cases of <op>/generated/) as fuzz bytes
                          (mc_fuzz_encode), which decode to exactly its request;
                          <id> is the case id with '/' as '_'. Cases whose seed
                          would exceed 16 KiB are left out (a long seed slows
                          every mutation down; libFuzzer also takes -max_len
                          from the longest seed). fuzz_plugin_diff uses it too.
     OUT/roundtrip/<id>   the seeds of the cases that expect an output.
     OUT/parser/<id>.json each case alone in a case file.
     OUT/parser.dict      the parser's dictionary: JSON keys and punctuation,
                          format, operation, type, error and clause names,
                          payload words, integers at the format's limits.
   Files of OUT/<target>/ that it does not produce are stale and removed
   (campaign findings go to corpus/<target>-found/, never here). With
   --check it writes nothing and exits 1 when OUT differs.
   ROOT (default: the source tree this was built from) holds conformance/,
   corpus/ and spec/case.schema.json.

   Exit status: 0 written or up to date, 1 out of date (--check), 2 usage,
   I/O or case-file errors. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cases/bytes/case_seeds.h"
#include "cases/bytes/fuzz_bytes.h"
#include "cases/cases.h"
#include "common/clauses.h"
#include "common/text.h"

#ifndef MOVCONF_SOURCE_DIR
#define MOVCONF_SOURCE_DIR "."
#endif

#define MAX_SEED_BYTES ((size_t)16 << 10)
#define TOOL "fuzz_corpus"

static const char usage[] =
    "usage: fuzz_corpus [--check] [--root DIR] [--conformance DIR] [--out DIR]\n"
    "Writes the fuzz seed corpora (OUT/diff, OUT/roundtrip, OUT/parser, OUT/parser.dict) from\n"
    "the cases of CONFORMANCE; --check compares instead and exits 1 when they differ.\n"
    "Defaults: ROOT the source tree, CONFORMANCE ROOT/conformance, OUT ROOT/corpus.\n";

static const char *const target_dirs[] = {"diff", "roundtrip", "parser"};
enum { N_TARGET_DIRS = 3 };

/* ---- a set of files: relative path -> bytes ---- */

typedef struct file_entry {
  char *path; /* relative to OUT */
  uint8_t *data;
  size_t size;
} file_entry;

typedef struct file_set {
  file_entry *items;
  int count, capacity;
} file_set;

/* Takes data (malloc'ed); exits on allocation failure: a tool, not a library. */
static void set_add(file_set *s, char *path, uint8_t *data, size_t size) {
  if (s->count == s->capacity) {
    s->capacity = s->capacity ? 2 * s->capacity : 256;
    s->items = realloc(s->items, (size_t)s->capacity * sizeof *s->items);
    if (!s->items) {
      fprintf(stderr, TOOL ": out of memory\n");
      exit(2);
    }
  }
  s->items[s->count++] = (file_entry){path, data, size};
}

static const file_entry *set_find(const file_set *s, const char *path) {
  for (int i = 0; i < s->count; i++)
    if (strcmp(s->items[i].path, path) == 0)
      return &s->items[i];
  return NULL;
}

static int compare_entries(const void *a, const void *b) {
  return strcmp(((const file_entry *)a)->path, ((const file_entry *)b)->path);
}

static void set_free(file_set *s) {
  for (int i = 0; i < s->count; i++) {
    free(s->items[i].path);
    free(s->items[i].data);
  }
  free(s->items);
  memset(s, 0, sizeof *s);
}

static uint8_t *copy_bytes(const void *p, size_t n) {
  uint8_t *c = malloc(n ? n : 1);
  if (!c) {
    fprintf(stderr, TOOL ": out of memory\n");
    exit(2);
  }
  memcpy(c, p, n);
  return c;
}

/* ---- the seeds of the cases ---- */

/* The case files of conformance/, but those under a folder named
   regressions or generated: findings would grow the corpus without end,
   and the generated vectors would multiply it for little new coverage. */
static bool taken(const char *conformance, const char *path) {
  const char *rel = path + strlen(conformance);
  char folder[1024];
  snprintf(folder, sizeof folder, "%s", rel);
  char *last = strrchr(folder, '/');
  if (last)
    *last = '\0';
  for (char *part = strtok(folder, "/"); part; part = strtok(NULL, "/"))
    if (strcmp(part, "regressions") == 0 || strcmp(part, "generated") == 0)
      return false;
  return true;
}

static char *seed_name(const char *id) {
  char *name = mc_strdupf("%s", id);
  for (char *p = name; *p; p++)
    if (*p == '/')
      *p = '_';
  return name;
}

typedef struct generation {
  file_set files;
  mc_text skipped; /* one line per case left out of diff/ */
} generation;

/* The diff seed of case c (and its roundtrip twin), or a line in skipped. */
static void add_seed(generation *g, const mc_case *c, const char *name) {
  mc_fuzz_input in;
  mc_fuzz_input_of_case(c, &in);
  mc_fuzz_bytes seed;
  char why[256];
  if (!mc_fuzz_encode(&in, &seed, why, sizeof why)) {
    mc_text_printf(&g->skipped, TOOL ": skipped %s: %s\n", c->id, why);
    return;
  }
  if (seed.size > MAX_SEED_BYTES) {
    mc_text_printf(&g->skipped, TOOL ": skipped %s: its seed would have %zu bytes\n", c->id,
                   seed.size);
  } else {
    set_add(&g->files, mc_strdupf("diff/%s", name), copy_bytes(seed.data, seed.size), seed.size);
    if (!c->expect_error)
      set_add(&g->files, mc_strdupf("roundtrip/%s", name), copy_bytes(seed.data, seed.size),
              seed.size);
  }
  mc_fuzz_bytes_free(&seed);
}

/* Every case of one file: its parser seed and its diff seed. */
static bool add_case_file(generation *g, const char *path) {
  char err[1024];
  mc_case_file file;
  if (!mc_case_file_load(path, &file, err, sizeof err)) {
    fprintf(stderr, TOOL ": %s\n", err);
    return false;
  }
  size_t len;
  int error;
  char *text = mc_read_file_bounded(path, MC_CASE_MAX_FILE_BYTES, &len, &error);
  int n_alone = 0;
  char **alone = text ? mc_cases_alone(text, len, &n_alone, err, sizeof err) : NULL;
  bool ok = alone && n_alone == file.n_cases;
  if (!ok)
    fprintf(stderr, TOOL ": %s: %s\n", path, text ? err : strerror(error));
  for (int i = 0; ok && i < file.n_cases; i++) {
    const mc_case *c = &file.cases[i];
    char *name = seed_name(c->id);
    char *diff_path = mc_strdupf("diff/%s", name);
    char *parser_path = mc_strdupf("parser/%s.json", name);
    if (set_find(&g->files, parser_path)) {
      fprintf(stderr, TOOL ": two cases map to the seed name %s\n", name);
      ok = false;
    } else {
      set_add(&g->files, parser_path, (uint8_t *)alone[i], strlen(alone[i]));
      alone[i] = NULL;
      parser_path = NULL;
      add_seed(g, c, name);
    }
    free(parser_path);
    free(diff_path);
    free(name);
  }
  for (int i = 0; alone && i < n_alone; i++)
    free(alone[i]);
  free(alone);
  free(text);
  mc_case_file_free(&file);
  return ok;
}

/* ---- the parser's dictionary ---- */

typedef struct word_list {
  char **words;
  int count, capacity;
} word_list;

/* Appends a word unless it is there already (first place kept). */
static void add_word(word_list *w, char *word) {
  for (int i = 0; i < w->count; i++) {
    if (strcmp(w->words[i], word) == 0) {
      free(word);
      return;
    }
  }
  if (w->count == w->capacity) {
    w->capacity = w->capacity ? 2 * w->capacity : 256;
    w->words = realloc(w->words, (size_t)w->capacity * sizeof *w->words);
    if (!w->words) {
      fprintf(stderr, TOOL ": out of memory\n");
      exit(2);
    }
  }
  w->words[w->count++] = word;
}

/* The schema in document order: the member names of every "properties"
   object, then (separately collected) every string of every "enum". */
static void walk_schema(const cJSON *node, word_list *keys, word_list *enums) {
  for (const cJSON *c = node->child; c; c = c->next) {
    if (cJSON_IsObject(node) && strcmp(c->string, "properties") == 0 && cJSON_IsObject(c))
      for (const cJSON *k = c->child; k; k = k->next)
        add_word(keys, mc_strdupf("\"%s\"", k->string));
    if (cJSON_IsObject(node) && strcmp(c->string, "enum") == 0 && cJSON_IsArray(c))
      for (const cJSON *e = c->child; e; e = e->next)
        if (cJSON_IsString(e))
          add_word(enums, mc_strdupf("\"%s\"", e->valuestring));
    if (cJSON_IsObject(c) || cJSON_IsArray(c))
      walk_schema(c, keys, enums);
  }
}

static void move_words(word_list *to, word_list *from) {
  for (int i = 0; i < from->count; i++)
    add_word(to, from->words[i]);
  free(from->words);
  memset(from, 0, sizeof *from);
}

/* "b2s/" for BatchToSpace-2, quoted: the start of its case ids. */
static char *case_id_prefix(mc_op op) {
  char prefix[16];
  mc_op_case_prefix(op, prefix, sizeof prefix);
  return mc_strdupf("\"%s/\"", prefix);
}

static bool dictionary_words(const char *root, word_list *words) {
  char *path = mc_strdupf("%s/spec/case.schema.json", root);
  size_t len;
  int error;
  char *text = mc_read_file_bounded(path, MC_CASE_MAX_FILE_BYTES, &len, &error);
  cJSON *schema = text ? cJSON_ParseWithLength(text, len) : NULL;
  if (!schema)
    fprintf(stderr, TOOL ": %s: %s\n", path, text ? "not JSON" : strerror(error));
  free(text);
  free(path);
  if (!schema)
    return false;
  word_list keys = {0}, enums = {0};
  walk_schema(schema, &keys, &enums);
  cJSON_Delete(schema);
  move_words(words, &keys);
  move_words(words, &enums);
  for (const mc_clause *c = mc_clause_table(); c->id; c++)
    add_word(words, mc_strdupf("\"%s\"", c->id));
  for (int op = 0; op < MC_OP_COUNT; op++)
    add_word(words, case_id_prefix((mc_op)op));
  static const char *const fixed[] = {"\"movconf-cases/1\"",
                                      "\"blocks_first\"",
                                      "\"depth_first\"",
                                      "\"valid\"",
                                      "\"same_upper\"",
                                      "\"same_lower\"",
                                      "{",
                                      "}",
                                      "[",
                                      "]",
                                      ":",
                                      ",",
                                      "true",
                                      "false",
                                      "null",
                                      "-0",
                                      "1e2",
                                      "1.0",
                                      "0.5",
                                      "1e400",
                                      "1e-400",
                                      "9007199254740992",
                                      "9007199254740993",
                                      "\"18446744073709551615\"",
                                      "\"-9223372036854775808\"",
                                      "\"9223372036854775808\"",
                                      "\\u0000",
                                      "\\ud800",
                                      "\\u00e9",
                                      "\\\"",
                                      "\\\\",
                                      "\xEF\xBB\xBF" /* a byte order mark */};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    add_word(words, mc_strdupf("%s", fixed[i]));
  return true;
}

/* kwN="WORD": quote and backslash escaped, bytes outside printable ASCII
   as \xHH (the dictionary syntax of libFuzzer and AFL++). */
static void put_dict_line(mc_text *out, int index, const char *word) {
  mc_text_printf(out, "kw%d=\"", index);
  for (const unsigned char *p = (const unsigned char *)word; *p; p++) {
    if (*p == '"' || *p == '\\')
      mc_text_printf(out, "\\%c", *p);
    else if (*p >= 0x20 && *p < 0x7F)
      mc_text_printf(out, "%c", *p);
    else
      mc_text_printf(out, "\\x%02X", *p);
  }
  mc_text_printf(out, "\"\n");
}

static bool add_dictionary(generation *g, const char *root) {
  word_list words = {0};
  bool ok = dictionary_words(root, &words);
  mc_text dict = {0};
  for (int i = 0; i < words.count; i++) {
    if (ok)
      put_dict_line(&dict, i, words.words[i]);
    free(words.words[i]);
  }
  free(words.words);
  if (ok && !dict.oom)
    set_add(&g->files, mc_strdupf("parser.dict"), (uint8_t *)dict.p, dict.len);
  else
    mc_text_free(&dict);
  return ok && !dict.oom;
}

static bool generate(const char *root, const char *conformance, generation *g) {
  mc_path_list paths = {0};
  char err[1024];
  if (!mc_find_case_files(&conformance, 1, &paths, err, sizeof err)) {
    fprintf(stderr, TOOL ": %s\n", err);
    mc_path_list_free(&paths);
    return false;
  }
  bool ok = true;
  for (int i = 0; ok && i < paths.count; i++)
    if (taken(conformance, paths.paths[i]))
      ok = add_case_file(g, paths.paths[i]);
  mc_path_list_free(&paths);
  return ok && add_dictionary(g, root);
}

/* ---- what OUT holds ---- */

static bool read_into(file_set *s, const char *out, const char *rel) {
  char *path = mc_strdupf("%s/%s", out, rel);
  size_t len;
  int error;
  char *data = mc_read_file_bounded(path, (size_t)1 << 30, &len, &error);
  if (!data)
    fprintf(stderr, TOOL ": %s: %s\n", path, strerror(error));
  free(path);
  if (!data)
    return false;
  set_add(s, mc_strdupf("%s", rel), (uint8_t *)data, len);
  return true;
}

/* The generated parts of out as they are. */
static bool existing(const char *out, file_set *have) {
  bool ok = true;
  for (int t = 0; t < N_TARGET_DIRS; t++) {
    char *folder = mc_strdupf("%s/%s", out, target_dirs[t]);
    DIR *dir = opendir(folder);
    for (struct dirent *e; ok && dir && (e = readdir(dir));) {
      char *rel = mc_strdupf("%s/%s", target_dirs[t], e->d_name);
      char *path = mc_strdupf("%s/%s", out, rel);
      struct stat st;
      if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
        ok = read_into(have, out, rel);
      free(path);
      free(rel);
    }
    if (dir)
      closedir(dir);
    free(folder);
  }
  char *dict = mc_strdupf("%s/parser.dict", out);
  struct stat st;
  if (ok && stat(dict, &st) == 0 && S_ISREG(st.st_mode))
    ok = read_into(have, out, "parser.dict");
  free(dict);
  return ok;
}

static bool same_entry(const file_entry *a, const file_entry *b) {
  return a && b && a->size == b->size && memcmp(a->data, b->data, a->size) == 0;
}

/* ---- main ---- */

typedef struct options {
  bool check;
  const char *root, *conformance, *out;
} options;

static bool parse_options(int argc, char **argv, options *o) {
  o->check = false;
  o->root = MOVCONF_SOURCE_DIR;
  o->conformance = o->out = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--check") == 0) {
      o->check = true;
      continue;
    }
    const char **slot = !strcmp(argv[i], "--root")          ? &o->root
                        : !strcmp(argv[i], "--conformance") ? &o->conformance
                        : !strcmp(argv[i], "--out")         ? &o->out
                                                            : NULL;
    if (!slot || i + 1 >= argc)
      return false;
    *slot = argv[++i];
  }
  return true;
}

/* Reports what differs; 0 when nothing does, else 1. */
static int check(const file_set *want, const file_set *have) {
  int problems = 0;
  for (int i = 0; i < want->count; i++) {
    const file_entry *h = set_find(have, want->items[i].path);
    if (!same_entry(&want->items[i], h)) {
      printf(TOOL ": %s is %s\n", want->items[i].path, h ? "out of date" : "missing");
      problems++;
    }
  }
  for (int i = 0; i < have->count; i++) {
    if (!set_find(want, have->items[i].path)) {
      printf(TOOL ": %s is not generated any more\n", have->items[i].path);
      problems++;
    }
  }
  if (problems) {
    printf(TOOL ": run fuzz_corpus (cmake --build: fuzz/fuzz_corpus) to regenerate corpus/\n");
    return 1;
  }
  printf(TOOL ": corpus/ is up to date (%d files)\n", want->count);
  return 0;
}

static int write_out(const char *out, const file_set *want, const file_set *have,
                     const char *skipped) {
  int written = 0, removed = 0;
  for (int i = 0; i < have->count; i++) {
    if (set_find(want, have->items[i].path))
      continue;
    char *path = mc_strdupf("%s/%s", out, have->items[i].path);
    if (remove(path) != 0)
      fprintf(stderr, TOOL ": cannot remove %s: %s\n", path, strerror(errno));
    removed++;
    free(path);
  }
  for (int i = 0; i < want->count; i++) {
    const file_entry *w = &want->items[i];
    if (same_entry(w, set_find(have, w->path)))
      continue;
    char *path = mc_strdupf("%s/%s", out, w->path);
    char *folder = mc_strdupf("%s", path);
    *strrchr(folder, '/') = '\0';
    bool ok = mc_make_dirs(folder) && mc_write_file_atomic(path, w->data, w->size);
    if (!ok)
      fprintf(stderr, TOOL ": cannot write %s\n", path);
    free(folder);
    free(path);
    if (!ok)
      return 2;
    written++;
  }
  printf("%s", skipped);
  int counts[N_TARGET_DIRS] = {0};
  for (int i = 0; i < want->count; i++)
    for (int t = 0; t < N_TARGET_DIRS; t++)
      counts[t] += strncmp(want->items[i].path, target_dirs[t], strlen(target_dirs[t])) == 0 &&
                   want->items[i].path[strlen(target_dirs[t])] == '/';
  printf(TOOL ": diff %d, roundtrip %d, parser %d; %d files written, %d removed\n", counts[0],
         counts[1], counts[2], written, removed);
  return 0;
}

int main(int argc, char **argv) {
  options o;
  if (!parse_options(argc, argv, &o)) {
    fputs(usage, stderr);
    return 2;
  }
  char *conformance =
      o.conformance ? mc_strdupf("%s", o.conformance) : mc_strdupf("%s/conformance", o.root);
  char *out = o.out ? mc_strdupf("%s", o.out) : mc_strdupf("%s/corpus", o.root);
  generation g = {{0}, {0}};
  file_set have = {0};
  int status = 2;
  if (generate(o.root, conformance, &g) && existing(out, &have)) {
    qsort(g.files.items, (size_t)g.files.count, sizeof *g.files.items, compare_entries);
    status = o.check ? check(&g.files, &have)
                     : write_out(out, &g.files, &have, g.skipped.p ? g.skipped.p : "");
  }
  set_free(&g.files);
  set_free(&have);
  mc_text_free(&g.skipped);
  free(conformance);
  free(out);
  return status;
}
