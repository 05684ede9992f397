#define _GNU_SOURCE /* memfd_create, F_ADD_SEALS, SEEK_HOLE */
#include "harness/impl/exec/shm_region.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
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
  /* Sparse: the output room costs memory only where the adapter writes. */
  if (ftruncate(r->fd, (off_t)r->size) != 0)
    return fail(r, why, whylen, "sizing the shared memory file");
  for (int i = 0; i < req->n_inputs; i++)
    if (!mc_transfer_all(r->fd, req->inputs[i]->data, req->inputs[i]->nbytes, MC_TRANSFER_PWRITE,
                         r->input_offset[i]))
      return fail(r, why, whylen, "writing the inputs to the shared memory file");
  /* The adapter can neither shrink the file under a reader nor grow it. */
  if (fcntl(r->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0)
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
