/* The end of a `movconf fuzz` campaign: every finding re-run from its
   file alone, as `movconf run --impl SPEC FILE` would, in a fresh process
   with a fresh implementation; one that does not give its verdict again is
   flaky, not a finding (issue 21). The re-runs go in parallel and end one
   --timeout (and a second to start) after the campaign. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/text.h"
#include "fuzz/fuzz_request.h"

/* What a re-run tells the parent: one record, under PIPE_BUF. */
typedef struct rerun_record {
  int32_t verdict; /* -1: the case did not run */
  char detail[2048];
} rerun_record;
_Static_assert(sizeof(rerun_record) <= 4096, "a re-run record must fit PIPE_BUF");

/* In the child: the file's case on a new implementation; never returns. */
_Noreturn static void rerun_child(const char *spec, const mc_impl_options *base, const char *file,
                                  int fd) {
  rerun_record rec = {.verdict = -1};
  mc_impl_options options = *base;
  options.stop_at = 0; /* the parent bounds the re-runs */
  /* as movconf run: its default cap, the file's own applying to its case */
  options.max_output_bytes = MC_DEFAULT_MAX_OUTPUT_BYTES;
  char err[1024];
  mc_impl *impl = mc_impl_open(spec, &options, err, sizeof err);
  if (impl) {
    mc_run_report report = {.impl = impl->name};
    mc_runner runner = {
        .impl = impl, .filter = {.op = MC_OP_INVALID, .type = MC_TYPE_INVALID}, .report = &report};
    mc_run_file(&runner, file);
    mc_runner_finish(&runner);
    if (report.count == 1) {
      rec.verdict = (int32_t)report.results[0].verdict;
      char *safe = mc_safe_text(report.results[0].detail);
      snprintf(rec.detail, sizeof rec.detail, "%s", safe);
      free(safe);
    }
    mc_runner_free(&runner);
    mc_run_report_free(&report);
    mc_impl_close(impl);
  }
  ssize_t n;
  do
    n = write(fd, &rec, sizeof rec);
  while (n < 0 && errno == EINTR);
  _exit(0);
}

/* What the re-run says of finding f. */
static void judge_rerun(mc_fuzz_finding *f, const rerun_record *rec) {
  if (rec->verdict == (int32_t)f->verdict) {
    f->rerun = MC_FUZZ_REPRODUCED;
    free(f->detail); /* the file's own detail, so that summary and file agree */
    f->detail = mc_strdupf("%s", rec->detail);
    return;
  }
  f->rerun = MC_FUZZ_FLAKY;
  char *was = f->detail;
  f->detail =
      mc_strdupf("%s; re-run alone from its file: %s", was ? was : "",
                 rec->verdict < 0 ? "did not run" : mc_verdict_name((mc_verdict)rec->verdict));
  free(was);
}

typedef struct rerun {
  pid_t pid;
  int fd;
  mc_fuzz_finding *finding;
} rerun;

static bool start_rerun(const mc_fuzz_options *o, const mc_impl_options *impl, rerun *r) {
  int p[2];
  if (pipe(p) != 0)
    return false;
  fflush(NULL);
  r->pid = fork();
  if (r->pid < 0) {
    close(p[0]);
    close(p[1]);
    return false;
  }
  if (r->pid == 0) {
    close(p[0]);
    rerun_child(o->impl_spec, impl, r->finding->file, p[1]);
  }
  close(p[1]);
  r->fd = p[0];
  return true;
}

/* Reads each re-run's record until all have answered or the deadline. */
static void collect_reruns(rerun *runs, int n, double deadline) {
  int open_pipes = n;
  while (open_pipes > 0 && !mc_deadline_passed(deadline)) {
    struct pollfd p[n];
    for (int i = 0; i < n; i++)
      p[i] = (struct pollfd){.fd = runs[i].fd, .events = POLLIN};
    int wait = mc_millis_until(deadline);
    if (poll(p, (nfds_t)n, wait < 0 || wait > 100 ? 100 : wait) < 0 && errno != EINTR)
      break;
    for (int i = 0; i < n; i++) {
      if (runs[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      rerun_record rec;
      ssize_t got = read(runs[i].fd, &rec, sizeof rec);
      if (got < 0 && errno == EINTR)
        continue;
      if (got == (ssize_t)sizeof rec) {
        rec.detail[sizeof rec.detail - 1] = '\0';
        judge_rerun(runs[i].finding, &rec);
      }
      close(runs[i].fd);
      runs[i].fd = -1;
      open_pipes--;
    }
  }
}

void mc_fuzz_rerun_findings(const mc_fuzz_options *o, const mc_impl_options *impl,
                            mc_fuzz_stats *s) {
  rerun *runs = mc_realloc_or_abort(NULL, (size_t)(s->n_findings + 1) * sizeof *runs);
  int n = 0;
  for (int i = 0; i < s->n_findings; i++) {
    runs[n] = (rerun){.fd = -1, .finding = &s->findings[i]};
    if (s->findings[i].file && start_rerun(o, impl, &runs[n]))
      n++;
  }
  double timeout = impl->timeout_seconds > 0 ? impl->timeout_seconds : 10;
  collect_reruns(runs, n, o->stop_at > 0 ? mc_now_seconds() + timeout + 1 : MC_NO_DEADLINE);
  for (int i = 0; i < n; i++) {
    if (runs[i].fd >= 0) { /* out of time: not re-run */
      kill(runs[i].pid, SIGKILL);
      close(runs[i].fd);
    }
    while (waitpid(runs[i].pid, NULL, 0) < 0 && errno == EINTR)
      continue;
  }
  free(runs);
}

int mc_fuzz_confirmed_findings(const mc_fuzz_stats *s) {
  int n = 0;
  for (int i = 0; i < s->n_findings; i++)
    n += s->findings[i].rerun != MC_FUZZ_FLAKY;
  return n;
}

bool mc_fuzz_tested_nothing(FILE *out, const mc_fuzz_stats *s, double timeout_seconds) {
  if (s->runs > 0)
    return false;
  fprintf(out,
          "movconf fuzz: no request completed, so nothing was tested: the implementation "
          "answered none (a hang?) before the campaign ended; a request may take up to "
          "--timeout (%g s), so give --time more than that\n",
          timeout_seconds);
  return true;
}
