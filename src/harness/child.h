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

#endif
