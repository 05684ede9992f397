/* Judging one case, bit for bit. */
#include "common/text.h"
#include "harness/internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movconf/oracle.h"
#include "movconf/tensor.h"

void mc_format_index(int rank, const int64_t *shape, int64_t flat, char *buf, size_t len) {
  int64_t idx[MC_TENSOR_MAX_RANK];
  for (int d = rank - 1; d >= 0; d--) {
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  size_t used = (size_t)snprintf(buf, len, "[");
  for (int d = 0; d < rank && used < len; d++)
    used += (size_t)snprintf(buf + used, len - used, "%s%" PRId64, d ? "," : "", idx[d]);
  if (used < len)
    snprintf(buf + used, len - used, "]");
}

static char *format_shape(int rank, const int64_t *shape) {
  char buf[512];
  size_t used = (size_t)snprintf(buf, sizeof buf, "[");
  for (int d = 0; d < rank && used < sizeof buf; d++)
    used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%" PRId64, d ? "," : "", shape[d]);
  if (used < sizeof buf)
    snprintf(buf + used, sizeof buf - used, "]");
  return mc_strdupf("%s", buf);
}

/* A counter fill's element i holds start + i in the type's bits: the
   element with these bits is found at once, whatever the size. */
static int64_t counter_source(const mc_case_tensor *in, uint64_t bits) {
  const mc_tensor *t = &in->tensor;
  unsigned width = mc_type_bits(t->type);
  uint64_t mask = width >= 64 ? UINT64_MAX : ((uint64_t)1 << width) - 1;
  uint64_t j = (bits - (uint64_t)in->fill_start) & mask;
  if (j >= (uint64_t)mc_tensor_elements(t) || mc_load_bits(t->data, t->type, (int64_t)j) != bits)
    return -1;
  return (int64_t)j;
}

int64_t mc_judge_find_source(const mc_case_tensor *in, uint64_t bits, int64_t scan_limit) {
  const mc_tensor *data = &in->tensor;
  if (!data->data)
    return -1;
  if (in->kind == MC_PAYLOAD_FILL_COUNTER)
    return counter_source(in, bits);
  int64_t n = mc_tensor_elements(data);
  if (n > scan_limit)
    return -1;
  for (int64_t i = 0; i < n; i++)
    if (mc_load_bits(data->data, data->type, i) == bits)
      return i;
  return -1;
}

static void describe_source(const mc_case *c, const char *what, uint64_t bits, bool fill, char *buf,
                            size_t len) {
  const mc_tensor *data = &c->inputs[0].tensor;
  if (fill) { /* known unwritten, whatever data element has the same bits */
    snprintf(buf, len, "%s is movconf's fill of the output buffer (not written)", what);
    return;
  }
  int64_t j = mc_judge_find_source(&c->inputs[0], bits, INT64_MAX);
  bool pads = mc_op_pads_zeros(c->op);
  if (j < 0) {
    snprintf(buf, len, "%s is %s", what,
             bits == 0 && pads ? "a pad zero" : "no data element (not copied from the input)");
    return;
  }
  char where[256];
  mc_format_index(data->rank, data->shape, j, where, sizeof where);
  snprintf(buf, len, "%s came from data%s (flat %" PRId64 ")%s", what, where, j,
           bits == 0 && pads ? " or is a pad zero" : "");
}

char *mc_judge_provenance(const mc_case *c, uint64_t want, uint64_t got, bool got_fill) {
  if (c->n_inputs < 1 || !mc_case_tensor_index_filled(&c->inputs[0]))
    return mc_strdupf("%s", "");
  char g[400], w[400];
  describe_source(c, "got", got, got_fill, g, sizeof g);
  describe_source(c, "expected", want, false, w, sizeof w);
  return mc_strdupf("; the data input is index-filled: %s, %s", g, w);
}

/* " (movconf's fill of the output buffer ...)" after "got 0x..", when the
   element held each fill in its call (fills: the call's outputs); else "". */
static char *fill_note(const mc_impl_result *fills, int64_t i) {
  if (!mc_unwritten_element(fills, i))
    return mc_strdupf("%s", "");
  return mc_strdupf(" (never written: it kept movconf's fill of the output buffer, 0x%02x, "
                    "and 0x%02x in a second call)",
                    MC_OUTPUT_FILL, MC_OUTPUT_SECOND_FILL);
}

/* Detail of the first element whose bits differ in got (one of fills'
   outputs, or NULL when no call filled a buffer), or NULL when all agree. */
static char *first_difference(const mc_case *c, const mc_tensor *want, const mc_tensor *got,
                              const mc_impl_result *fills) {
  mc_comparison cmp = mc_compare_tensors(want, got);
  if (cmp.first_element < 0)
    return cmp.same_bytes ? NULL
                          : mc_strdupf("elements agree but the unused trailing bits of the last "
                                       "byte differ");
  int64_t i = cmp.first_element, n = mc_tensor_elements(want);
  uint64_t w = mc_load_bits(want->data, want->type, i);
  uint64_t g = mc_load_bits(got->data, got->type, i);
  char where[256], count[200] = "";
  mc_format_index(want->rank, want->shape, i, where, sizeof where);
  char *note = fill_note(fills, i);
  char *from = mc_judge_provenance(c, w, g, mc_unwritten_element(fills, i));
  int64_t unwritten = mc_count_differences(want, got, fills).unwritten;
  if (unwritten)
    snprintf(count, sizeof count,
             "; %" PRId64 " of %" PRId64 " elements were never written (they held movconf's "
             "fill in two calls with different fills) where the expected output differs",
             unwritten, n);
  char *detail = mc_strdupf("first differing element %s (flat %" PRId64
                            "): expected bits 0x%" PRIx64 ", got 0x%" PRIx64 "%s%s%s",
                            where, i, w, g, note, from, count);
  free(note);
  free(from);
  return detail;
}

/* A digest says only that the bytes differ. To say where, the output is
   compared with the oracle's, when the oracle's matches the digest (it
   should: that is how generated digests are made). */
static char *digest_difference(const mc_case *c, const mc_tensor *got,
                               const mc_impl_result *fills) {
  const char *differ = "output bytes differ: their sha256 does not match the expected digest";
  mc_request req = mc_request_of_case(c);
  mc_tensor oracle;
  if (mc_oracle_run(&req, got->nbytes, &oracle, NULL) != MC_OK)
    return mc_strdupf("%s", differ);
  uint8_t digest[32];
  mc_sha256(oracle.data, oracle.nbytes, digest);
  char *where = NULL;
  if (oracle.nbytes == got->nbytes && memcmp(digest, c->expected.sha256, 32) == 0)
    where = first_difference(c, &oracle, got, fills);
  /* The difference first: a failure line cut short still shows it. */
  char *detail = where ? mc_strdupf("%s; against the oracle's output, which has the expected "
                                    "sha256 digest (the output's does not match it)",
                                    where)
                       : mc_strdupf("%s", differ);
  free(where);
  mc_tensor_free(&oracle);
  return detail;
}

/* got: r's output or its second call's (r->refilled). */
static mc_verdict compare_output(const mc_case *c, const mc_tensor *got, const mc_impl_result *r,
                                 char **detail) {
  const mc_case_tensor *want = &c->expected;
  const mc_tensor *w = &want->tensor;
  mc_comparison cmp = mc_compare_tensors(w, got);
  if (!cmp.same_shape) {
    char *a = format_shape(w->rank, w->shape), *b = format_shape(got->rank, got->shape);
    *detail = mc_strdupf("wrong shape: expected %s, got %s", a, b);
    free(a);
    free(b);
    return MC_VERDICT_WRONG_SHAPE;
  }
  if (!cmp.same_type) {
    *detail = mc_strdupf("wrong element type: expected %s, got %s", mc_type_name(w->type),
                         mc_type_name(got->type));
    return MC_VERDICT_WRONG_OUTPUT;
  }
  if (want->kind == MC_PAYLOAD_SHA256) {
    uint8_t digest[32];
    mc_sha256(got->data, got->nbytes, digest);
    if (memcmp(digest, want->sha256, 32) != 0)
      *detail = digest_difference(c, got, r);
  } else {
    *detail = first_difference(c, w, got, r);
  }
  return *detail ? MC_VERDICT_WRONG_OUTPUT : MC_VERDICT_PASS;
}

/* The error name a rejection carries, or NULL when the implementation gave none. */
static const char *rejection_name(const mc_impl *impl, const mc_impl_result *r) {
  if (impl->names_errors || r->status != MC_OK)
    return mc_status_name(r->status);
  return r->error_name[0] ? r->error_name : NULL;
}

mc_rejection mc_judge_rejection(const mc_impl *impl, const mc_impl_result *r) {
  if (r->outcome != MC_OUTCOME_REJECTED)
    return MC_REJECTION_NONE;
  return rejection_name(impl, r) ? MC_REJECTION_NAMED : MC_REJECTION_UNNAMED;
}

/* A name a plugin or adapter chose that is no error of movconf's ("ok" is
   a status, not an error): likely a typo, so the detail says so. */
static bool unknown_error_name(const char *name) {
  return name && mc_status_from_name(name) <= MC_OK;
}

/* "NAME [CLAUSE]: message", or the message alone when there is no name. */
static char *rejection_text(const mc_impl_result *r, const char *name) {
  if (!name)
    return mc_strdupf("%s", r->message[0] ? r->message : "(no message)");
  if (unknown_error_name(name))
    return mc_strdupf("unknown error name '%s' (not one of movconf's error names): %s", name,
                      r->message[0] ? r->message : "(no message)");
  if (!r->clause)
    return mc_strdupf("%s: %s", name, r->message);
  return mc_strdupf("%s [%s]: %s", name, r->clause, r->message);
}

/* The detail of a rejection naming another error than the expected one. */
static char *wrong_error_detail(const mc_case *c, const mc_impl_result *r, const char *name,
                                const char *text) {
  const char *want = mc_status_name(c->expected_error);
  if (!unknown_error_name(name))
    return mc_strdupf("expected error %s, got %s", want, text);
  return mc_strdupf("unknown error name '%s' (not one of movconf's error names); expected %s; "
                    "its message: %s",
                    name, want, r->message[0] ? r->message : "(no message)");
}

/* An accepted input whose announced output no tensor can have (zero
   elements, the other dimensions multiplying past int64): a missed
   rejection when the case expects an error, else a wrong shape. */
static mc_verdict judge_unrepresentable(const mc_case *c, const mc_tensor *got, char **detail) {
  char *shape = format_shape(got->rank, got->shape);
  mc_verdict v;
  if (c->expect_error) {
    *detail = mc_strdupf("expected error %s, but the input was accepted: the implementation "
                         "announced an output of shape %s, which no tensor can have (zero "
                         "elements, but its other dimensions multiply past int64)",
                         mc_status_name(c->expected_error), shape);
    v = MC_VERDICT_MISSED_REJECTION;
  } else {
    char *want = format_shape(c->expected.tensor.rank, c->expected.tensor.shape);
    *detail = mc_strdupf("wrong shape: expected %s, got %s, which no tensor can have (zero "
                         "elements, but its other dimensions multiply past int64)",
                         want, shape);
    free(want);
    v = MC_VERDICT_WRONG_SHAPE;
  }
  free(shape);
  return v;
}

/* The output, then the second call's (when one was made): an element left
   unwritten where the expected value is the first fill fails only there. */
static mc_verdict judge_outputs(const mc_case *c, const mc_impl_result *r, char **detail) {
  mc_verdict v = compare_output(c, &r->output, r, detail);
  if (v == MC_VERDICT_PASS && r->refilled.data)
    v = compare_output(c, &r->refilled, r, detail);
  return v;
}

mc_verdict mc_judge(const mc_case *c, const mc_impl *impl, const mc_impl_result *r, char **detail) {
  *detail = NULL;
  switch (r->outcome) {
  case MC_OUTCOME_UNSUPPORTED:
    *detail = mc_strdupf("%s", r->message[0] ? r->message : "not supported");
    return MC_VERDICT_UNSUPPORTED;
  case MC_OUTCOME_CRASH:
    *detail = mc_strdupf("%s", r->message);
    return r->memory_error ? MC_VERDICT_MEMORY_ERROR : MC_VERDICT_CRASH;
  case MC_OUTCOME_TIMEOUT:
    *detail = mc_strdupf("%s", r->message);
    return MC_VERDICT_TIMEOUT;
  case MC_OUTCOME_OUTPUT:
    if (r->output_unrepresentable)
      return judge_unrepresentable(c, &r->output, detail);
    if (c->expect_error) {
      *detail = mc_strdupf("expected error %s, but the input was accepted",
                           mc_status_name(c->expected_error));
      return MC_VERDICT_MISSED_REJECTION;
    }
    return judge_outputs(c, r, detail);
  case MC_OUTCOME_REJECTED:
    break;
  }
  const char *name = rejection_name(impl, r);
  if (r->rejected_for_impl && c->expect_error &&
      (!name || strcmp(name, mc_status_name(c->expected_error)) != 0)) {
    *detail = mc_strdupf("expected error %s, but the input was accepted (movconf then rejected "
                         "it on the implementation's behalf: %s)",
                         mc_status_name(c->expected_error), r->message);
    return MC_VERDICT_MISSED_REJECTION;
  }
  char *text = rejection_text(r, name);
  mc_verdict v = MC_VERDICT_PASS;
  if (!c->expect_error) {
    *detail = mc_strdupf("valid input rejected%s%s", name ? " with " : ": ", text);
    v = MC_VERDICT_WRONG_REJECTION;
  } else if (name && strcmp(name, mc_status_name(c->expected_error)) != 0) {
    *detail = wrong_error_detail(c, r, name, text);
    v = MC_VERDICT_WRONG_ERROR;
  }
  free(text);
  return v;
}
