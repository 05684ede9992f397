/* Files on disk: finding case files, reading, writing. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cases/cases.h"

static bool push_path(mc_path_list *list, const char *dir, const char *name) {
  if (list->count == list->capacity) {
    int capacity = list->capacity ? 2 * list->capacity : 64;
    char **grown = realloc(list->paths, (size_t)capacity * sizeof *grown);
    if (!grown)
      return false;
    list->paths = grown;
    list->capacity = capacity;
  }
  size_t len = strlen(dir) + (name ? strlen(name) + 1 : 0) + 1;
  char *path = malloc(len);
  if (!path)
    return false;
  snprintf(path, len, name ? "%s/%s" : "%s", dir, name ? name : "");
  list->paths[list->count++] = path;
  return true;
}

static bool has_json_suffix(const char *name) {
  size_t n = strlen(name);
  return n > 5 && strcmp(name + n - 5, ".json") == 0;
}

/* Depth-limited so that a symlink loop cannot recurse forever. */
static void walk(const char *dir, mc_path_list *out, int depth) {
  DIR *d = depth <= 32 ? opendir(dir) : NULL;
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path)
      continue;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
      walk(path, out, depth + 1);
    else if (has_json_suffix(e->d_name))
      push_path(out, dir, e->d_name);
  }
  closedir(d);
}

static int compare_paths(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

bool mc_find_case_files(const char *const *paths, int n, mc_path_list *out, char *err,
                        size_t errlen) {
  bool ok = true;
  for (int i = 0; i < n; i++) {
    struct stat st;
    if (stat(paths[i], &st) != 0) {
      if (ok && err)
        snprintf(err, errlen, "%s: no such file or directory", paths[i]);
      ok = false;
    } else if (S_ISDIR(st.st_mode)) {
      walk(paths[i], out, 0);
    } else {
      push_path(out, paths[i], NULL);
    }
  }
  if (out->count > 1)
    qsort(out->paths, (size_t)out->count, sizeof *out->paths, compare_paths);
  return ok;
}

void mc_path_list_free(mc_path_list *list) {
  for (int i = 0; i < list->count; i++)
    free(list->paths[i]);
  free(list->paths);
  memset(list, 0, sizeof *list);
}

/* Reads at most limit + 1 bytes, so an oversized file is noticed without
   reading it whole. */
static char *read_bounded(FILE *fp, size_t limit, size_t *len, int *error) {
  size_t cap = 1 << 16, used = 0;
  char *buf = malloc(cap);
  *error = 0;
  while (buf) {
    size_t want = cap - used;
    size_t got = fread(buf + used, 1, want, fp);
    used += got;
    if (got < want) {
      if (ferror(fp)) {
        *error = errno ? errno : EIO;
        free(buf);
        return NULL;
      }
      break;
    }
    if (used > limit)
      break;
    size_t next = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
    char *grown = realloc(buf, next);
    if (!grown)
      free(buf);
    buf = grown;
    cap = next;
  }
  if (!buf)
    *error = ENOMEM;
  *len = used;
  return buf;
}

char *mc_read_file_bounded(const char *path, size_t limit, size_t *len, int *error) {
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    *error = errno;
    return NULL;
  }
  char *text = read_bounded(fp, limit, len, error);
  fclose(fp);
  return text;
}

bool mc_make_dirs(const char *path) {
  char buf[4096];
  if (strlen(path) >= sizeof buf)
    return false;
  strcpy(buf, path);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
      return false;
    *p = '/';
  }
  return mkdir(buf, 0777) == 0 || errno == EEXIST;
}

bool mc_write_file_atomic(const char *path, const void *data, size_t size) {
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f)
    return false;
  bool ok = fwrite(data, 1, size, f) == size;
  ok = fclose(f) == 0 && ok;
  if (ok && rename(tmp, path) != 0)
    ok = false;
  if (!ok)
    remove(tmp);
  return ok;
}
