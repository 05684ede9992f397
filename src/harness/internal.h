/* What the files of src/harness/ share and nothing outside uses: the
   isolated implementations behind mc_impl_open. */
#ifndef MOVCONF_HARNESS_INTERNAL_H
#define MOVCONF_HARNESS_INTERNAL_H

#include <stddef.h>

#include "harness/harness.h"

/* Protocol name and version the adapter's handshake must announce. */
#define MC_ADAPTER_PROTOCOL "movconf-adapter/1"

/* exec:'COMMAND ARGS' (impl_exec.c): starts command with /bin/sh -c, speaking
   the JSON Lines protocol of spec/adapter-protocol.md, and reads its
   handshake. NULL and a message in err when it cannot start or its
   handshake is wrong. */
mc_impl *mc_impl_open_exec(const char *command, const mc_impl_options *options, char *err,
                           size_t errlen);

/* plugin:PATH (impl_plugin.c): a shared library speaking
   include/movconf/plugin.h, run in a forked child process. */
mc_impl *mc_impl_open_plugin(const char *path, const mc_impl_options *options, char *err,
                             size_t errlen);

/* Whether the isolated implementations can carry req at all: a known
   operation, an input count it accepts (mc_op_input_count_ok), every input
   a tensor with its bytes. When not, fills r as a rejection (invalid
   argument: "malformed request: not sent to the <to_whom>") and returns
   false. impl.c. */
bool mc_impl_request_carried(const mc_request *req, const char *to_whom, mc_impl_result *r);

/* ---- judge.c, shared with picture.c ---- */

/* The multi-index of flat element index in a shape, as "[i,j,k]". */
void mc_format_index(int rank, const int64_t *shape, int64_t flat, char *buf, size_t len);
/* Flat index of the data element with these bits, or -1. */
int64_t mc_judge_find_source(const mc_tensor *data, uint64_t bits);

/* ---- judge.c, shared with show.c and fuzz_request.c ---- */

typedef struct mc_differences {
  int64_t differing; /* elements of got whose bits are not want's */
  int64_t unwritten; /* of those, the ones holding movconf's fill of the output buffer */
} mc_differences;
/* Compares got with want (same type, want's element count) element by
   element; unwritten is counted only when filled: the implementation wrote
   into a buffer holding MC_OUTPUT_FILL. */
mc_differences mc_count_differences(const mc_tensor *want, const mc_tensor *got, bool filled);

/* ---- reply_text.c: a reply line within bounded memory ---- */

/* cJSON copies every string it parses, so a reply line of a gigabyte would
   cost a second gigabyte (and a line of tiny tokens, ~80 bytes each, far
   more). The line is handed to cJSON as a skeleton instead: the same JSON
   with every string cut to MC_REPLY_STRING_KEEP bytes and runs of blanks
   made one space, refused beyond MC_REPLY_MAX_TOKENS tokens; the full
   content of a cut value string (the output's base64) is then read from
   the line itself. */
#define MC_REPLY_STRING_KEEP 4096
#define MC_REPLY_MAX_TOKENS 1024
#define MC_REPLY_SKELETON_MAX ((size_t)MC_REPLY_MAX_TOKENS * (MC_REPLY_STRING_KEEP + 66))

#include <cjson/cJSON.h>

typedef struct mc_reply_cut {
  size_t ordinal;    /* which value string, in document order */
  size_t begin, end; /* its content in the line, without the quotes */
} mc_reply_cut;

typedef struct mc_reply_text {
  char *text; /* the skeleton, NUL-terminated */
  size_t len;
  mc_reply_cut *cut;
  int n_cut;
  size_t n_values;
  bool too_many_tokens; /* more than MC_REPLY_MAX_TOKENS: not a reply */
} mc_reply_text;

/* Builds the skeleton of a line that passed mc_json_check_text; false when
   out of memory. */
bool mc_reply_text_init(mc_reply_text *t, const char *line, size_t n);
void mc_reply_text_free(mc_reply_text *t);
/* Numbers the string values under root in document order (in valueint),
   as the skeleton numbered them. */
void mc_reply_text_number_strings(cJSON *root);
/* Where the full content of a cut string value is, or NULL when it was not cut. */
const mc_reply_cut *mc_reply_text_cut_of(const mc_reply_text *t, const cJSON *string);
/* Undoes JSON escapes in place, for content that should be ASCII (base64):
   an escape that does not stand for an ASCII character becomes '?'.
   Returns the new length. */
size_t mc_reply_unescape_ascii(char *s, size_t len);

/* ---- runner.c, shared with runner_jobs.c ---- */

/* A new zeroed result at the end of the report. */
mc_case_result *mc_report_new_result(mc_run_report *r);
void mc_case_result_free(mc_case_result *res);
/* detail: heap, owned by the report now. */
void mc_report_add_process_fault(mc_run_report *report, const char *observed_in,
                                 const char *culprit, char *detail);
/* Id, file, operation, type and what the case is (failure lines, grouping). */
void mc_describe_case(mc_case_result *res, const mc_case *c, const char *file);
/* The counts the stop limits read: sign +1 adds res, -1 takes it back. */
void mc_runner_tally(mc_runner *run, const mc_case_result *res, int sign);
/* True when the run has stopped or must stop before its next case. */
bool mc_runner_stopped(mc_runner *run);
/* Counts the selected cases of f from index from as not run. */
void mc_runner_count_not_run(mc_runner *run, const mc_case_file *f, int from);

/* ---- runner_jobs.c: run --jobs ---- */

/* Waits until a worker is free (taking what the busy ones report). */
void mc_jobs_wait_idle(mc_runner *run);
/* Gives case index of f (at path) to a free worker. */
void mc_jobs_dispatch(mc_runner *run, const mc_case_file *f, int index, const char *path);
/* Waits for every case given out and each worker's late faults, ends the
   workers, and puts the report's cases in run order. */
void mc_jobs_finish(mc_runner *run);
/* Ends any worker still running; frees what run->jobs holds. */
void mc_jobs_free(mc_runner *run);

#endif
