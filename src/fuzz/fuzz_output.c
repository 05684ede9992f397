/* movconf fuzz's output: the findings' folder, checked before the
   campaign, and the progress line on standard error. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/text.h"
#include "fuzz/fuzz.h"

/* ---- the output folder, checked before the campaign ---- */

/* The first folder of dir's path that does not exist (heap), or NULL when
   dir exists. */
static char *first_missing(const char *dir) {
  char *prefix = mc_strdupf("%s", dir);
  for (char *p = prefix + 1;; p++) {
    if (*p != '/' && *p)
      continue;
    char keep = *p;
    *p = '\0';
    struct stat st;
    if (stat(prefix, &st) != 0)
      return prefix;
    if (!keep)
      break;
    *p = keep;
  }
  free(prefix);
  return NULL;
}

/* Removes dir and its parents up to and including top (folders this check
   made, still empty). */
static void remove_made(char *dir, const char *top) {
  for (;;) {
    rmdir(dir);
    char *slash = strrchr(dir, '/');
    if (strcmp(dir, top) == 0 || !slash || slash == dir)
      return;
    *slash = '\0';
  }
}

/* Whether findings can be written in dir: made if need be, a folder, a
   file created and removed there; what this made is removed again, so that
   nothing is left when nothing is found. */
bool mc_fuzz_out_dir_writable(const char *dir) {
  char *missing = first_missing(dir);
  bool ok = mc_make_dirs(dir);
  struct stat st;
  if (ok && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
    errno = ENOTDIR;
    ok = false;
  }
  char *probe = mc_strdupf("%s/.movconf-fuzz-probe-XXXXXX", dir);
  int fd = ok ? mkstemp(probe) : -1;
  if (ok && fd < 0)
    ok = false;
  int saved = errno;
  if (fd >= 0) {
    close(fd);
    unlink(probe);
  }
  free(probe);
  if (missing) {
    char *made = mc_strdupf("%s", dir);
    remove_made(made, missing);
    free(made);
    free(missing);
  }
  errno = saved;
  return ok;
}

/* ---- progress ---- */

/* Seconds between progress lines when stderr is not a terminal (a CI log). */
#define LOG_PROGRESS_SECONDS 5.0

void mc_fuzz_show_progress(mc_fuzz_progress_line *p, const mc_fuzz_stats *s, int findings,
                           bool final) {
  double now = mc_now_seconds();
  if (!p->terminal && (final || now - p->last < LOG_PROGRESS_SECONDS))
    return;
  if (p->terminal && !final && now - p->last < 0.1)
    return;
  p->last = now;
  double elapsed = now - p->start;
  fprintf(stderr, "%s[fuzz] %.0f s: %" PRIu64 " runs, %.0f runs/s, %d finding%s",
          p->terminal ? "\r" : "", elapsed, s->runs, elapsed > 0 ? (double)s->runs / elapsed : 0.0,
          findings, findings == 1 ? "" : "s");
  if (s->first_finding_at)
    fprintf(stderr, " (the first after %.1f s)", s->first_finding_at - p->start);
  char ops[256];
  mc_fuzz_ops_fuzzed_text(p->campaign, s, ops, sizeof ops);
  fprintf(stderr, ", %.0f%% unsupported, fuzzing %s  %s",
          s->runs ? 100.0 * (double)s->unsupported / (double)s->runs : 0.0, ops,
          final || !p->terminal ? "\n" : "");
}

void mc_fuzz_on_progress(void *ctx, const mc_fuzz_stats *s) {
  mc_fuzz_show_progress(ctx, s, s->n_findings, false);
}
