/* Large requests for `movconf fuzz`: valid requests whose outputs sit around
   the sizes where real kernels change path - total sizes near 2^12, 2^16,
   2^20 and 2^22-2^24 elements, innermost extents at vector widths and their
   tails, channel counts at blocked-layout multiples and beside them, outer
   extents prime and below a thread count. */
#include "harness/fuzz_request.h"

#include <string.h>

#include "cases/payload.h"
#include "movconf/tensor.h"

#define LARGE_CAP ((size_t)1 << 30)

uint64_t mc_rng_next(mc_rng *g) {
  return mc_splitmix64(g->seed, g->index++);
}

uint64_t mc_rng_below(mc_rng *g, uint64_t n) {
  return n ? mc_rng_next(g) % n : 0;
}

static int64_t pick(mc_rng *g, const int64_t *values, size_t n) {
  return values[mc_rng_below(g, n)];
}
#define PICK(g, array) pick(g, array, sizeof array / sizeof *array)

static const int64_t inner_extents[] = {1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65};
static const int64_t channel_counts[] = {7, 8, 9, 15, 16, 17, 31, 32, 33, 3, 5, 12, 24, 48};
static const int64_t outer_extents[] = {1, 2, 3, 5, 7};
static const int64_t blocks[] = {2, 3, 4};

/* An output size: 2^k give or take a few elements, small k far more often:
   a 2^24-element request costs the oracle about a second, a 2^12 one
   microseconds, so the large sizes are drawn in proportion to their cost. */
static int64_t target_elements(mc_rng *g) {
  static const struct {
    int percent, exponent;
  } sizes[] = {{45, 12}, {35, 16}, {13, 20}, {4, 22}, {2, 23}, {1, 24}};
  int draw = (int)mc_rng_below(g, 100), k = 12;
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    if (draw < sizes[i].percent) {
      k = sizes[i].exponent;
      break;
    }
    draw -= sizes[i].percent;
  }
  return ((int64_t)1 << k) + (int64_t)mc_rng_below(g, 9) - 4;
}

static mc_type draw_type(mc_rng *g) {
  static const mc_type common[] = {MC_U8, MC_F16, MC_F32, MC_F64};
  if (mc_rng_below(g, 8) == 0)
    return (mc_type)mc_rng_below(g, MC_TYPE_COUNT);
  return common[mc_rng_below(g, 4)];
}

/* The rows needed for about target elements of n x c x rows x w. */
static int64_t rows_for(int64_t target, int64_t n, int64_t c, int64_t w) {
  int64_t rows = target / (n * c * w);
  return rows < 1 ? 1 : rows;
}

static bool side_input(mc_owned_request *r, int index, const int64_t *values) {
  int64_t shape[1] = {4};
  mc_tensor *t = &r->tensors[index];
  if (mc_tensor_alloc(t, MC_I64, 1, shape, LARGE_CAP) != MC_OK)
    return false;
  for (int i = 0; i < 4; i++)
    mc_store_bits(t->data, MC_I64, i, (uint64_t)values[i]);
  return true;
}

/* Block and crops (B2S) or pads (S2B) on the two inner axes; the data
   shape follows from the output wanted. */
static bool batch_request(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  bool b2s = r->req.op == MC_OP_BATCH_TO_SPACE;
  int64_t bh = PICK(g, blocks), bw = PICK(g, blocks);
  int64_t n = PICK(g, outer_extents), c = PICK(g, channel_counts), w = PICK(g, inner_extents);
  int64_t h = rows_for(target, n * bh * bw, c, w); /* data and output: n*bh*bw*c*h*w elements */
  int64_t block[4] = {1, 1, bh, bw}, begin[4] = {0}, end[4] = {0};
  int64_t shape[4];
  if (b2s) { /* output [n, c, h*bh - crops, w*bw - crops] */
    begin[2] = (int64_t)mc_rng_below(g, (uint64_t)bh);
    begin[3] = (int64_t)mc_rng_below(g, (uint64_t)bw);
    end[3] = w > 1 ? (int64_t)mc_rng_below(g, (uint64_t)bw) : 0; /* crops stay within w*bw */
    int64_t s[4] = {n * bh * bw, c, h, w};
    memcpy(shape, s, sizeof s);
  } else { /* pads make h and w multiples of the block */
    begin[2] = (int64_t)mc_rng_below(g, (uint64_t)bh);
    end[2] = (bh - (h * bh + begin[2]) % bh) % bh;
    begin[3] = (int64_t)mc_rng_below(g, (uint64_t)bw);
    int64_t wide = w * bw - begin[3];
    end[3] = (bw - (wide + begin[3]) % bw) % bw;
    int64_t s[4] = {n, c, h * bh, wide};
    memcpy(shape, s, sizeof s);
  }
  r->req.n_inputs = 4;
  return side_input(r, 1, block) && side_input(r, 2, begin) && side_input(r, 3, end) &&
         mc_owned_request_set_data(r, type, 4, shape, (int64_t)mc_rng_below(g, 1000));
}

static bool set_mode(mc_owned_request *r, mc_rng *g) {
  static const char *const modes[] = {"blocks_first", "depth_first"};
  r->strings[MC_ATTR_MODE] = strdup(modes[mc_rng_below(g, 2)]);
  return r->strings[MC_ATTR_MODE] != NULL;
}

static bool depth_request(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  int64_t bs = PICK(g, blocks);
  int64_t n = PICK(g, outer_extents), c = PICK(g, channel_counts), w = PICK(g, inner_extents);
  int64_t h = rows_for(target, n, c * bs * bs, w);
  mc_attrs_set_int(&r->req.attrs, MC_ATTR_BLOCK_SIZE, bs);
  r->req.n_inputs = 1;
  if (!set_mode(r, g))
    return false;
  if (r->req.op == MC_OP_SPACE_TO_DEPTH) { /* output [n, c*bs^2, h, w] */
    int64_t shape[4] = {n, c, h * bs, w * bs};
    return mc_owned_request_set_data(r, type, 4, shape, (int64_t)mc_rng_below(g, 1000));
  }
  int64_t shape[4] = {n, c * bs * bs, h, w}; /* output [n, c, h*bs, w*bs] */
  return mc_owned_request_set_data(r, type, 4, shape, (int64_t)mc_rng_below(g, 1000));
}

static void set_list(mc_attrs *a, mc_attr id, int64_t rows, int64_t cols) {
  mc_int_list *l = mc_attrs_list_slot(a, id);
  l->count = 2;
  l->v[0] = rows;
  l->v[1] = cols;
}

/* Patches: with stride 1 and size above 1 the output outgrows the input. */
static bool patches_request(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  static const char *const pads[] = {"valid", "same_upper", "same_lower"};
  int64_t kh = 1 + (int64_t)mc_rng_below(g, 3), kw = 1 + (int64_t)mc_rng_below(g, 3);
  int64_t stride = 1 + (int64_t)mc_rng_below(g, 2), rate = 1 + (int64_t)mc_rng_below(g, 2);
  int64_t n = PICK(g, outer_extents), c = PICK(g, channel_counts), w = PICK(g, inner_extents);
  int64_t h = rows_for(target, n, c * kh * kw, w);
  set_list(&r->req.attrs, MC_ATTR_SIZES, kh, kw);
  set_list(&r->req.attrs, MC_ATTR_STRIDES, stride, stride);
  set_list(&r->req.attrs, MC_ATTR_RATES, rate, rate);
  r->strings[MC_ATTR_AUTO_PAD] = strdup(pads[mc_rng_below(g, 3)]);
  r->req.n_inputs = 1;
  /* Enough input that a valid patch fits; then stride scales it back up. */
  int64_t shape[4] = {n, c, h * stride + (kh - 1) * rate, w * stride + (kw - 1) * rate};
  return r->strings[MC_ATTR_AUTO_PAD] &&
         mc_owned_request_set_data(r, type, 4, shape, (int64_t)mc_rng_below(g, 1000));
}

/* A divisor of c drawn at random (1 and c included). */
static int64_t draw_divisor(mc_rng *g, int64_t c) {
  int64_t divisors[64], n = 0;
  for (int64_t d = 1; d <= c && n < 64; d++)
    if (c % d == 0)
      divisors[n++] = d;
  return divisors[mc_rng_below(g, (uint64_t)n)];
}

/* Channels first ([n, c, h, w], the tiled path when w is short) or last
   ([n, h, w, c]: inner 1), the axis counted from either end. */
static bool shuffle_request(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  int64_t n = PICK(g, outer_extents), c = PICK(g, channel_counts), w = PICK(g, inner_extents);
  int64_t h = rows_for(target, n, c, w);
  bool last = mc_rng_below(g, 3) == 0, from_end = mc_rng_below(g, 2) == 0;
  int64_t axis = last ? 3 : 1;
  mc_attrs_set_int(&r->req.attrs, MC_ATTR_AXIS, from_end ? axis - 4 : axis);
  mc_attrs_set_int(&r->req.attrs, MC_ATTR_GROUP, draw_divisor(g, c));
  r->req.n_inputs = 1;
  int64_t first[4] = {n, c, h, w}, channels_last[4] = {n, h, w, c};
  return mc_owned_request_set_data(r, type, 4, last ? channels_last : first,
                                   (int64_t)mc_rng_below(g, 1000));
}

bool mc_fuzz_large_request(mc_rng *g, mc_op op, int type, mc_owned_request *out) {
  memset(out, 0, sizeof *out);
  out->req.op = op;
  out->req.attrs = mc_attrs_none();
  out->max_output_bytes = LARGE_CAP;
  mc_type t = type == MC_TYPE_INVALID ? draw_type(g) : (mc_type)type;
  int64_t target = target_elements(g);
  bool ok = false;
  switch (op) {
  case MC_OP_BATCH_TO_SPACE:
  case MC_OP_SPACE_TO_BATCH:
    ok = batch_request(g, out, t, target);
    break;
  case MC_OP_SPACE_TO_DEPTH:
  case MC_OP_DEPTH_TO_SPACE:
    ok = depth_request(g, out, t, target);
    break;
  case MC_OP_EXTRACT_IMAGE_PATCHES:
    ok = patches_request(g, out, t, target);
    break;
  case MC_OP_SHUFFLE_CHANNELS:
    ok = shuffle_request(g, out, t, target);
    break;
  case MC_OP_INVALID:
  case MC_OP_COUNT:
    break;
  }
  if (!ok)
    mc_owned_request_free(out);
  return ok;
}
