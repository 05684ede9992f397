/* The second fill: a call whose output holds movconf's first fill somewhere
   is made again into a buffer of another fill, so that an element is
   called unwritten only when it held each fill, and an element left
   unwritten where the expected value is the first fill still fails. */
#include <string.h>

#include "harness/harness.h"
#include "harness/internal.h"
#include "movconf/tensor.h"

uint8_t mc_impl_output_fill(const mc_impl_options *options) {
  return options->second_fill ? MC_OUTPUT_SECOND_FILL : MC_OUTPUT_FILL;
}

static bool holds_first_fill_somewhere(const mc_tensor *t) {
  int64_t n = mc_tensor_elements(t);
  for (int64_t i = 0; i < n; i++)
    if (mc_holds_fill(t->type, i, mc_load_bits(t->data, t->type, i), MC_OUTPUT_FILL))
      return true;
  return false;
}

bool mc_second_fill_wanted(const mc_impl *impl, const mc_impl_result *r) {
  return impl->fills_output && r->outcome == MC_OUTCOME_OUTPUT && !r->output_unrepresentable &&
         r->output.data && holds_first_fill_somewhere(&r->output);
}

void mc_second_fill_keep(mc_impl_result *r, mc_impl_result *second) {
  const mc_tensor *a = &r->output;
  mc_tensor *b = &second->output;
  bool same = second->outcome == MC_OUTCOME_OUTPUT && !second->output_unrepresentable && b->data &&
              a->type == b->type && a->rank == b->rank && a->nbytes == b->nbytes &&
              memcmp(a->shape, b->shape, sizeof(int64_t) * (size_t)a->rank) == 0;
  mc_tensor_free(&r->refilled);
  if (same) {
    r->refilled = *b;
    memset(b, 0, sizeof *b);
  }
  mc_impl_result_free_outputs(second);
}

void mc_second_fill_run(mc_impl *impl, const mc_request *req, mc_impl_result *r) {
  if (!mc_second_fill_wanted(impl, r))
    return;
  mc_impl_result second;
  memset(&second, 0, sizeof second);
  impl->calls++;
  impl->options.second_fill = true;
  impl->run(impl, req, &second);
  impl->options.second_fill = false;
  mc_second_fill_keep(r, &second);
}

void mc_impl_result_free_outputs(mc_impl_result *r) {
  mc_tensor_free(&r->output);
  mc_tensor_free(&r->refilled);
}
