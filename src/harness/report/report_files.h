/* The files a command writes: checked before it starts, reports written
   whole (src/harness/report/outputs.c, report_files.c). command names the
   command in messages ("run", "report merge"). */
#ifndef MOVCONF_HARNESS_REPORT_FILES_H
#define MOVCONF_HARNESS_REPORT_FILES_H

#include <stdbool.h>
#include <stdio.h>

#include "common/text.h"
#include "harness/harness.h"

/* A file a command reads or writes, and what it is to the user ("--json",
   "the case file"). */
typedef struct mc_named_file {
  const char *name;
  const char *path; /* NULL or "-" (standard output): none */
} mc_named_file;
/* Before a command starts: every output can be written (mc_output_check)
   and none is the same file (mc_same_file) as an input or another output,
   so that no report replaces a case file and no two reports mix. -1 to go
   on, else 2 with both named on stderr. */
int mc_check_outputs(const char *command, const mc_named_file *outputs, int n_outputs,
                     const mc_named_file *inputs, int n_inputs);
/* The plugin an --impl names as an input (path NULL for other kinds). */
mc_named_file mc_plugin_input(const char *impl_spec);
/* The case files as inputs, with room for more after them (heap). */
mc_named_file *mc_case_file_inputs(const mc_path_list *files, int room);

/* The report files of run and report merge, each written whole to a
   temporary file that replaces it at the end (mc_output). run opens them
   only once every implementation process has ended, so that none can
   write into one; whether they can be written is checked before the work
   (mc_check_outputs). "-" is standard output; then the table goes to
   standard error. */
typedef struct mc_report_files {
  mc_output json, junit;
  FILE *table;
} mc_report_files;
/* False, said, when both reports would go to standard output. */
bool mc_report_paths_usable(const char *command, const char *json_path, const char *junit_path);
/* Where the table goes: standard error when a report takes standard output. */
FILE *mc_report_table(const char *json_path, const char *junit_path);
bool mc_open_reports(const char *command, const char *json_path, const char *junit_path,
                     mc_report_files *r);
/* A report that will not be written: the file it would replace stays. */
void mc_discard_report(mc_output *out);
/* Finishes a report (standard output is only flushed); false, with a
   message, when the report could not be written whole. */
bool mc_close_report(const char *command, mc_output *out, const char *path, bool written);
/* Writes r to the reports opened (JSON, JUnit) and finishes them; false
   when one could not be written whole. */
bool mc_write_reports(const char *command, mc_report_files *out, const mc_run_report *r,
                      const char *json_path, const char *junit_path);
/* text (a page, a list), written whole to path, or to standard output for
   "-"; false, said on stderr, when it could not be or ran out of memory. */
bool mc_write_text_output(const char *command, const char *path, const mc_text *text);
/* Exit status of a finished run: 0 only when nothing is a problem, at
   least one case actually ran and the run was not stopped early. */
int mc_run_status(const char *command, const mc_run_report *r);

#endif
