/* The picture of a wrong output: the expected and the returned elements on
   the 2-D slice of the first difference, each returned element classed,
   as a small JSON text for the run report (spec/runner.md). */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "harness/internal.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"

/* Provenance is looked up element by element: at once in a counter fill,
   by a scan otherwise, which above this many data elements would cost more
   than the case itself. */
#define PICTURE_MAX_SOURCE_ELEMENTS ((int64_t)1 << 16)

typedef struct slice_window {
  int rank;
  int64_t first[MC_TENSOR_MAX_RANK]; /* multi-index of the first difference */
  int row_axis, col_axis;            /* -1: the slice has no such axis */
  int64_t row0, rows, col0, cols;
} slice_window;

static int64_t window_start(int64_t at, int64_t extent) {
  int64_t start = at - MC_PICTURE_EDGE / 4;
  if (start > extent - MC_PICTURE_EDGE)
    start = extent - MC_PICTURE_EDGE;
  return start < 0 ? 0 : start;
}

static int64_t window_extent(int64_t start, int64_t extent) {
  return extent - start < MC_PICTURE_EDGE ? extent - start : MC_PICTURE_EDGE;
}

static slice_window window_around(const mc_tensor *t, int64_t flat) {
  slice_window w = {.rank = t->rank, .row_axis = t->rank - 2, .col_axis = t->rank - 1};
  for (int d = t->rank - 1; d >= 0; d--) {
    w.first[d] = t->shape[d] ? flat % t->shape[d] : 0;
    flat = t->shape[d] ? flat / t->shape[d] : 0;
  }
  w.rows = w.cols = 1;
  if (w.row_axis >= 0) {
    w.row0 = window_start(w.first[w.row_axis], t->shape[w.row_axis]);
    w.rows = window_extent(w.row0, t->shape[w.row_axis]);
  }
  if (w.col_axis >= 0) {
    w.col0 = window_start(w.first[w.col_axis], t->shape[w.col_axis]);
    w.cols = window_extent(w.col0, t->shape[w.col_axis]);
  }
  return w;
}

/* The flat index of the element at (row, col) of the window. */
static int64_t window_flat(const slice_window *w, const mc_tensor *t, int64_t row, int64_t col) {
  int64_t flat = 0;
  for (int d = 0; d < t->rank; d++) {
    int64_t i = d == w->row_axis ? w->row0 + row : d == w->col_axis ? w->col0 + col : w->first[d];
    flat = flat * t->shape[d] + i;
  }
  return flat;
}

/* "output[2,1,:,:] rows 0-3, columns 0-7; first difference at [2,1,0,1]". */
static char *slice_text(const slice_window *w, const mc_tensor *t, int64_t at) {
  char where[256] = "output[", first[256];
  size_t used = strlen(where);
  for (int d = 0; d < t->rank && used < sizeof where; d++) {
    int k =
        d == w->row_axis || d == w->col_axis
            ? snprintf(where + used, sizeof where - used, "%s:", d ? "," : "")
            : snprintf(where + used, sizeof where - used, "%s%" PRId64, d ? "," : "", w->first[d]);
    used += (size_t)k;
  }
  mc_format_index(t->rank, t->shape, at, first, sizeof first);
  return mc_strdupf("%s] rows %" PRId64 "-%" PRId64 ", columns %" PRId64 "-%" PRId64
                    "; first difference at %s",
                    where, w->row0, w->row0 + w->rows - 1, w->col0, w->col0 + w->cols - 1, first);
}

/* What a returned element is: correct, unwritten (it held movconf's fill
   in both calls, mc_unwritten_element), taken from another place (an
   index-filled data element's value), or wrong. from: the data element it
   came from, or "". */
static const char *classify(const mc_case *c, const mc_impl_result *fills, int64_t i, uint64_t want,
                            uint64_t bits, char *from, size_t n) {
  *from = '\0';
  if (bits == want)
    return "ok";
  if (mc_unwritten_element(fills, i))
    return "unwritten";
  const mc_tensor *data = c->n_inputs > 0 ? &c->inputs[0].tensor : NULL;
  bool traceable = data && mc_case_tensor_index_filled(&c->inputs[0]);
  int64_t j =
      traceable ? mc_judge_find_source(&c->inputs[0], bits, PICTURE_MAX_SOURCE_ELEMENTS) : -1;
  if (j < 0)
    return "wrong";
  char where[240];
  mc_format_index(data->rank, data->shape, j, where, sizeof where);
  snprintf(from, n, "data%s", where);
  return "moved";
}

/* The values for people; with their bits when that text cannot tell them
   apart (NaN payloads, a boolean byte other than 0 and 1). */
static void cell_texts(mc_type t, uint64_t want, uint64_t got, char *wt, char *gt, size_t n) {
  char a[64], b[64];
  mc_element_text(t, want, a, sizeof a);
  mc_element_text(t, got, b, sizeof b);
  bool ambiguous = want != got && strcmp(a, b) == 0;
  snprintf(wt, n, ambiguous ? "%s (0x%" PRIx64 ")" : "%s", a, want);
  snprintf(gt, n, ambiguous ? "%s (0x%" PRIx64 ")" : "%s", b, got);
}

static cJSON *string_row(void) {
  return cJSON_CreateArray();
}

static void add_string(cJSON *row, const char *s) {
  cJSON_AddItemToArray(row, s ? cJSON_CreateString(s) : cJSON_CreateNull());
}

static char *picture_of(const mc_case *c, const mc_tensor *want, const mc_tensor *got, int64_t at,
                        const mc_impl_result *fills) {
  slice_window w = window_around(want, at);
  cJSON *root = cJSON_CreateObject();
  char *text = slice_text(&w, want, at);
  cJSON_AddStringToObject(root, "slice", text);
  free(text);
  cJSON_AddNumberToObject(root, "row0", (double)w.row0);
  cJSON_AddNumberToObject(root, "col0", (double)w.col0);
  cJSON *e = cJSON_AddArrayToObject(root, "expected"), *g = cJSON_AddArrayToObject(root, "got");
  cJSON *s = cJSON_AddArrayToObject(root, "state"), *f = cJSON_AddArrayToObject(root, "from");
  for (int64_t r = 0; r < w.rows; r++) {
    cJSON *er = string_row(), *gr = string_row(), *sr = string_row(), *fr = string_row();
    for (int64_t k = 0; k < w.cols; k++) {
      int64_t i = window_flat(&w, want, r, k);
      uint64_t wb = mc_load_bits(want->data, want->type, i),
               gb = mc_load_bits(got->data, got->type, i);
      char wt[96], gt[96], from[256];
      cell_texts(want->type, wb, gb, wt, gt, sizeof wt);
      add_string(er, wt);
      add_string(gr, gt);
      add_string(sr, classify(c, fills, i, wb, gb, from, sizeof from));
      add_string(fr, *from ? from : NULL);
    }
    cJSON_AddItemToArray(e, er);
    cJSON_AddItemToArray(g, gr);
    cJSON_AddItemToArray(s, sr);
    cJSON_AddItemToArray(f, fr);
  }
  char *json = cJSON_PrintUnformatted(root);
  cJSON_Delete(root);
  return json;
}

char *mc_judge_picture(const mc_case *c, const mc_impl_result *r) {
  if (r->outcome != MC_OUTCOME_OUTPUT || c->expect_error || r->output_unrepresentable)
    return NULL;
  mc_comparison cmp = mc_compare_tensors(&c->expected.tensor, &r->output);
  if (!cmp.same_type || !cmp.same_shape)
    return NULL;
  mc_tensor oracle = {0};
  const mc_tensor *want = &c->expected.tensor;
  if (c->expected.kind == MC_PAYLOAD_SHA256) { /* the oracle's output, when it has that digest */
    mc_request req = mc_request_of_case(c);
    uint8_t digest[32];
    if (mc_oracle_run(&req, r->output.nbytes, &oracle, NULL) != MC_OK)
      return NULL;
    mc_sha256(oracle.data, oracle.nbytes, digest);
    want = oracle.nbytes == r->output.nbytes && memcmp(digest, c->expected.sha256, 32) == 0
               ? &oracle
               : NULL;
  }
  const mc_tensor *got = want ? mc_differing_output(want, r) : &r->output;
  int64_t at = want ? mc_compare_tensors(want, got).first_element : -1;
  char *picture = at >= 0 ? picture_of(c, want, got, at, r) : NULL;
  mc_tensor_free(&oracle);
  return picture;
}
