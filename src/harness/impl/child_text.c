/* Relaying what hosted implementations write: see child_text.h. */
#include "harness/impl/child_text.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/safe_text.h"
#include "common/text.h"
#include "harness/impl/child_pipe.h"

/* The open relays, read by every mc_child_poll (one per hosted
   implementation; a run has one, a differential fuzz campaign two). */
enum { MAX_RELAYS = 8, MAX_POLLED = 16 };
static mc_child_text *relays[MAX_RELAYS];

/* How often a watched process is checked for having ended. */
#define WATCH_MILLIS 20

void mc_child_write_all(int fd, const char *data, size_t n) {
  while (n > 0) {
    ssize_t put = write(fd, data, n);
    if (put > 0) {
      data += put;
      n -= (size_t)put;
    } else if (put < 0 && errno == EAGAIN) {
      struct pollfd p = {.fd = fd, .events = POLLOUT};
      poll(&p, 1, -1);
    } else if (!(put < 0 && errno == EINTR)) {
      return;
    }
  }
}

/* "[label] text\n", the text made safe; a NUL byte is shown as \x00. */
static void emit_line(const mc_child_text *t, const char *text, size_t n) {
  mc_text out = {0};
  mc_text_printf(&out, "[%s] ", t->label);
  for (size_t at = 0; at <= n;) {
    size_t piece = strnlen(text + at, n - at);
    char *raw = mc_realloc_or_abort(NULL, piece + 1);
    memcpy(raw, text + at, piece);
    raw[piece] = '\0';
    char *safe = mc_safe_text(raw);
    mc_text_printf(&out, "%s%s", safe, at + piece < n ? "\\x00" : "");
    free(safe);
    free(raw);
    at += piece + 1;
  }
  mc_text_printf(&out, "\n");
  mc_child_write_all(STDERR_FILENO, out.p, out.len);
  mc_text_free(&out);
}

/* Takes bytes read from the pipe: whole lines are relayed, a line longer
   than the buffer in pieces; past the bound, one notice and then nothing. */
static void take_bytes(mc_child_text *t, const char *data, size_t n) {
  size_t before = t->relayed;
  t->relayed += n;
  if (before > MC_CHILD_TEXT_MAX_BYTES) /* dropped, and said so */
    return;
  if (t->relayed > MC_CHILD_TEXT_MAX_BYTES)
    n = MC_CHILD_TEXT_MAX_BYTES - before;
  for (size_t i = 0; i < n; i++) {
    if (data[i] != '\n')
      t->line[t->len++] = data[i];
    if (data[i] == '\n' || t->len == sizeof t->line) {
      emit_line(t, t->line, t->len);
      t->len = 0;
    }
  }
  if (t->relayed > MC_CHILD_TEXT_MAX_BYTES) {
    char notice[160];
    snprintf(notice, sizeof notice,
             "(more output dropped: movconf relays at most %zu bytes of an implementation's "
             "output per run)",
             MC_CHILD_TEXT_MAX_BYTES);
    if (t->len > 0)
      emit_line(t, t->line, t->len);
    t->len = 0;
    emit_line(t, notice, strlen(notice));
  }
}

/* Reads what the pipe holds now, at most limit bytes; false at its end or
   on an error (nothing more will come). */
static bool drain(mc_child_text *t, size_t limit) {
  char buf[16384];
  for (size_t got_all = 0; got_all < limit;) {
    ssize_t got = read(t->fd, buf, sizeof buf);
    if (got > 0) {
      take_bytes(t, buf, (size_t)got);
      got_all += (size_t)got;
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else {
      return got < 0 && errno == EAGAIN;
    }
  }
  return true;
}

static void unregister(mc_child_text *t) {
  for (int i = 0; i < MAX_RELAYS; i++)
    if (relays[i] == t)
      relays[i] = NULL;
}

void mc_child_text_init(mc_child_text *t, const char *label) {
  memset(t, 0, sizeof *t);
  t->fd = -1;
  char *safe = mc_safe_text(label);
  size_t n = strlen(safe);
  if (n >= sizeof t->label) /* cut, but not inside a character */
    for (n = sizeof t->label - 4; n > 0 && (safe[n] & 0xC0) == 0x80; n--)
      continue;
  snprintf(t->label, sizeof t->label, "%.*s%s", (int)n, safe, safe[n] ? "..." : "");
  free(safe);
}

int mc_child_text_open(mc_child_text *t) {
  mc_child_text_close(t);
  int slot = 0;
  while (slot < MAX_RELAYS && relays[slot])
    slot++;
  if (slot == MAX_RELAYS) {
    errno = EMFILE;
    return -1;
  }
  int fds[2];
  if (!mc_child_pipe(fds))
    return -1;
  fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  t->fd = fds[0];
  relays[slot] = t;
  return fds[1];
}

void mc_child_text_close(mc_child_text *t) {
  if (t->fd < 0)
    return;
  /* Every writer should be gone; one that is not cannot keep this going. */
  drain(t, 4 * MC_CHILD_TEXT_MAX_BYTES);
  if (t->len > 0 && t->relayed <= MC_CHILD_TEXT_MAX_BYTES)
    emit_line(t, t->line, t->len);
  t->len = 0;
  unregister(t);
  close(t->fd);
  t->fd = -1;
}

static bool has_ended(pid_t pid) {
  siginfo_t info;
  memset(&info, 0, sizeof info);
  return waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

/* Relays the text of every relay whose entry in polled is ready; a relay
   whose pipe has ended is left out of later polls until it is closed. */
static void relay_ready(const struct pollfd *polled, mc_child_text *const *which, int n) {
  for (int i = 0; i < n; i++)
    if (polled[i].revents && !drain(which[i], MC_CHILD_TEXT_MAX_BYTES)) {
      unregister(which[i]);
      close(which[i]->fd);
      which[i]->fd = -1;
    }
}

int mc_child_poll(struct pollfd *fds, int n, double deadline, pid_t watch) {
  for (bool ended = false;;) {
    struct pollfd polled[MAX_POLLED];
    mc_child_text *which[MAX_RELAYS];
    int k = 0;
    for (int i = 0; i < n && k < MAX_POLLED; i++)
      polled[k++] = fds[i];
    int relayed = 0;
    for (int i = 0; i < MAX_RELAYS && k < MAX_POLLED; i++)
      if (relays[i]) {
        which[relayed++] = relays[i];
        polled[k++] = (struct pollfd){.fd = relays[i]->fd, .events = POLLIN};
      }
    int wait = ended ? 0 : mc_millis_until(deadline);
    if (watch > 0 && (wait < 0 || wait > WATCH_MILLIS))
      wait = WATCH_MILLIS;
    int ready = poll(polled, (nfds_t)k, wait);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready < 0)
      return -1;
    int mine = 0;
    for (int i = 0; i < n; i++) {
      fds[i].revents = polled[i].revents;
      mine += polled[i].revents != 0;
    }
    relay_ready(polled + n, which, relayed);
    if (mine > 0)
      return mine;
    if (ended) /* and nothing came after it ended */
      return MC_CHILD_ENDED;
    if (mc_deadline_passed(deadline))
      return 0;
    /* One more look after it ended: what it wrote before is there now. */
    ended = watch > 0 && has_ended(watch);
  }
}
