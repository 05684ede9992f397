/* Ending the child processes that host implementations under test (a
   plugin's forked host, a process adapter), and saying how they ended: one
   place for both, so they are waited for, killed and described alike. */
#ifndef MOVCONF_HARNESS_CHILD_H
#define MOVCONF_HARNESS_CHILD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Waits up to grace seconds for pid to end, without reaping it (so that
   its process group can still be signalled). True with *info filled when
   it has ended. */
bool mc_child_wait_end(pid_t pid, double grace, siginfo_t *info);

/* Kills pid (and, when group is true, its process group, signalled before
   the reap while the id cannot have been reused) and reaps it. */
void mc_child_kill(pid_t pid, bool group);

/* Ends pid: up to grace seconds to exit by itself, then killed; reaped
   either way. Writes how it ended to how (may be NULL). */
void mc_child_end(pid_t pid, bool group, double grace, char *how, size_t howlen);

/* "exited with status 3", "was killed by SIGSEGV (signal 11: Segmentation
   fault)"; a status above 128 is also read as a shell's report of a signal. */
void mc_child_describe_end(const siginfo_t *info, char *buf, size_t n);

/* Whether pid is stopped by a signal (SIGSTOP, SIGTSTP; state 'T'): it
   cannot make progress until someone sends it SIGCONT. A tracer's stop
   ('t') does not count. */
bool mc_child_stopped(pid_t pid);

/* The parent pid in /proc/PID/stat ("PID (COMM) STATE PPID ..."; COMM may
   hold spaces and parentheses, so the last ')' ends it), its state letter
   in *state and, when start is not NULL, its start time (clock ticks after
   boot) in *start; -1 when unknown. Async-signal-safe. */
long mc_child_read_stat(const char *pid_name, char *state, unsigned long long *start);

/* Makes this process the reaper of every process it starts, however deep
   (Linux: PR_SET_CHILD_SUBREAPER, so that a descendant whose parent died,
   or that left with setsid(), is re-parented here and not to init), and
   installs handlers for SIGTERM, SIGINT and SIGHUP (those not ignored at
   start) that end every descendant before movconf dies of the signal,
   and ends them too when movconf exits. Idempotent. */
void mc_child_guard_install(void);

/* Kills and reaps every child of this process, again and again until none
   is left: the descendants of a killed child are re-parented here in turn.
   For moments when no child is meant to be alive (an implementation's
   process has just been ended, the run is over). Async-signal-safe. */
void mc_child_end_all(void);

/* In a process forked to run cases (run --jobs): makes it the reaper of
   what it starts, as mc_child_guard_install does (a fork does not inherit
   that), and has it sent SIGTERM, whose handler ends its descendants, when
   its parent dies. */
void mc_child_guard_after_fork(void);

/* Descriptors no implementation's process may keep (a worker's pipes to
   the parent movconf): a plugin's host, forked without exec, closes them
   first thing (mc_child_close_hidden). At most 8. */
void mc_child_hide_fd(int fd);
void mc_child_close_hidden(void);

/* In a process about to run an implementation's code (a plugin's host, an
   adapter before exec, bench's plugin process): no core file when it
   crashes, which with `ulimit -c unlimited` would replace a file named
   core in the user's folder. The hard limit too, so it stays zero. */
void mc_child_no_core_file(void);

#endif
