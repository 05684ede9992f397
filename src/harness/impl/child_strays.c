/* Ending what a plugin starts during a call: see child_strays.h.

   A full look through /proc costs milliseconds (a few hundred processes on
   a busy machine), too much for every case. A process started since the
   last look has a pid the kernel handed out since then: pids are given in
   increasing order (wrapping at pid_max), and /proc/sys/kernel/ns_last_pid
   is the last one given. So after a call only those pids are looked at;
   the whole of /proc only when the range is not known or too large. */
#include "harness/impl/child_strays.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/impl/child.h"

/* Beyond this many new pids since the last look, all of /proc is read. */
#define MAX_RANGE 4096
/* How far up a process's parents are followed. */
#define MAX_DEPTH 64

/* A number in a /proc/sys file; -1 when it cannot be read. */
static long read_number(const char *path) {
  FILE *f = fopen(path, "re");
  long v = -1;
  if (f && fscanf(f, "%ld", &v) != 1)
    v = -1;
  if (f)
    fclose(f);
  return v;
}

long mc_child_tree_last_pid(void) {
  return read_number("/proc/sys/kernel/ns_last_pid");
}

/* What /proc/PID/stat says of pid; false when it has ended. */
static bool stat_of(pid_t pid, long *ppid, char *state, unsigned long long *start) {
  char name[24];
  snprintf(name, sizeof name, "%ld", (long)pid);
  *ppid = mc_child_read_stat(name, state, start);
  return *ppid >= 0;
}

/* Whether pid (started at start) descends from the root or the warden.
   A process started before them cannot: the walk up stops there. */
static bool in_tree(const mc_child_tree *t, pid_t pid, long ppid, unsigned long long start) {
  for (int depth = 0; depth < MAX_DEPTH; depth++) {
    if (pid == t->root || (t->warden > 0 && pid == t->warden))
      return true;
    if (start < t->floor_start || ppid <= 1)
      return false;
    pid = (pid_t)ppid;
    char state;
    long up;
    if (!stat_of(pid, &up, &state, &start))
      return false;
    ppid = up;
  }
  return false;
}

static bool kept(const mc_child_tree *t, pid_t pid, unsigned long long start) {
  if (pid == t->root || pid == t->warden)
    return true;
  for (size_t i = 0; i < t->n_kept; i++)
    if (t->kept[i].pid == pid && t->kept[i].start == start)
      return true;
  return false;
}

static bool add(mc_child_kept **list, size_t *n, size_t *cap, pid_t pid, unsigned long long start) {
  if (*n == *cap) {
    size_t grown_cap = *cap ? *cap * 2 : 8;
    mc_child_kept *grown = realloc(*list, grown_cap * sizeof *grown);
    if (!grown)
      return false;
    *list = grown;
    *cap = grown_cap;
  }
  (*list)[(*n)++] = (mc_child_kept){pid, start};
  return true;
}

/* What one look does with each process of the tree it finds. */
typedef enum look_kind { LOOK_KEEP, LOOK_KILL } look_kind;

typedef struct look {
  look_kind kind;
  int killed;
} look;

static void consider(mc_child_tree *t, look *l, pid_t pid) {
  long ppid;
  char state = 0;
  unsigned long long start;
  if (!stat_of(pid, &ppid, &state, &start) || state == 'Z' || state == 'X' ||
      !in_tree(t, pid, ppid, start) || kept(t, pid, start))
    return;
  if (l->kind == LOOK_KEEP) {
    add(&t->kept, &t->n_kept, &t->cap_kept, pid, start); /* unkept: ends after a call */
  } else {
    kill(pid, SIGKILL);
    l->killed++;
  }
}

static void look_everywhere(mc_child_tree *t, look *l) {
  DIR *d = opendir("/proc");
  for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
    char *end;
    long pid = strtol(e->d_name, &end, 10);
    if (pid > 0 && *end == '\0')
      consider(t, l, (pid_t)pid);
  }
  if (d)
    closedir(d);
}

/* Looks at what started since the last look (all of /proc when that is not
   known). */
static void look_once(mc_child_tree *t, look *l) {
  long now = mc_child_tree_last_pid(), from = t->last_pid,
       max = read_number("/proc/sys/kernel/pid_max");
  long span = now >= from ? now - from : max - from + now;
  if (now < 0 || from < 0 || max <= 0 || span > MAX_RANGE) {
    look_everywhere(t, l);
  } else {
    for (long i = 1; i <= span; i++)
      consider(t, l, (pid_t)(from + i > max ? from + i - max : from + i));
  }
  t->last_pid = now;
}

void mc_child_tree_start(mc_child_tree *t, pid_t root, pid_t warden, long last_pid_before) {
  mc_child_tree_clear(t);
  t->root = root;
  t->warden = warden;
  char state;
  long ppid;
  stat_of(warden > 0 ? warden : root, &ppid, &state, &t->floor_start);
  t->last_pid = last_pid_before;
  look l = {.kind = LOOK_KEEP};
  look_once(t, &l);
}

int mc_child_tree_end_strays(mc_child_tree *t) {
  if (t->root <= 0)
    return 0;
  int killed = 0;
  /* A stray that forks as fast as it is killed: about two seconds at most. */
  for (int round = 0; round < 2000; round++) {
    look l = {.kind = LOOK_KILL};
    look_once(t, &l);
    if (l.killed == 0)
      break;
    killed += l.killed;
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
  }
  return killed;
}

void mc_child_tree_clear(mc_child_tree *t) {
  free(t->kept);
  memset(t, 0, sizeof *t);
}
