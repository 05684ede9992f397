/* Ending what a plugin's host process starts during one call: a process
   the plugin forks in run() (a sleeper, a setsid daemon, one that clears
   its parent-death signal) is ended when that call ends, not when the
   host does, hours of cases later. (An adapter is a program of its own
   whose helpers may start at any time, as a browser's do: they live as
   long as the adapter's process.)

   The implementation's tree is its process (the root) and every process
   descended from it, plus, in a PID namespace (child_contain.h), every
   process of the namespace: an orphan there is re-parented to the
   namespace's init, the warden. What the tree holds once the
   implementation has started (a helper the plugin's constructor started)
   is kept for its whole life;
   anything else found after a call is a stray and is killed.

   A copy of the root that still runs its program (a plugin's fork without
   exec) is no exception: the plugin's host judges its copies before it
   answers ("both copies returned", plugin_host.c), so once a call has
   ended none of them is still to be judged.

   Without namespaces, an orphan is re-parented to movconf (a subreaper)
   and leaves the tree: it is ended when the implementation's process is
   ended or the run ends (mc_child_end_all), not at the end of the call. */
#ifndef MOVCONF_HARNESS_CHILD_STRAYS_H
#define MOVCONF_HARNESS_CHILD_STRAYS_H

#include <stddef.h>
#include <sys/types.h>

typedef struct mc_child_kept {
  pid_t pid;
  unsigned long long start; /* its start time: a reused pid is not kept */
} mc_child_kept;

typedef struct mc_child_tree {
  pid_t root;                     /* the implementation's process; 0: none */
  pid_t warden;                   /* the init of its PID namespace; 0: none */
  unsigned long long floor_start; /* the first of them to start */
  long last_pid;                  /* the last pid given at the last look */
  mc_child_kept *kept;
  size_t n_kept, cap_kept;
} mc_child_tree;

/* The last pid the kernel handed out (-1: unknown): taken before the
   implementation's process is started, it spares mc_child_tree_start a
   look through all of /proc. */
long mc_child_tree_last_pid(void);

/* Records the tree of root (and warden's, when not 0) as it is now, what
   started with the implementation (since last_pid_before, from
   mc_child_tree_last_pid; -1: unknown): kept from then on. */
void mc_child_tree_start(mc_child_tree *t, pid_t root, pid_t warden, long last_pid_before);

/* Kills every process of the tree other than root, warden and the kept
   ones, again until none is found (bounded: about two seconds). How many
   were killed. */
int mc_child_tree_end_strays(mc_child_tree *t);

/* Forgets the tree (its root was ended); frees what it holds. */
void mc_child_tree_clear(mc_child_tree *t);

#endif
