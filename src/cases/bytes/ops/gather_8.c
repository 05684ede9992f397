/* Gather-8's part of the fuzz byte layout (fuzz/README.md): how many
   values indices has, the forms of indices and axis, axis's values, the
   data's dimensions, then the index values (which read the gathered
   axis's length). Indices of any rank and shape arrive through the side
   form's explicit shape; natural ones are 1-D. */
#include "cases/bytes/fuzz_bytes_ops.h"

enum { INDICES = 1, AXIS = 2 };

/* The number of indices: 1 to 6 most often; edges: none, and up to the 64
   a side input holds. */
static int64_t take_index_count(mc_bytes_decoder *d) {
  static const int64_t natural[8] = {1, 2, 3, 4, 2, 5, 6, 3};
  static const int64_t edges[16] = {0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1};
  mc_bytes_pick p = mc_bytes_take_pick(d, edges);
  if (p.kind == MC_BYTES_PICK_VALUE)
    return (int64_t)((uint64_t)p.value % (MC_FUZZ_MAX_SIDE_ELEMENTS + 2));
  return natural[p.sel % 8];
}

/* batch_dims normalized over the indices' rank, 0 when out of range. */
static int64_t batch_of(const mc_bytes_decoder *d) {
  const int64_t c = mc_attrs_int(&d->in->req.attrs, MC_ATTR_BATCH_DIMS);
  const int64_t q = d->in->tensors[INDICES].rank;
  if (c < -q || c > q)
    return 0;
  return c < 0 ? c + q : c;
}

/* Axis values: naturally an axis at or after the batch axes, sometimes
   counted from the end; edges: one past either end, the extremes, 2^32
   plus an axis (a truncation to 32 bits would accept it). */
static void take_axis_values(mc_bytes_decoder *d, int64_t b) {
  mc_tensor *t = &d->in->tensors[AXIS];
  const int64_t r = d->rank, count = mc_bytes_side_count(t);
  const int64_t edges[16] = {
      0,   -1,  r, -r,    -r - 1, r - 1, INT64_MAX, INT64_MIN, MC_BYTES_P2(32), MC_BYTES_P2(32) + 1,
      255, 256, b, b - 1, 1,      -2};
  for (int64_t i = 0; i < count; i++) {
    mc_bytes_pick p = mc_bytes_take_pick(d, edges);
    int64_t natural = r > b ? b + p.sel % (r - b) : 0;
    if (natural > 0 && p.sel >= 0xC0)
      natural -= r;
    mc_bytes_store_side(t, i, mc_bytes_pick_or(p, natural));
  }
}

/* The gathered axis as the operation will read it, or -1. */
static int gathered_axis(const mc_bytes_decoder *d) {
  int64_t x;
  const mc_tensor *t = &d->in->tensors[AXIS];
  if (mc_bytes_side_count(t) != 1 || !mc_bytes_side_value(t, 0, &x) || x < -d->rank || x >= d->rank)
    return -1;
  return (int)(x < 0 ? x + d->rank : x);
}

/* Index values: naturally in [-d, d-1]; edges: just out of range on both
   sides, the extremes, and values that wrap to valid ones when truncated. */
static void take_index_values(mc_bytes_decoder *d) {
  mc_tensor *t = &d->in->tensors[INDICES];
  const int a = gathered_axis(d);
  /* Dimensions here are at least 0, and may be as large as int64 holds:
     the edges are held at its limits rather than overflow. */
  const int64_t len = a >= 0 && d->in->tensors[0].shape[a] >= 0 ? d->in->tensors[0].shape[a] : 1;
  const int64_t edges[16] = {len,
                             mc_bytes_add_held(-len, -1),
                             len - 1,
                             -len,
                             INT64_MAX,
                             INT64_MIN,
                             -1,
                             0,
                             MC_BYTES_P2(32),
                             MC_BYTES_P2(32) + 1,
                             255,
                             256,
                             65535,
                             65536,
                             MC_BYTES_P2(31),
                             mc_bytes_add_held(len, len)};
  for (int64_t i = 0; i < mc_bytes_side_count(t); i++) {
    mc_bytes_pick p = mc_bytes_take_pick(d, edges);
    const int64_t natural =
        len > 0 && len <= INT64_MAX / 2 ? (int64_t)(p.sel % (2 * (uint64_t)len)) - len : 0;
    mc_bytes_store_side(t, i, mc_bytes_pick_or(p, natural));
  }
}

/* The count, the forms, axis, the dimensions (the batch axes copy the
   indices' own), then the index values. */
static bool take_gather(mc_bytes_decoder *d) {
  const int64_t count = take_index_count(d);
  mc_tensor *indices = &d->in->tensors[INDICES];
  if (!mc_bytes_take_side_form(d, indices, count) ||
      !mc_bytes_take_side_form(d, &d->in->tensors[AXIS], 1))
    return false;
  const int64_t b = batch_of(d);
  take_axis_values(d, b);
  for (int a = 0; a < d->rank; a++) {
    if (a < b && indices->shape[a] >= 0 && indices->shape[a] <= d->span)
      mc_bytes_take_dim(d, a, 0, 0, 1, indices->shape[a], false);
    else
      mc_bytes_take_dim(d, a, 1, 1, d->span, 0, false);
  }
  mc_bytes_settle_dims(d);
  take_index_values(d);
  return true;
}

/* take_gather's order; the count field says a 1-D indices' length. */
static bool put_gather(mc_bytes_encoder *e) {
  const mc_request *req = mc_bytes_put_request(e);
  const mc_tensor *indices = req->inputs[INDICES];
  const int64_t count = indices->rank == 1 ? indices->shape[0] : 0;
  mc_bytes_put_exact(e, (uint64_t)(count >= 0 && count <= MC_FUZZ_MAX_SIDE_ELEMENTS ? count : 0));
  if (!mc_bytes_put_side_form(e, INDICES) || !mc_bytes_put_side_form(e, AXIS))
    return false;
  mc_bytes_put_side_values(e, AXIS);
  mc_bytes_put_dims(e);
  mc_bytes_put_side_values(e, INDICES);
  return true;
}

static const int64_t batch_natural[8] = {0, 0, 0, 1, 0, -1, 0, 1};
static const mc_bytes_attr attrs[] = {
    {MC_ATTR_BATCH_DIMS, .natural = batch_natural, .edges = mc_bytes_int_edges},
};

const mc_bytes_op mc_bytes_gather_8 = {{1, 2, 3, 2, 1, 4, 3, 2}, take_gather, put_gather, attrs, 1};
