/* --sanitize address: implementations under test run with AddressSanitizer
   (and UndefinedBehaviorSanitizer) reports going to files of a private
   folder, so that a memory error that does not crash - an over-read that
   happens to find mapped memory - becomes the verdict memory-error of the
   case that made it, with the report's first lines and frames; undefined
   behaviour UBSan reports is the same verdict. */
#ifndef MOVCONF_HARNESS_SANITIZE_H
#define MOVCONF_HARNESS_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "harness/harness.h"

/* The exit status sanitizers are told to use, so that their exit is told
   apart from the implementation's own. */
#define MC_SANITIZER_EXIT_STATUS 86

typedef struct mc_sanitizer {
  char dir[64]; /* "" when off */
  /* The folder itself, opened when made: what movconf reads and removes
     is in it, wherever the implementation (which may write there) moves
     it or whatever it puts at its path. */
  int dir_fd;
  /* The implementation process last started, as movconf sees it and as it
     sees itself: in a PID namespace of its own (child_contain.c) the
     runtimes name its reports after the inner number. */
  pid_t started, started_inside;
} mc_sanitizer;

/* Makes the report folder; false with a message in err. */
bool mc_sanitizer_open(mc_sanitizer *s, char *err, size_t errlen);
/* Removes the folder and what is left in it. */
void mc_sanitizer_close(mc_sanitizer *s);
/* In a child about to exec the implementation: the sanitizers' options
   (reports into the folder, MC_SANITIZER_EXIT_STATUS). */
void mc_sanitizer_child_env(const mc_sanitizer *s);
/* The same for a plugin host, and LD_PRELOAD: the ASan runtime the plugin
   at path was built for (gcc's libasan.so.N, clang's runtime; none for a
   host built with ASan, which has its own), which must come first in the
   process, and the C++ runtimes the plugin needs, which must come before
   the plugin (mc_sanitizer_preload). */
void mc_sanitizer_plugin_env(const mc_sanitizer *s, const char *plugin);
/* What that LD_PRELOAD is for the plugin at path ("" for none); the
   environment's MOVCONF_ASAN_RUNTIME replaces it when set. */
void mc_sanitizer_preload(const char *plugin, char *list, size_t n);
/* Appends to err, a plugin's load failure under --sanitize, what was
   preloaded and that MOVCONF_ASAN_RUNTIME chooses it. */
void mc_sanitizer_load_hint(const char *plugin, char *err, size_t errlen);
/* False, with a message in err, when the plugin at path shows no
   sanitizer instrumentation (no __asan_ or __ubsan_ symbol): a sanitized
   run of it would report nothing. True when it does or cannot be read. */
bool mc_sanitizer_check_plugin(const char *plugin, char *err, size_t errlen);
/* In a sanitized plugin host, once the plugin is loaded: the reports of
   every sanitizer runtime in the process go to the folder (gcc's UBSan
   beside its ASan ignores log_path and would write to stderr). Nothing
   outside a sanitized host. */
void mc_sanitizer_host_loaded(void);
/* Just after starting the implementation's process pid, while it lives:
   notes the number it has inside its namespace, which names its reports
   (nothing when s is off). */
void mc_sanitizer_started(mc_sanitizer *s, pid_t pid);
/* After a case's call in process pid: a report that process wrote during
   it becomes the call's result, a memory error (ASan or UBSan), whatever
   the implementation answered (a sanitizer that halts ends the process
   first; UBSan's default goes on); a sanitizer's own CHECK failure is a
   crash that says so. Only the file the runtimes name after pid counts:
   anything else in the folder (a file another process dropped there) is
   removed unread. Nothing happens when s is off or no report came. */
void mc_sanitizer_judge_call(mc_sanitizer *s, pid_t pid, mc_impl_result *r);

#endif
