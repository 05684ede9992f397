/* movconf fuzz: Pad-12's large requests, what its side inputs change and
   its one move. Dropping a data axis drops that entry of pads_begin and
   pads_end (the generic move; pad_value, a scalar, stays). */
#include <string.h>

#include "fuzz/fuzz_ops.h"
#include "movconf/tensor.h"

enum { PADS_BEGIN = 1, PADS_END, PAD_VALUE };

static const char *const large_modes[] = {"constant", "edge", "reflect", "symmetric"};

/* A pad of one side of a large axis: mostly small and positive, sometimes
   a crop of one or two. */
static int64_t large_pad(mc_rng *g) {
  static const int64_t pads[8] = {0, 1, 2, 3, 1, -1, -2, 0};
  return pads[mc_rng_below(g, 8)];
}

/* Output [n, c, h, w] at the kernels' widths, a mode drawn, pads of each
   side in [-2, 3]: the data is the output less its pads, at least 4 on
   every axis, so that every mode's limits hold (PAD-V9). */
static bool large(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  int64_t out[4] = {mc_fuzz_pick(g, MC_FUZZ_OUTER), mc_fuzz_pick(g, MC_FUZZ_CHANNELS), 0,
                    mc_fuzz_pick(g, MC_FUZZ_INNER)};
  out[2] = mc_fuzz_rows_for(target, out[0], out[1], out[3]);
  int64_t shape[4], begin[4], end[4];
  for (int a = 0; a < 4; a++) {
    begin[a] = large_pad(g);
    end[a] = large_pad(g);
    shape[a] = out[a] - begin[a] - end[a];
    if (shape[a] < 4) {
      begin[a] = end[a] = 0;
      shape[a] = out[a];
    }
  }
  r->req.n_inputs = 3;
  r->strings[MC_ATTR_PAD_MODE] = strdup(large_modes[mc_rng_below(g, 4)]);
  return r->strings[MC_ATTR_PAD_MODE] != NULL && mc_fuzz_side_input(r, PADS_BEGIN, begin) &&
         mc_fuzz_side_input(r, PADS_END, end) && mc_fuzz_large_data(g, r, type, shape);
}

/* Pads of 0 change nothing; pad_value changes nothing outside constant mode
   or when its bits are zero (the default). */
static bool side_neutral(const mc_owned_request *r, int input) {
  const mc_tensor *t = &r->tensors[input];
  if (input == PAD_VALUE) {
    const char *mode = r->strings[MC_ATTR_PAD_MODE];
    return (mode && strcmp(mode, "constant") != 0) ||
           (t->rank == 0 && mc_load_bits(t->data, t->type, 0) == 0);
  }
  if (!mc_type_is_side_integer(t->type)) /* refused: never neutral */
    return false;
  for (int64_t i = 0; i < mc_tensor_elements(t); i++) {
    int64_t v;
    if (!mc_side_value(t, i, &v) || v != 0)
      return false;
  }
  return true;
}

/* pad_value left out where it changes nothing (side_neutral): a finding
   of reflect mode then has no data-typed fourth input holding its side
   types apart (the move of side inputs to one type, i64, needs every one
   to fit) or naming its key -sides-mixed. */
static bool drop_neutral_value(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  (void)k;
  if (cur->req.n_inputs <= PAD_VALUE || !side_neutral(cur, PAD_VALUE) || !mc_fuzz_clone(cur, cand))
    return false;
  mc_tensor_free(&cand->tensors[PAD_VALUE]);
  cand->req.n_inputs = PAD_VALUE;
  mc_owned_request_link(cand);
  return true;
}

static const mc_fuzz_move moves[] = {{drop_neutral_value, 1}, {NULL, 0}};

const mc_fuzz_op_desc mc_fuzz_pad_12 = {
    .large = large, .min_rank = 1, .moves = moves, .side_neutral = side_neutral};
