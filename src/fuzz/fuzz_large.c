/* Large requests for `movconf fuzz`: valid requests whose outputs sit around
   the sizes where real kernels change path - total sizes near 2^12, 2^16,
   2^20 and 2^22-2^24 elements, innermost extents at vector widths and their
   tails, channel counts at blocked-layout multiples and beside them, outer
   extents prime and below a thread count. */
#include <string.h>

#include "fuzz/fuzz_ops.h"
#include "movconf/tensor.h"

static int64_t pick(mc_rng *g, const int64_t *values, size_t n) {
  return values[mc_rng_below(g, n)];
}
#define PICK(g, array) pick(g, array, sizeof array / sizeof *array)

static const int64_t inner_extents[] = {1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65};
static const int64_t channel_counts[] = {7, 8, 9, 15, 16, 17, 31, 32, 33, 3, 5, 12, 24, 48};
static const int64_t outer_extents[] = {1, 2, 3, 5, 7};
static const int64_t blocks[] = {2, 3, 4};

int64_t mc_fuzz_pick(mc_rng *g, mc_fuzz_extent which) {
  switch (which) {
  case MC_FUZZ_INNER:
    return PICK(g, inner_extents);
  case MC_FUZZ_CHANNELS:
    return PICK(g, channel_counts);
  case MC_FUZZ_OUTER:
    return PICK(g, outer_extents);
  case MC_FUZZ_BLOCK:
    return PICK(g, blocks);
  }
  return 1;
}

/* The output sizes: 2^k give or take a few elements, small k far more
   often: a 2^24-element request costs the oracle about a second, a 2^12 one
   microseconds, so the large sizes are drawn in proportion to their cost. */
static const struct {
  int percent, exponent;
} sizes[] = {{45, 12}, {35, 16}, {13, 20}, {4, 22}, {2, 23}, {1, 24}};

/* The size class drawn, then a class smaller while a request of it would
   move more than max_bytes (bits: of an element), 2^12 at the least; the
   draws stay those of an unbounded campaign. */
static size_t size_class(mc_rng *g, unsigned bits, double max_bytes) {
  int draw = (int)mc_rng_below(g, 100);
  size_t i = 0;
  for (; i + 1 < sizeof sizes / sizeof *sizes && draw >= sizes[i].percent; i++)
    draw -= sizes[i].percent;
  while (i > 0 && mc_fuzz_large_bytes((int64_t)1 << sizes[i].exponent, bits) > max_bytes)
    i--;
  return i;
}

double mc_fuzz_large_bytes(int64_t elements, unsigned bits) {
  return 2.0 * (double)elements * bits / 8; /* in and out */
}

/* What r (built for an output of about target elements) moves: its data
   in, its output out. A Slice or a Pad reads more or less data than it
   writes. */
static double request_bytes(const mc_owned_request *r, int64_t target) {
  const mc_tensor *d = &r->tensors[0];
  return ((double)mc_tensor_elements(d) + (double)target) * mc_type_bits(d->type) / 8;
}

static mc_type draw_type(mc_rng *g) {
  static const mc_type common[] = {MC_U8, MC_F16, MC_F32, MC_F64};
  if (mc_rng_below(g, 8) == 0)
    return (mc_type)mc_rng_below(g, MC_TYPE_COUNT);
  return common[mc_rng_below(g, 4)];
}

int64_t mc_fuzz_rows_for(int64_t target, int64_t n, int64_t c, int64_t w) {
  int64_t rows = target / (n * c * w);
  return rows < 1 ? 1 : rows;
}

bool mc_fuzz_side_input(mc_owned_request *r, int index, const int64_t *values) {
  int64_t shape[1] = {4};
  mc_tensor *t = &r->tensors[index];
  if (mc_tensor_alloc(t, MC_I64, 1, shape, MC_FUZZ_LARGE_CAP) != MC_OK)
    return false;
  for (int i = 0; i < 4; i++)
    mc_store_bits(t->data, MC_I64, i, (uint64_t)values[i]);
  return true;
}

bool mc_fuzz_large_data(mc_rng *g, mc_owned_request *r, mc_type type, const int64_t shape[4]) {
  return mc_owned_request_set_data(r, type, 4, shape, (int64_t)mc_rng_below(g, 1000));
}

static void empty_large_request(mc_owned_request *out, mc_op op) {
  memset(out, 0, sizeof *out);
  out->req.op = op;
  out->req.attrs = mc_attrs_none();
  out->max_output_bytes = MC_FUZZ_LARGE_CAP;
}

bool mc_fuzz_large_request(mc_rng *g, mc_op op, int type, double max_bytes, mc_owned_request *out,
                           bool *too_costly) {
  *too_costly = false;
  empty_large_request(out, op);
  mc_type t = type == MC_TYPE_INVALID ? draw_type(g) : (mc_type)type;
  size_t k = size_class(g, mc_type_bits(t), max_bytes);
  const int64_t jitter = (int64_t)mc_rng_below(g, 9) - 4;
  const mc_fuzz_op_desc *desc = mc_fuzz_op_of(op);
  for (;;) {
    const int64_t target = ((int64_t)1 << sizes[k].exponent) + jitter;
    mc_owned_request_free(out);
    empty_large_request(out, op);
    if (!desc || !desc->large(g, out, t, target)) {
      mc_owned_request_free(out);
      return false;
    }
    /* Built larger than its output (data read in part): a class smaller. */
    if (request_bytes(out, target) <= max_bytes || (k == 0 && max_bytes == 0))
      return true;
    if (k-- == 0) {
      mc_owned_request_free(out);
      *too_costly = true;
      return false;
    }
  }
}
