/* What the fuzz targets share: the libFuzzer entry point's prototype, the
   one-time set-up, how a failed differential check is reported, and
   what a tensor comparison found. */
#ifndef MOVCONF_FUZZ_COMMON_H
#define MOVCONF_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "movconf/types.h"

/* Every target defines this; libFuzzer, fuzz/afl_main.c and
   fuzz/replay_main.c call it. 0: done; -1: the input decodes to nothing the
   target runs (libFuzzer then keeps it out of the corpus). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Once per process: MOVCONF_PARALLEL_MIN_BYTES=0, so that the optimized
   kernels split even tiny outputs over the requested threads. */
void mc_fuzz_setup(void);

/* A failed check: writes one line "MOVCONF-MISMATCH <target> <signature>"
   to stderr (the campaign deduplicates findings by it), then aborts. The
   signature names op, type and what differed, never values, so that one
   bug gives one signature. */
#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 2, 3)))
#endif
void mc_fuzz_mismatch(const char *target, const char *fmt, ...);

/* With MOVCONF_FUZZ_VERBOSE set, writes "movconf-fuzz: ..." to stderr
   (details for people; the campaign reads only the MISMATCH line). */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
void mc_fuzz_detail(const char *fmt, ...);

/* NULL when want and got are the same tensor bit for bit; else what
   differs first: "type", "shape" or "bytes" (with a detail line). The
   comparison is the judge's (mc_compare_tensors). */
const char *mc_fuzz_compare(const mc_tensor *want, const mc_tensor *got);

/* Reads a whole file into a new buffer (free it); false when it cannot. */
bool mc_fuzz_read_file(const char *path, uint8_t **data, size_t *size);

#endif
