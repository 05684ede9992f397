/* The persistent worker pool behind mc_parallel_for. One job at a time: a
   job is published under the mutex with a generation number, workers take
   their range, and the caller waits until every range is done. */
#include "optimized/pool.h"
#include "optimized/stream.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#define MC_POOL_MAX_THREADS 256

typedef struct pool {
  pthread_mutex_t lock;
  pthread_cond_t job_ready;
  pthread_cond_t job_done;
  pthread_mutex_t serial; /* one mc_parallel_for at a time */
  int workers;            /* threads started, beyond the caller */
  /* The current job. */
  unsigned long generation;
  int parts; /* ranges in the job; range 0 is the caller's */
  int pending;
  int64_t n, align;
  mc_range_fn fn;
  void *ctx;
} pool;

static pool the_pool = {.lock = PTHREAD_MUTEX_INITIALIZER,
                        .job_ready = PTHREAD_COND_INITIALIZER,
                        .job_done = PTHREAD_COND_INITIALIZER,
                        .serial = PTHREAD_MUTEX_INITIALIZER};

/* Boundary k of the split of [0, n) into parts ranges, aligned down. */
static int64_t boundary(int64_t n, int64_t align, int parts, int k) {
  if (k >= parts)
    return n;
  int64_t units = (n + align - 1) / align; /* n > align here, so no overflow */
  int64_t unit = (int64_t)((__int128)units * k / parts);
  int64_t b = unit * align;
  return b < n ? b : n;
}

static void run_part(const pool *p, int part) {
  int64_t begin = boundary(p->n, p->align, p->parts, part);
  int64_t end = boundary(p->n, p->align, p->parts, part + 1);
  if (begin < end)
    p->fn(p->ctx, begin, end);
  mc_stream_fence(); /* before the range is reported done */
}

static void *worker_main(void *arg) {
  int id = (int)(intptr_t)arg; /* 1 .. workers */
  pool *p = &the_pool;
  unsigned long seen = 0;
  pthread_mutex_lock(&p->lock);
  for (;;) {
    while (p->generation == seen)
      pthread_cond_wait(&p->job_ready, &p->lock);
    seen = p->generation;
    if (id >= p->parts)
      continue;
    pthread_mutex_unlock(&p->lock);
    run_part(p, id);
    pthread_mutex_lock(&p->lock);
    if (--p->pending == 0)
      pthread_cond_signal(&p->job_done);
  }
  return NULL;
}

/* Starts workers until there are `wanted`; returns how many exist. */
static int grow(pool *p, int wanted) {
  while (p->workers < wanted) {
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    bool started = pthread_create(&t, &attr, worker_main, (void *)(intptr_t)(p->workers + 1)) == 0;
    pthread_attr_destroy(&attr);
    if (!started)
      break;
    p->workers++;
  }
  return p->workers;
}

void mc_parallel_for(int threads, int64_t n, int64_t align, mc_range_fn fn, void *ctx) {
  if (n <= 0)
    return;
  if (align < 1)
    align = 1;
  int64_t units = n / align + (n % align != 0);
  int parts = threads < 1 ? 1 : threads > MC_POOL_MAX_THREADS ? MC_POOL_MAX_THREADS : threads;
  if (units < parts)
    parts = (int)units;
  if (parts <= 1) {
    fn(ctx, 0, n);
    return;
  }
  pool *p = &the_pool;
  pthread_mutex_lock(&p->serial);
  pthread_mutex_lock(&p->lock);
  int available = grow(p, parts - 1) + 1;
  if (available < parts)
    parts = available; /* could not start enough threads: fewer, larger ranges */
  p->n = n;
  p->align = align;
  p->fn = fn;
  p->ctx = ctx;
  p->parts = parts;
  p->pending = parts - 1;
  p->generation++;
  pthread_cond_broadcast(&p->job_ready);
  pthread_mutex_unlock(&p->lock);
  run_part(p, 0);
  pthread_mutex_lock(&p->lock);
  while (p->pending > 0)
    pthread_cond_wait(&p->job_done, &p->lock);
  pthread_mutex_unlock(&p->lock);
  pthread_mutex_unlock(&p->serial);
}
