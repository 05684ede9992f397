/* movconf bench's watch over a plugin's calls (--timeout): the plugin runs
   in the benchmark's child process, where it can hang; the parent sees
   through a shared page whether a call is under way and ends the child
   when one lasts longer than the timeout. Two counters stored per call, so
   the timed calls pay next to nothing and no clock is read for them. */
#ifndef MOVCONF_HARNESS_BENCH_WATCH_H
#define MOVCONF_HARNESS_BENCH_WATCH_H

#include <stdbool.h>

/* Maps the shared page, before the fork. False when it cannot: then no
   call is watched. */
bool mc_bench_watch_create(void);

/* In the benchmark process: a call of the plugin begins, has returned.
   Nothing happens without mc_bench_watch_create. */
void mc_bench_watch_enter(void);
void mc_bench_watch_leave(void);

/* In the benchmark process, once forked: it is the one that times. */
void mc_bench_watch_own(void);

/* In the benchmark process after an untimed call of the plugin: a copy of
   it (the plugin's fork(), or a raw clone, which runs no pthread_atfork
   handler) ends here, marking the shared page. After a timed call
   (mc_bench_watch_leave) only a fork() copy is noticed. */
void mc_bench_watch_check_copy(void);

/* In the parent, once the benchmark ended: whether a copy of its process
   returned from a call of the plugin. */
bool mc_bench_watch_forked(void);

/* In the parent, polled: true once one call has been under way for more
   than timeout seconds (0: never) by this process's own observations. */
bool mc_bench_watch_overdue(double timeout);

#endif
