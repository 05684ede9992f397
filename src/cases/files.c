/* Files on disk: finding case files, reading, writing. */
#define _DEFAULT_SOURCE /* realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cases/cases.h"
#include "common/text.h"

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

/* The directories a walk has entered, by device and inode: each is visited
   once, so symbolic links that loop (two links to "." in one directory)
   cannot multiply the paths. */
typedef struct visited_dirs {
  struct {
    dev_t dev;
    ino_t ino;
  } * ids;
  size_t count, cap;
} visited_dirs;

/* True when st's directory is new (and now recorded). */
static bool first_visit(visited_dirs *v, const struct stat *st) {
  for (size_t i = 0; i < v->count; i++)
    if (v->ids[i].dev == st->st_dev && v->ids[i].ino == st->st_ino)
      return false;
  if (v->count == v->cap) {
    size_t cap = v->cap ? 2 * v->cap : 64;
    void *grown = realloc(v->ids, cap * sizeof *v->ids);
    if (!grown)
      return false;
    v->ids = grown;
    v->cap = cap;
  }
  v->ids[v->count].dev = st->st_dev;
  v->ids[v->count].ino = st->st_ino;
  v->count++;
  return true;
}

/* A walk: where it puts paths and its first problem. */
typedef struct walker {
  mc_path_list *out;
  visited_dirs visited;
  char *err;
  size_t errlen;
  bool ok;
} walker;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
walk_problem(walker *w, const char *fmt, ...) {
  if (w->ok && w->err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, w->errlen, fmt, ap);
    va_end(ap);
  }
  w->ok = false;
}

/* A case file must be a regular file: a FIFO or a device would block the
   loader or feed it without end. */
static void add_case_file(walker *w, const char *dir, const char *name, const struct stat *st) {
  const char *shown = name ? name : dir;
  if (!S_ISREG(st->st_mode))
    walk_problem(w, "%s%s%s: not a regular file", name ? dir : "", name ? "/" : "", shown);
  else if (!push_path(w->out, dir, name))
    walk_problem(w, "out of memory listing case files");
}

static void walk(walker *w, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) {
    walk_problem(w, "%s: cannot read the directory: %s", dir, strerror(errno));
    return;
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) {
      walk_problem(w, "%s/%s: path too long", dir, e->d_name);
      continue;
    }
    struct stat st;
    bool found = stat(path, &st) == 0;
    if (found && S_ISDIR(st.st_mode)) {
      if (first_visit(&w->visited, &st))
        walk(w, path);
    } else if (has_json_suffix(e->d_name)) {
      if (!found)
        walk_problem(w, "%s: %s", path, strerror(errno));
      else
        add_case_file(w, dir, e->d_name, &st);
    }
  }
  closedir(d);
}

static int compare_paths(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file named twice (a folder and a file in it) is taken once, so that a
   run does not see its case ids repeated. paths must be sorted. */
static void drop_repeated_paths(mc_path_list *list) {
  int kept = 0;
  for (int i = 0; i < list->count; i++) {
    if (kept > 0 && strcmp(list->paths[i], list->paths[kept - 1]) == 0)
      free(list->paths[i]);
    else
      list->paths[kept++] = list->paths[i];
  }
  list->count = kept;
}

bool mc_find_case_files(const char *const *paths, int n, mc_path_list *out, char *err,
                        size_t errlen) {
  walker w = {.out = out, .err = err, .errlen = errlen, .ok = true};
  for (int i = 0; i < n; i++) {
    struct stat st;
    if (stat(paths[i], &st) != 0)
      walk_problem(&w, "%s: no such file or directory", paths[i]);
    else if (S_ISDIR(st.st_mode) && first_visit(&w.visited, &st))
      walk(&w, paths[i]);
    else if (!S_ISDIR(st.st_mode))
      add_case_file(&w, paths[i], NULL, &st);
  }
  free(w.visited.ids);
  if (out->count > 1)
    qsort(out->paths, (size_t)out->count, sizeof *out->paths, compare_paths);
  drop_repeated_paths(out);
  return w.ok;
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

/* Opens path for reading only when it is a regular file: opening a FIFO
   without O_NONBLOCK would wait for a writer forever. */
static FILE *open_regular(const char *path, int *error) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    *error = fd < 0 ? errno : EINVAL;
    if (fd >= 0)
      close(fd);
    return NULL;
  }
  FILE *fp = fdopen(fd, "rb");
  if (!fp) {
    *error = errno;
    close(fd);
  }
  return fp;
}

char *mc_read_file_bounded(const char *path, size_t limit, size_t *len, int *error) {
  FILE *fp = open_regular(path, error);
  if (!fp)
    return NULL;
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

/* ---- outputs: written whole or not at all ---- */

/* The path of the file a path names: symbolic links followed; for a file
   that does not exist yet, its resolved folder and its name. Heap, or NULL
   when the folder does not exist either. */
static char *resolved_path(const char *path) {
  char *whole = realpath(path, NULL);
  if (whole)
    return whole;
  const char *slash = strrchr(path, '/');
  char *dir = slash ? mc_strdupf("%.*s", (int)(slash - path), path) : mc_strdupf(".");
  char *real_dir = realpath(*dir ? dir : "/", NULL);
  free(dir);
  if (!real_dir)
    return NULL;
  char *out = mc_strdupf("%s/%s", real_dir, slash ? slash + 1 : path);
  free(real_dir);
  return out;
}

bool mc_same_file(const char *a, const char *b) {
  struct stat sa, sb;
  bool a_exists = stat(a, &sa) == 0, b_exists = stat(b, &sb) == 0;
  if (a_exists || b_exists)
    return a_exists && b_exists && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  char *ra = resolved_path(a), *rb = resolved_path(b);
  bool same = strcmp(ra ? ra : a, rb ? rb : b) == 0;
  free(ra);
  free(rb);
  return same;
}

/* The temporary files being written, for mc_output_remove_temporaries
   (a signal handler: only pointers set and cleared, no allocation), each
   with the process that writes it: a forked child (a plugin's host, which
   a hostile plugin may signal) never removes its parent's. */
#define MAX_PENDING_OUTPUTS 16
static char *volatile pending[MAX_PENDING_OUTPUTS];
static volatile pid_t pending_writer[MAX_PENDING_OUTPUTS];

static void track(char *tmp, bool on) {
  for (int i = 0; i < MAX_PENDING_OUTPUTS; i++)
    if (pending[i] == (on ? NULL : tmp)) {
      pending_writer[i] = getpid();
      pending[i] = on ? tmp : NULL;
      return;
    }
}

void mc_output_remove_temporaries(void) {
  pid_t self = getpid();
  for (int i = 0; i < MAX_PENDING_OUTPUTS; i++)
    if (pending[i] && pending_writer[i] == self)
      unlink(pending[i]);
}

/* The process's umask, which can only be read by setting it. */
static mode_t current_umask(void) {
  mode_t mask = umask(0);
  umask(mask);
  return mask;
}

bool mc_output_open(mc_output *o, const char *path) {
  *o = (mc_output){0};
  struct stat st;
  bool exists = stat(path, &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) { /* a FIFO, a terminal, /dev/stdout: a stream */
    o->f = fopen(path, "we");
    o->target = o->f ? mc_strdupf("%s", path) : NULL;
    return o->f != NULL;
  }
  if (exists && access(path, W_OK) != 0)
    return false; /* the user's read-only file stays so */
  o->target = exists ? realpath(path, NULL) : mc_strdupf("%s", path);
  static unsigned serial; /* two outputs of one process never share a name */
  o->tmp = o->target ? mc_strdupf("%s.%ld-%u.tmp", o->target, (long)getpid(), serial++) : NULL;
  int fd = o->tmp ? open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600) : -1;
  o->mode = exists ? st.st_mode & 07777 : 0666 & ~current_umask();
  o->f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (o->f) {
    track(o->tmp, true);
    return true;
  }
  int error = errno;
  if (fd >= 0)
    close(fd);
  mc_output_discard(o);
  errno = error;
  return false;
}

bool mc_output_commit(mc_output *o) {
  if (!o->f)
    return false;
  bool ok = !ferror(o->f);
  if (o->tmp)
    ok = fchmod(fileno(o->f), (mode_t)o->mode) == 0 && ok;
  ok = fclose(o->f) == 0 && ok;
  o->f = NULL;
  if (o->tmp && ok)
    ok = rename(o->tmp, o->target) == 0;
  mc_output_discard(o);
  return ok;
}

void mc_output_discard(mc_output *o) {
  if (o->f)
    fclose(o->f);
  if (o->tmp) {
    track(o->tmp, false);
    unlink(o->tmp); /* after a rename: nothing there any more */
  }
  free(o->tmp);
  free(o->target);
  *o = (mc_output){0};
}

bool mc_output_check(const char *path) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    errno = EISDIR;
    return false;
  }
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
    return access(path, W_OK) == 0; /* opened and closed, a FIFO's reader would see its end */
  mc_output o;
  if (!mc_output_open(&o, path))
    return false;
  mc_output_discard(&o);
  return true;
}

bool mc_write_file_atomic(const char *path, const void *data, size_t size) {
  mc_output o;
  if (!mc_output_open(&o, path))
    return false;
  if (fwrite(data, 1, size, o.f) != size) {
    mc_output_discard(&o);
    return false;
  }
  return mc_output_commit(&o);
}
