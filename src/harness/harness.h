/* The harness: opens an implementation under test by its --impl spelling
   (built-in kernels, a plugin in a forked child, a process adapter), runs
   cases on it, judges each against the case's expected result, and writes
   reports. The one public header of src/harness/. */
#ifndef MOVCONF_HARNESS_H
#define MOVCONF_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cases/cases.h"
#include "common/safe_text.h"
#include "harness/verdict/verdict_list.h"
#include "movconf/ops.h"

/* ---- implementations under test ---- */

/* How one call ended, as far as the runner can tell. */
typedef enum mc_outcome {
  MC_OUTCOME_OUTPUT,      /* produced an output tensor */
  MC_OUTCOME_REJECTED,    /* rejected the input */
  MC_OUTCOME_UNSUPPORTED, /* does not claim this op/type/rank/mode */
  MC_OUTCOME_CRASH,       /* died: signal, exit, out-of-bounds write, broken protocol */
  MC_OUTCOME_TIMEOUT      /* did not answer in time */
} mc_outcome;

typedef struct mc_impl_result {
  mc_outcome outcome;
  mc_tensor output;    /* MC_OUTCOME_OUTPUT: owned, release with mc_tensor_free */
  mc_status status;    /* MC_OUTCOME_REJECTED: the movconf status when the
                          implementation names one (names_errors), else MC_OK */
  char error_name[64]; /* MC_OUTCOME_REJECTED by an implementation without
                          names_errors: the error name it gave, if any (it is
                          then compared with the expected one), else "" */
  const char *clause;  /* the clause the rejection cites, when known */
  /* MC_OUTCOME_REJECTED by movconf on the implementation's behalf: it
     accepted the input, announcing an output beyond a suite limit (MC-L3,
     MC-L4), and error_name is that limit's error. */
  bool rejected_for_impl;
  char message[512]; /* rejection, crash or timeout detail */
  /* MC_OUTCOME_OUTPUT: the implementation accepted the input but announced
     an output no tensor can have (a zero-element shape whose other
     dimensions multiply past int64); output holds only type, rank and
     shape, no data. */
  bool output_unrepresentable;
  /* Not 0: this result is about an earlier call, the one mc_impl.calls
     numbered blame_call (it wrote after returning, or replied twice); the
     current call got no answer of its own and must be run again. */
  uint64_t blame_call;
  /* MC_OUTCOME_CRASH: the fault came after the call returned (a write to
     its output after run() returned): this call's, or blame_call's. */
  bool late;
  /* The process that served this call was started for it: nothing an
     earlier case did can have affected it. */
  bool fresh_start;
  /* MC_OUTCOME_CRASH: a sanitizer reported a memory error (--sanitize). */
  bool memory_error;
  /* The output of the same call made again into a buffer holding
     MC_OUTPUT_SECOND_FILL (mc_second_fill_keep), when output held the first
     fill somewhere; no data otherwise. Owned, release with mc_tensor_free. */
  mc_tensor refilled;
} mc_impl_result;

/* MC_ADAPTER_PAYLOAD_AUTO: a shared memory file for large requests, base64 for
   small ones; the others: always one way. */
typedef enum mc_adapter_payload {
  MC_ADAPTER_PAYLOAD_AUTO,
  MC_ADAPTER_PAYLOAD_BASE64,
  MC_ADAPTER_PAYLOAD_SHARED_MEMORY
} mc_adapter_payload;

typedef struct mc_impl_options {
  int threads;            /* kernels' thread count; <= 0: the default */
  double timeout_seconds; /* per call, for isolated implementations; <= 0: none */
  /* An adapter's start-up until its handshake (import torch can take tens
     of seconds under load): the larger of this and timeout_seconds; <= 0
     in either: none. */
  double handshake_timeout_seconds;
  size_t memory_limit_mb;      /* plugin child: address space beyond what it
                                  inherits, in MiB; 0: no limit */
  size_t max_output_bytes;     /* clause MC-L4 */
  bool fresh_process_per_case; /* isolated implementations: a new process for every case */
  /* --payload: how tensors reach an adapter that offers shared memory
     (spec/adapter-protocol.md, section 16). */
  mc_adapter_payload payload;
  /* --sanitize address: plugins and adapters run with AddressSanitizer and
     UndefinedBehaviorSanitizer reports collected (harness/sanitize.h); a
     report makes the case's verdict memory-error. Plugins then run without
     the memory limit (the sanitizer reserves terabytes of address space). */
  bool sanitize;
  /* mc_now_seconds() after which no call or start-up of an isolated
     implementation waits any longer, whatever its timeout (movconf fuzz's
     --time); <= 0: none. */
  double stop_at;
  /* This call's output buffer starts as MC_OUTPUT_SECOND_FILL, not
     MC_OUTPUT_FILL (the runner sets it for one call). */
  bool second_fill;
} mc_impl_options;

/* The timing request of the adapter protocol (spec/adapter-protocol.md):
   the implementation runs a request runs times, each run repeating calls
   for at least min_run_seconds, and reports its own per-call seconds, so
   that the transport is not what is timed (movconf bench). */
typedef struct mc_timing_request {
  int runs; /* 1 .. MC_TIMING_MAX_RUNS */
  double min_run_seconds;
} mc_timing_request;
#define MC_TIMING_MAX_RUNS 100

typedef struct mc_self_timing {
  double median_seconds; /* per call, of the runs' per-call times */
  int runs;
  long calls_per_run;
} mc_self_timing;

/* The byte movconf fills an output buffer with before an implementation
   writes into it (the built-in kernels, a plugin): an element it never
   writes keeps it and shows (spec/plugin-abi.md, section 5). A call whose
   output holds that fill somewhere is made again into a buffer of the
   second fill: an element is unwritten only when it holds each fill in
   its call, and one left unwritten where the expected value happens to be
   the first fill fails the second call. */
#define MC_OUTPUT_FILL 0xA5
#define MC_OUTPUT_SECOND_FILL 0x5A
/* The fill of this call's output buffer (options->second_fill). */
uint8_t mc_impl_output_fill(const mc_impl_options *options);

typedef struct mc_impl mc_impl;
struct mc_impl {
  const char *name;  /* for reports, e.g. "oracle" */
  bool names_errors; /* rejections carry movconf error names, compared exactly */
  bool fills_output; /* writes into a buffer movconf filled with MC_OUTPUT_FILL */
  mc_impl_options options;
  void *state;
  /* Calls made so far: the caller counts each call to run up by one
     before making it, so that during a call it is that call's number. */
  uint64_t calls;
  /* Runs one request; fills *result (zeroed by the caller). */
  void (*run)(mc_impl *self, const mc_request *req, mc_impl_result *result);
  void (*close)(mc_impl *self);
  /* Isolated implementations (NULL for the built-in ones): */
  /* Ends the current process, so that the next call starts a fresh one. */
  void (*restart)(mc_impl *self);
  /* After the last call: waits briefly for a fault that comes late (a
     write after run() returned, a reply nobody asked for). True, with
     *late filled and late->blame_call naming the call, when one came. */
  bool (*settle)(mc_impl *self, mc_impl_result *late);
  /* Implementations that time themselves (a process adapter whose
     handshake declares "timing"; NULL otherwise): runs req as timing asks
     and fills *result with its answer (the output once, for the check) and
     *own with its own per-call times. */
  void (*time_itself)(mc_impl *self, const mc_request *req, const mc_timing_request *timing,
                      mc_impl_result *result, mc_self_timing *own);
  /* Implementations that can say what they claim without running (a
     plugin's supports(), an adapter's handshake; NULL: the built-in ones,
     which claim everything): whether req is one it supports. True when it
     cannot tell (it crashed, timed out): running the request will show. */
  bool (*supports)(mc_impl *self, const mc_request *req);
};

/* The hidden movconf command a plugin host runs as (exec of movconf
   itself): `movconf __plugin-host FD PATH SETTLE_MS MEMORY_LIMIT_MB`, argv
   from the command's name on; it serves on FD and never returns. Returns
   2 when the arguments are wrong. */
#define MC_PLUGIN_HOST_COMMAND "__plugin-host"
int mc_plugin_host_command(int argc, char **argv);
/* Called by movconf's main, whose program serves MC_PLUGIN_HOST_COMMAND:
   plugin hosts then start as fresh movconf processes, holding nothing of
   movconf's memory (the case files and their expected outputs). Other
   programs linking the harness fork hosts that share their memory. */
void mc_plugin_host_fresh_exec(void);

/* Opens an implementation by its --impl spelling: "oracle", ... Returns
   NULL and a message in err when the spelling is unknown or it cannot start. */
mc_impl *mc_impl_open(const char *spec, const mc_impl_options *options, char *err, size_t errlen);
void mc_impl_close(mc_impl *impl);
/* The spellings mc_impl_open knows, for --help and error messages. */
const char *mc_impl_spellings(void);

/* Whether the call that gave r must be made again into a buffer holding
   MC_OUTPUT_SECOND_FILL: the implementation writes into movconf's buffer
   (fills_output), r is an output, and some element holds the first fill,
   which it may never have written (or written: only a second fill tells). */
bool mc_second_fill_wanted(const mc_impl *impl, const mc_impl_result *r);
/* Keeps the output of the second call (second) in r->refilled when it is
   an output of r's type and shape; frees it otherwise. */
void mc_second_fill_keep(mc_impl_result *r, mc_impl_result *second);
/* For callers that make their calls directly (show, fuzz): when
   mc_second_fill_wanted, calls impl again for req with the second fill
   and keeps its output in r->refilled. */
void mc_second_fill_run(mc_impl *impl, const mc_request *req, mc_impl_result *r);
/* Frees both outputs of r. */
void mc_impl_result_free_outputs(mc_impl_result *r);

/* ---- verdicts and results ---- */

/* How one case ended (spec/runner.md): a row each of verdict/verdict_list.h. */
#define MC_VERDICT_ENUM_ROW(id, name, failure, junit, meaning) MC_VERDICT_##id,
typedef enum mc_verdict { MC_VERDICT_LIST(MC_VERDICT_ENUM_ROW) MC_VERDICT_COUNT } mc_verdict;
#undef MC_VERDICT_ENUM_ROW

/* How a case appears in JUnit XML. */
typedef enum mc_junit_kind {
  MC_JUNIT_PASSED,
  MC_JUNIT_SKIPPED,
  MC_JUNIT_FAILURE,
  MC_JUNIT_ERROR
} mc_junit_kind;

/* The verdict's name, or "unknown" for a value of no row. */
const char *mc_verdict_name(mc_verdict v);
/* -1 when the name is unknown. */
int mc_verdict_from_name(const char *name);
/* Every verdict but pass and unsupported. */
bool mc_verdict_is_failure(mc_verdict v);
/* How JUnit shows a case with this verdict that no expectation foresaw. */
mc_junit_kind mc_verdict_junit_kind(mc_verdict v);
/* The verdict's one-line meaning. */
const char *mc_verdict_meaning(mc_verdict v);
/* The name of a JUnit kind: "passed", "skipped", "failure" or "error". */
const char *mc_junit_kind_name(mc_junit_kind k);
/* "Verdicts: pass (...); wrong-output (...); ..." wrapped for --help. */
void mc_verdicts_print_help(FILE *out);
/* The failure verdicts' names, separated by ", " (heap). */
char *mc_verdicts_failure_names(void);
/* Every verdict as a JSON array of {"name", "failure", "junit", "meaning"},
   in the list's order (`movconf help verdicts --json`). */
bool mc_verdicts_write_json(FILE *out);

/* How a case's verdict compares with an --expect expectation. */
typedef enum mc_expect_state {
  MC_EXPECT_NONE,            /* no expectation names the case */
  MC_EXPECT_MET,             /* it failed as expected: not a problem */
  MC_EXPECT_UNEXPECTED_PASS, /* expected to fail, but passed: a problem */
  MC_EXPECT_OTHER_FAILURE,   /* failed, but not as expected: a problem */
  MC_EXPECT_NOT_RUN          /* unsupported: neither */
} mc_expect_state;

/* Whether the implementation rejected the case's input, and if so whether
   the rejection named one of movconf's errors (then compared with the
   expected one) or not (then any rejection of an invalid input passes, so
   its reason is not verified). */
typedef enum mc_rejection {
  MC_REJECTION_NONE,   /* not rejected: an output, unsupported, crash, timeout */
  MC_REJECTION_NAMED,  /* rejected with an error name */
  MC_REJECTION_UNNAMED /* rejected without one */
} mc_rejection;

typedef struct mc_case_result {
  char *id;
  char *file;
  int op;        /* mc_op */
  int data_type; /* mc_type of the data input */
  mc_verdict verdict;
  char *detail; /* NULL on pass */
  mc_expect_state expect;
  mc_verdict expected_verdict; /* when expect != MC_EXPECT_NONE */
  char *expect_reason;         /* when expect != MC_EXPECT_NONE */
  mc_rejection rejection;
  /* What the case is, for failure lines, grouping and --summary-by: */
  char *inputs;            /* "data u8 [9,2,2,2], block_shape [1,1,2,2] (i64 [4])" */
  char *attributes;        /* "block_size 2, mode \"blocks_first\"", or "" */
  char mode[32];           /* the op's string attribute (mode, auto_pad), "(absent)", or "-" */
  int rank;                /* of the data input */
  int64_t elements;        /* of the data input */
  int64_t output_elements; /* of the expected output; -1 when the case expects an error */
  bool index_filled;       /* the data input is index-filled: provenance is shown */
  char *clauses;           /* "D2S-S1, D2S-S2": the clauses the case cites */
  char *origin;            /* the case file's origin of the case */
  char *picture;           /* wrong-output: mc_judge_picture's JSON, or NULL */
  double seconds;          /* the implementation's time on the case, re-runs included */
  int position;            /* in a shard's report: its place in the whole selection */
} mc_case_result;

/* True when the case makes the run fail: an unexpected failure or an
   unexpected pass. */
bool mc_case_result_is_problem(const mc_case_result *r);

/* An isolated implementation's process crashed during a case that passes
   when run alone in a fresh process: an earlier case broke the process. */
typedef struct mc_process_fault {
  char *observed_in; /* the case that was running */
  char *culprit;     /* the earlier case found to cause it, or NULL */
  char *detail;      /* what happened, the window of suspects */
} mc_process_fault;

/* Everything a run produced, for the reports. */
typedef struct mc_run_report {
  const char *impl;
  mc_case_result *results;
  int count, capacity;
  char **load_errors; /* files that could not be loaded */
  int n_load_errors;
  mc_process_fault *process_faults;
  int n_process_faults;
  bool with_expectations; /* --expect was given */
  /* A case that took at least this long is marked slow (0: none is). */
  double slow_seconds;
  double timeout_seconds; /* the run's --timeout, said beside slow cases (0: none) */
  /* Why the run stopped before its last selected case, e.g. "stopped early:
     3 failures reached --max-failures 3; 41 selected cases did not run"
     (heap); NULL when it ran to the end. */
  char *stopped_early;
  const struct mc_shard_info *shard; /* run --shard: which part; NULL for a whole run */
} mc_run_report;

/* A run of one shard of a selection (run --shard K/N): recorded in the
   JSON report so that report merge can join the shards of one selection. */
#define MC_MAX_SHARDS 1024 /* N of run --shard K/N */
typedef struct mc_shard_info {
  int index, count;   /* K and N, 1 <= K <= N */
  char selection[17]; /* hex hash of the selected case ids, in order, and N */
  int selected;       /* cases in the whole selection */
  double cost;        /* this shard's expected cost (element counts) */
} mc_shard_info;

/* Writes text to path, whole or not at all (mc_output); prints why and
   returns false when it cannot. */
bool mc_write_text_file(const char *path, const char *text);

/* Text made safe for reports and terminals (mc_safe_text and the standard
   streams): common/safe_text.h, included above for every user of the harness. */

/* The table (and, with list_failures, each failing case and the slow ones) on out. */
void mc_report_print_table(const mc_run_report *r, bool list_failures, FILE *out);
/* Why the run stopped early (after the table), when it did. */
void mc_report_print_stopped(const mc_run_report *r, FILE *out);
/* The reports, written to an open stream; false when writing failed. */
bool mc_report_write_json(const mc_run_report *r, FILE *out);
struct cJSON;
/* A case of a report mc_report_write_json wrote (an item of its "cases"),
   read back into c as the run had it, but for what the report leaves out
   (mode "-", no rank, sizes or provenance); false, with c still to be
   freed, when item is not one. */
bool mc_case_result_from_json(const struct cJSON *item, mc_case_result *c);
/* A process fault of such a report (an item of its "process_faults"). */
mc_process_fault mc_process_fault_from_json(const struct cJSON *item);
bool mc_report_write_junit(const mc_run_report *r, FILE *out);
/* Number of process faults without a culprit case: each fails the run. */
int mc_report_unattributed_faults(const mc_run_report *r);
/* Number of cases that make the run fail (mc_case_result_is_problem). */
int mc_report_problems(const mc_run_report *r);

/* --summary-by: what a breakdown of the results groups cases by. */
typedef enum mc_summary_key {
  MC_SUMMARY_RANK, /* rank of the data input */
  MC_SUMMARY_TYPE, /* element type of the data input */
  MC_SUMMARY_MODE, /* the op's string attribute (mode, auto_pad) */
  MC_SUMMARY_FILE, /* case file */
  MC_SUMMARY_SIZE, /* the expected output's element count, by power of 2 */
  MC_SUMMARY_KEY_COUNT
} mc_summary_key;

/* "rank", "type", "mode", "file" or "size"; false for any other name. */
bool mc_summary_key_from_name(const char *name, mc_summary_key *key);
const char *mc_summary_key_name(mc_summary_key key);
/* Where failures cluster: one row per value of key with its cases, passes,
   failed (cases that make the run fail) and xfail (expected failures),
   most failed first, then by value. */
void mc_report_print_breakdown(const mc_run_report *r, mc_summary_key key, FILE *out);

/* ---- reports read back (src/harness/report/merge.c, html.c) ---- */

/* movconf report merge: the JSON reports of the shards of one run (run
   --shard K/N, n of them, at paths) joined into *r, the report of the
   whole run, cases in its order. False, with why on stderr, when a report
   is not a shard's, the shards are of different selections or
   implementations, one is given twice or missing, or two ran one case.
   Either way r is freed with mc_run_report_free and r->impl (heap) with free. */
bool mc_report_merge(char *const *paths, int n, mc_run_report *r);

struct mc_text;
/* movconf report html: the run and bench JSON reports at paths as one
   self-contained page appended to page (inline CSS, no script, nothing
   fetched; spec/runner.md). A report is untrusted (CI artefacts anyone
   can craft): every text of it goes through mc_html_put_report_text, a
   picture cell's state becomes a class only when it is a known one, the
   page's Content-Security-Policy forbids script and fetches, and pictures
   are capped on read (at most MC_PICTURE_EDGE x MC_PICTURE_EDGE cells,
   each text cut at 256 bytes; a picture of more than 64 KiB of JSON left
   out). False, with why on stderr, when a report cannot be read or is
   neither a run nor a bench report. */
bool mc_report_html(char *const *paths, int n, struct mc_text *page);
/* Text read from a report, on the page: made safe (mc_safe_report_text:
   controls and bidirectional overrides escaped), then its markup
   characters & < > " ' as entities, so that it can neither open an element
   nor leave an attribute's quotes. */
void mc_html_put_report_text(struct mc_text *t, const char *text);

/* ---- judging one case ---- */

/* The verdict, and in *detail (heap, NULL on pass) what went wrong: the
   first differing element with its multi-index and bits, and - when the
   data input was index-filled so that every element is distinct - the data
   elements the wrong and the expected value come from. */
mc_verdict mc_judge(const mc_case *c, const mc_impl *impl, const mc_impl_result *r, char **detail);

/* "; the data input is index-filled: got came from data[..], expected
   from data[..]" for an output element with bits got where want was
   expected, when the case's data input is index-filled; else "" (heap).
   got_fill: the element was never written (mc_unwritten_element), said so
   whatever data element has those bits. */
char *mc_judge_provenance(const mc_case *c, uint64_t want, uint64_t got, bool got_fill);

/* The picture of a wrong output, for the JSON report (spec/runner.md):
   the expected and the returned elements on the 2-D slice (the last two
   axes) of the first difference, at most MC_PICTURE_EDGE x MC_PICTURE_EDGE
   elements, each returned one classed ok, wrong, unwritten (it held
   movconf's fill in both calls) or moved (another data element's value:
   from names it); of r->output, or of r->refilled when only the second
   call's output differs (mc_differing_output). A JSON
   text (heap), or NULL when the output cannot be compared element by
   element (another shape or type, a digest the oracle does not match). */
#define MC_PICTURE_EDGE 16
char *mc_judge_picture(const mc_case *c, const mc_impl_result *r);

/* How got differs from want, bit for bit: the one comparison of tensors
   (the judge's, the fuzz targets'). The bits are compared only when type,
   shape and byte size agree and both tensors hold their data (an output
   known by its digest alone does not). */
typedef struct mc_comparison {
  bool same_type;
  bool same_shape;       /* rank and every dimension */
  bool same_bytes;       /* every byte, the unused trailing bits of a packed type too */
  int64_t first_element; /* the first element whose bits differ; -1: none, or not compared */
} mc_comparison;
mc_comparison mc_compare_tensors(const mc_tensor *want, const mc_tensor *got);

/* Whether element i of an output of type t with these bits is the byte
   fill spread over it, as movconf leaves the buffer. */
bool mc_holds_fill(mc_type t, int64_t i, uint64_t bits, uint8_t fill);
/* Whether element i of r's outputs was never written: it holds
   MC_OUTPUT_FILL in r->output and MC_OUTPUT_SECOND_FILL in r->refilled.
   False when no second call was made (r NULL, or refilled without data). */
bool mc_unwritten_element(const mc_impl_result *r, int64_t i);
/* The output of r that differs from want: r->output, or r->refilled when
   r->output has want's bits and the second call's output does not. */
const mc_tensor *mc_differing_output(const mc_tensor *want, const mc_impl_result *r);

/* How many elements differ (report/show.c, the fuzz engine's causes). */
typedef struct mc_differences {
  int64_t differing; /* elements of got whose bits are not want's */
  int64_t unwritten; /* of those, the ones never written (mc_unwritten_element) */
} mc_differences;
/* Compares got (one of fills' outputs, or another tensor) with want (same
   type, want's element count) element by element; unwritten is counted
   from fills, the call's outputs under both fills (NULL: none counted). */
mc_differences mc_count_differences(const mc_tensor *want, const mc_tensor *got,
                                    const mc_impl_result *fills);

/* The name of a judged failure that fuzzing found, before what a shrinker
   may still change: "<op slug>-<verdict>[-expected-<error>]", the error
   the oracle expects named unless the verdict is wrong-output. Values never
   appear, so that one bug gives one name (verdict/finding.c). */
void mc_finding_key(mc_op op, mc_verdict v, mc_status expected, char *key, size_t size);
/* The verdict of an answer (status got, and its output out when got is
   MC_OK) beside the reference's (expected, want), by the judge's rules:
   an accepted invalid input is missed-rejection, a rejected valid one
   wrong-rejection, another error wrong-error; another rank or dimensions
   wrong-shape, another type or other bits wrong-output. out may be NULL
   (the statuses alone). For the fuzz targets, which hold both answers
   rather than a case (verdict/finding.c). */
mc_verdict mc_verdict_of_answers(mc_status expected, const mc_tensor *want, mc_status got,
                                 const mc_tensor *out);

/* How the implementation's answer rejected the input, if it did. */
mc_rejection mc_judge_rejection(const mc_impl *impl, const mc_impl_result *r);

/* ---- expectations (--expect FILE) ---- */

typedef struct mc_expectation {
  char *case_glob; /* fnmatch pattern over case ids */
  mc_verdict verdict;
  char *reason;
  int matched; /* cases it matched in this run */
} mc_expectation;

typedef struct mc_expectations {
  mc_expectation *items;
  int count;
} mc_expectations;

/* Largest expectations file read. */
#define MC_EXPECT_MAX_FILE_BYTES ((size_t)16 << 20)

/* Loads and checks a file; false with "PATH: what is wrong" in err. */
bool mc_expectations_load(const char *path, mc_expectations *out, char *err, size_t errlen);
/* The first expectation whose glob matches id, or NULL. */
mc_expectation *mc_expectations_match(mc_expectations *e, const char *id);
void mc_expectations_free(mc_expectations *e);

/* How --write-expect begins each reason, for a person to replace with why. */
#define MC_EXPECT_PLACEHOLDER "TODO: why it fails"
/* Whether x's reason is still that placeholder: nobody explained it. */
bool mc_expectation_unexplained(const mc_expectation *x);

/* Records how r's verdict compares with expectation x (NULL: none). */
void mc_expect_apply(mc_case_result *r, const mc_expectation *x);

/* --write-expect FILE: writes an expectations file from the run's failures,
   one entry per failing case, or with by_group one per generator group
   whose cases that ran all failed with the same verdict; each reason a
   placeholder to fill in. Returns the entries written, -1 when the file
   cannot be written (said on stderr). */
int mc_expectations_write(const mc_run_report *r, const char *path, bool by_group);

/* ---- running cases ---- */

/* Which cases of a file run. */
#define MC_CASE_GLOBS_MAX 64
typedef struct mc_case_filter {
  int op;   /* mc_op, or MC_OP_INVALID for all */
  int type; /* mc_type of the data input, or MC_TYPE_INVALID for all */
  /* fnmatch patterns over case ids (--case, given up to MC_CASE_GLOBS_MAX
     times): a case matching any of them runs; none given: all. */
  const char *case_globs[MC_CASE_GLOBS_MAX];
  int n_case_globs;
  /* A further choice (run --shard), or NULL. */
  bool (*keep)(void *ctx, const mc_case *c);
  void *keep_ctx;
} mc_case_filter;

bool mc_case_selected(const mc_case *c, const mc_case_filter *f);

/* One run: an implementation, what runs, where results go. */
typedef struct mc_runner {
  mc_impl *impl;
  mc_case_filter filter;
  mc_expectations *expectations; /* NULL: none */
  mc_run_report *report;
  bool fail_fast; /* stop at the first case that makes the run fail */
  /* A rejection of an invalid input passes only when it names the expected
     error: one without a name becomes wrong-error. */
  bool require_named_errors;
  /* Stop limits, checked before each case (0: none); the report's
     stopped_early says which one stopped the run. */
  int max_failures;  /* cases that made the run fail */
  int max_timeouts;  /* cases with the verdict timeout */
  double time_limit; /* seconds from the first mc_run_file (a case under way is
                        bounded by the implementation's own timeout) */
  /* Called after each case, e.g. for progress; may be NULL. */
  void (*observe)(void *ctx, const mc_run_report *r, const mc_case_result *latest);
  /* Called before each case runs, e.g. to name it in a progress line; may be NULL. */
  void (*starting)(void *ctx, const mc_case *c, const char *file);
  void *observer_ctx;
  /* Called when an earlier case's result (report index) became a crash
     after the fact (a late write, a culprit); may be NULL. */
  void (*charged)(void *ctx, int index);
  void *charged_ctx;
  /* Kept by the runner (start them zeroed): */
  int *result_of_call; /* report index of each call's case (-1: a re-run to find a culprit) */
  size_t calls_cap;
  int *window; /* report indices of the cases the current process served */
  int n_window, window_cap;
  mc_case_file *file; /* the file being run, so re-runs need not load it again */
  const char *file_path;
  double started;        /* mc_now_seconds() at the first mc_run_file */
  int n_problems;        /* cases that make the run fail, late charges included */
  int n_timeouts;        /* cases with the verdict timeout */
  long not_run;          /* selected cases left out once the run stopped */
  mc_case_ids *case_ids; /* the ids of the files loaded so far, with their file */
} mc_runner;

/* The case files of a run, each loaded once (large fills deferred:
   mc_case_materialize) before anything else reads them: a shard plan, the
   runner, and the workers of --jobs, forked after it, share the parse. */
typedef struct mc_selection_file {
  const char *path;
  mc_case_file file; /* when it loaded */
  char *error;       /* why it did not load (heap), or NULL */
} mc_selection_file;

typedef struct mc_selection {
  mc_selection_file *files;
  int count;
} mc_selection;

/* Loads the case files at paths[0 .. n-1] (paths must outlive s). */
void mc_selection_load(char *const *paths, int n, mc_selection *s);
void mc_selection_free(mc_selection *s);

/* run --jobs N: N worker processes, each opening the implementation and
   running the cases it is given, one at a time, from one queue; the
   verdicts and report are those of one job (src/harness/run/runner_jobs.c). */
#define MC_MAX_JOBS 64
typedef struct mc_run_jobs mc_run_jobs;
/* Forks the workers once the runner's filter and expectations are set and
   sel is loaded (they share it). NULL, with why in err, when a worker's
   implementation cannot start (every worker is then ended). */
mc_run_jobs *mc_run_jobs_start(mc_runner *run, mc_selection *sel, int jobs, const char *spec,
                               const mc_impl_options *options, char *err, size_t errlen);
/* The implementation's name, as the first worker opened it (for reports;
   valid until mc_run_jobs_free). */
const char *mc_run_jobs_impl_name(const mc_run_jobs *jobs);
/* As mc_run_selected_file, the cases given to the workers. */
bool mc_run_jobs_file(mc_run_jobs *jobs, int file);
/* As mc_runner_finish: every case given out and each worker's late faults
   taken, the workers ended, the report's cases in run order. */
void mc_run_jobs_finish(mc_run_jobs *jobs);
void mc_run_jobs_free(mc_run_jobs *jobs);

/* Runs one case, judges it, applies its expectation and appends the result
   to the report; returns that result (valid until the next case). */
const mc_case_result *mc_run_case(mc_runner *run, const mc_case *c, const char *file);
/* Loads a case file and runs its selected cases; a file that does not load,
   or that check-cases would refuse, is recorded in the report. False when
   the run has stopped (fail_fast or a stop limit); once stopped, it only
   counts the file's selected cases as not run, so call it for every file
   to have them counted. */
bool mc_run_file(mc_runner *run, const char *path);
/* As mc_run_file, for a file of a selection (its large fills are made
   for the run of the file, then let go). */
bool mc_run_selected_file(mc_runner *run, mc_selection_file *f);
/* What check-cases finds wrong with f, including ids an earlier file of the
   run had (src/harness/run/file_check.c): NULL when nothing, else one line. */
char *mc_runner_file_problems(mc_runner *run, const mc_case_file *f);
/* After the last case: a fault that comes late is charged to its case, and
   the report's stopped_early gets the count of cases that did not run. */
void mc_runner_finish(mc_runner *run);
void mc_runner_free(mc_runner *run);
void mc_run_report_free(mc_run_report *r);

/* ---- showing one case (movconf show) ---- */

/* Prints the case for a person: origin, clauses, attributes, inputs and the
   expected result (abbreviated unless full), and, when impl is not NULL,
   what impl returned, its verdict and every differing element beside the
   expected one with its provenance. Returns impl's verdict (pass without
   an implementation). */
mc_verdict mc_show_case(FILE *out, const mc_case *c, const char *file, mc_impl *impl, bool full);
/* Shows (as mc_show_case) every case of files whose id is id or matches
   it as a glob, a blank line between two; returns how many, and adds to
   *failed how many did not pass on impl. Files that do not load are
   passed over. */
int mc_show_matching(FILE *out, const char *id, const mc_path_list *files, mc_impl *impl, bool full,
                     int *failed);

#endif
