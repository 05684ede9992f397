/* What the fuzz targets share: the libFuzzer entry point's prototype, the
   one-time set-up, how a failed differential check is reported, and
   what a tensor comparison found. */
#ifndef MOVCONF_FUZZ_COMMON_H
#define MOVCONF_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "harness/harness.h"
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
   signature of a differential check is the finding's name as movconf fuzz
   gives it (mc_fuzz_finding); other checks (the parser's) say what broke.
   Never values, so that one bug gives one signature. */
#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 2, 3)))
#endif
void mc_fuzz_mismatch(const char *target, const char *fmt, ...);

/* A differential finding: the signature is mc_finding_key (op, verdict v,
   the reference's status expected), then, when where is not NULL, the
   entry point or check that showed it ("run_into", "abi wrote-input"). */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void mc_fuzz_finding(const char *target, mc_op op, mc_verdict v, mc_status expected,
                     const char *where);

/* Judges an answer (status got, output out) beside the reference's
   (expected, want) with mc_verdict_of_answers; anything but a pass is a
   finding (mc_fuzz_finding, where as there). out may be NULL. */
void mc_fuzz_judge(const char *target, mc_op op, mc_status expected, const mc_tensor *want,
                   mc_status got, const mc_tensor *out, const char *where);

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
