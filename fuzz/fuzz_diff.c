/* Differential target: the literal oracle against the optimized kernels,
   for a fuzzed thread count. Both must return the same status (hence the
   same error name); on success the same type, shape and bytes. The
   optimized kernels' other entry points must agree too: output_shape()
   with run(), and run_into() writing every byte of a poisoned buffer. */
#include <stdlib.h>
#include <string.h>

#include "cases/bytes/fuzz_bytes.h"
#include "fuzz_common.h"
#include "movconf/optimized.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"

static const char target[] = "diff";

/* validate-only entry point: same status, and on success the same shape. */
static void check_output_shape(const mc_fuzz_input *in, mc_status want_status,
                               const mc_tensor *want) {
  mc_tensor shaped = {0}; /* type and shape only: no bytes to compare */
  mc_error err;
  mc_status s = mc_optimized_output_shape(&in->req, in->max_output_bytes, &shaped.type,
                                          &shaped.rank, shaped.shape, &err);
  mc_fuzz_judge(target, in->req.op, want_status, want, s, NULL, "output_shape");
  if (s != MC_OK)
    return;
  mc_comparison c = mc_compare_tensors(want, &shaped);
  if (!c.same_shape || !c.same_type)
    mc_fuzz_finding(target, in->req.op,
                    c.same_shape ? MC_VERDICT_WRONG_OUTPUT : MC_VERDICT_WRONG_SHAPE, MC_OK,
                    "output_shape");
}

/* run_into() over a buffer full of junk: every byte must be written. The
   buffer is kept between calls (outputs are capped small). */
static void check_run_into(const mc_fuzz_input *in, const mc_tensor *want) {
  static uint8_t *buffer;
  static size_t capacity;
  size_t need = want->nbytes ? want->nbytes : 1;
  if (need > capacity) {
    uint8_t *p = realloc(buffer, need);
    if (!p)
      return;
    buffer = p;
    capacity = need;
  }
  memset(buffer, 0xA5, need);
  mc_tensor got = *want;
  got.data = buffer;
  mc_error err;
  mc_status s = mc_optimized_run_into(&in->req, in->threads, &got, &err);
  mc_fuzz_judge(target, in->req.op, MC_OK, want, s, &got, "run_into");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mc_fuzz_setup();
  mc_fuzz_input in;
  if (!mc_fuzz_decode(data, size, &in))
    return -1;
  mc_tensor want, got;
  mc_error want_err, got_err;
  mc_status sw = mc_oracle_run(&in.req, in.max_output_bytes, &want, &want_err);
  mc_status sg = mc_optimized_run(&in.req, in.max_output_bytes, in.threads, &got, &got_err);
  if (sw != sg)
    mc_fuzz_detail("oracle: %s; optimized: %s", want_err.message, got_err.message);
  mc_fuzz_judge(target, in.req.op, sw, &want, sg, &got, NULL);
  check_output_shape(&in, sw, &want);
  if (sw == MC_OK)
    check_run_into(&in, &want);
  mc_tensor_free(&want);
  mc_tensor_free(&got);
  mc_fuzz_input_free(&in);
  return 0;
}
