/* Traceability: which cases cite which clause of spec/ (the registry of
   src/common/clauses.c), with the data input's element types and ranks and,
   for cases expecting an error, the error names. `movconf clauses` prints
   it; tests/test_traceability.c checks the conformance suite with it. */
#ifndef MOVCONF_CASES_TRACE_H
#define MOVCONF_CASES_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "cases/cases.h"

/* What the cases citing one clause have in common. */
typedef struct mc_clause_use {
  int cases;         /* cases citing the clause */
  int invalid_cases; /* of those, the cases expecting an error */
  uint32_t types;    /* bit t: a citing case's data input has mc_type t */
  uint64_t ranks;    /* bit r: a citing case's data input has rank r */
  uint64_t errors;   /* bit s: a citing case expects mc_status s */
} mc_clause_use;

typedef struct mc_trace {
  const struct mc_clause *table; /* mc_clause_table() */
  int n_clauses;
  mc_clause_use *uses; /* n_clauses entries, in table order */
  int n_cases;
  int unknown_citations; /* clause ids not in the registry */
} mc_trace;

/* False when out of memory. */
bool mc_trace_init(mc_trace *t);
/* Counts every case of f. */
void mc_trace_add_file(mc_trace *t, const mc_case_file *f);
/* Loads each of files and adds it (only op's files when op >= 0; -1: all);
   each that does not load is said on errors. Returns how many did
   not load. */
int mc_trace_add_files(mc_trace *t, const mc_path_list *files, int op, FILE *errors);
void mc_trace_free(mc_trace *t);

/* The registry index of id, or -1. */
int mc_trace_clause_index(const mc_trace *t, const char *id);

/* ---- trace_report.c: the matrix (op_filter: an mc_op, or -1 for all; with
   an op, only its clauses must be cited and the common ones are shown) ---- */

/* The operation whose clauses carry id's prefix ("B2S-V9"), or -1 for the
   common MC-* clauses. */
int mc_clause_op(const char *id);
void mc_trace_print_matrix(FILE *out, const mc_trace *t, int op_filter);
/* Lists the required clauses no case cites; returns how many. */
int mc_trace_print_uncited(FILE *out, const mc_trace *t, int op_filter);
bool mc_trace_write_json(const mc_trace *t, int op_filter, int files, int load_errors,
                         const char *path);

#endif
