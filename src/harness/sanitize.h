/* --sanitize address: implementations under test run with AddressSanitizer
   (and UndefinedBehaviorSanitizer) reports going to files of a private
   folder, so that a memory error that does not crash - an over-read that
   happens to find mapped memory - becomes the verdict memory-error of the
   case that made it, with the report's first lines and frames. */
#ifndef MOVCONF_HARNESS_SANITIZE_H
#define MOVCONF_HARNESS_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/harness.h"

/* The exit status sanitizers are told to use, so that their exit is told
   apart from the implementation's own. */
#define MC_SANITIZER_EXIT_STATUS 86

typedef struct mc_sanitizer {
  char dir[64]; /* "" when off */
} mc_sanitizer;

/* Makes the report folder; false with a message in err. */
bool mc_sanitizer_open(mc_sanitizer *s, char *err, size_t errlen);
/* Removes the folder and what is left in it. */
void mc_sanitizer_close(mc_sanitizer *s);
/* In a child about to exec the implementation: the sanitizers' options
   (reports into the folder, MC_SANITIZER_EXIT_STATUS) and, with preload,
   the AddressSanitizer runtime in LD_PRELOAD, for a host that is not built
   with it itself (the runtime must come first in the process). */
void mc_sanitizer_child_env(const mc_sanitizer *s, bool preload);
/* Whether a report was written since the last call: its kind and first
   frames into summary ("heap-buffer-overflow: READ of size 1 ... in f <
   g"); the reports are removed. */
bool mc_sanitizer_take_report(mc_sanitizer *s, char *summary, size_t n);
/* After a case's call: a report written during it becomes the call's
   result, a memory error, whatever the implementation answered (a
   sanitizer that halts ends the process first; UBSan's default goes on).
   Nothing happens when s is off or no report came. */
void mc_sanitizer_judge_call(mc_sanitizer *s, mc_impl_result *r);

#endif
