/* Slice-8's part of the fuzz byte layout (fuzz/README.md): how many
   entries start, stop, step (and axes) have, whether axes is there, the
   side inputs' forms, the axes' values, the data's dimensions, then the
   values of start, stop and step. */
#include <string.h>

#include "cases/bytes/fuzz_bytes_ops.h"

/* Slice's axes byte: absent below, present from here. */
#define SLICE_AXES_PRESENT 0x40

/* Slice's bounds and steps are valid whatever they are (but a step of 0):
   what breaks implementations is where they clamp. These are the values
   its decoder reaches often, for an axis of d elements and a side input of
   type t: 0, +-1, +-d, +-(d + 1), the int64 extremes, t's own minimum and
   maximum, and u64 values above INT64_MAX (negative bits; -1 reads
   UINT64_MAX). */
static void slice_edges(int64_t d, mc_type t, int64_t edges[16]) {
  const mc_type_info *info = mc_type_get(t);
  const unsigned bits = info && info->is_integer && info->bits < 64 ? info->bits : 64;
  const bool is_signed = !info || !info->is_integer || info->is_signed;
  const int64_t top = bits == 64 ? INT64_MAX : MC_BYTES_P2(bits - 1) - 1;
  const int64_t t_min = is_signed ? -top - 1 : 0;
  const int64_t t_max = is_signed ? top : bits == 64 ? -1 : 2 * top + 1;
  const int64_t e[16] = {0,
                         1,
                         -1,
                         d,
                         -d,
                         mc_bytes_add_held(d, 1),
                         -d - 1,
                         INT64_MAX,
                         INT64_MIN,
                         t_min,
                         t_max,
                         d - 1,
                         INT64_MIN + 1,
                         INT64_MIN + d,
                         -2,
                         MC_BYTES_P2(31)};
  memcpy(edges, e, sizeof e);
}

/* The data axis entry i of the side inputs names, when it names one. */
static bool slice_axis(const mc_bytes_decoder *d, int64_t i, int *axis) {
  int64_t a = i;
  if (d->n_inputs == 5 && !mc_bytes_side_value(&d->in->tensors[4], (int)i, &a))
    return false;
  if (a < 0)
    a += d->rank;
  *axis = (int)a;
  return a >= 0 && a < d->rank;
}

/* How many entries start, stop, step (and axes) have when natural: the
   rank most often, fewer (unnamed axes taken whole), none (output =
   data); edges: more than the rank, and up to the 64 a side input holds. */
static int64_t take_slice_count(mc_bytes_decoder *d) {
  const int64_t r = d->rank;
  const int64_t natural[8] = {r, r, r, r > 0 ? r - 1 : 0, r, 1, r, 0};
  const int64_t edges[16] = {0, 1, 2, 3, r + 1, r + 2, 2 * r, 16, 17, 32, 64, 65, r, r, 1, 0};
  mc_bytes_pick p = mc_bytes_take_pick(d, edges);
  if (p.kind == MC_BYTES_PICK_VALUE)
    return (int64_t)((uint64_t)p.value % (MC_FUZZ_MAX_SIDE_ELEMENTS + 2));
  return natural[p.sel % 8];
}

/* axes: naturally entry i names axis i, counted from either end, so they
   are distinct; edges: out of range either side (r, -r - 1, the int64
   extremes, 2^32), repeated (the previous entry, or its axis from the
   other end: 1 and 1 - r), reversed. */
static void take_slice_axes(mc_bytes_decoder *d) {
  mc_tensor *t = &d->in->tensors[4];
  const int64_t r = d->rank, count = mc_bytes_side_count(t);
  for (int64_t i = 0; i < count; i++) {
    const int64_t prev = mc_bytes_previous_side_value(t, i);
    const int64_t edges[16] = {0,
                               -1,
                               r,
                               -r - 1,
                               r - 1,
                               -r,
                               prev,
                               prev < 0 ? prev + r : prev - r,
                               INT64_MAX,
                               INT64_MIN,
                               MC_BYTES_P2(32),
                               r - 1 - i,
                               1 - r,
                               i + 1,
                               MC_BYTES_P2(32) + i,
                               i - r};
    mc_bytes_pick p = mc_bytes_take_pick(d, edges);
    mc_bytes_store_side(t, i, mc_bytes_pick_or(p, p.sel % 8 == 2 || p.sel % 8 == 5 ? i - r : i));
  }
}

/* Starts or stops: selectors below 0x80 a place on the axis (from its
   start, or from its end with bit 6), the others an edge value, so that
   half the natural bounds sit where clamping happens. */
static int64_t slice_bound(uint8_t sel, int64_t extent, const int64_t edges[16]) {
  if (sel >= 0x80)
    return edges[sel % 16];
  const int64_t v = extent < 0x3F ? (sel & 0x3F) % (extent + 1) : sel & 0x3F;
  return sel & 0x40 ? v - extent : v;
}

/* Steps: small ones of both signs below 0x80, else an edge value that is
   not 0 in the side input's type (a step of 0 only from the edge
   selector: step_zero). */
static int64_t slice_step(uint8_t sel, mc_type t, const int64_t edges[16]) {
  static const int64_t small[8] = {1, 1, 2, -1, 1, 3, -2, -1};
  if (sel < 0x80)
    return small[sel % 8];
  const unsigned bits = mc_type_bits(t);
  const uint64_t mask = bits == 0 || bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
  const int64_t v = edges[sel % 16];
  return ((uint64_t)v & mask) != 0 ? v : 1;
}

void mc_bytes_take_slice_value(mc_bytes_decoder *d, mc_tensor *t, int64_t i, int64_t extent,
                               bool is_step) {
  int64_t edges[16];
  slice_edges(extent, t->type, edges);
  mc_bytes_pick p = mc_bytes_take_pick(d, edges);
  int64_t natural = is_step ? slice_step(p.sel, t->type, edges) : slice_bound(p.sel, extent, edges);
  mc_bytes_store_side(t, i, mc_bytes_pick_or(p, natural));
}

/* start, stop, step (k = 1, 2, 3): entry i's values for the axis it
   names (an axis of 1 element when it names none). Dimensions up to
   INT64_MAX (beside a 0) keep every edge within int64. */
static void take_slice_values(mc_bytes_decoder *d, int k) {
  mc_tensor *t = &d->in->tensors[k];
  const int64_t count = mc_bytes_side_count(t);
  for (int64_t i = 0; i < count; i++) {
    int axis;
    int64_t extent = 1; /* also for a negative dimension, refused with the data */
    if (slice_axis(d, i, &axis) && d->in->tensors[0].shape[axis] >= 0)
      extent = d->in->tensors[0].shape[axis];
    mc_bytes_take_slice_value(d, t, i, extent, k == 3);
  }
}

/* Any axis may be sliced: every dimension 1 + s % span. */
static void take_slice_dims(mc_bytes_decoder *d) {
  for (int a = 0; a < d->rank; a++)
    mc_bytes_take_dim(d, a, 1, 1, d->span, 0, false);
  mc_bytes_settle_dims(d);
}

/* The count, whether axes is there (a byte: absent below 0x40), the side
   inputs' forms, the axes' values, the data's dimensions, then the values
   of start, stop and step. */
static bool take_slice(mc_bytes_decoder *d) {
  const int64_t count = take_slice_count(d);
  d->n_inputs = mc_bytes_take_byte(d) < SLICE_AXES_PRESENT ? 4 : 5;
  for (int k = 1; k < d->n_inputs; k++)
    if (!mc_bytes_take_side_form(d, &d->in->tensors[k], count))
      return false;
  if (d->n_inputs == 5)
    take_slice_axes(d);
  take_slice_dims(d);
  for (int k = 1; k < 4; k++)
    take_slice_values(d, k);
  return true;
}

/* Slice: take_slice's order; the count field says start's length. */
static bool put_slice(mc_bytes_encoder *e) {
  const mc_request *req = mc_bytes_put_request(e);
  const int64_t count = req->inputs[1]->rank == 1 ? req->inputs[1]->shape[0] : 0;
  mc_bytes_put_exact(e, (uint64_t)(count >= 0 && count <= MC_FUZZ_MAX_SIDE_ELEMENTS ? count : 0));
  mc_bytes_put_raw_byte(e, req->n_inputs == 5 ? SLICE_AXES_PRESENT : 0);
  for (int k = 1; k < req->n_inputs; k++)
    if (!mc_bytes_put_side_form(e, k))
      return false;
  if (req->n_inputs == 5)
    mc_bytes_put_side_values(e, 4);
  mc_bytes_put_dims(e);
  for (int k = 1; k < 4; k++)
    mc_bytes_put_side_values(e, k);
  return true;
}

const mc_bytes_op mc_bytes_slice_8 = {{1, 2, 3, 4, 2, 3, 5, 6}, take_slice, put_slice, NULL, 0};
