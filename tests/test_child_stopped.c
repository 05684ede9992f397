/* mc_child_stopped (src/harness/impl/child.c): a process stopped by a
   signal counts, one held by a tracer ('t': a debugger, strace) does not,
   since only a signal an implementation sent makes the worker pool kill a
   worker for staying stopped. */
#define _DEFAULT_SOURCE
#include "check.h"
#include "harness/impl/child.h"

#include <signal.h>
#include <stdbool.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A child that sleeps until killed. */
static pid_t sleeping_child(void) {
  pid_t pid = fork();
  if (pid == 0)
    for (;;)
      pause();
  return pid;
}

static void end_child(pid_t pid) {
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
}

static void running_child_is_not_stopped(void) {
  pid_t pid = sleeping_child();
  CHECK(pid > 0 && !mc_child_stopped(pid));
  end_child(pid);
}

static void sigstop_counts(void) {
  pid_t pid = sleeping_child();
  int status = 0;
  kill(pid, SIGSTOP);
  CHECK(waitpid(pid, &status, WUNTRACED) == pid && WIFSTOPPED(status));
  CHECK(mc_child_stopped(pid));
  end_child(pid);
}

/* Held by a tracer (PTRACE_INTERRUPT after PTRACE_SEIZE): state 't'. Where
   tracing is not allowed, the check is skipped (said on stdout). */
static void tracer_stop_does_not_count(void) {
  pid_t pid = sleeping_child();
  int status = 0;
  if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) != 0) {
    printf("skipped: cannot trace a child here\n");
    end_child(pid);
    return;
  }
  CHECK(ptrace(PTRACE_INTERRUPT, pid, NULL, NULL) == 0);
  CHECK(waitpid(pid, &status, __WALL) == pid && WIFSTOPPED(status));
  CHECK(!mc_child_stopped(pid));
  ptrace(PTRACE_DETACH, pid, NULL, NULL);
  end_child(pid);
}

int main(void) {
  running_child_is_not_stopped();
  sigstop_counts();
  tracer_stop_does_not_count();
  return check_report();
}
