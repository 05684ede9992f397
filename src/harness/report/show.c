/* Showing one case to a person (movconf show): what goes in, what the
   specification expects, and - with an implementation - what it returned,
   with the differing elements side by side and where each came from. */
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/json.h"
#include "common/clauses.h"
#include "harness/harness.h"
#include "harness/internal.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"

/* Rows and elements per row shown of a tensor without --full. */
#define SHORT_ROWS 8
#define SHORT_ROW_ELEMENTS 16
#define SHORT_DIFFERENCES 20

static void index_text(int rank, const int64_t *shape, int64_t flat, bool last_as_colon, char *buf,
                       size_t n) {
  int64_t idx[MC_TENSOR_MAX_RANK];
  for (int d = rank - 1; d >= 0; d--) {
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  size_t used = (size_t)snprintf(buf, n, "[");
  for (int d = 0; d < rank && used < n; d++) {
    const char *sep = d ? "," : "";
    if (last_as_colon && d == rank - 1)
      used += (size_t)snprintf(buf + used, n - used, "%s:", sep);
    else
      used += (size_t)snprintf(buf + used, n - used, "%s%" PRId64, sep, idx[d]);
  }
  if (used < n)
    snprintf(buf + used, n - used, "]");
}

/* The elements row by row (a row is the last axis), abbreviated unless full. */
static void print_elements(FILE *out, const mc_tensor *t, bool full) {
  int64_t count = mc_tensor_elements(t);
  int64_t row = t->rank ? t->shape[t->rank - 1] : 1;
  int64_t rows = row ? count / row : 0;
  if (count == 0) {
    fprintf(out, "    (no elements)\n");
    return;
  }
  for (int64_t r = 0; r < rows; r++) {
    if (!full && r == SHORT_ROWS) {
      fprintf(out, "    ... %" PRId64 " more rows (--full shows them)\n", rows - r);
      return;
    }
    char where[256];
    index_text(t->rank, t->shape, r * row, true, where, sizeof where);
    fprintf(out, "    %-14s", where);
    for (int64_t i = 0; i < row; i++) {
      if (!full && i == SHORT_ROW_ELEMENTS) {
        fprintf(out, " ... (%" PRId64 " more)", row - i);
        break;
      }
      char v[64];
      mc_element_text(t->type, mc_load_bits(t->data, t->type, r * row + i), v, sizeof v);
      fprintf(out, " %s", v);
    }
    fprintf(out, "\n");
  }
}

static const char *payload_text(const mc_case_tensor *ct, char *buf, size_t n) {
  switch (ct->kind) {
  case MC_PAYLOAD_FILL_IOTA:
    snprintf(buf, n, "fill iota from %" PRId64 " (index-filled)", ct->fill_start);
    break;
  case MC_PAYLOAD_FILL_COUNTER:
    snprintf(buf, n, "fill counter from %" PRId64 " (index-filled)", ct->fill_start);
    break;
  case MC_PAYLOAD_FILL_PRNG:
    snprintf(buf, n, "fill prng");
    break;
  case MC_PAYLOAD_SHA256:
    snprintf(buf, n, "%s",
             ct->tensor.data ? "sha256 digest; shown: the oracle's output, which has it"
                             : "sha256 digest only");
    break;
  default:
    snprintf(buf, n, "given element by element");
    break;
  }
  return buf;
}

static void print_tensor(FILE *out, const char *label, const mc_case_tensor *ct, bool full) {
  char shape[600], how[128];
  mc_shape_text(&ct->tensor, shape, sizeof shape);
  fprintf(out, "%s  %s  %s\n", label, shape, payload_text(ct, how, sizeof how));
  if (ct->tensor.data)
    print_elements(out, &ct->tensor, full);
}

/* A line of text from a case file or an implementation: made safe, so
   that it stays one line and cannot drive the terminal. */
static void print_outside_text(FILE *out, const char *label, const char *text) {
  char *safe = mc_safe_text(text);
  fprintf(out, "%s%s\n", label, safe);
  free(safe);
}

static void print_attributes(FILE *out, const mc_case *c) {
  if (mc_op_attr_count(c->op) == 0)
    return;
  char *text = mc_case_attrs_text(c);
  print_outside_text(out, "attributes ", text);
  free(text);
}

static void print_head(FILE *out, const mc_case *c, const char *file) {
  print_outside_text(out, "case        ", c->id);
  print_outside_text(out, "file        ", file);
  fprintf(out, "operation   %s\n", mc_op_name(c->op));
  print_outside_text(out, "origin      ", c->origin);
  for (int i = 0; i < c->n_clauses; i++) {
    const mc_clause *k = mc_clause_find(c->clauses[i]);
    fprintf(out, "%s %s: %s\n", i ? "           " : "clauses    ", c->clauses[i],
            k ? k->summary : "(not a clause)");
  }
  char *inputs = mc_case_inputs_text(c);
  fprintf(out, "inputs      %s\n", inputs);
  free(inputs);
  print_attributes(out, c);
  if (c->has_cap)
    fprintf(out, "output cap  %zu bytes (the case's own)\n", c->max_output_bytes);
}

/* The expected output's elements: the case's, or - for a digest - the
   oracle's output when it has that digest (owned by *made then). */
static const mc_tensor *expected_elements(const mc_case *c, mc_tensor *made) {
  if (c->expected.kind != MC_PAYLOAD_SHA256)
    return &c->expected.tensor;
  mc_request req = mc_request_of_case(c);
  if (mc_oracle_run(&req, MC_DEFAULT_MAX_OUTPUT_BYTES, made, NULL) != MC_OK)
    return NULL;
  uint8_t digest[32];
  mc_sha256(made->data, made->nbytes, digest);
  if (memcmp(digest, c->expected.sha256, 32) == 0)
    return made;
  mc_tensor_free(made);
  return NULL;
}

/* Every differing element (the first SHORT_DIFFERENCES unless full), with
   where the got and expected values came from. */
static void print_differences(FILE *out, const mc_case *c, const mc_tensor *want,
                              const mc_impl_result *r, bool full) {
  int64_t n = mc_tensor_elements(want);
  const mc_tensor *got = mc_differing_output(want, r);
  mc_differences d = mc_count_differences(want, got, r);
  int64_t differing = d.differing, unwritten = d.unwritten;
  fprintf(out, "differing elements: %" PRId64 " of %" PRId64, differing, n);
  if (unwritten)
    fprintf(out,
            " (%" PRId64 " never written: they held movconf's fill in two calls with "
            "different fills)",
            unwritten);
  fprintf(out, "\n");
  if (differing == 0)
    return;
  fprintf(out, "    %-18s %-16s %-16s %s\n", "index", "expected", "got", "provenance");
  int64_t shown = 0;
  for (int64_t i = 0; i < n && (full || shown < SHORT_DIFFERENCES); i++) {
    uint64_t w = mc_load_bits(want->data, want->type, i), g = mc_load_bits(got->data, got->type, i);
    if (w == g)
      continue;
    char where[256], ws[64], gs[64];
    index_text(want->rank, want->shape, i, false, where, sizeof where);
    mc_element_text(want->type, w, ws, sizeof ws);
    mc_element_text(got->type, g, gs, sizeof gs);
    char *from = mc_judge_provenance(c, w, g, mc_unwritten_element(r, i));
    fprintf(out, "  ! %-18s %-16s %-16s %s\n", where, ws, gs,
            from[0] ? from + strlen("; the data input is index-filled: ") : "");
    free(from);
    shown++;
  }
  if (shown < differing)
    fprintf(out, "    ... %" PRId64 " more (--full shows them)\n", differing - shown);
}

static mc_verdict print_answer(FILE *out, const mc_case *c, mc_impl *impl, bool full,
                               const mc_tensor *want) {
  mc_request req = mc_request_of_case(c);
  mc_impl_result r;
  memset(&r, 0, sizeof r);
  impl->run(impl, &req, &r);
  mc_second_fill_run(impl, &req, &r);
  char *detail = NULL;
  mc_verdict v = mc_judge(c, impl, &r, &detail);
  fputc('\n', out);
  print_outside_text(out, "implementation  ", impl->name);
  char *verdict =
      mc_strdupf("%s%s%s", mc_verdict_name(v), detail ? ": " : "", detail ? detail : "");
  print_outside_text(out, "verdict         ", verdict);
  free(verdict);
  free(detail);
  if (r.outcome == MC_OUTCOME_OUTPUT) {
    /* The second call's output when only it differs (mc_second_fill_run). */
    mc_case_tensor got = {.tensor = want ? *mc_differing_output(want, &r) : r.output,
                          .kind = MC_PAYLOAD_HEX};
    print_tensor(out, "got output     ", &got, full);
    bool comparable =
        want && !c->expect_error && want->type == r.output.type && want->rank == r.output.rank &&
        memcmp(want->shape, r.output.shape, sizeof(int64_t) * (size_t)want->rank) == 0;
    if (comparable)
      print_differences(out, c, want, &r, full);
  }
  mc_impl_result_free_outputs(&r);
  return v;
}

mc_verdict mc_show_case(FILE *out, const mc_case *c, const char *file, mc_impl *impl, bool full) {
  print_head(out, c, file);
  for (int i = 0; i < c->n_inputs; i++) {
    char label[64];
    snprintf(label, sizeof label, "input %-9s", mc_op_input_name(c->op, i));
    print_tensor(out, label, &c->inputs[i], full);
  }
  mc_tensor made = {0};
  const mc_tensor *want = NULL;
  if (c->expect_error) {
    fprintf(out, "expected error  %s\n", mc_status_name(c->expected_error));
  } else {
    want = expected_elements(c, &made);
    mc_case_tensor shown = c->expected;
    if (want && c->expected.kind == MC_PAYLOAD_SHA256)
      shown.tensor = *want; /* the oracle's output, which has the digest */
    print_tensor(out, "expected output", &shown, full);
  }
  mc_verdict v = impl ? print_answer(out, c, impl, full, want) : MC_VERDICT_PASS;
  if (made.data)
    mc_tensor_free(&made);
  return v;
}

int mc_show_matching(FILE *out, const char *id, const mc_path_list *files, mc_impl *impl, bool full,
                     int *failed) {
  int shown = 0;
  for (int i = 0; i < files->count && shown >= 0; i++) {
    mc_case_file f;
    char err[1024];
    /* Deferred: the large tier's fills are made for the cases shown only
       (a search through it made every one: 26 s of CPU). */
    if (!mc_case_file_load_deferred(files->paths[i], &f, err, sizeof err))
      continue;
    for (int k = 0; k < f.n_cases && shown >= 0; k++) {
      mc_case *c = &f.cases[k];
      if (strcmp(c->id, id) != 0 && fnmatch(id, c->id, 0) != 0)
        continue;
      if (!mc_case_materialize(c)) {
        fprintf(stderr, "movconf show: %s: out of memory for its inputs\n", c->id);
        shown = -1;
        break;
      }
      if (shown++)
        fprintf(out, "\n");
      *failed += mc_verdict_is_failure(mc_show_case(out, c, files->paths[i], impl, full));
    }
    mc_case_file_free(&f);
  }
  return shown;
}
