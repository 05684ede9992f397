/* Sanitizer reports of implementations under test: see sanitize.h. */
#include "harness/sanitize.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "movconf/tensor.h"

#ifndef MOVCONF_ASAN_RUNTIME
#define MOVCONF_ASAN_RUNTIME ""
#endif

/* Whether this program itself runs with AddressSanitizer (then the runtime
   is already first in every process it starts by exec of itself). */
#if defined(__SANITIZE_ADDRESS__)
#define HOST_HAS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOST_HAS_ASAN 1
#endif
#endif
#ifndef HOST_HAS_ASAN
#define HOST_HAS_ASAN 0
#endif

bool mc_sanitizer_open(mc_sanitizer *s, char *err, size_t errlen) {
  const char *tmp = getenv("TMPDIR");
  snprintf(s->dir, sizeof s->dir, "%s/movconf-sanitize-XXXXXX",
           tmp && strlen(tmp) < 30 ? tmp : "/tmp");
  if (!mkdtemp(s->dir)) {
    snprintf(err, errlen, "--sanitize: cannot create a folder for the reports in %s",
             tmp ? tmp : "/tmp");
    s->dir[0] = '\0';
    return false;
  }
  return true;
}

/* Calls fn with each report file's path. */
static void each_report(const mc_sanitizer *s, void (*fn)(const char *path, void *ctx), void *ctx) {
  DIR *d = opendir(s->dir);
  for (struct dirent *e; d && (e = readdir(d));) {
    if (e->d_name[0] == '.')
      continue;
    char path[sizeof s->dir + 300];
    snprintf(path, sizeof path, "%s/%s", s->dir, e->d_name);
    fn(path, ctx);
  }
  if (d)
    closedir(d);
}

static void remove_file(const char *path, void *ctx) {
  (void)ctx;
  unlink(path);
}

void mc_sanitizer_close(mc_sanitizer *s) {
  if (!s->dir[0])
    return;
  each_report(s, remove_file, NULL);
  rmdir(s->dir);
  s->dir[0] = '\0';
}

void mc_sanitizer_child_env(const mc_sanitizer *s, bool preload) {
  char options[256];
  snprintf(options, sizeof options,
           "log_path=%s/report:exitcode=%d:detect_leaks=0:abort_on_error=0:handle_segv=0:"
           "handle_abort=0:allocator_may_return_null=1",
           s->dir, MC_SANITIZER_EXIT_STATUS);
  setenv("ASAN_OPTIONS", options, 1);
  snprintf(options, sizeof options, "log_path=%s/report:print_stacktrace=1:halt_on_error=0",
           s->dir);
  setenv("UBSAN_OPTIONS", options, 1);
  const char *runtime = getenv("MOVCONF_ASAN_RUNTIME");
  if (!runtime || !runtime[0])
    runtime = MOVCONF_ASAN_RUNTIME;
  if (preload && !HOST_HAS_ASAN && runtime[0])
    setenv("LD_PRELOAD", runtime, 1);
}

typedef struct report_scan {
  char *summary;
  size_t n;
  bool found;
} report_scan;

/* The report's kind line, then its first frames ("#0 0x... in FUNC ..."). */
static void summarize(const char *path, void *ctx) {
  report_scan *scan = ctx;
  FILE *f = fopen(path, "r");
  char line[512], kind[256] = "", access[64] = "", frames[400] = "";
  int n_frames = 0;
  while (f && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    char *what = strstr(line, "ERROR: AddressSanitizer: ");
    char *ub = strstr(line, "runtime error: ");
    char *in = strstr(line, " in ");
    if (!kind[0] && what) {
      char name[128] = "";
      sscanf(what + strlen("ERROR: AddressSanitizer: "), "%127s", name);
      snprintf(kind, sizeof kind, "AddressSanitizer: %s", name);
    } else if (!kind[0] && ub) {
      snprintf(kind, sizeof kind, "UndefinedBehaviorSanitizer: %.200s", ub);
    } else if (kind[0] && !access[0] &&
               (!strncmp(line, "READ of size", 12) || !strncmp(line, "WRITE of size", 13))) {
      const char *at = strstr(line, " at ");
      snprintf(access, sizeof access, ", %.*s", at ? (int)(at - line) : 60, line);
    } else if (kind[0] && n_frames < 4 && line[strspn(line, " ")] == '#' && in) {
      char fn[128];
      if (sscanf(in + 4, "%127s", fn) == 1) {
        size_t used = strlen(frames);
        snprintf(frames + used, sizeof frames - used, "%s%s", n_frames ? " < " : "", fn);
        n_frames++;
      }
    }
  }
  if (f)
    fclose(f);
  unlink(path);
  if (!scan->found && kind[0]) {
    snprintf(scan->summary, scan->n, "%s%s%s%s", kind, access, frames[0] ? "; in " : "", frames);
    scan->found = true;
  }
}

bool mc_sanitizer_take_report(mc_sanitizer *s, char *summary, size_t n) {
  report_scan scan = {summary, n, false};
  if (s->dir[0])
    each_report(s, summarize, &scan);
  return scan.found;
}

void mc_sanitizer_judge_call(mc_sanitizer *s, mc_impl_result *r) {
  char summary[400];
  if (!s->dir[0] || !mc_sanitizer_take_report(s, summary, sizeof summary))
    return;
  mc_tensor_free(&r->output);
  r->outcome = MC_OUTCOME_CRASH;
  r->memory_error = true;
  snprintf(r->message, sizeof r->message, "%s", summary);
}
