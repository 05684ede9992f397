/* Where the case files of a command are: movconf's data folder, its
   default folders and tiers, the case files under given paths. */
#define _DEFAULT_SOURCE /* realpath */
#include "harness/run/case_folders.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* dir/name in out; false when it does not fit (a path that long is not ours). */
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

int mc_tier_folders(const char *tier, char *paths[2]) {
  int n = 0;
  if (!tier || strcmp(tier, "default") == 0 || strcmp(tier, "all") == 0)
    paths[n++] = (char *)mc_default_dir("conformance");
  if (tier && (strcmp(tier, "large") == 0 || strcmp(tier, "all") == 0))
    paths[n++] = (char *)mc_default_dir("conformance-large");
  return n;
}

/* Whether path lies in the folder of an operation other than op, directly
   under the tier folder dir (dir/<slug>/...). */
static bool in_other_op_folder(const char *dir, const char *path, int op) {
  size_t n = strlen(dir);
  if (strncmp(path, dir, n) != 0 || path[n] != '/')
    return false;
  const char *name = path + n + 1, *end = strchr(name, '/');
  if (!end)
    return false;
  for (int other = 0; other < MC_OP_COUNT; other++) {
    const char *slug = mc_op_slug((mc_op)other);
    if (other != op && strlen(slug) == (size_t)(end - name) &&
        strncmp(name, slug, (size_t)(end - name)) == 0)
      return true;
  }
  return false;
}

/* With --op, another operation's folder holds none of the cases (each file
   there names that folder's operation: tools/validate_schema.py checks it),
   so its files are not read: every run with --op parsed the whole tier
   before (1.8 s against 0.5 s for one operation's folder). */
static void drop_other_op_folders(mc_path_list *files, char *const *dirs, int n_dirs, int op) {
  int kept = 0;
  for (int i = 0; i < files->count; i++) {
    bool other = false;
    for (int d = 0; d < n_dirs && !other; d++)
      other = in_other_op_folder(dirs[d], files->paths[i], op);
    if (other)
      free(files->paths[i]);
    else
      files->paths[kept++] = files->paths[i];
  }
  files->count = kept;
}

bool mc_collect_tier_files(const char *tier, int op, mc_path_list *out) {
  char *dirs[2];
  int n = mc_tier_folders(tier, dirs);
  bool ok = mc_collect_case_files(n, dirs, out);
  if (op != MC_OP_INVALID)
    drop_other_op_folders(out, dirs, n, op);
  return ok;
}
