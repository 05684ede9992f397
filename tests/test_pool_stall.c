/* A worker stopped in the middle of a record (SIGSTOP from its
   implementation, after a record's frame and before its body) must not
   hold the parent's read for ever: the parent gives the record up after a
   bounded wait and the worker is lost with its item. Before, the parent
   blocked in read() for good (here the alarm below ended the test). */
#define _DEFAULT_SOURCE /* raise, alarm */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "common/clock.h"
#include "harness/pool/pool.h"

/* Longer than the pool's wait for the rest of a record and the grace it
   gives a lost worker to end, with room for a loaded machine. */
#define ALARM_SECONDS 120

typedef struct outcome {
  int lost;
  int64_t ticket;
} outcome;

static bool start(void *ctx, int k, char *hello, size_t n) {
  (void)ctx;
  (void)k;
  snprintf(hello, n, "ready");
  return true;
}

/* In the worker: its end of the channel, the lowest write-only pipe (the
   pool's guard keeps its own pipe at a high number). */
static int channel_end(void) {
  DIR *d = opendir("/proc/self/fd");
  int found = -1;
  for (struct dirent *e; d && (e = readdir(d));) {
    int fd = atoi(e->d_name);
    struct stat st;
    if (e->d_name[0] != '.' && fd > 2 && fd != dirfd(d) && fstat(fd, &st) == 0 &&
        S_ISFIFO(st.st_mode) && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_WRONLY &&
        (found < 0 || fd < found))
      found = fd;
  }
  if (d)
    closedir(d);
  return found;
}

/* The frame of a record of 64 bytes, then a stop before its body. */
static void item(void *ctx, mc_pool_channel *ch, mc_record_reader *body) {
  (void)ctx;
  (void)ch;
  (void)body;
  uint32_t head[2] = {MC_POOL_FIRST_KIND, 64};
  int fd = channel_end();
  if (fd < 0 || write(fd, head, sizeof head) != (ssize_t)sizeof head)
    _exit(9);
  raise(SIGSTOP);
  _exit(0);
}

static void end(void *ctx, mc_pool_channel *ch) {
  (void)ctx;
  (void)ch;
}

static bool take(void *ctx, int k, int64_t ticket, uint32_t kind, mc_record_reader *body) {
  (void)ctx;
  (void)k;
  (void)ticket;
  (void)kind;
  (void)body;
  return false; /* no whole record is ever sent */
}

static void lost(void *ctx, int k, int64_t ticket, const char *what, const char *how,
                 bool stopped) {
  (void)k;
  (void)what;
  (void)how;
  (void)stopped;
  outcome *o = ctx;
  o->lost++;
  o->ticket = ticket;
}

int main(void) {
  alarm(ALARM_SECONDS);
  outcome o = {0, -1};
  mc_pool_work work = {&o, start, item, end, take, lost};
  mc_pool *pool = mc_pool_new(&work);
  char err[256];
  CHECK(mc_pool_start(pool, 1, err, sizeof err));
  mc_text body = {0};
  mc_pool_give(pool, 0, 7, &body);
  double begin = mc_now_seconds();
  while (mc_pool_busy(pool))
    mc_pool_take(pool, -1);
  CHECK_EQ_I64(o.lost, 1);
  CHECK_EQ_I64(o.ticket, 7);
  CHECK(mc_now_seconds() - begin < ALARM_SECONDS);
  mc_pool_free(pool);
  return check_report();
}
