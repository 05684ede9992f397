/* Ending hosted implementations: see child.h. */
#define _DEFAULT_SOURCE /* syscall() */
#include "harness/impl/child.h"

#include "cases/cases.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include "common/clock.h"
#include "harness/impl/child_text.h"

bool mc_child_wait_end(pid_t pid, double grace, siginfo_t *info) {
  double deadline = mc_now_seconds() + grace;
  for (;;) {
    memset(info, 0, sizeof *info);
    int rc = waitid(P_PID, (id_t)pid, info, WEXITED | WNOHANG | WNOWAIT);
    if (rc == 0 && info->si_pid == pid)
      return true;
    if ((rc != 0 && errno != EINTR) || mc_now_seconds() >= deadline)
      return false;
    mc_child_poll(NULL, 0, mc_deadline_after(0.002), 0); /* its text flows meanwhile */
  }
}

void mc_child_kill(pid_t pid, bool group) {
  if (pid <= 0)
    return;
  if (group)
    kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
    continue;
}

void mc_child_end(pid_t pid, bool group, double grace, char *how, size_t howlen) {
  if (pid <= 0)
    return;
  siginfo_t info;
  bool ended = mc_child_wait_end(pid, grace, &info);
  if (!ended) {
    kill(pid, SIGKILL);
    ended = mc_child_wait_end(pid, 5.0, &info);
  }
  if (how && ended)
    mc_child_describe_end(&info, how, howlen);
  else if (how)
    snprintf(how, howlen, "vanished (no exit status)");
  mc_child_kill(pid, group);
}

/* The symbolic name of the signals implementations die of. */
static const char *signal_name(int sig) {
  static const struct {
    int sig;
    const char *name;
  } names[] = {{SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},   {SIGABRT, "SIGABRT"},
               {SIGFPE, "SIGFPE"},   {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"},
               {SIGTERM, "SIGTERM"}, {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"},
               {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGPIPE, "SIGPIPE"},
               {SIGINT, "SIGINT"},   {SIGHUP, "SIGHUP"}};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (names[i].sig == sig)
      return names[i].name;
  return "a signal";
}

void mc_child_describe_end(const siginfo_t *info, char *buf, size_t n) {
  int st = info->si_status;
  if (info->si_code == CLD_EXITED && st > 128 && st < 128 + 65)
    snprintf(buf, n, "exited with status %d (how a shell reports %s, signal %d: %s)", st,
             signal_name(st - 128), st - 128, strsignal(st - 128));
  else if (info->si_code == CLD_EXITED && st == 127)
    snprintf(buf, n, "exited with status 127 (the shell's status for a command not found)");
  else if (info->si_code == CLD_EXITED)
    snprintf(buf, n, "exited with status %d", st);
  else
    snprintf(buf, n, "was killed by %s (signal %d: %s)", signal_name(st), st, strsignal(st));
}

/* ---- ending every descendant (async-signal-safe: system calls only) ---- */

long mc_child_read_stat(const char *pid_name, char *state, unsigned long long *start) {
  char path[64] = "/proc/";
  size_t n = strlen(path);
  for (const char *p = pid_name; *p && n < sizeof path - 6; p++)
    path[n++] = *p;
  memcpy(path + n, "/stat", 6);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  char buf[512];
  ssize_t got = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (got <= 0)
    return -1;
  buf[got] = '\0';
  char *close_paren = strrchr(buf, ')');
  if (!close_paren || close_paren[1] != ' ' || !close_paren[2] || close_paren[3] != ' ')
    return -1;
  *state = close_paren[2];
  long ppid = 0;
  const char *p = close_paren + 4;
  for (; *p >= '0' && *p <= '9'; p++)
    ppid = ppid * 10 + (*p - '0');
  if (start) { /* field 22; fields 4 (the parent) to 21 are skipped */
    for (int field = 4; field < 22 && *p; field += *p++ == ' ')
      continue;
    *start = 0;
    for (; *p >= '0' && *p <= '9'; p++)
      *start = *start * 10 + (unsigned long long)(*p - '0');
  }
  return ppid;
}

static long parent_of(const char *pid_name) {
  char state;
  return mc_child_read_stat(pid_name, &state, NULL);
}

bool mc_child_stopped(pid_t pid) {
  char name[24], state = 0;
  snprintf(name, sizeof name, "%ld", (long)pid);
  /* 'T' only: 't' is a tracer's stop (a debugger, strace), which ends when
     the tracer lets go and is no implementation's doing. */
  return mc_child_read_stat(name, &state, NULL) >= 0 && state == 'T';
}

static bool all_digits(const char *s) {
  if (!*s)
    return false;
  for (; *s; s++)
    if (*s < '0' || *s > '9')
      return false;
  return true;
}

/* Sends SIGKILL to every child of self listed in /proc; how many. */
static int kill_children_once(pid_t self) {
  int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0)
    return 0;
  int found = 0;
  char buf[4096] __attribute__((aligned(8)));
  for (;;) {
    long got = syscall(SYS_getdents64, dir, buf, sizeof buf);
    if (got <= 0)
      break;
    for (long at = 0; at < got;) {
      struct {
        uint64_t ino;
        int64_t off;
        unsigned short reclen;
        unsigned char type;
        char name[];
      } *entry = (void *)(buf + at);
      at += entry->reclen;
      if (!all_digits(entry->name) || parent_of(entry->name) != (long)self)
        continue;
      long pid = 0;
      for (const char *p = entry->name; *p; p++)
        pid = pid * 10 + (*p - '0');
      kill((pid_t)pid, SIGKILL);
      found++;
    }
  }
  close(dir);
  return found;
}

void mc_child_end_all(void) {
  pid_t self = getpid();
  int saved_errno = errno;
  /* A child that forks as fast as it is killed could keep this going:
     bounded, about two seconds at most. */
  for (int round = 0; round < 2000; round++) {
    int found = kill_children_once(self);
    while (waitpid(-1, NULL, WNOHANG) > 0)
      continue;
    if (found == 0)
      break;
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
  }
  errno = saved_errno;
}

static void on_terminating_signal(int sig) {
  mc_child_end_all();
  mc_output_remove_temporaries(); /* a report cut short leaves its target as it was */
  signal(sig, SIG_DFL);
  raise(sig); /* delivered when the handler returns: movconf dies of sig */
}

void mc_child_guard_after_fork(void) {
#if defined(__linux__)
  pid_t parent = getppid();
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) /* it died before the request took */
    raise(SIGTERM);
#endif
}

enum { MAX_HIDDEN_FDS = 8 };
static int hidden_fds[MAX_HIDDEN_FDS];
static int n_hidden_fds;

void mc_child_hide_fd(int fd) {
  if (n_hidden_fds < MAX_HIDDEN_FDS)
    hidden_fds[n_hidden_fds++] = fd;
}

void mc_child_close_hidden(void) {
  for (int i = 0; i < n_hidden_fds; i++)
    close(hidden_fds[i]);
  n_hidden_fds = 0;
}

void mc_child_no_core_file(void) {
  const struct rlimit none = {0, 0};
  setrlimit(RLIMIT_CORE, &none);
}

void mc_child_guard_install(void) {
  static bool installed;
  if (installed)
    return;
  installed = true;
#if defined(PR_SET_CHILD_SUBREAPER)
  prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
  /* Whatever re-parented here late (an adapter's own child, after its
     worker or its shell was killed) ends with movconf, not under init. */
  atexit(mc_child_end_all);
  static const int signals[] = {SIGTERM, SIGINT, SIGHUP};
  for (size_t i = 0; i < sizeof signals / sizeof *signals; i++) {
    struct sigaction old;
    if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
      continue; /* nohup and background jobs ignore them on purpose */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_terminating_signal;
    sigfillset(&sa.sa_mask);
    sigaction(signals[i], &sa, NULL);
  }
}
