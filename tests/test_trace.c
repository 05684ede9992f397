/* The traceability counts of src/cases/trace.c on a case file whose
   citations, types, ranks and errors are known by reading it. */
#include <stdlib.h>

#include "cases/trace.h"
#include "check.h"
#include "common/clauses.h"

/* Three SpaceToDepth cases: an f32 rank-4 output case, a u8 rank-3 output
   case, an f32 rank-4 case expecting spatial_not_divisible; the last also
   cites an id that is no clause. */
static const char case_text[] =
    "{\"format\": \"movconf-cases/1\", \"op\": \"SpaceToDepth-1\", \"cases\": ["
    "{\"id\": \"s2d/t/a\", \"origin\": \"by hand\", \"clauses\": [\"S2D-S1\", \"MC-S1\"],"
    " \"inputs\": {\"data\": {\"type\": \"f32\", \"shape\": [1, 1, 1, 1], \"values\": [1]}},"
    " \"attributes\": {\"block_size\": 1, \"mode\": \"blocks_first\"},"
    " \"expect\": {\"output\": {\"type\": \"f32\", \"shape\": [1, 1, 1, 1], \"values\": [1]}}},"
    "{\"id\": \"s2d/t/b\", \"origin\": \"by hand\", \"clauses\": [\"S2D-S1\"],"
    " \"inputs\": {\"data\": {\"type\": \"u8\", \"shape\": [1, 1, 2], \"values\": [1, 2]}},"
    " \"attributes\": {\"block_size\": 1, \"mode\": \"blocks_first\"},"
    " \"expect\": {\"output\": {\"type\": \"u8\", \"shape\": [1, 1, 2], \"values\": [1, 2]}}},"
    "{\"id\": \"s2d/t/c\", \"origin\": \"by hand\", \"clauses\": [\"S2D-V5\", \"S2D-X9\"],"
    " \"inputs\": {\"data\": {\"type\": \"f32\", \"shape\": [1, 1, 3, 2], \"fill\": {\"iota\": "
    "0}}},"
    " \"attributes\": {\"block_size\": 2, \"mode\": \"blocks_first\"},"
    " \"expect\": {\"error\": \"spatial_not_divisible\"}}]}";

static const mc_clause_use *use_of(const mc_trace *t, const char *id) {
  int i = mc_trace_clause_index(t, id);
  CHECK(i >= 0);
  return i >= 0 ? &t->uses[i] : NULL;
}

static void check_counts(const mc_trace *t) {
  CHECK_EQ_I64(t->n_cases, 3);
  CHECK_EQ_I64(t->unknown_citations, 1);
  const mc_clause_use *s1 = use_of(t, "S2D-S1");
  CHECK_EQ_I64(s1->cases, 2);
  CHECK_EQ_I64(s1->invalid_cases, 0);
  CHECK_EQ_I64(s1->types, (1u << MC_F32) | (1u << MC_U8));
  CHECK_EQ_I64(s1->ranks, (1u << 4) | (1u << 3));
  CHECK_EQ_I64(s1->errors, 0);
  const mc_clause_use *ms1 = use_of(t, "MC-S1");
  CHECK_EQ_I64(ms1->cases, 1);
  CHECK_EQ_I64(ms1->types, 1u << MC_F32);
  const mc_clause_use *v5 = use_of(t, "S2D-V5");
  CHECK_EQ_I64(v5->cases, 1);
  CHECK_EQ_I64(v5->invalid_cases, 1);
  CHECK_EQ_I64(v5->ranks, 1u << 4);
  CHECK_EQ_I64(v5->errors, UINT64_C(1) << MC_E_SPATIAL_NOT_DIVISIBLE);
  const mc_clause_use *v1 = use_of(t, "S2D-V1");
  CHECK_EQ_I64(v1->cases, 0);
  CHECK_EQ_I64(v1->types, 0);
}

int main(void) {
  mc_trace t;
  CHECK(mc_trace_init(&t));
  int n = 0;
  while (mc_clause_table()[n].id)
    n++;
  CHECK_EQ_I64(t.n_clauses, n);
  CHECK_EQ_I64(mc_trace_clause_index(&t, "B2S-V9") >= 0, 1);
  CHECK_EQ_I64(mc_trace_clause_index(&t, "B2S-V99"), -1);

  mc_case_file f;
  char err[512] = "";
  bool parsed = mc_case_file_parse(case_text, sizeof case_text - 1, "trace", &f, err, sizeof err);
  CHECK(parsed);
  if (!parsed) {
    fprintf(stderr, "  %s\n", err);
    return check_report();
  }
  mc_trace_add_file(&t, &f);
  check_counts(&t);
  /* A second pass counts every case again. */
  mc_trace_add_file(&t, &f);
  CHECK_EQ_I64(t.n_cases, 6);
  CHECK_EQ_I64(use_of(&t, "S2D-S1")->cases, 4);
  mc_case_file_free(&f);
  mc_trace_free(&t);
  return check_report();
}
