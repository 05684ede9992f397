/* Pad-12's part of the fuzz byte layout (fuzz/README.md): whether
   pad_value is there, the forms of pads_begin and pads_end, pad_value's
   form and bits, the data's dimensions, then the pads' values. */
#include "cases/bytes/fuzz_bytes_ops.h"

/* Pad's pad_value byte: absent below, present from here. */
#define PAD_VALUE_PRESENT 0x80

static const char *const pad_mode_natural[] = {"constant", "edge", "reflect", "symmetric"};
static const char *const pad_mode_edges[16] = {
    "CONSTANT", "Constant", "EDGE", "Reflect", "SYMMETRIC",   "replicate",  "circular", "",
    "reflect ", "mirror",   "wrap", "zero",    "symmetrical", "reflection", "edges",    "const"};
static const mc_bytes_attr pad_attrs[] = {
    {MC_ATTR_PAD_MODE, .spellings = pad_mode_natural, .n_spellings = 4,
     .string_edges = pad_mode_edges},
};

/* A pad of an axis of d elements: naturally in [-1, 2], at most d - 1 when
   positive, so that every mode accepts it; edges: the limits of the modes
   (d - 1, d, d + 1), crops of the whole axis and past it, the extremes. */
static int64_t take_pad_value(mc_bytes_decoder *d, int64_t dim) {
  const int64_t edges[16] = {0,
                             1,
                             -1,
                             dim,
                             dim - 1,
                             mc_bytes_add_held(dim, 1),
                             -dim,
                             -dim - 1,
                             INT64_MAX,
                             INT64_MIN,
                             mc_bytes_add_held(dim, dim),
                             -mc_bytes_add_held(dim, dim),
                             INT64_MAX - 1,
                             INT64_MIN + 1,
                             MC_BYTES_P2(32),
                             -2};
  mc_bytes_pick p = mc_bytes_take_pick(d, edges);
  int64_t natural = (int64_t)(p.sel % 4) - 1;
  if (natural > 0 && natural > dim - 1)
    natural = dim > 0 ? dim - 1 : 0;
  return mc_bytes_pick_or(p, natural);
}

static bool take_pad(mc_bytes_decoder *d) {
  d->n_inputs = mc_bytes_take_byte(d) < PAD_VALUE_PRESENT ? 3 : 4;
  for (int k = 1; k <= 2; k++)
    if (!mc_bytes_take_side_form(d, &d->in->tensors[k], d->rank))
      return false;
  if (d->n_inputs == 4 && !mc_bytes_take_data_scalar(d, &d->in->tensors[3]))
    return false;
  for (int a = 0; a < d->rank; a++)
    mc_bytes_take_dim(d, a, 1, 1, d->span, 0, false);
  mc_bytes_settle_dims(d);
  for (int k = 1; k <= 2; k++) {
    mc_tensor *t = &d->in->tensors[k];
    for (int64_t i = 0; i < mc_bytes_side_count(t); i++) {
      const int64_t dim =
          i < d->rank && d->in->tensors[0].shape[i] >= 0 ? d->in->tensors[0].shape[i] : 1;
      mc_bytes_store_side(t, i, take_pad_value(d, dim));
    }
  }
  return true;
}

static bool put_pad(mc_bytes_encoder *e) {
  const mc_request *req = mc_bytes_put_request(e);
  mc_bytes_put_raw_byte(e, req->n_inputs == 4 ? PAD_VALUE_PRESENT : 0);
  for (int k = 1; k <= 2; k++)
    if (!mc_bytes_put_side_form(e, k))
      return false;
  if (req->n_inputs == 4 && !mc_bytes_put_data_scalar(e, 3))
    return false;
  mc_bytes_put_dims(e);
  for (int k = 1; k <= 2; k++)
    mc_bytes_put_side_values(e, k);
  return true;
}

const mc_bytes_op mc_bytes_pad_12 = {{1, 2, 3, 4, 2, 3, 1, 4}, take_pad, put_pad, pad_attrs, 1};
