/* What the oracle's unit tests share (tests/test_oracle.c,
   tests/test_oracle_slice.c): tensors of raw values, and a request run
   through the oracle against the expected output or error. */
#ifndef MOVCONF_TESTS_ORACLE_CHECK_H
#define MOVCONF_TESTS_ORACLE_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"

#define CAP MC_DEFAULT_MAX_OUTPUT_BYTES

/* A tensor whose element i holds the raw bits values[i] (values NULL: i). */
static inline mc_tensor make(mc_type type, int rank, const int64_t *shape, const int64_t *values) {
  mc_tensor t;
  if (mc_tensor_alloc(&t, type, rank, shape, CAP) != MC_OK)
    abort();
  int64_t n = mc_tensor_elements(&t);
  for (int64_t i = 0; i < n; i++)
    mc_store_bits(t.data, type, i, (uint64_t)(values ? values[i] : i));
  return t;
}

/* Runs the request and checks status, type, shape and every byte (packed
   tail bits included) against a tensor holding the expected raw values. */
static inline void expect_output(const mc_request *req, int rank, const int64_t *shape,
                                 const int64_t *values) {
  mc_tensor out, want = make(req->inputs[0]->type, rank, shape, values);
  mc_error err;
  mc_status s = mc_oracle_run(req, CAP, &out, &err);
  CHECK_STR(mc_status_name(s), "ok");
  if (s != MC_OK) {
    fprintf(stderr, "  %s\n", err.message);
  } else {
    CHECK(mc_tensor_same(&out, &want));
    mc_tensor_free(&out);
  }
  mc_tensor_free(&want);
}

/* Runs the request under the output cap and checks the status, the clause
   (unless NULL), that the message contains needle (unless NULL), and that
   no output is left. */
static inline void expect_error(const mc_request *req, size_t cap, const char *name,
                                const char *clause, const char *needle) {
  mc_tensor out;
  mc_error err;
  mc_status s = mc_oracle_run(req, cap, &out, &err);
  CHECK_STR(mc_status_name(s), name);
  if (clause)
    CHECK_STR(err.clause, clause);
  if (needle) {
    CHECK(strstr(err.message, needle) != NULL);
    if (!strstr(err.message, needle))
      fprintf(stderr, "  message \"%s\" lacks \"%s\"\n", err.message, needle);
  }
  CHECK(out.data == NULL);
}

#endif
