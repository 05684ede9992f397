/* The text hosted implementations write to their stdout and stderr (a
   plugin's process, an adapter's stderr). It goes to a pipe of movconf's
   own, never to a file description movconf writes its reports through: a
   child that set O_NONBLOCK on a shared description would make movconf's
   own writes to a slow reader fail. movconf relays it to its stderr line by
   line, made safe (mc_safe_text), prefixed with the implementation, and
   bounded (MC_CHILD_TEXT_MAX_BYTES per implementation and run).

   Single-threaded: the relays are read while movconf waits for a child
   (mc_child_poll), so a chatty child never blocks on a full pipe. */
#ifndef MOVCONF_HARNESS_CHILD_TEXT_H
#define MOVCONF_HARNESS_CHILD_TEXT_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define MC_CHILD_TEXT_MAX_BYTES ((size_t)1 << 20)
#define MC_CHILD_TEXT_LINE_BYTES 1024

typedef struct mc_child_text {
  int fd; /* the pipe's read end; -1 while no child runs */
  char label[128];
  char line[MC_CHILD_TEXT_LINE_BYTES]; /* a line not complete yet */
  size_t len;
  size_t relayed; /* bytes read over the run */
} mc_child_text;

/* label names the implementation in every relayed line (made safe here). */
void mc_child_text_init(mc_child_text *t, const char *label);

/* A fresh pipe for a child about to start: returns its write end (above
   the standard descriptors, close-on-exec) for the child to take as its
   stdout or stderr, and for the parent to close after the fork; -1 with
   errno when no pipe can be made. */
int mc_child_text_open(mc_child_text *t);

/* Relays what is left (the child has ended) and closes the read end. */
void mc_child_text_close(mc_child_text *t);

/* Writes all of data to fd (movconf's stdout or stderr), waiting when it
   is full (its description may be non-blocking by another's doing); gives
   up on errors. */
void mc_child_write_all(int fd, const char *data, size_t n);

/* What mc_child_poll returns when the watched process has ended and none
   of fds is ready. */
#define MC_CHILD_ENDED (-2)

/* poll(2) on fds (n may be 0) until one is ready, an error (-1, errno), or
   the deadline (mc_deadline_after; MC_NO_DEADLINE: none) passes (0);
   meanwhile relays what children write. With watch > 0, returns
   MC_CHILD_ENDED once that process has ended (not reaped) and none of fds
   is ready: a process that exited while a descendant keeps its pipes open
   is noticed at once, not at the deadline. */
int mc_child_poll(struct pollfd *fds, int n, double deadline, pid_t watch);

#endif
