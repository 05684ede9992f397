/* A hostile plugin for the containment tests (tests/containment.sh): it
   wraps movconf's own kernels (plugin_movconf, whose path is compiled in)
   and answers correctly, but first acts against the processes around it,
   in run(), on requests whose data has the batch (first dimension) given:

     MOVCONF_HOSTILE="kill-group@2,hang@3"   (ACT@* acts on every request)

   Acts:
     kill-group     kill(0, SIGKILL): its process group
     kill-parent    kill(getppid(), SIGKILL)
     kill-all       kill(-1, SIGKILL), only when its pid is below 100 (a PID
                    namespace of its own): elsewhere it would reach every
                    process of its user, as root every process
     kill-siblings  SIGKILL to every other child of its parent's parent
                    (under run --jobs: the other workers)
     probe-pipes    opens for writing each pipe its parent holds, through
                    /proc/PPID/fd, and writes nothing; if one opened, rejects
                    the request saying so ("reached its parent's pipe")
     forge-done     writes the pool's end-of-work record (kind 3, empty)
                    into each pipe its parent holds open for writing
     daemon         forks a `sleep MOVCONF_HOSTILE_SLEEP` (default 300) in a
                    session of its own, which outlives the plugin's host
     hang           sleeps for ever, after creating the file
                    MOVCONF_HOSTILE_MARK (when set): the test's sign that
                    the case began
     scan-memory    searches its own memory for the fault cases' ids
                    ("s2d/fault/"), which only the case files hold; if
                    found, rejects the request saying so ("found the case
                    files in its memory"): movconf's loaded expectations
     fork-many      forks copies that wait on a pipe, until fork fails or
                    MOVCONF_HOSTILE_FORKS (default 4096) of them run, then
                    ends them and rejects the request saying how many ran
                    ("hostile: forked N processes, then fork failed")
   Unset or anything else: no act. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "movconf/plugin.h"
#include "plugin_wrap.h"

static const movconf_plugin_v3 *inner;
static movconf_plugin_v3 table;

/* Whether MOVCONF_HOSTILE (ACT@BATCH items joined by ',') asks for act on
   a request of this batch. */
static bool asked(const movconf_plugin_request_v3 *r, const char *act) {
  const char *text = getenv("MOVCONF_HOSTILE");
  size_t len = strlen(act);
  long long batch = r->n_inputs > 0 && r->inputs[0].rank > 0 ? r->inputs[0].shape[0] : -1;
  for (const char *p = text; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
    if (strncmp(p, act, len) == 0 && p[len] == '@' &&
        (p[len + 1] == '*' || atoll(p + len + 1) == batch))
      return true;
  return false;
}

/* The parent pid in /proc/PID/stat, or -1. */
static long parent_of(long pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%ld/stat", pid);
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  const char *close_paren = strrchr(buf, ')');
  return close_paren ? atol(close_paren + 4) : -1;
}

static void kill_siblings(void) {
  long parent = getppid(), grandparent = parent > 0 ? parent_of(parent) : -1;
  DIR *d = opendir("/proc");
  if (!d || grandparent <= 0) {
    if (d)
      closedir(d);
    return;
  }
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    long pid = atol(e->d_name);
    if (pid > 0 && pid != parent && parent_of(pid) == grandparent)
      kill((pid_t)pid, SIGKILL);
  }
  closedir(d);
}

/* Each pipe its parent holds (descriptors above 2) opened for writing,
   passed to act; how many opened. */
static int each_parent_pipe(void (*act)(int fd)) {
  char dir[64];
  snprintf(dir, sizeof dir, "/proc/%ld/fd", (long)getppid());
  DIR *d = opendir(dir);
  int opened = 0;
  if (!d)
    return 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    char link[320], target[64];
    snprintf(link, sizeof link, "%s/%s", dir, e->d_name);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (atoi(e->d_name) <= 2 || n <= 0 || (target[n] = '\0', strncmp(target, "pipe:", 5) != 0))
      continue;
    int fd = open(link, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
      continue;
    opened++;
    if (act)
      act(fd);
    close(fd);
  }
  closedir(d);
  return opened;
}

static void write_done_record(int fd) {
  const uint32_t record[2] = {3, 0};
  ssize_t put = write(fd, record, sizeof record);
  (void)put;
}

static void start_daemon(void) {
  const char *seconds = getenv("MOVCONF_HOSTILE_SLEEP");
  if (fork() == 0) {
    setsid();
    execlp("sleep", "sleep", seconds ? seconds : "300", (char *)NULL);
    _exit(127);
  }
}

/* Whether the readable memory of this process holds text, other than at
   skip (read through /proc/self/mem, which fails on what cannot be read). */
static bool memory_holds(const char *text, const char *skip) {
  FILE *maps = fopen("/proc/self/maps", "r");
  int mem = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
  static char chunk[1 << 20];
  size_t len = strlen(text);
  bool found = false;
  char line[512];
  while (maps && mem >= 0 && !found && fgets(line, sizeof line, maps)) {
    unsigned long long from, to;
    char perms[8];
    if (sscanf(line, "%llx-%llx %7s", &from, &to, perms) != 3 || perms[0] != 'r')
      continue;
    /* A sanitizer's shadow: terabytes of untouched pages no heap is in,
       which would take hours to read. */
    if (to - from > (1ull << 34))
      continue;
    for (unsigned long long at = from; at < to && !found; at += sizeof chunk - len) {
      size_t want = to - at < sizeof chunk ? (size_t)(to - at) : sizeof chunk;
      ssize_t got = pread(mem, chunk, want, (off_t)at);
      for (ssize_t i = 0; got > 0 && i + (ssize_t)len <= got && !found; i++)
        found = memcmp(chunk + i, text, len) == 0 && (const char *)(uintptr_t)(at + i) != skip &&
                (uintptr_t)(at + i) - (uintptr_t)chunk >= sizeof chunk;
      if (got <= 0 || (size_t)got < want)
        break;
    }
  }
  if (maps)
    fclose(maps);
  if (mem >= 0)
    close(mem);
  return found;
}

/* Forks copies that wait until the pipe closes, up to limit; how many ran
   (*failed: whether fork failed first). The copies have ended on return. */
static long fork_many(long limit, bool *failed) {
  int gate[2];
  long n = 0;
  *failed = false;
  if (pipe(gate) != 0)
    return 0;
  for (; n < limit; n++) {
    pid_t pid = fork();
    if (pid == 0) {
      char byte;
      close(gate[1]);
      ssize_t got = read(gate[0], &byte, 1); /* 0 when the pipe closes */
      _exit(got == 0 ? 0 : 1);
    }
    if (pid < 0) {
      *failed = true;
      break;
    }
  }
  close(gate[0]);
  close(gate[1]);
  while (wait(NULL) > 0)
    continue;
  return n;
}

static bool holds_case_files(void) {
  char id[16];
  snprintf(id, sizeof id, "%s/%s/", "s2d", "fault"); /* not a literal: only the cases hold it */
  return memory_holds(id, id);
}

static int run(const movconf_plugin_request_v3 *request, const movconf_plugin_output *output,
               movconf_plugin_message *message) {
  if (asked(request, "kill-group"))
    kill(0, SIGKILL);
  if (asked(request, "kill-parent"))
    kill(getppid(), SIGKILL);
  if (asked(request, "kill-all") && getpid() < 100) {
    kill(-1, SIGKILL); /* ESRCH when no process but itself and init is there */
    fprintf(stderr, "hostile: kill(-1, SIGKILL) sent\n");
  }
  if (asked(request, "kill-siblings"))
    kill_siblings();
  if (asked(request, "forge-done"))
    each_parent_pipe(write_done_record);
  if (asked(request, "daemon"))
    start_daemon();
  if (asked(request, "hang") && getenv("MOVCONF_HOSTILE_MARK"))
    close(open(getenv("MOVCONF_HOSTILE_MARK"), O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
  while (asked(request, "hang"))
    sleep(1);
  if (asked(request, "probe-pipes") && each_parent_pipe(NULL) > 0) {
    snprintf(message->text, sizeof message->text, "hostile: reached its parent's pipe");
    return MOVCONF_PLUGIN_REJECTED;
  }
  if (asked(request, "fork-many")) {
    const char *limit = getenv("MOVCONF_HOSTILE_FORKS");
    bool failed;
    long n = fork_many(limit ? atol(limit) : 4096, &failed);
    snprintf(message->text, sizeof message->text, "hostile: forked %ld processes%s", n,
             failed ? ", then fork failed" : "");
    return MOVCONF_PLUGIN_REJECTED;
  }
  if (asked(request, "scan-memory") && holds_case_files()) {
    snprintf(message->text, sizeof message->text, "hostile: found the case files in its memory");
    return MOVCONF_PLUGIN_REJECTED;
  }
  return inner->run(request, output, message);
}

const void *movconf_plugin_entry(uint32_t abi_version) {
  if (!(inner = wrapped_plugin(abi_version)))
    return NULL;
  table = *inner;
  table.name = "movconf-optimized-hostile";
  table.run = run;
  return &table;
}
