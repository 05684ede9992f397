/* One pool of forked worker processes (run --jobs, fuzz --jobs): N
   workers forked from movconf once what they need is loaded (so they share
   it, unparsed again), items given out from one queue to whichever worker
   is free, records back through a pipe per worker, one poll loop in the
   parent, a worker that ends or sends a record no worker sends dropped
   with its item reported lost, a stop flag shared with the workers, and
   movconf's signals ending every worker and what the workers started.

   The pool knows nothing of what items are: the caller's callbacks do the
   work in the workers and take the records in the parent. Every record is
   framed (kind, length, body) and read in one place, the parent's reader,
   which checks the frame before any callback sees the body. */
#ifndef MOVCONF_HARNESS_POOL_H
#define MOVCONF_HARNESS_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/text.h"

#define MC_POOL_MAX_WORKERS 64
/* Record kinds below this are the pool's own; the caller's start here. */
#define MC_POOL_FIRST_KIND 16

/* ---- record bodies, built and read field by field ---- */

void mc_record_put_int(mc_text *t, int64_t v);
void mc_record_put_double(mc_text *t, double v);
/* A string or NULL, told apart. */
void mc_record_put_string(mc_text *t, const char *s);
void mc_record_put_bytes(mc_text *t, const void *p, size_t n);

/* Reading a body: a field beyond its end, or of a bad length, makes the
   reader bad and every later field zero or NULL. */
typedef struct mc_record_reader {
  const char *p;
  size_t len, at;
  bool bad;
} mc_record_reader;

int64_t mc_record_get_int(mc_record_reader *r);
double mc_record_get_double(mc_record_reader *r);
/* Heap, or NULL (sent as NULL, or the reader is bad). */
char *mc_record_get_string(mc_record_reader *r);
bool mc_record_get_bytes(mc_record_reader *r, void *out, size_t n);
/* True when every field was read and nothing is left over. */
bool mc_record_whole(const mc_record_reader *r);

/* ---- the pool ---- */

typedef struct mc_pool mc_pool;
/* A worker's end of its channel, in the worker. */
typedef struct mc_pool_channel mc_pool_channel;

/* In a worker: sends one record of kind (>= MC_POOL_FIRST_KIND) with the
   body in t, and frees t. A worker whose parent is gone exits. */
void mc_pool_send(mc_pool_channel *ch, uint32_t kind, mc_text *t);

typedef struct mc_pool_work {
  void *ctx;
  /* In worker k, just forked: gets ready (e.g. opens its implementation).
     True with a greeting in hello (e.g. the implementation's name), false
     with why in hello; the worker then exits. */
  bool (*start)(void *ctx, int k, char *hello, size_t hello_len);
  /* In a worker: does one item (its body as given), sending its records. */
  void (*item)(void *ctx, mc_pool_channel *ch, mc_record_reader *item);
  /* In a worker, after its last item: sends what came late and lets go of
     what it holds; the worker then ends what it started and exits. */
  void (*end)(void *ctx, mc_pool_channel *ch);
  /* In the parent: a record of worker k, busy with the item of ticket
     (-1: idle). False when no worker would send it: the worker is lost. */
  bool (*take)(void *ctx, int k, int64_t ticket, uint32_t kind, mc_record_reader *body);
  /* In the parent: worker k was lost (what: "ended" or why it was dropped;
     how: how its process ended), busy with the item of ticket (-1: idle);
     stopped: it was killed for staying stopped (mc_pool_set_stopped_limit). */
  void (*lost)(void *ctx, int k, int64_t ticket, const char *what, const char *how, bool stopped);
} mc_pool_work;

/* A pool for work, not started yet: its stop flag exists already, for
   what the workers will read. Installs movconf's signal guard. */
mc_pool *mc_pool_new(const mc_pool_work *work);
/* Forks n workers and waits for each to be ready; false, with why in err,
   when one is not (every worker is then ended). */
bool mc_pool_start(mc_pool *pool, int n, char *err, size_t errlen);
/* The first worker's greeting (valid until mc_pool_free). */
const char *mc_pool_hello(const mc_pool *pool);
/* A flag shared by the parent and every worker: raised, work should stop. */
volatile int *mc_pool_stop_flag(const mc_pool *pool);
/* Workers not lost. */
int mc_pool_alive(const mc_pool *pool);

/* A worker stopped (SIGSTOP, perhaps by its implementation) for more than
   case_timeout and a margin of MC_POOL_STOPPED_MARGIN_SECONDS while the
   parent waits is killed and lost; by default never, and never when
   case_timeout is 0 (no limit). Waits then wake at least twice a second
   to look. */
#define MC_POOL_STOPPED_MARGIN_SECONDS 5.0
void mc_pool_set_stopped_limit(mc_pool *pool, double case_timeout);

/* Waits until a worker is free, taking the records that come meanwhile;
   false when none is left. */
bool mc_pool_wait_free(mc_pool *pool);
/* A free worker, or -1 when none is. */
int mc_pool_free_worker(const mc_pool *pool);
/* Gives the item in body (freed) to free worker k, known by ticket from
   now until it is done or lost. */
void mc_pool_give(mc_pool *pool, int k, int64_t ticket, mc_text *body);
/* Takes the records that come within timeout_ms (-1: waits for one). */
void mc_pool_take(mc_pool *pool, int timeout_ms);
/* True while a worker is busy with an item. */
bool mc_pool_busy(const mc_pool *pool);
/* Waits for every item given out, tells the workers to end, takes their
   late records, and reaps them and whatever they started. */
void mc_pool_finish(mc_pool *pool);
/* Ends any worker still running and frees the pool. */
void mc_pool_free(mc_pool *pool);

#endif
