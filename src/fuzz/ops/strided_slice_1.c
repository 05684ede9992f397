/* movconf fuzz: StridedSlice-1's large requests. Its shrinking is the
   generic one (entry k of begin, end, stride goes with data axis k). */
#include "fuzz/fuzz_ops.h"
#include "movconf/tensor.h"

enum { BEGIN = 1, END, STRIDE };

/* Output [n, c, h, w] (w at the kernels' widths) from data with a margin
   of one element each side of w: n whole by masks, c by its bounds, h
   reversed by masks (a negative stride's masked end reads element 0), w
   from 1 forwards or from w backwards, drawn. */
static bool large(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  int64_t out[4] = {mc_fuzz_pick(g, MC_FUZZ_OUTER), mc_fuzz_pick(g, MC_FUZZ_CHANNELS), 0,
                    mc_fuzz_pick(g, MC_FUZZ_INNER)};
  out[2] = mc_fuzz_rows_for(target, out[0], out[1], out[3]);
  const bool backwards = mc_rng_below(g, 2) == 0;
  const int64_t shape[4] = {out[0], out[1], out[2], out[3] + 2};
  const int64_t begin[4] = {0, 0, 0, backwards ? out[3] : 1};
  const int64_t end[4] = {0, out[1], 0, backwards ? 0 : out[3] + 1};
  const int64_t stride[4] = {1, 1, -1, backwards ? -1 : 1};
  const mc_int_list masks = {.count = 3, .v = {1, 0, 1}};
  mc_attrs_set_list(&r->req.attrs, MC_ATTR_BEGIN_MASK, &masks);
  mc_attrs_set_list(&r->req.attrs, MC_ATTR_END_MASK, &masks);
  r->req.n_inputs = 4;
  return mc_fuzz_side_input(r, BEGIN, begin) && mc_fuzz_side_input(r, END, end) &&
         mc_fuzz_side_input(r, STRIDE, stride) && mc_fuzz_large_data(g, r, type, shape);
}

/* Neutral, for a failure's key: a stride of ones. */
static bool side_neutral(const mc_owned_request *r, int input) {
  const mc_tensor *t = &r->tensors[input];
  if (input != STRIDE || !mc_type_is_side_integer(t->type) || t->rank != 1)
    return false;
  for (int64_t i = 0; i < mc_tensor_elements(t); i++) {
    int64_t v;
    if (!mc_side_value(t, i, &v) || v != 1)
      return false;
  }
  return true;
}

/* A mask changes nothing when it has no bit set. */
static bool attribute_neutral(const mc_owned_request *r, mc_attr id) {
  const mc_int_list *l = mc_attrs_list(&r->req.attrs, id);
  for (int k = 0; k < l->count && k < MC_MAX_ATTR_LEN; k++)
    if (l->v[k] != 0)
      return false;
  return true;
}

const mc_fuzz_op_desc mc_fuzz_strided_slice_1 = {.large = large,
                                                 .min_rank = 0,
                                                 .side_neutral = side_neutral,
                                                 .attribute_neutral = attribute_neutral};
