/* Moving a whole buffer through a file descriptor: read(2) and its kin may
   move fewer bytes than asked, or be interrupted by a signal. */
#ifndef MOVCONF_COMMON_TRANSFER_H
#define MOVCONF_COMMON_TRANSFER_H

#include <stdbool.h>
#include <stddef.h>

typedef enum mc_transfer_op {
  MC_TRANSFER_READ,   /* read(2) */
  MC_TRANSFER_WRITE,  /* write(2) */
  MC_TRANSFER_SEND,   /* send(2) with MSG_NOSIGNAL: a closed peer raises no SIGPIPE */
  MC_TRANSFER_PREAD,  /* pread(2) from the offset */
  MC_TRANSFER_PWRITE, /* pwrite(2) at the offset */
} mc_transfer_op;

/* Moves all n bytes between buf and fd (writes only read buf), retrying
   short transfers and EINTR, and waiting in poll(2) when the descriptor is
   non-blocking (it may be shared with an implementation under test). The
   offset counts only for MC_TRANSFER_PREAD and MC_TRANSFER_PWRITE. False at
   the end of the file or pipe (errno 0) or on an error (errno set). */
bool mc_transfer_all(int fd, void *buf, size_t n, mc_transfer_op op, size_t offset);

#endif
