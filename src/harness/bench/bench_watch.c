/* movconf bench's watch over a plugin's calls (harness/bench/bench_watch.h). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "harness/bench/bench_watch.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/clock.h"

typedef struct call_counts {
  atomic_ulong entered; /* calls begun */
  atomic_ulong left;    /* calls returned */
  atomic_int forked;    /* a copy of the benchmark process returned from a call */
} call_counts;

static call_counts *counts; /* shared with the benchmark process */

bool mc_bench_watch_create(void) {
  void *page =
      mmap(NULL, sizeof *counts, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED)
    return false;
  counts = page;
  atomic_init(&counts->entered, 0);
  atomic_init(&counts->left, 0);
  atomic_init(&counts->forked, 0);
  return true;
}

static pid_t owner;                   /* the benchmark process */
static volatile sig_atomic_t is_copy; /* set in any child fork() makes of it */

static void mark_copy(void) {
  is_copy = 1;
}

void mc_bench_watch_own(void) {
  owner = getpid();
  pthread_atfork(NULL, NULL, mark_copy);
}

/* A copy of the benchmark process returning from the plugin must not go on
   to time and print as the benchmark (its rows would be printed twice): it
   says so to the parent and ends, writing nothing. */
static void end_if_copy(void) {
  if (!is_copy && !(owner > 0 && getpid() != owner))
    return;
  if (counts)
    atomic_store(&counts->forked, 1);
  _exit(0);
}

void mc_bench_watch_check_copy(void) {
  end_if_copy();
}

bool mc_bench_watch_forked(void) {
  return counts && atomic_load(&counts->forked);
}

void mc_bench_watch_enter(void) {
  if (counts)
    atomic_fetch_add_explicit(&counts->entered, 1, memory_order_relaxed);
}

void mc_bench_watch_leave(void) {
  /* The kernel is asked after every call, timed ones too: a copy made by a
     raw clone (no fork handler runs in it) that went on timing would call
     the plugin again and be copied again, doubling the processes at every
     call (32,000 of them in a second on a quiet machine). One getpid per
     call is the price. */
  end_if_copy();
  if (counts)
    atomic_fetch_add_explicit(&counts->left, 1, memory_order_relaxed);
}

bool mc_bench_watch_overdue(double timeout) {
  static unsigned long seen_call; /* the call under way when last polled */
  static double seen_since;       /* when that call was first seen under way */
  if (!counts || timeout <= 0)
    return false;
  unsigned long entered = atomic_load_explicit(&counts->entered, memory_order_relaxed);
  unsigned long left = atomic_load_explicit(&counts->left, memory_order_relaxed);
  double now = mc_now_seconds();
  if (entered == left) { /* between calls: the benchmark's own work */
    seen_call = 0;
    return false;
  }
  if (entered != seen_call) {
    seen_call = entered;
    seen_since = now;
  }
  return now - seen_since > timeout;
}
