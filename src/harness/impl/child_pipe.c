/* Pipes for hosted implementations: see child_pipe.h. */
#include "harness/impl/child_pipe.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* fd moved above the standard descriptors and close-on-exec. */
static int private_fd(int fd) {
  if (fd > STDERR_FILENO) {
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
  }
  int moved = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  close(fd);
  return moved;
}

bool mc_child_pipe(int fds[2]) {
  if (pipe(fds) != 0)
    return false;
  fds[0] = private_fd(fds[0]);
  fds[1] = private_fd(fds[1]);
  if (fds[0] >= 0 && fds[1] >= 0)
    return true;
  int saved = errno;
  if (fds[0] >= 0)
    close(fds[0]);
  if (fds[1] >= 0)
    close(fds[1]);
  errno = saved;
  return false;
}
