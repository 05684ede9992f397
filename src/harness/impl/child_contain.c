/* Containing an implementation's process: see child_contain.h. */
#define _GNU_SOURCE /* setns(), unshare(), CLONE_NEW* */
#include "harness/impl/child_contain.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* 0: not known yet; 1: namespaces; -1: a session of its own only. */
static int mode;
static char note[512]; /* the fixed text and a why of up to 200 bytes */

/* ---- the warden, the namespace's init ---- */

/* System calls only: the child of a raw clone runs no fork handler, so no
   state of the C library or of a sanitizer's runtime can be trusted. It
   holds no descriptor, cannot be traced or inspected (not dumpable), dies
   with its parent, and reaps what is orphaned in the namespace. When it
   dies, the kernel kills every process in the namespace. */
_Noreturn static void warden_main(void) {
  syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  syscall(SYS_prctl, PR_SET_DUMPABLE, 0, 0, 0, 0);
#if defined(SYS_close_range)
  syscall(SYS_close_range, 0, ~0u, 0);
#endif
  for (;;)
    if (syscall(SYS_wait4, -1, NULL, __WALL, NULL) < 0) {
      struct timespec pause = {0, 100 * 1000 * 1000}; /* no child yet */
      syscall(SYS_nanosleep, &pause, NULL);
    }
}

static void end_warden(pid_t warden) {
  kill(warden, SIGKILL);
  while (waitpid(warden, NULL, 0) < 0 && errno == EINTR)
    continue;
}

/* Forks a child that is the second process of a new PID namespace, whose
   init is a new warden (in *warden). -1 with why when that cannot be. */
static pid_t fork_into_new_namespace(pid_t *warden, char *why, size_t whylen) {
  int self = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);
  if (self < 0) {
    snprintf(why, whylen, "/proc/self/ns/pid: %s", strerror(errno));
    return -1;
  }
  *warden = (pid_t)syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, 0, 0, 0, 0);
  if (*warden == 0)
    warden_main();
  if (*warden < 0) {
    snprintf(why, whylen, "cannot create a PID namespace: %s", strerror(errno));
    close(self);
    return -1;
  }
  char path[64];
  snprintf(path, sizeof path, "/proc/%ld/ns/pid", (long)*warden);
  int ns = open(path, O_RDONLY | O_CLOEXEC);
  if (ns < 0 || setns(ns, CLONE_NEWPID) != 0) {
    snprintf(why, whylen, "cannot enter a PID namespace: %s", strerror(errno));
    if (ns >= 0)
      close(ns);
    close(self);
    end_warden(*warden);
    return -1;
  }
  pid_t pid = fork();
  int saved = errno;
  if (pid == 0) {
    close(ns);
    close(self);
    return 0;
  }
  if (setns(self, CLONE_NEWPID) != 0)
    abort(); /* every later child of movconf would start in there */
  close(ns);
  close(self);
  if (pid < 0) {
    snprintf(why, whylen, "fork: %s", strerror(saved));
    end_warden(*warden);
    errno = saved;
  }
  return pid;
}

static bool write_text(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  bool ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
  close(fd);
  return ok;
}

static const char *const step_names[] = {"",
                                         "a mount namespace with a /proc of its own",
                                         "a user namespace",
                                         "its uid map",
                                         "its setgroups",
                                         "its gid map"};

/* ---- the number of processes ---- */

/* Whether the running kernel's version is at least major.minor. */
static bool kernel_at_least(int major, int minor) {
  struct utsname u;
  int got_major = 0, got_minor = 0;
  if (uname(&u) != 0 || sscanf(u.release, "%d.%d", &got_major, &got_minor) != 2)
    return false;
  return got_major > major || (got_major == major && got_minor >= minor);
}

long mc_child_process_bound(void) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  return cpus > MC_CHILD_PROCESS_BOUND / 4 ? 4 * cpus : MC_CHILD_PROCESS_BOUND;
}

/* In the child, first in its PID namespace: that namespace's pid_max, so
   that it holds at most the bound of processes (threads count: each has a
   pid). Only from Linux 6.14, where pid_max is the namespace's own: on an
   older kernel the same file is the machine's, which must not change. */
static void bound_namespace_pids(void) {
  if (!kernel_at_least(6, 14))
    return;
  char text[32];
  snprintf(text, sizeof text, "%ld", mc_child_process_bound() + 1);
  write_text("/proc/sys/kernel/pid_max", text);
}

/* In the child, once in a user namespace of its own: RLIMIT_NPROC, soft
   and hard (it cannot raise it there), counts that namespace's processes
   of its user from Linux 5.14; before, the user's processes all over the
   machine (root's unbounded), so it is left alone there. */
static void bound_user_namespace_processes(void) {
  if (!kernel_at_least(5, 14))
    return;
  const struct rlimit bound = {(rlim_t)mc_child_process_bound(), (rlim_t)mc_child_process_bound()};
  setrlimit(RLIMIT_NPROC, &bound);
}

/* In the child, inside the PID namespace, when fresh_proc: a /proc of its
   own, then a user namespace mapping only its own user and group, in which
   it has no capability over anything outside (nor may it open movconf's
   /proc/PID/fd, which an adapter handed shared memory must: it gets
   neither). 0, or the step that failed. */
static int enter_namespaces(bool fresh_proc) {
  unsigned long uid = (unsigned long)geteuid(), gid = (unsigned long)getegid();
  if (!fresh_proc)
    return 0;
  if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
      mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
    return 1;
  if (unshare(CLONE_NEWUSER) != 0)
    return 2;
  char map[64];
  snprintf(map, sizeof map, "%lu %lu 1", uid, uid);
  if (!write_text("/proc/self/uid_map", map))
    return 3;
  if (!write_text("/proc/self/setgroups", "deny"))
    return 4;
  snprintf(map, sizeof map, "%lu %lu 1", gid, gid);
  if (!write_text("/proc/self/gid_map", map))
    return 5;
  bound_user_namespace_processes();
  return 0;
}

/* Once: whether a child can be given every namespace, tried on one. */
static void probe(void) {
  char why[200] = "";
  mode = -1;
  if (getenv("MOVCONF_NO_NAMESPACES")) {
    snprintf(why, sizeof why, "MOVCONF_NO_NAMESPACES is set");
  } else {
    pid_t warden = 0, pid = fork_into_new_namespace(&warden, why, sizeof why);
    if (pid == 0)
      _exit(enter_namespaces(true));
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
      continue;
    if (pid > 0)
      end_warden(warden);
    int step = pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (step == 0)
      mode = 1;
    else if (pid > 0)
      snprintf(why, sizeof why, "cannot give it %s",
               step > 0 && step < 6 ? step_names[step] : "namespaces");
  }
  if (mode < 0)
    snprintf(note, sizeof note,
             "implementations run in movconf's PID namespace (%s): a session of their own is "
             "all that keeps them from movconf's processes, and nothing bounds how many "
             "processes they start",
             why);
  if (mode < 0 && !getenv("MOVCONF_NO_NAMESPACES"))
    fprintf(stderr, "movconf: note: %s\n", note);
}

pid_t mc_child_fork_contained(bool fresh_proc, pid_t *warden) {
  if (mode == 0)
    probe();
  pid_t pid = -1;
  char why[200];
  *warden = 0;
  if (mode > 0) {
    pid = fork_into_new_namespace(warden, why, sizeof why);
    if (pid == 0) {
      setsid();
      bound_namespace_pids();
      enter_namespaces(fresh_proc); /* it worked on the probe */
      return 0;
    }
  }
  if (pid < 0) { /* no namespaces, or a moment's failure to make them */
    *warden = 0;
    pid = fork();
    if (pid == 0)
      setsid();
  }
  return pid;
}

const char *mc_child_containment_note(void) {
  if (mode == 0)
    probe();
  return note[0] ? note : NULL;
}

pid_t mc_child_pid_inside(pid_t pid) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
  FILE *f = fopen(path, "re");
  pid_t inside = pid;
  while (f && fgets(line, sizeof line, f)) {
    if (strncmp(line, "NSpid:", 6) != 0)
      continue;
    char *p = line + 6, *end;
    for (long v = strtol(p, &end, 10); end != p; v = strtol(p, &end, 10)) {
      inside = (pid_t)v; /* the innermost namespace's number comes last */
      p = end;
    }
    break;
  }
  if (f)
    fclose(f);
  return inside;
}
