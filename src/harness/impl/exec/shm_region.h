/* The shared-memory payload of the adapter protocol
   (spec/adapter-protocol.md, section 16): one sealed memfd per request,
   holding the request's input bytes and a region for the output.

   movconf never maps the file: it writes the inputs with pwrite and reads
   the output with pread after checking the file's size, so nothing an
   adapter does to the file can fault movconf; the seals keep the file's
   size fixed anyway. Once the reply is in, the file is sealed against
   writes before the output is copied out, so the bytes judged are ones no
   process can change any more. A fresh file per request, under a
   descriptor number no earlier request had, closed once the reply is
   read: an old request's path never reaches a later request's file. */
#ifndef MOVCONF_HARNESS_SHM_REGION_H
#define MOVCONF_HARNESS_SHM_REGION_H

#include "movconf/ops.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every tensor of the file starts on a multiple of this many bytes, so an
   adapter may map the output region alone. */
#define MC_SHM_ALIGN ((size_t)4096)

typedef struct mc_shm_region {
  int fd;        /* -1: no region (the request goes as base64) */
  char path[64]; /* /proc/PID/fd/N: how the adapter opens the file */
  size_t size;   /* the file's sealed size */
  size_t input_offset[MC_MAX_INPUTS];
  size_t output_offset, output_room;
  /* The bytes of the output the specification gives the request; SIZE_MAX
     when the input is invalid (any output is then a missed rejection). */
  size_t expected_output;
} mc_shm_region;

#define MC_SHM_REGION_NONE                                                                         \
  { .fd = -1, .expected_output = SIZE_MAX }

/* Creates the file for req's inputs and an output room of at most
   max_output_bytes, writes the inputs and seals its size. False with why
   when shared memory is not to be had (the caller sends base64 instead). */
bool mc_shm_region_open(mc_shm_region *r, const mc_request *req, size_t max_output_bytes, char *why,
                        size_t whylen);

/* Whether the first nbytes of the output region were written (hold no
   hole of the sparse file) and lie within the file (fstat): false with why
   when not. Costs no memory, however large nbytes is. */
bool mc_shm_region_output_written(const mc_shm_region *r, size_t nbytes, char *why, size_t whylen);

/* After the reply: seals the file against writes (F_SEAL_WRITE), so that
   no process can change the output any more. False with why when a
   writable mapping of it is left (the adapter must unmap before replying)
   or the seal is refused. */
bool mc_shm_region_freeze(const mc_shm_region *r, char *why, size_t whylen);

/* Copies nbytes of the output region into dst; false with why when the
   file is no longer big enough or reading it fails. */
bool mc_shm_region_read_output(const mc_shm_region *r, uint8_t *dst, size_t nbytes, char *why,
                               size_t whylen);

/* Closes the file (movconf's last reference to it). */
void mc_shm_region_close(mc_shm_region *r);

#endif
