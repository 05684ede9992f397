/* The worker pool (pool.h): forking, the queue, the records both ways,
   the parent's poll loop and the loss of a worker. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "harness/pool/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/transfer.h"
#include "harness/impl/child.h"
#include "harness/impl/child_contain.h"
#include "harness/impl/child_pipe.h"

enum {
  /* worker -> parent */
  RECORD_HELLO = 1, /* int ok, string greeting (or why it is not ready) */
  RECORD_ITEM_DONE, /* the item given to it is done */
  RECORD_DONE,      /* after RECORD_END: every late record is in */
  /* parent -> worker */
  RECORD_ITEM, /* the item's body */
  RECORD_END
};

/* A record larger than this is no worker's (a picture is ~13 kB). */
#define MAX_RECORD_BYTES ((uint32_t)64 << 20)

/* ---- record bodies ---- */

void mc_record_put_bytes(mc_text *t, const void *p, size_t n) {
  mc_text_put(t, (const char *)p, n);
}

void mc_record_put_int(mc_text *t, int64_t v) {
  mc_record_put_bytes(t, &v, sizeof v);
}

void mc_record_put_double(mc_text *t, double v) {
  mc_record_put_bytes(t, &v, sizeof v);
}

void mc_record_put_string(mc_text *t, const char *s) {
  mc_record_put_int(t, s ? (int64_t)strlen(s) : -1);
  if (s)
    mc_record_put_bytes(t, s, strlen(s));
}

bool mc_record_get_bytes(mc_record_reader *r, void *out, size_t n) {
  if (r->bad || r->len - r->at < n) {
    r->bad = true;
    memset(out, 0, n);
    return false;
  }
  memcpy(out, r->p + r->at, n);
  r->at += n;
  return true;
}

int64_t mc_record_get_int(mc_record_reader *r) {
  int64_t v;
  mc_record_get_bytes(r, &v, sizeof v);
  return v;
}

double mc_record_get_double(mc_record_reader *r) {
  double v;
  mc_record_get_bytes(r, &v, sizeof v);
  return v;
}

char *mc_record_get_string(mc_record_reader *r) {
  int64_t n = mc_record_get_int(r);
  if (r->bad || n < 0)
    return NULL;
  if ((uint64_t)n > r->len - r->at) {
    r->bad = true;
    return NULL;
  }
  char *s = mc_realloc_or_abort(NULL, (size_t)n + 1);
  memcpy(s, r->p + r->at, (size_t)n);
  s[n] = '\0';
  r->at += (size_t)n;
  return s;
}

bool mc_record_whole(const mc_record_reader *r) {
  return !r->bad && r->at == r->len;
}

/* ---- the channel: framed records on a pipe ---- */

/* Sends kind with the body in t (may be empty); frees t. */
static bool send_record(int fd, uint32_t kind, mc_text *t) {
  uint32_t head[2] = {kind, (uint32_t)t->len};
  bool ok = !t->oom && t->len <= MAX_RECORD_BYTES &&
            mc_transfer_all(fd, head, sizeof head, MC_TRANSFER_WRITE, 0) &&
            (t->len == 0 || mc_transfer_all(fd, t->p, t->len, MC_TRANSFER_WRITE, 0));
  mc_text_free(t);
  return ok;
}

/* A worker writes each record at once: a record that stops coming for
   this long was cut off (its worker stopped mid-record, by SIGSTOP from
   its implementation) and must not hold the parent's read for ever. */
#define RECORD_STALL_MS 10000

/* Reads n bytes of a record from fd. The parent's ends are non-blocking:
   there, once a byte of the record came (*begun), each wait for more is
   bounded by RECORD_STALL_MS; false then, as at the end of the pipe. A
   worker's end blocks as long as its parent takes. */
static bool read_record_bytes(int fd, void *buf, size_t n, bool *begun) {
  char *p = buf;
  while (n > 0) {
    ssize_t got = read(fd, p, n);
    if (got > 0) {
      p += got;
      n -= (size_t)got;
      *begun = true;
      continue;
    }
    if (got == 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK))
      return false;
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    int ready = errno == EINTR ? 1 : poll(&pfd, 1, *begun ? RECORD_STALL_MS : -1);
    if (ready == 0 || (ready < 0 && errno != EINTR))
      return false;
  }
  return true;
}

/* The one reader of records: the next record's kind (0 at the end of the
   pipe, on a bad frame or a record cut off), its body in *body (heap, NULL
   when empty). */
static uint32_t receive_record(int fd, char **body, mc_record_reader *r) {
  uint32_t head[2];
  bool begun = false;
  *body = NULL;
  *r = (mc_record_reader){0};
  if (!read_record_bytes(fd, head, sizeof head, &begun) || head[0] == 0 ||
      head[1] > MAX_RECORD_BYTES)
    return 0;
  *body = mc_realloc_or_abort(NULL, head[1] + 1);
  if (!read_record_bytes(fd, *body, head[1], &begun)) {
    free(*body);
    *body = NULL;
    return 0;
  }
  *r = (mc_record_reader){.p = *body, .len = head[1]};
  return head[0];
}

struct mc_pool_channel {
  int in, out;
};

void mc_pool_send(mc_pool_channel *ch, uint32_t kind, mc_text *t) {
  if (!send_record(ch->out, kind, t))
    _exit(3); /* the parent is gone: nobody to work for */
}

static void send_empty(mc_pool_channel *ch, uint32_t kind) {
  mc_text t = {0};
  mc_pool_send(ch, kind, &t);
}

/* ---- the pool ---- */

typedef struct worker {
  pid_t pid;
  int to, from;         /* pipe ends: records to it, from it; -1 once closed */
  int64_t ticket;       /* the item it works on, -1 while free */
  bool done;            /* sent RECORD_DONE, or lost */
  bool told_to_end;     /* sent RECORD_END: only now may RECORD_DONE come */
  double stopped_since; /* when it was first seen stopped; 0 while running */
} worker;

struct mc_pool {
  mc_pool_work work;
  int n;
  worker w[MC_POOL_MAX_WORKERS];
  char *hello;
  volatile int *stop_flag; /* shared with the workers */
  double stopped_limit;    /* seconds a worker may stay stopped; 0: no limit */
  struct sigaction old_sigpipe;
};

/* ---- in a worker ---- */

/* Works on the items the parent gives until RECORD_END (or the parent is
   gone), then sends what came late and exits. */
_Noreturn static void serve(mc_pool *pool, mc_pool_channel *ch) {
  for (;;) {
    char *body;
    mc_record_reader r;
    uint32_t kind = receive_record(ch->in, &body, &r);
    if (kind == RECORD_ITEM) {
      pool->work.item(pool->work.ctx, ch, &r);
      send_empty(ch, RECORD_ITEM_DONE);
    }
    free(body);
    if (kind != RECORD_ITEM)
      break;
  }
  pool->work.end(pool->work.ctx, ch);
  send_empty(ch, RECORD_DONE);
  mc_child_end_all();
  _exit(0);
}

/* In worker k, just forked: gets ready, says so, then serves. */
_Noreturn static void worker_main(mc_pool *pool, int k, int in, int out) {
  for (int i = 0; i < k; i++) { /* the parent's ends of the others' pipes */
    close(pool->w[i].to);
    close(pool->w[i].from);
  }
  sigaction(SIGPIPE, &pool->old_sigpipe, NULL);
  mc_child_guard_after_fork();
  mc_child_hide_fd(in);
  mc_child_hide_fd(out);
  mc_pool_channel ch = {.in = in, .out = out};
  char hello[1024] = "";
  bool ready = pool->work.start(pool->work.ctx, k, hello, sizeof hello);
  mc_text t = {0};
  mc_record_put_int(&t, ready);
  mc_record_put_string(&t, hello);
  if (!send_record(out, RECORD_HELLO, &t) || !ready)
    _exit(2);
  serve(pool, &ch);
}

/* ---- in the parent ---- */

static void close_fd(int *fd) {
  if (*fd >= 0)
    close(*fd);
  *fd = -1;
}

/* Closes w's pipes and reaps it (it exits once they are closed). */
static void end_worker(worker *w, char *how, size_t howlen) {
  close_fd(&w->to);
  close_fd(&w->from);
  w->done = true;
  if (w->pid > 0)
    mc_child_end(w->pid, false, 5.0, how, howlen);
  w->pid = 0;
}

/* A worker that ended, sent what no worker sends or stayed stopped:
   reaped, its item lost. */
static void lose_worker(mc_pool *pool, worker *w, const char *what, bool stopped) {
  char how[256] = "";
  end_worker(w, how, sizeof how);
  int64_t ticket = w->ticket;
  w->ticket = -1;
  pool->work.lost(pool->work.ctx, (int)(w - pool->w), ticket, what, how, stopped);
}

/* Takes one record of w; a bad one loses w. */
static void take_record(mc_pool *pool, worker *w) {
  char *body;
  mc_record_reader r;
  uint32_t kind = receive_record(w->from, &body, &r);
  bool ok = true;
  if (kind == RECORD_ITEM_DONE && w->ticket >= 0 && r.len == 0)
    w->ticket = -1;
  else if (kind == RECORD_DONE && r.len == 0 && w->told_to_end && w->ticket < 0)
    w->done = true; /* earlier, it would leave a busy worker unheard: an endless wait */
  else if (kind >= MC_POOL_FIRST_KIND)
    ok = pool->work.take(pool->work.ctx, (int)(w - pool->w), w->ticket, kind, &r);
  else
    ok = false;
  free(body);
  if (!ok)
    lose_worker(pool, w, kind ? "sent movconf a message no worker sends" : "ended", false);
}

static bool listening(const worker *w) {
  return w->from >= 0 && !w->done;
}

/* How often the parent looks for stopped workers while it waits. */
#define STOPPED_CHECK_MS 500

/* A worker the implementation stopped (SIGSTOP to its parent) never
   answers: once stopped for longer than the limit it is lost, its item
   charged as a timeout, so that no wait of the parent's is endless. */
static void check_stopped(mc_pool *pool) {
  double now = mc_now_seconds();
  for (int i = 0; i < pool->n; i++) {
    worker *w = &pool->w[i];
    if (!listening(w) || !mc_child_stopped(w->pid)) {
      w->stopped_since = 0;
    } else if (w->stopped_since == 0) {
      w->stopped_since = now;
    } else if (now - w->stopped_since > pool->stopped_limit) {
      char what[128];
      snprintf(what, sizeof what, "was stopped (SIGSTOP) for more than %g s and killed",
               pool->stopped_limit);
      kill(w->pid, SIGKILL); /* it would never end by itself */
      lose_worker(pool, w, what, true);
    }
  }
}

void mc_pool_set_stopped_limit(mc_pool *pool, double case_timeout) {
  /* No --timeout (0) is no limit on a case: a stopped worker is then
     waited for as long as a running one. */
  pool->stopped_limit = case_timeout > 0 ? case_timeout + MC_POOL_STOPPED_MARGIN_SECONDS : 0;
}

void mc_pool_take(mc_pool *pool, int timeout_ms) {
  struct pollfd p[MC_POOL_MAX_WORKERS];
  worker *which[MC_POOL_MAX_WORKERS];
  int n = 0;
  for (int i = 0; i < pool->n; i++)
    if (listening(&pool->w[i])) {
      which[n] = &pool->w[i];
      p[n++] = (struct pollfd){.fd = pool->w[i].from, .events = POLLIN};
    }
  if (n == 0)
    return;
  bool watch = pool->stopped_limit > 0;
  if (watch && (timeout_ms < 0 || timeout_ms > STOPPED_CHECK_MS))
    timeout_ms = STOPPED_CHECK_MS;
  if (poll(p, (nfds_t)n, timeout_ms) > 0)
    for (int i = 0; i < n; i++)
      if (p[i].revents)
        take_record(pool, which[i]);
  if (watch)
    check_stopped(pool);
}

int mc_pool_alive(const mc_pool *pool) {
  int alive = 0;
  for (int i = 0; i < pool->n; i++)
    alive += pool->w[i].from >= 0;
  return alive;
}

bool mc_pool_busy(const mc_pool *pool) {
  for (int i = 0; i < pool->n; i++)
    if (pool->w[i].from >= 0 && pool->w[i].ticket >= 0)
      return true;
  return false;
}

int mc_pool_free_worker(const mc_pool *pool) {
  for (int i = 0; i < pool->n; i++)
    if (pool->w[i].from >= 0 && pool->w[i].ticket < 0)
      return i;
  return -1;
}

bool mc_pool_wait_free(mc_pool *pool) {
  while (mc_pool_alive(pool) > 0 && mc_pool_free_worker(pool) < 0)
    mc_pool_take(pool, -1);
  return mc_pool_free_worker(pool) >= 0;
}

void mc_pool_give(mc_pool *pool, int k, int64_t ticket, mc_text *body) {
  worker *w = &pool->w[k];
  w->ticket = ticket;
  if (!send_record(w->to, RECORD_ITEM, body))
    lose_worker(pool, w, "ended", false);
}

void mc_pool_finish(mc_pool *pool) {
  while (mc_pool_busy(pool))
    mc_pool_take(pool, -1);
  for (int i = 0; i < pool->n; i++) {
    mc_text t = {0};
    worker *w = &pool->w[i];
    w->told_to_end = w->to >= 0;
    if (w->to >= 0 && !send_record(w->to, RECORD_END, &t))
      lose_worker(pool, w, "ended", false);
  }
  for (bool waiting = true; waiting;) {
    waiting = false;
    for (int i = 0; i < pool->n; i++)
      waiting |= listening(&pool->w[i]);
    if (waiting)
      mc_pool_take(pool, -1);
  }
  for (int i = 0; i < pool->n; i++)
    end_worker(&pool->w[i], NULL, 0);
  /* What a lost worker's implementation left came here (the reaper). */
  mc_child_end_all();
}

void mc_pool_free(mc_pool *pool) {
  if (!pool)
    return;
  for (int i = 0; i < pool->n; i++)
    end_worker(&pool->w[i], NULL, 0); /* closed pipes: it exits */
  sigaction(SIGPIPE, &pool->old_sigpipe, NULL);
  munmap((void *)pool->stop_flag, sizeof *pool->stop_flag);
  free(pool->hello);
  free(pool);
}

mc_pool *mc_pool_new(const mc_pool_work *work) {
  mc_child_guard_install();    /* a signal ends the workers and what they started */
  mc_child_containment_note(); /* found out once, here, for every worker */
  mc_pool *pool = mc_realloc_or_abort(NULL, sizeof *pool);
  memset(pool, 0, sizeof *pool);
  pool->work = *work;
  void *flag = mmap(NULL, sizeof *pool->stop_flag, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (flag == MAP_FAILED)
    abort(); /* one page: as for memory, movconf cannot go on without it */
  pool->stop_flag = flag;
  *pool->stop_flag = 0;
  /* A worker that is gone makes a write to it fail, not movconf die. */
  struct sigaction ignore = {.sa_handler = SIG_IGN};
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &pool->old_sigpipe);
  return pool;
}

/* Forks worker k; false with why in err. */
static bool fork_worker(mc_pool *pool, int k, char *err, size_t errlen) {
  worker *w = &pool->w[k];
  *w = (worker){.to = -1, .from = -1, .ticket = -1};
  int down[2], up[2];
  bool down_made = mc_child_pipe(down);
  if (!down_made || !mc_child_pipe(up)) {
    snprintf(err, errlen, "cannot start worker %d: pipe: %s", k + 1, strerror(errno));
    if (down_made) {
      close(down[0]);
      close(down[1]);
    }
    return false;
  }
  fflush(NULL); /* or the worker would inherit, and might repeat, buffered output */
  w->pid = fork();
  if (w->pid == 0) {
    close(down[1]);
    close(up[0]);
    worker_main(pool, k, down[0], up[1]);
  }
  close(down[0]);
  close(up[1]);
  w->to = down[1];
  w->from = up[0];
  fcntl(w->from, F_SETFL, fcntl(w->from, F_GETFL) | O_NONBLOCK); /* see read_record_bytes */
  if (w->pid < 0) {
    snprintf(err, errlen, "cannot start worker %d: fork: %s", k + 1, strerror(errno));
    w->pid = 0;
    end_worker(w, NULL, 0);
    return false;
  }
  return true;
}

/* Worker k's greeting: true when it is ready. */
static bool greeted(mc_pool *pool, int k, char *err, size_t errlen) {
  char *body;
  mc_record_reader r;
  uint32_t kind = receive_record(pool->w[k].from, &body, &r);
  int64_t ready = mc_record_get_int(&r);
  char *text = mc_record_get_string(&r);
  bool ok = kind == RECORD_HELLO && mc_record_whole(&r) && text && ready;
  if (ok && !pool->hello)
    pool->hello = mc_strdupf("%s", text);
  if (!ok && kind == RECORD_HELLO && text)
    snprintf(err, errlen, "%s", text);
  else if (!ok)
    snprintf(err, errlen, "worker %d of --jobs ended before it was ready", k + 1);
  free(text);
  free(body);
  return ok;
}

bool mc_pool_start(mc_pool *pool, int n, char *err, size_t errlen) {
  if (n < 1 || n > MC_POOL_MAX_WORKERS) {
    snprintf(err, errlen, "--jobs takes 1 to %d workers", MC_POOL_MAX_WORKERS);
    return false;
  }
  bool ok = true;
  for (int k = 0; k < n && ok; k++) {
    ok = fork_worker(pool, k, err, errlen);
    pool->n += ok;
  }
  for (int k = 0; k < pool->n && ok; k++)
    ok = greeted(pool, k, err, errlen);
  if (!ok)
    for (int k = 0; k < pool->n; k++)
      end_worker(&pool->w[k], NULL, 0);
  return ok;
}

const char *mc_pool_hello(const mc_pool *pool) {
  return pool->hello;
}

volatile int *mc_pool_stop_flag(const mc_pool *pool) {
  return pool->stop_flag;
}
