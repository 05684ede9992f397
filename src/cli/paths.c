/* Small helpers of the CLI: strings, the default case files, --op values. */
#define _DEFAULT_SOURCE /* realpath */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

/* The build tree's link to the source tree, beside the program there (the
   top CMakeLists.txt makes it; it is never installed). */
#define BUILD_TREE_LINK "movconf-data"

static bool is_directory(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The folder of the running program, from /proc/self/exe; "" when unknown. */
static void program_dir(char *out, size_t n) {
  out[0] = '\0';
  ssize_t len = readlink("/proc/self/exe", out, n - 1);
  if (len <= 0)
    return;
  out[len] = '\0';
  char *slash = strrchr(out, '/');
  *(slash ? slash : out) = '\0';
}

/* dir/name into out; false when it does not fit (a truncated path names
   another file). */
static bool join_path(char *out, size_t n, const char *dir, const char *name) {
  int len = snprintf(out, n, "%s/%s", dir, name);
  return len >= 0 && (size_t)len < n;
}

const mc_data_location *mc_data_root(void) {
  static mc_data_location root;
  if (root.how)
    return &root;
  const char *env = getenv("MOVCONF_DATA_DIR");
  if (env && *env) {
    snprintf(root.dir, sizeof root.dir, "%s", env);
    root.how = "from MOVCONF_DATA_DIR";
    return &root;
  }
  char bin[4096], candidate[sizeof root.dir];
  program_dir(bin, sizeof bin);
  bool built =
      join_path(candidate, sizeof candidate, bin, BUILD_TREE_LINK) && is_directory(candidate);
  if (!built) /* installed: share/movconf beside bin/ (or missing, said later) */
    join_path(candidate, sizeof candidate, bin, MOVCONF_DATA_FROM_BIN);
  if (!realpath(candidate, root.dir))
    snprintf(root.dir, sizeof root.dir, "%s", candidate);
  root.how = built ? "the source tree, through the build tree's " BUILD_TREE_LINK " link"
                   : "installed beside the program";
  return &root;
}

const char *mc_default_dir(const char *name) {
  static struct {
    char name[32];
    char path[4096 + 64];
  } known[4];
  if (!getenv("MOVCONF_DATA_DIR") && is_directory(name))
    return name;
  int i = 0;
  while (i < 3 && known[i].name[0] && strcmp(known[i].name, name) != 0)
    i++;
  snprintf(known[i].name, sizeof known[i].name, "%s", name);
  snprintf(known[i].path, sizeof known[i].path, "%s/%s", mc_data_root()->dir, name);
  return known[i].path;
}

void mc_print_data_root(FILE *out) {
  const mc_data_location *root = mc_data_root();
  fprintf(out, "data folder: %s (%s%s)\n", root->dir, root->how,
          is_directory(root->dir) ? "" : "; missing");
}

bool mc_collect_case_files(int n, char **paths, mc_path_list *out) {
  memset(out, 0, sizeof *out);
  const char *fallback[1] = {mc_default_dir("conformance")};
  char err[4200];
  bool ok = n == 0 ? mc_find_case_files(fallback, 1, out, err, sizeof err)
                   : mc_find_case_files((const char *const *)paths, n, out, err, sizeof err);
  if (!ok)
    fprintf(stderr, "movconf: %s\n", err);
  return ok;
}

/* Lower case, letters and digits only: "SpaceToDepth-1", "space_to_depth_1"
   and "spacetodepth1" all become "spacetodepth1". */
static void fold(const char *text, char *out, size_t n) {
  size_t used = 0;
  for (const char *c = text; *c && used + 1 < n; c++)
    if (isalnum((unsigned char)*c))
      out[used++] = (char)tolower((unsigned char)*c);
  out[used] = '\0';
}

/* Whether the folded spelling names op: its name with or without the
   version, or its clause prefix. */
static bool names_op(const char *folded, mc_op op) {
  char name[64], prefix[16];
  fold(mc_op_name(op), name, sizeof name);
  fold(mc_op_clause_prefix(op), prefix, sizeof prefix);
  size_t unversioned = strcspn(name, "0123456789");
  return strcmp(folded, name) == 0 || strcmp(folded, prefix) == 0 ||
         (strlen(folded) == unversioned && strncmp(folded, name, unversioned) == 0);
}

int mc_op_from_option(const char *text) {
  char folded[64];
  fold(text, folded, sizeof folded);
  for (int i = 0; folded[0] && i < MC_OP_COUNT; i++)
    if (names_op(folded, (mc_op)i))
      return i;
  return -1;
}

void mc_suggest_op(const char *text) {
  const char *best = mc_op_suggestion(text);
  if (best)
    fprintf(stderr, "did you mean %s?\n", best);
}

const char *mc_op_suggestion(const char *text) {
  char folded[64], name[64];
  fold(text, folded, sizeof folded);
  const char *best = NULL;
  size_t best_distance = 4; /* farther is no suggestion */
  for (int i = 0; i < MC_OP_COUNT; i++) {
    fold(mc_op_name((mc_op)i), name, sizeof name);
    name[strcspn(name, "0123456789")] = '\0';
    size_t d = mc_edit_distance(folded, name);
    if (d < best_distance) {
      best_distance = d;
      best = mc_op_name((mc_op)i);
    }
  }
  return best;
}
