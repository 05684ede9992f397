#define _GNU_SOURCE /* memfd_create, F_ADD_SEALS, SEEK_HOLE */
#include "harness/impl/exec/shm_region.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "common/transfer.h"

/* The file may not grow past what an off_t holds. */
#define FILE_MAX_BYTES ((size_t)INT64_MAX)

static size_t align_up(size_t n) {
  return (n + MC_SHM_ALIGN - 1) & ~(MC_SHM_ALIGN - 1);
}

/* Offsets of the inputs and of the output room; false when they overflow. */
static bool lay_out(mc_shm_region *r, const mc_request *req, size_t max_output_bytes) {
  size_t at = 0;
  for (int i = 0; i < req->n_inputs; i++) {
    size_t n = req->inputs[i]->nbytes;
    if (n > FILE_MAX_BYTES - at - MC_SHM_ALIGN)
      return false;
    r->input_offset[i] = at;
    at = align_up(at + n);
  }
  r->output_offset = at;
  r->output_room = max_output_bytes < FILE_MAX_BYTES - at ? max_output_bytes : FILE_MAX_BYTES - at;
  r->size = at + r->output_room;
  return true;
}

/* Request files get descriptor numbers from here up, never one an earlier
   request of this process had (until the numbers wrap at the descriptor
   limit, raised for this to at most NUMBERS_MAX): the path of an earlier
   file then names nothing, never a later request's file. */
#define NUMBERS_FROM 64
#define NUMBERS_MAX ((rlim_t)65536)

static int number_limit(void) {
  static int limit;
  struct rlimit rl;
  if (limit == 0 && getrlimit(RLIMIT_NOFILE, &rl) == 0) {
    rlim_t want = rl.rlim_max < NUMBERS_MAX ? rl.rlim_max : NUMBERS_MAX;
    if (rl.rlim_cur < want) {
      rl.rlim_cur = want;
      setrlimit(RLIMIT_NOFILE, &rl);
      getrlimit(RLIMIT_NOFILE, &rl);
    }
    limit = rl.rlim_cur < INT_MAX ? (int)rl.rlim_cur : INT_MAX;
  }
  return limit;
}

/* Moves fd to the next unused number; fd itself when that fails. */
static int fresh_number(int fd) {
  static int next = NUMBERS_FROM;
  if (next >= number_limit())
    next = NUMBERS_FROM;
  int moved = fcntl(fd, F_DUPFD_CLOEXEC, next);
  if (moved < 0 && next != NUMBERS_FROM)
    moved = fcntl(fd, F_DUPFD_CLOEXEC, next = NUMBERS_FROM);
  if (moved < 0)
    return fd;
  close(fd);
  next = moved + 1;
  return moved;
}

static bool fail(mc_shm_region *r, char *why, size_t whylen, const char *what) {
  snprintf(why, whylen, "%s: %s", what, strerror(errno));
  mc_shm_region_close(r);
  return false;
}

bool mc_shm_region_open(mc_shm_region *r, const mc_request *req, size_t max_output_bytes, char *why,
                        size_t whylen) {
  *r = (mc_shm_region)MC_SHM_REGION_NONE;
#if defined(__linux__) && defined(MFD_ALLOW_SEALING)
  if (!lay_out(r, req, max_output_bytes)) {
    snprintf(why, whylen, "the inputs do not fit in one file");
    return false;
  }
  r->fd = memfd_create("movconf-request", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (r->fd < 0)
    return fail(r, why, whylen, "memfd_create");
  r->fd = fresh_number(r->fd);
  /* Sparse: the output room costs memory only where the adapter writes. */
  if (ftruncate(r->fd, (off_t)r->size) != 0)
    return fail(r, why, whylen, "sizing the shared memory file");
  for (int i = 0; i < req->n_inputs; i++)
    if (!mc_transfer_all(r->fd, req->inputs[i]->data, req->inputs[i]->nbytes, MC_TRANSFER_PWRITE,
                         r->input_offset[i]))
      return fail(r, why, whylen, "writing the inputs to the shared memory file");
  /* The adapter can neither shrink the file under a reader nor grow it;
     the seal against writes comes with the reply (mc_shm_region_freeze). */
  if (fcntl(r->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) != 0)
    return fail(r, why, whylen, "sealing the shared memory file");
  snprintf(r->path, sizeof r->path, "/proc/%ld/fd/%d", (long)getpid(), r->fd);
  return true;
#else
  (void)req;
  (void)max_output_bytes;
  snprintf(why, whylen, "no memfd_create on this system");
  return false;
#endif
}

/* Whether the file holds nbytes of output after output_offset. */
static bool file_holds(const mc_shm_region *r, size_t nbytes) {
  struct stat st;
  return fstat(r->fd, &st) == 0 && st.st_size >= 0 && (size_t)st.st_size >= r->output_offset &&
         (size_t)st.st_size - r->output_offset >= nbytes;
}

bool mc_shm_region_output_written(const mc_shm_region *r, size_t nbytes, char *why, size_t whylen) {
  if (!file_holds(r, nbytes)) {
    snprintf(why, whylen, "the shared memory file is too short for the output");
    return false;
  }
  if (nbytes == 0)
    return true;
#if defined(SEEK_HOLE)
  /* A page never written is a hole: the output claimed there was not written. */
  off_t hole = lseek(r->fd, (off_t)r->output_offset, SEEK_HOLE);
  if (hole >= 0 && (size_t)hole - r->output_offset < nbytes) {
    snprintf(why, whylen,
             "output.bytes says %zu bytes were written, but the output region holds no data "
             "from its byte %zu on (never written)",
             nbytes, (size_t)hole - r->output_offset);
    return false;
  }
#endif
  return true;
}

bool mc_shm_region_freeze(const mc_shm_region *r, char *why, size_t whylen) {
#if defined(F_SEAL_WRITE)
  if (fcntl(r->fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SEAL) == 0)
    return true;
  if (errno == EBUSY)
    snprintf(why, whylen,
             "the shared memory file is still mapped writable after the reply (by the adapter "
             "or a process it started): the output could change while judged");
  else
    snprintf(why, whylen, "the shared memory file could not be sealed against writes (%s)",
             errno == EPERM ? "the adapter sealed it" : strerror(errno));
  return false;
#else
  (void)r;
  snprintf(why, whylen, "no seal against writes on this system");
  return false;
#endif
}

bool mc_shm_region_read_output(const mc_shm_region *r, uint8_t *dst, size_t nbytes, char *why,
                               size_t whylen) {
  if (!file_holds(r, nbytes)) {
    snprintf(why, whylen, "the shared memory file is too short for the output");
    return false;
  }
  if (!mc_transfer_all(r->fd, dst, nbytes, MC_TRANSFER_PREAD, r->output_offset)) {
    snprintf(why, whylen, "reading the output from the shared memory file failed: %s",
             errno ? strerror(errno) : "the file ended");
    return false;
  }
  return true;
}

void mc_shm_region_close(mc_shm_region *r) {
  if (r->fd >= 0)
    close(r->fd);
  r->fd = -1;
  r->path[0] = '\0';
}
