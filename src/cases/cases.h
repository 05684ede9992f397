/* Case files (format "movconf-cases/1", spec/case-format.md): loading,
   payload forms and the consistency checks of `movconf check-cases`. */
#ifndef MOVCONF_CASES_H
#define MOVCONF_CASES_H

#include <stdio.h>

#include "movconf/ops.h"

/* Loader limits: nothing a case file says can make the suite allocate
   beyond these. */
#define MC_CASE_MAX_FILE_BYTES ((size_t)64 << 20)
#define MC_CASE_MAX_TENSOR_BYTES ((size_t)256 << 20)
#define MC_CASE_MAX_CASES 100000
/* All tensors of one file together (expected outputs given as a sha256
   excluded): fill payloads are tiny on disk, so the per-tensor cap alone
   would not bound a file with many cases. */
#define MC_CASE_MAX_FILE_TENSOR_BYTES ((size_t)1 << 30)

/* How an input's payload was given; diagnosis uses it to say which input
   index a wrong output element came from. */
typedef enum mc_payload_kind {
  MC_PAYLOAD_VALUES,
  MC_PAYLOAD_HEX,
  MC_PAYLOAD_BASE64,
  MC_PAYLOAD_FILL_IOTA,
  MC_PAYLOAD_FILL_COUNTER,
  MC_PAYLOAD_FILL_PRNG,
  MC_PAYLOAD_SHA256 /* expected outputs only: data is NULL */
} mc_payload_kind;

typedef struct mc_case_tensor {
  mc_tensor tensor; /* data owned; NULL for MC_PAYLOAD_SHA256 */
  mc_payload_kind kind;
  int64_t fill_start; /* iota or counter start; prng: the seed's bits */
  uint8_t sha256[32]; /* MC_PAYLOAD_SHA256 only */
} mc_case_tensor;

typedef struct mc_case {
  char *id;
  char *origin; /* never NULL after a successful load */
  char **clauses;
  int n_clauses;
  mc_op op;
  int n_inputs;
  mc_case_tensor inputs[MC_MAX_INPUTS]; /* in mc_op_input_name order */
  mc_attrs attrs;                       /* strings owned by the case */
  bool expect_error;
  mc_status expected_error; /* when expect_error */
  mc_case_tensor expected;  /* when !expect_error */
  /* The output cap (clause MC-L4) the expectation depends on, which every
     run of the case applies in place of the run's own, when has_cap. */
  bool has_cap;
  size_t max_output_bytes;
} mc_case;

typedef struct mc_case_file {
  char *path;
  mc_op op;
  mc_case *cases;
  int n_cases;
} mc_case_file;

/* Parses text (len bytes, need not be NUL-terminated). name is used in
   messages. On failure returns false, frees everything, and writes
   "NAME: case 'ID': what is wrong" (or without the case part) to err. */
bool mc_case_file_parse(const char *text, size_t len, const char *name, mc_case_file *out,
                        char *err, size_t errlen);
/* Reads and parses a file (at most MC_CASE_MAX_FILE_BYTES). */
bool mc_case_file_load(const char *path, mc_case_file *out, char *err, size_t errlen);
void mc_case_file_free(mc_case_file *f);
/* Like mc_case_file_load, with the same checks and limits, but a counter or
   prng fill above MC_CASE_DEFER_FILL_BYTES is left unmade (its data NULL)
   until mc_case_materialize: for a reader that needs every case's id,
   shapes and side inputs but runs few of them (run --jobs). */
#define MC_CASE_DEFER_FILL_BYTES ((size_t)64 << 10)
bool mc_case_file_load_deferred(const char *path, mc_case_file *out, char *err, size_t errlen);
/* Makes the fills of c that a deferred load left unmade; false when memory
   runs out. */
bool mc_case_materialize(mc_case *c);
/* Frees the fills of f's cases above MC_CASE_DEFER_FILL_BYTES (those
   mc_case_materialize makes), so that a run over many files loaded at once
   holds the large fills of one file, or one case, at a time. */
void mc_case_file_release_fills(mc_case_file *f);

/* Descriptions of a case for reports (src/cases/describe.c). */
/* "u8 [9,2,2,2]" into buf. */
void mc_shape_text(const mc_tensor *t, char *buf, size_t n);
/* "data u8 [9,2,2,2], block_shape [1,1,2,2] (i64 [4]), ...": the data
   input's type and shape, the side inputs' values (the first 16), type and
   shape (heap). */
char *mc_case_inputs_text(const mc_case *c);
/* One element's value for people: true/false, signed or unsigned integers,
   floats as mc_float_bits_text writes them. */
void mc_element_text(mc_type t, uint64_t bits, char *buf, size_t n);
/* "block_size 2, mode \"blocks_first\"", absent ones as (absent); "" for
   an operation without attributes (heap). */
char *mc_case_attrs_text(const mc_case *c);
/* The value of the operation's string attribute (mode, auto_pad),
   "(absent)", or "-" when it has none. */
const char *mc_case_mode(const mc_case *c);
/* True when every element has its own bit pattern because it was made from
   its index (iota; a counter that does not wrap), so that an output
   element's value says which input element it came from. */
bool mc_case_tensor_index_filled(const mc_case_tensor *in);

/* Builds the request for a case: pointers into the case's tensors. */
mc_request mc_request_of_case(const mc_case *c);

/* Checks beyond parsing, for `movconf check-cases` and `movconf run`:
   unique ids, clause ids that exist (mc_clause_find), the case's op prefix.
   Writes one message per problem through report; returns the number of
   problems. */
int mc_case_file_check(const mc_case_file *f, void (*report)(void *ctx, const char *msg),
                       void *ctx);

/* Case ids across the files of one check or run: the file each id was first
   seen in. mc_case_ids_check_file reports each case of f whose id an earlier
   file has ("id already used by a case of FILE"), then records f's ids;
   returns the number of problems. NULL from _new: out of memory. */
typedef struct mc_case_ids mc_case_ids;
mc_case_ids *mc_case_ids_new(void);
void mc_case_ids_free(mc_case_ids *ids);
int mc_case_ids_check_file(mc_case_ids *ids, const mc_case_file *f,
                           void (*report)(void *ctx, const char *msg), void *ctx);

/* A sorted list of case-file paths. */
typedef struct mc_path_list {
  char **paths;
  int count;
  int capacity;
} mc_path_list;

/* Appends every *.json file under each of the n paths (a file is taken as
   given, a directory is walked recursively, each directory once however
   many links lead to it, hidden entries skipped), then sorts the whole list
   so that runs are reproducible, keeping one of equal paths. Returns false
   with the first problem in err when a path does not exist, a directory
   cannot be read, or a case file is not a regular file (a FIFO would block
   the loader); the other paths are still added. */
bool mc_find_case_files(const char *const *paths, int n, mc_path_list *out, char *err,
                        size_t errlen);
void mc_path_list_free(mc_path_list *list);

/* movconf check-cases over files: each that does not load, then each
   problem of mc_case_file_check and mc_case_ids_check_file, one message
   through report; *n_cases gets the cases loaded added. Returns the number
   of problems, -1 when out of memory before the first file. */
int mc_case_files_check(const mc_path_list *files, void (*report)(void *ctx, const char *msg),
                        void *ctx, int *n_cases);

/* Reads the file at path into a malloc'ed buffer of *len bytes, reading at
   most limit + 1 bytes (so *len > limit tells an oversized file). NULL with
   an errno value in *error when it cannot be opened or read (EINVAL: not
   a regular file, which could block a reader forever). */
char *mc_read_file_bounded(const char *path, size_t limit, size_t *len, int *error);
/* mkdir -p. */
bool mc_make_dirs(const char *path);
/* Every file movconf writes is written whole or not at all: to a temporary
   file beside it (PATH.PID-N.tmp, so that the rename is atomic), which
   replaces PATH (its mode kept; a symbolic link's target) only when
   complete. A reader never sees half a file, two writers never mix, an
   input read earlier is not emptied by the start of a run. A path that
   exists and is not a regular file (a FIFO, /dev/stdout) is written in
   place. An existing file that is not writable is refused. */
typedef struct mc_output {
  FILE *f;       /* where the text goes */
  char *target;  /* the file it will replace */
  char *tmp;     /* NULL: written in place; else private (0600) until complete */
  unsigned mode; /* the target's permissions, given to tmp before the rename */
} mc_output;
/* False, with errno, when the file cannot be made (nothing left behind). */
bool mc_output_open(mc_output *o, const char *path);
/* Closes and renames the temporary file over the target; false when a
   write failed (the target then left as it was). */
bool mc_output_commit(mc_output *o);
/* Closes and removes the temporary file: the target is left as it was. */
void mc_output_discard(mc_output *o);
/* Removes the temporary files of the outputs being written (from a
   handler of a signal that ends movconf: async-signal-safe). */
void mc_output_remove_temporaries(void);
/* Whether path could be written, checked early: a temporary file made and
   removed. False with errno. */
bool mc_output_check(const char *path);
/* Through mc_output: data, whole or not at all. */
bool mc_write_file_atomic(const char *path, const void *data, size_t size);
/* Whether two paths name one file: the same device and inode when either
   exists, else the same path once symbolic links are resolved. */
bool mc_same_file(const char *a, const char *b);

/* SHA-256 of len bytes. */
void mc_sha256(const void *data, size_t len, uint8_t digest[32]);

#endif
