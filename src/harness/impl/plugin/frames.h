/* The first frames of the stack, for crash reports: which functions of
   which modules were running when an implementation died. */
#ifndef MOVCONF_HARNESS_FRAMES_H
#define MOVCONF_HARNESS_FRAMES_H

#include <stddef.h>

/* Loads what backtrace() needs, so that a later call from a signal
   handler does not allocate. Call once at start. */
void mc_frames_prepare(void);
/* From a signal handler of the host: writes the interrupted code's stack,
   "fn+0x1c (libfoo.so) < caller+0x40 (libfoo.so) < ...", at most max
   frames, into buf. For a dying process: it uses dladdr, which is not
   async-signal-safe. */
void mc_frames_describe(char *buf, size_t n, int max);

#endif
