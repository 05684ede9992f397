/* The report files of run and report merge, and a finished run's exit status. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness/report/report_files.h"

static bool is_stdout(const char *path) {
  return path && strcmp(path, "-") == 0;
}

static bool open_report(const char *command, const char *option, const char *path, mc_output *out) {
  if (!path)
    return true;
  if (is_stdout(path)) {
    *out = (mc_output){.f = stdout};
    return true;
  }
  if (mc_output_open(out, path))
    return true;
  fprintf(stderr, "movconf %s: --%s %s: cannot write: %s\n", command, option, path,
          strerror(errno));
  return false;
}

void mc_discard_report(mc_output *out) {
  if (out->f && out->f != stdout)
    mc_output_discard(out);
}

bool mc_close_report(const char *command, mc_output *out, const char *path, bool written) {
  if (!out->f)
    return true;
  bool ok = written && !ferror(out->f);
  if (out->f == stdout)
    ok = fflush(stdout) == 0 && ok;
  else if (ok)
    ok = mc_output_commit(out);
  else
    mc_output_discard(out);
  if (!ok)
    fprintf(stderr, "movconf %s: error writing %s\n", command, path);
  return ok;
}

bool mc_report_paths_usable(const char *command, const char *json_path, const char *junit_path) {
  if (!is_stdout(json_path) || !is_stdout(junit_path))
    return true;
  fprintf(stderr, "movconf %s: --json - and --junit - cannot both use standard output\n", command);
  return false;
}

FILE *mc_report_table(const char *json_path, const char *junit_path) {
  return is_stdout(json_path) || is_stdout(junit_path) ? stderr : stdout;
}

bool mc_open_reports(const char *command, const char *json_path, const char *junit_path,
                     mc_report_files *r) {
  *r = (mc_report_files){.table = mc_report_table(json_path, junit_path)};
  if (!mc_report_paths_usable(command, json_path, junit_path))
    return false;
  if (!open_report(command, "json", json_path, &r->json) ||
      !open_report(command, "junit", junit_path, &r->junit)) {
    mc_discard_report(&r->json);
    return false;
  }
  return true;
}

bool mc_write_reports(const char *command, mc_report_files *out, const mc_run_report *r,
                      const char *json_path, const char *junit_path) {
  bool written = mc_close_report(command, &out->json, json_path,
                                 !out->json.f || mc_report_write_json(r, out->json.f));
  return mc_close_report(command, &out->junit, junit_path,
                         !out->junit.f || mc_report_write_junit(r, out->junit.f)) &&
         written;
}

int mc_run_status(const char *command, const mc_run_report *r) {
  int ran = 0;
  for (int i = 0; i < r->count; i++)
    ran += r->results[i].verdict != MC_VERDICT_UNSUPPORTED;
  if (r->count == 0)
    fprintf(stderr, "movconf %s: no case was selected\n", command);
  else if (ran == 0)
    fprintf(stderr, "movconf %s: the implementation supports none of the selected cases\n",
            command);
  int problems = mc_report_problems(r) + mc_report_unattributed_faults(r);
  return problems == 0 && r->n_load_errors == 0 && ran > 0 && !r->stopped_early ? 0 : 1;
}

bool mc_write_text_output(const char *command, const char *path, const mc_text *text) {
  if (text->oom) {
    fprintf(stderr, "movconf %s: out of memory\n", command);
    return false;
  }
  if (!is_stdout(path))
    return mc_write_text_file(path, text->p);
  bool ok = fwrite(text->p, 1, text->len, stdout) == text->len && fflush(stdout) == 0;
  if (!ok)
    fprintf(stderr, "movconf %s: cannot write to standard output\n", command);
  return ok;
}
