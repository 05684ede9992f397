/* The process adapter's process: started under /bin/sh -c in a process
   group of its own, stopped with that group, and its pipes read a line at
   a time and written in full, always within a deadline. */
#include "harness/impl/exec/adapter.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include "harness/impl/child.h"
#include "harness/impl/child_contain.h"
#include "harness/impl/child_pipe.h"
#include "harness/impl/child_text.h"
#include "harness/impl/sanitize.h"

static void close_pair(int fds[2]) {
  close(fds[0]);
  close(fds[1]);
}

/* In the child (a session and namespaces of its own: child_contain.h), default SIGPIPE (movconf
   ignores it, and an ignored disposition survives exec), the pipes as stdin, stdout and stderr
   (relayed: never a description movconf writes to). */
_Noreturn static void exec_child(const mc_adapter *a, int stdin_fd, int stdout_fd, int stderr_fd) {
  if (a->sanitizer.dir[0]) /* an adapter built with sanitizers reports to files */
    mc_sanitizer_child_env(&a->sanitizer);
#if defined(__linux__)
  prctl(PR_SET_PDEATHSIG, SIGKILL); /* even movconf's SIGKILL ends the adapter */
#endif
  signal(SIGPIPE, SIG_DFL);
  mc_child_no_core_file();
  if (dup2(stdin_fd, STDIN_FILENO) < 0 || dup2(stdout_fd, STDOUT_FILENO) < 0 ||
      dup2(stderr_fd, STDERR_FILENO) < 0)
    _exit(127);
  execl("/bin/sh", "sh", "-c", a->command, (char *)NULL);
  _exit(127);
}

bool mc_adapter_spawn(mc_adapter *a, char *why, size_t whylen) {
  int to_child[2], from_child[2];
  if (!mc_child_pipe(to_child)) {
    snprintf(why, whylen, "cannot create a pipe: %s", strerror(errno));
    return false;
  }
  if (!mc_child_pipe(from_child)) {
    snprintf(why, whylen, "cannot create a pipe: %s", strerror(errno));
    close_pair(to_child);
    return false;
  }
  int text = mc_child_text_open(&a->text);
  /* Its own /proc and user namespace only when it is never handed
     movconf's shared memory, which it opens through movconf's /proc/PID/fd. */
  pid_t warden; /* ended with the adapter's other children (mc_adapter_stop) */
  pid_t pid =
      text < 0 ? -1 : mc_child_fork_contained(a->payload == MC_ADAPTER_PAYLOAD_BASE64, &warden);
  if (pid < 0) {
    snprintf(why, whylen, "cannot start a process: %s", strerror(errno));
    close_pair(to_child);
    close_pair(from_child);
    if (text >= 0)
      close(text);
    mc_child_text_close(&a->text);
    return false;
  }
  if (pid == 0)
    exec_child(a, to_child[0], from_child[1], text);
  close(to_child[0]);
  close(from_child[1]);
  close(text);
  a->pid = pid;
  mc_sanitizer_started(&a->sanitizer, pid);
  a->in_fd = to_child[1];
  a->out_fd = from_child[0];
  fcntl(a->in_fd, F_SETFL, fcntl(a->in_fd, F_GETFL) | O_NONBLOCK);
  fcntl(a->out_fd, F_SETFL, fcntl(a->out_fd, F_GETFL) | O_NONBLOCK);
  a->len = 0;
  a->served = 0;
  return true;
}

/* Kills the adapter's process group and reaps the adapter. The group is
   signalled before the reap, while its id cannot have been reused. */
void mc_adapter_stop(mc_adapter *a) {
  if (a->pid <= 0)
    return;
  mc_child_kill(a->pid, true);
  mc_child_end_all(); /* and what left the group (setsid) or outlived its parent */
  mc_child_text_close(&a->text);
  if (a->in_fd >= 0)
    close(a->in_fd);
  close(a->out_fd);
  a->pid = 0;
  a->in_fd = a->out_fd = -1;
  a->len = 0;
  /* A buffer grown for one huge reply is not kept for the whole run. */
  if (a->cap > FIRST_READ_BUFFER_BYTES) {
    free(a->buf);
    a->buf = NULL;
    a->cap = 0;
  }
}

/* Makes room for more input, never beyond limit bytes in all. */
static bool grow_input(mc_adapter *a, size_t limit) {
  if (a->len < a->cap)
    return true;
  size_t want = a->cap ? a->cap * 2 : FIRST_READ_BUFFER_BYTES;
  if (want > limit || want < a->cap)
    want = limit;
  if (want <= a->cap)
    return false;
  char *grown = realloc(a->buf, want);
  if (!grown)
    return false;
  a->buf = grown;
  a->cap = want;
  return true;
}

/* Reads until a->buf holds a whole line of at most max_len bytes (the
   newline not counted) and sets *line_len to its length. */
io_status mc_adapter_read_line(mc_adapter *a, double deadline, size_t max_len, size_t *line_len) {
  size_t scanned = 0;
  for (;;) {
    char *newline = a->len > scanned ? memchr(a->buf + scanned, '\n', a->len - scanned) : NULL;
    if (newline) {
      *line_len = (size_t)(newline - a->buf);
      return *line_len <= max_len ? IO_OK : IO_TOO_LONG;
    }
    scanned = a->len;
    if (a->len > max_len)
      return IO_TOO_LONG;
    if (!grow_input(a, max_len + 1))
      return IO_FAILED;
    struct pollfd p = {.fd = a->out_fd, .events = POLLIN};
    /* The adapter's own end counts, not only the end of its output: a
       process it started may hold that open. */
    int ready = mc_child_poll(&p, 1, deadline, a->pid);
    if (ready == MC_CHILD_ENDED)
      return IO_CLOSED;
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready < 0)
      return IO_FAILED;
    if (ready == 0)
      return IO_TIMEOUT;
    ssize_t got = read(a->out_fd, a->buf + a->len, a->cap - a->len);
    if (got == 0)
      return IO_CLOSED;
    if (got < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (got < 0)
      return IO_FAILED;
    a->len += (size_t)got;
  }
}

/* Drops a line and its newline from the front of the buffer. */
void mc_adapter_consume_line(mc_adapter *a, size_t line_len) {
  size_t used = line_len + 1;
  memmove(a->buf, a->buf + used, a->len - used);
  a->len -= used;
}

io_status mc_adapter_write_all(mc_adapter *a, const char *data, size_t n, double deadline) {
  while (n > 0) {
    ssize_t put = write(a->in_fd, data, n);
    if (put > 0) {
      data += put;
      n -= (size_t)put;
      continue;
    }
    if (put < 0 && errno == EPIPE)
      return IO_CLOSED;
    if (put < 0 && errno != EAGAIN && errno != EINTR)
      return IO_FAILED;
    struct pollfd p = {.fd = a->in_fd, .events = POLLOUT};
    int ready = mc_child_poll(&p, 1, deadline, a->pid);
    if (ready == MC_CHILD_ENDED)
      return IO_CLOSED;
    if (ready == 0)
      return IO_TIMEOUT;
    if (ready < 0 && errno != EINTR)
      return IO_FAILED;
  }
  return IO_OK;
}
