/* Round-trip target (roundtrip.h): for the oracle and for the optimized
   kernels alike, an accepted request whose operation has an inverse must
   come back to its data through that inverse, and a block size of 1 must
   leave the data unchanged. */
#include <stdio.h>
#include <stdlib.h>

#include "cases/bytes/fuzz_bytes.h"
#include "fuzz_common.h"
#include "movconf/optimized.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"
#include "roundtrip.h"

static const char target[] = "roundtrip";

typedef struct impl {
  const char *name;
  mc_status (*run)(const mc_request *req, size_t cap, int threads, mc_tensor *out, mc_error *err);
} impl;

static mc_status run_oracle(const mc_request *req, size_t cap, int threads, mc_tensor *out,
                            mc_error *err) {
  (void)threads;
  return mc_oracle_run(req, cap, out, err);
}

static mc_status run_optimized(const mc_request *req, size_t cap, int threads, mc_tensor *out,
                               mc_error *err) {
  return mc_optimized_run(req, cap, threads, out, err);
}

static const impl impls[2] = {{"oracle", run_oracle}, {"optimized", run_optimized}};

static void check(const impl *im, const mc_fuzz_input *in) {
  const mc_request *req = &in->req;
  mc_tensor out;
  mc_error err;
  if (im->run(req, in->max_output_bytes, in->threads, &out, &err) != MC_OK)
    return; /* invalid input: fuzz_diff judges rejections */
  char where[64];
  snprintf(where, sizeof where, "%s identity", im->name);
  if (mc_roundtrip_is_identity(req))
    mc_fuzz_judge(target, req->op, MC_OK, &in->tensors[0], MC_OK, &out, where);
  mc_request inv;
  if (mc_roundtrip_inverse(req, &out, &inv)) {
    mc_tensor back;
    mc_status s = im->run(&inv, in->max_output_bytes, in->threads, &back, &err);
    /* At the int64 edge the inverse is not defined for every empty output:
       SpaceToBatch multiplies batch 0 by prod(B) left to right, BatchToSpace
       must form prod(B) itself (spec/check-order.md), which may overflow. */
    bool undefined_inverse = s == MC_E_SHAPE_OVERFLOW && mc_tensor_elements(&out) == 0;
    if (undefined_inverse) {
      mc_tensor_free(&out);
      return;
    }
    if (s != MC_OK)
      mc_fuzz_detail("%s", err.message);
    snprintf(where, sizeof where, "%s inverse", im->name);
    mc_fuzz_judge(target, req->op, MC_OK, &in->tensors[0], s, &back, where);
    mc_tensor_free(&back);
  }
  mc_tensor_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mc_fuzz_setup();
  mc_fuzz_input in;
  if (!mc_fuzz_decode(data, size, &in))
    return -1;
  for (int i = 0; i < 2; i++)
    check(&impls[i], &in);
  mc_fuzz_input_free(&in);
  return 0;
}
