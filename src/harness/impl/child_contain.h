/* Starting the process an implementation runs in (a plugin's host, an
   adapter) so that it reaches nothing it was not given: a session and
   process group of its own, and where the system allows, a PID namespace
   of its own (kill(0), kill(-1) and kill(getppid()) reach only its own
   processes; movconf, its workers and the shell that started movconf are
   outside), a user namespace without privilege outside it (no ptrace of,
   setns into or /proc access to movconf's processes through root's
   capabilities) and, when asked, a mount namespace with a /proc that
   shows only its own processes (no /proc/PID/fd of movconf's pipes).

   The namespace's init is a small warden process, a child of movconf that
   reaps what the implementation orphans and dies with movconf (its
   parent-death signal): with it, the kernel kills every process in the
   namespace, setsid daemons included. mc_child_end_all ends it with the
   other children. The implementation's process itself is a child of
   movconf (not the namespace's init), so its signals and exit status are
   what they would be without namespaces. */
#ifndef MOVCONF_HARNESS_CHILD_CONTAIN_H
#define MOVCONF_HARNESS_CHILD_CONTAIN_H

#include <stdbool.h>
#include <sys/types.h>

/* As fork(): the child's pid in the parent, 0 in the child, -1 with errno.
   The child is contained as above; the user and mount namespaces only with
   fresh_proc (an adapter that opens movconf's shared memory through
   /proc/PID/fd needs movconf's /proc, and no user namespace, in which the
   kernel refuses it that). Falls back to a session of its own where namespaces
   are not available (not root, a container that forbids them), or when
   the environment sets MOVCONF_NO_NAMESPACES (tests of that fallback).
   *warden is the namespace's init (in the parent), 0 without one. */
pid_t mc_child_fork_contained(bool fresh_proc, pid_t *warden);

/* An implementation's processes (threads included) in its namespaces, at
   most: 1024, or 4 per online processor where that is more. Bounded where
   the kernel counts them per namespace (pid_max of the PID namespace from
   Linux 6.14, RLIMIT_NPROC of the user namespace from 5.14); without
   namespaces nothing bounds them (the note below says so). */
enum { MC_CHILD_PROCESS_BOUND = 1024 };
long mc_child_process_bound(void);

/* NULL when implementations get namespaces of their own, else one line
   saying why not (also said once on stderr, unless MOVCONF_NO_NAMESPACES
   asked for it). Finds out on the first call of either function: a
   process that forks workers calls it first, so that they inherit the
   answer and it is said once. */
const char *mc_child_containment_note(void);
/* The number process pid (a child, alive) has in its own PID namespace,
   the last of /proc/PID/status's NSpid; pid itself when it has no other. */
pid_t mc_child_pid_inside(pid_t pid);

#endif
