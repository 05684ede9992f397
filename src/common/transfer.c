#include "common/transfer.h"

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

/* One step: what the system call of op returns for up to n bytes at p. */
static ssize_t transfer_step(int fd, char *p, size_t n, mc_transfer_op op, size_t offset) {
  switch (op) {
  case MC_TRANSFER_READ:
    return read(fd, p, n);
  case MC_TRANSFER_WRITE:
    return write(fd, p, n);
  case MC_TRANSFER_SEND:
    return send(fd, p, n, MSG_NOSIGNAL);
  case MC_TRANSFER_PREAD:
    return pread(fd, p, n, (off_t)offset);
  case MC_TRANSFER_PWRITE:
    return pwrite(fd, p, n, (off_t)offset);
  }
  errno = EINVAL;
  return -1;
}

/* Waits until fd is ready for op (its descriptor was made non-blocking). */
static void wait_ready(int fd, mc_transfer_op op) {
  bool reading = op == MC_TRANSFER_READ || op == MC_TRANSFER_PREAD;
  struct pollfd pfd = {.fd = fd, .events = reading ? POLLIN : POLLOUT};
  while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
    ;
}

bool mc_transfer_all(int fd, void *buf, size_t n, mc_transfer_op op, size_t offset) {
  char *p = buf;
  while (n > 0) {
    ssize_t done = transfer_step(fd, p, n, op, offset);
    if (done < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      wait_ready(fd, op);
      continue;
    }
    if (done < 0 && errno == EINTR)
      continue;
    if (done <= 0) {
      if (done == 0)
        errno = 0;
      return false;
    }
    p += done;
    n -= (size_t)done;
    offset += (size_t)done;
  }
  return true;
}
