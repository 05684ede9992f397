/* The one comparison of an output with the expected tensor, bit for bit:
   the judge's and the fuzz targets'. */
#include <string.h>

#include "harness/internal.h"
#include "movconf/tensor.h"

static bool same_shape(const mc_tensor *want, const mc_tensor *got) {
  if (got->rank != want->rank)
    return false;
  for (int d = 0; d < want->rank; d++)
    if (got->shape[d] != want->shape[d])
      return false;
  return true;
}

/* The first element whose bits differ, or -1; want and got have the same
   type and element count. */
static int64_t first_differing_element(const mc_tensor *want, const mc_tensor *got) {
  int64_t n = mc_tensor_elements(want);
  for (int64_t i = 0; i < n; i++)
    if (mc_load_bits(want->data, want->type, i) != mc_load_bits(got->data, got->type, i))
      return i;
  return -1;
}

mc_comparison mc_compare_tensors(const mc_tensor *want, const mc_tensor *got) {
  mc_comparison c = {.same_type = got->type == want->type,
                     .same_shape = same_shape(want, got),
                     .first_element = -1};
  bool hold_data = want->nbytes == 0 || (want->data && got->data);
  if (!c.same_type || !c.same_shape || got->nbytes != want->nbytes || !hold_data)
    return c;
  c.first_element = first_differing_element(want, got);
  /* Equal elements may still leave the unused trailing bits of a packed type unequal. */
  c.same_bytes = want->nbytes == 0 || memcmp(want->data, got->data, want->nbytes) == 0;
  return c;
}

bool mc_holds_fill(mc_type t, int64_t i, uint64_t bits, uint8_t fill) {
  uint8_t bytes[8];
  memset(bytes, fill, sizeof bytes);
  unsigned b = mc_type_bits(t);
  return mc_load_bits(bytes, t, b < 8 ? i % (8 / b) : 0) == bits;
}

bool mc_unwritten_element(const mc_impl_result *r, int64_t i) {
  if (!r || !r->refilled.data)
    return false;
  const mc_tensor *a = &r->output, *b = &r->refilled;
  return mc_holds_fill(a->type, i, mc_load_bits(a->data, a->type, i), MC_OUTPUT_FILL) &&
         mc_holds_fill(b->type, i, mc_load_bits(b->data, b->type, i), MC_OUTPUT_SECOND_FILL);
}

const mc_tensor *mc_differing_output(const mc_tensor *want, const mc_impl_result *r) {
  if (!r->refilled.data)
    return &r->output;
  mc_comparison first = mc_compare_tensors(want, &r->output);
  return first.first_element < 0 && first.same_bytes ? &r->refilled : &r->output;
}

mc_differences mc_count_differences(const mc_tensor *want, const mc_tensor *got,
                                    const mc_impl_result *fills) {
  mc_differences d = {0, 0};
  int64_t n = mc_tensor_elements(want);
  for (int64_t i = 0; i < n; i++) {
    uint64_t g = mc_load_bits(got->data, got->type, i);
    if (mc_load_bits(want->data, want->type, i) == g)
      continue;
    d.differing++;
    d.unwritten += mc_unwritten_element(fills, i);
  }
  return d;
}
