/* Writing cases in the case-file format (spec/case-format.md) as readable
   JSON text: integer tensors as values, float tensors as hex, generated
   data as its fill, large expected outputs as a sha256. Used by
   fuzz_to_case (fuzz findings) and movconf gen (generated vectors). The
   text depends only on the case: integers only, no floats, no locale. */
#ifndef MOVCONF_CASES_CASE_WRITER_H
#define MOVCONF_CASES_CASE_WRITER_H

#include <stdbool.h>
#include <stddef.h>

#include "cases/cases.h"
#include "common/text.h"
#include "movconf/ops.h"

#define MC_CASE_OUT_MAX_CLAUSES 8

/* One case to write. */
typedef struct mc_case_out {
  const char *id;
  const char *origin;
  const char *clauses[MC_CASE_OUT_MAX_CLAUSES];
  int n_clauses;
  const mc_request *req;
  /* How to give the data input: MC_PAYLOAD_FILL_COUNTER, _FILL_PRNG or
     _FILL_IOTA write that fill with data_fill_param (the start in two's
     complement, or the seed), and must describe the data's bytes; any
     other kind writes the bytes themselves (values or hex). */
  mc_payload_kind data_fill;
  uint64_t data_fill_param;
  bool expect_error;
  mc_status error;         /* when expect_error */
  const mc_tensor *output; /* when !expect_error */
  bool has_cap;            /* the case has its own output cap: */
  size_t max_output_bytes; /* this one */
  /* Expected outputs of more elements than max_values are written as hex,
     of more bytes than max_inline_bytes as a sha256; 0 takes the defaults
     (4096 elements, 64 KiB). */
  int64_t max_values;
  size_t max_inline_bytes;
} mc_case_out;

/* Appends the case object, indented for a file's "cases" array. */
void mc_write_case(mc_text *t, const mc_case_out *c);

/* The head of a case file of op with the given description, up to the
   opening of "cases". */
void mc_write_file_head(mc_text *t, mc_op op, const char *description);

#endif
