/* Ending hosted implementations: see child.h. */
#include "harness/child.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "common/clock.h"

bool mc_child_wait_end(pid_t pid, double grace, siginfo_t *info) {
  double deadline = mc_now_seconds() + grace;
  for (;;) {
    memset(info, 0, sizeof *info);
    int rc = waitid(P_PID, (id_t)pid, info, WEXITED | WNOHANG | WNOWAIT);
    if (rc == 0 && info->si_pid == pid)
      return true;
    if ((rc != 0 && errno != EINTR) || mc_now_seconds() >= deadline)
      return false;
    mc_sleep_briefly();
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
