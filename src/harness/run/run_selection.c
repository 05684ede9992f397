/* A selection run from start to end: the implementation opened here or by
   the workers of --jobs, every file, then every process ended. */
#include "harness/run/run_selection.h"

#include <stdlib.h>

#include "common/text.h"

/* The implementation: opened here, or by each of --jobs workers, forked
   now that sel is loaded. Its name (borrowed), or NULL with why in err. */
static const char *start_impl(mc_runner *runner, mc_selection *sel, int n_jobs, const char *spec,
                              const mc_impl_options *options, mc_run_jobs **jobs, char *err,
                              size_t errlen) {
  *jobs = NULL;
  if (n_jobs > 1) {
    *jobs = mc_run_jobs_start(runner, sel, n_jobs, spec, options, err, errlen);
    return *jobs ? mc_run_jobs_impl_name(*jobs) : NULL;
  }
  runner->impl = mc_impl_open(spec, options, err, errlen);
  return runner->impl ? runner->impl->name : NULL;
}

/* Every file in turn, here or on the workers of --jobs. */
static void run_files(mc_runner *runner, mc_run_jobs *jobs, mc_selection *sel,
                      const mc_run_progress *progress) {
  for (int i = 0; i < sel->count; i++) {
    if (progress && progress->file)
      progress->file(progress->ctx, i + 1);
    if (jobs)
      mc_run_jobs_file(jobs, i);
    else
      mc_run_selected_file(runner, &sel->files[i]);
  }
  if (jobs)
    mc_run_jobs_finish(jobs);
  else
    mc_runner_finish(runner);
  if (progress && progress->done)
    progress->done(progress->ctx);
}

bool mc_run_selection(mc_runner *runner, mc_selection *sel, int jobs, const char *spec,
                      const mc_impl_options *options, const mc_run_progress *progress, char *err,
                      size_t errlen) {
  mc_run_jobs *workers;
  const char *name = start_impl(runner, sel, jobs, spec, options, &workers, err, errlen);
  runner->report->impl = name;
  if (!name)
    return false;
  run_files(runner, workers, sel, progress);
  runner->report->impl = mc_strdupf("%s", name); /* outlives the processes */
  mc_run_jobs_free(workers);
  mc_runner_free(runner);
  mc_impl_close(runner->impl);
  runner->impl = NULL;
  return true;
}

/* A baseline written by --write-expect and never explained accepts
   failures nobody looked at: say so after every run that uses it. */
static void print_unexplained(FILE *out, const char *command, const char *path,
                              const mc_expectations *e) {
  int unexplained = 0, cases = 0;
  for (int i = 0; i < e->count; i++)
    if (mc_expectation_unexplained(&e->items[i])) {
      unexplained++;
      cases += e->items[i].matched;
    }
  if (unexplained)
    fprintf(out,
            "movconf %s: note: %d of the %d expectations of %s (matching %d case%s) still "
            "have the placeholder reason '" MC_EXPECT_PLACEHOLDER "...' of --write-expect: "
            "nobody has said why those cases fail\n",
            command, unexplained, e->count, path, cases, cases == 1 ? "" : "s");
}

void mc_expectations_print_notes(FILE *out, const char *command, const char *path,
                                 mc_expectations *e, const mc_shard_plan *shard) {
  if (!e)
    return;
  for (int i = 0; i < e->count; i++)
    if (e->items[i].matched == 0 && !(shard && mc_shard_elsewhere_matches(shard, e, &e->items[i])))
      fprintf(out, "movconf %s: note: expectation '%s' matched no case that ran\n", command,
              e->items[i].case_glob);
  print_unexplained(out, command, path, e);
}
