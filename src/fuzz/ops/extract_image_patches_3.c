/* movconf fuzz: ExtractImagePatches-3's large requests. */
#include <string.h>

#include "fuzz/fuzz_ops.h"

static void set_list(mc_attrs *a, mc_attr id, int64_t rows, int64_t cols) {
  mc_int_list *l = mc_attrs_list_slot(a, id);
  l->count = 2;
  l->v[0] = rows;
  l->v[1] = cols;
}

/* Patches: with stride 1 and size above 1 the output outgrows the input. */
static bool large(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  static const char *const pads[] = {"valid", "same_upper", "same_lower"};
  int64_t kh = 1 + (int64_t)mc_rng_below(g, 3), kw = 1 + (int64_t)mc_rng_below(g, 3);
  int64_t stride = 1 + (int64_t)mc_rng_below(g, 2), rate = 1 + (int64_t)mc_rng_below(g, 2);
  int64_t n = mc_fuzz_pick(g, MC_FUZZ_OUTER), c = mc_fuzz_pick(g, MC_FUZZ_CHANNELS),
          w = mc_fuzz_pick(g, MC_FUZZ_INNER);
  int64_t h = mc_fuzz_rows_for(target, n, c * kh * kw, w);
  set_list(&r->req.attrs, MC_ATTR_SIZES, kh, kw);
  set_list(&r->req.attrs, MC_ATTR_STRIDES, stride, stride);
  set_list(&r->req.attrs, MC_ATTR_RATES, rate, rate);
  r->strings[MC_ATTR_AUTO_PAD] = strdup(pads[mc_rng_below(g, 3)]);
  r->req.n_inputs = 1;
  /* Enough input that a valid patch fits; then stride scales it back up. */
  const int64_t shape[4] = {n, c, h * stride + (kh - 1) * rate, w * stride + (kw - 1) * rate};
  return r->strings[MC_ATTR_AUTO_PAD] && mc_fuzz_large_data(g, r, type, shape);
}

const mc_fuzz_op_desc mc_fuzz_extract_image_patches_3 = {.large = large, .min_rank = 4};
