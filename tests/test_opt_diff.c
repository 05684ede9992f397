/* The optimized kernels against the oracle on seeded random valid requests
   of every operation and element type, bitwise, with 1, 2, 3 and 7 threads,
   ordinary and streaming stores, baseline and AVX2 kernels; plus the row
   primitives the kernels are built from. */
#include <stdlib.h>

#include "cases/bytes/fuzz_bytes.h"
#include "check.h"
#include "movconf/optimized.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"
#include "optimized/kernels.h"

#define CAP MC_DEFAULT_MAX_OUTPUT_BYTES

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t next_random(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static int64_t pick(int64_t lo, int64_t hi) {
  return lo + (int64_t)(next_random() % (uint64_t)(hi - lo + 1));
}

typedef struct request_store {
  mc_tensor data, side[4];
  mc_request req;
} request_store;

static void fill_random(mc_tensor *t) {
  int64_t n = mc_tensor_elements(t);
  for (int64_t i = 0; i < n; i++)
    mc_store_bits(t->data, t->type, i, next_random());
}

static void make_typed_data(request_store *s, mc_type type, int rank, const int64_t *shape) {
  if (mc_tensor_alloc(&s->data, type, rank, shape, CAP) != MC_OK)
    abort();
  fill_random(&s->data);
  s->req.inputs[0] = &s->data;
}

static void make_data(request_store *s, int rank, const int64_t *shape) {
  make_typed_data(s, (mc_type)pick(0, MC_TYPE_COUNT - 1), rank, shape);
}

static void make_side(request_store *s, int k, int n, const int64_t *values) {
  static const mc_type side_types[] = {MC_I8, MC_I16, MC_I32, MC_I64,
                                       MC_U8, MC_U16, MC_U32, MC_U64};
  mc_tensor *t = &s->side[k];
  int64_t shape[1] = {n}, largest = 0, smallest = 0;
  for (int i = 0; i < n; i++) {
    largest = values[i] > largest ? values[i] : largest;
    smallest = values[i] < smallest ? values[i] : smallest;
  }
  mc_type type = side_types[pick(0, 7)];
  if (smallest < 0) /* a negative value keeps its sign */
    type = side_types[pick(0, 3)];
  if (largest > 127 || smallest < -128) /* every value must fit the narrowest type drawn */
    type = MC_I64;
  if (mc_tensor_alloc(t, type, 1, shape, CAP) != MC_OK)
    abort();
  for (int i = 0; i < n; i++)
    mc_store_bits(t->data, t->type, i, (uint64_t)values[i]);
  s->req.inputs[k + 1] = t;
}

/* BatchToSpace or SpaceToBatch: blocks, and crops that fit / pads that divide. */
static void make_batch_space(request_store *s, bool to_space) {
  int n = (int)pick(2, 5);
  int64_t block[5] = {1}, begin[5] = {0}, end[5] = {0}, shape[5];
  int64_t product = 1;
  for (int i = 1; i < n; i++) {
    /* Now and then a last-axis block beyond MC_MAX_WAYS (the strided path). */
    block[i] = i == n - 1 && pick(0, 9) == 0 ? pick(65, 67) : pick(1, 3);
    product *= block[i];
    shape[i] = pick(0, 9) == 0 ? 0 : pick(1, 5);
    if (to_space) {
      int64_t room = shape[i] * block[i];
      begin[i] = pick(0, room);
      end[i] = pick(0, room - begin[i]);
    } else {
      begin[i] = pick(0, 3);
      end[i] = pick(0, 3);
      end[i] += (block[i] - (shape[i] + begin[i] + end[i]) % block[i]) % block[i];
    }
  }
  shape[0] = to_space ? pick(0, 3) * product : pick(0, 3);
  s->req = (mc_request){.op = to_space ? MC_OP_BATCH_TO_SPACE : MC_OP_SPACE_TO_BATCH,
                        .n_inputs = 4,
                        .attrs = mc_attrs_none()};
  make_data(s, n, shape);
  make_side(s, 0, n, block);
  make_side(s, 1, n, begin);
  make_side(s, 2, n, end);
}

static void make_space_depth(request_store *s, bool to_depth) {
  int rank = (int)pick(3, 5);
  int64_t bs = pick(1, 3), shape[5] = {pick(1, 2), pick(1, 4)};
  if (pick(0, 9) == 0) { /* a block beyond MC_MAX_WAYS, on one spatial axis */
    rank = 3;
    bs = pick(65, 67);
  }
  int64_t volume = 1;
  for (int i = 2; i < rank; i++) {
    shape[i] = to_depth ? bs * pick(0, 3) : pick(1, 3);
    volume *= bs;
  }
  if (!to_depth)
    shape[1] = pick(1, 2) * volume;
  s->req = (mc_request){.op = to_depth ? MC_OP_SPACE_TO_DEPTH : MC_OP_DEPTH_TO_SPACE,
                        .n_inputs = 1,
                        .attrs = mc_attrs_none()};
  mc_attrs_set_int(&s->req.attrs, MC_ATTR_BLOCK_SIZE, bs);
  mc_attrs_set_string(&s->req.attrs, MC_ATTR_MODE, pick(0, 1) ? "blocks_first" : "depth_first");
  make_data(s, rank, shape);
}

static void make_patches(request_store *s) {
  static const char *const pads[3] = {"valid", "same_upper", "same_lower"};
  int64_t shape[4] = {pick(1, 2), pick(1, 3), pick(0, 9), pick(0, 9)};
  s->req = (mc_request){.op = MC_OP_EXTRACT_IMAGE_PATCHES, .n_inputs = 1, .attrs = mc_attrs_none()};
  mc_attrs_set_list(&s->req.attrs, MC_ATTR_SIZES, &(mc_int_list){2, {pick(1, 4), pick(1, 4)}});
  mc_attrs_set_list(&s->req.attrs, MC_ATTR_STRIDES, &(mc_int_list){2, {pick(1, 4), pick(1, 4)}});
  mc_attrs_set_list(&s->req.attrs, MC_ATTR_RATES, &(mc_int_list){2, {pick(1, 3), pick(1, 3)}});
  mc_attrs_set_string(&s->req.attrs, MC_ATTR_AUTO_PAD, pads[pick(0, 2)]);
  make_data(s, 4, shape);
}

/* ShuffleChannels: every path of the kernel - group 1 or C (a copy),
   groups or positions within MC_MAX_WAYS (weaves of runs of 1, 2, 4, 8
   bytes), other short runs (tiles), long runs (rows) - over ranks 1 to 5
   with the axis counted from either end. */
static void make_shuffle(request_store *s) {
  int rank = (int)pick(1, 5);
  int axis = (int)pick(0, rank - 1);
  int64_t shape[5], group = pick(1, 4), per_group = pick(1, 4);
  if (pick(0, 4) == 0) /* beyond MC_MAX_WAYS: the other weave, or tiles */
    group = pick(65, 70);
  if (pick(0, 4) == 0)
    per_group = pick(65, 70);
  for (int i = 0; i < rank; i++)
    shape[i] = pick(0, 14) == 0 ? 0 : pick(1, i > axis && pick(0, 3) == 0 ? 24 : 3);
  shape[axis] = pick(0, 19) == 0 ? 0 : group * per_group;
  s->req = (mc_request){.op = MC_OP_SHUFFLE_CHANNELS, .n_inputs = 1, .attrs = mc_attrs_none()};
  mc_attrs_set_int(&s->req.attrs, MC_ATTR_AXIS, pick(0, 1) ? axis : axis - rank);
  mc_attrs_set_int(&s->req.attrs, MC_ATTR_GROUP, group);
  make_data(s, rank, shape);
}

/* A Slice request on data of the given type and shape; axes NULL: absent. */
static void slice_request(request_store *s, mc_type type, int rank, const int64_t *shape, int n,
                          const int64_t *start, const int64_t *stop, const int64_t *step,
                          const int64_t *axes) {
  s->req = (mc_request){.op = MC_OP_SLICE, .n_inputs = axes ? 5 : 4, .attrs = mc_attrs_none()};
  make_typed_data(s, type, rank, shape);
  make_side(s, 0, n, start);
  make_side(s, 1, n, stop);
  make_side(s, 2, n, step);
  if (axes)
    make_side(s, 3, n, axes);
}

/* A bound for an axis of length d: in or just beyond the range, now and
   then an int64 extreme. */
static int64_t pick_slice_bound(int64_t d) {
  if (pick(0, 9) == 0)
    return pick(0, 1) ? INT64_MIN : INT64_MAX;
  return pick(-d - 2, d + 2);
}

/* Slice: every path of the kernel - step 1 (row copies, whole axes
   merged), -1 (reversed rows: vectors and tails), other steps (gathers,
   2 by shuffles), packed types (make_data's draw) - with default, explicit
   and negative axes, no sliced axis at all, and empty outputs. */
static void make_slice(request_store *s) {
  static const int64_t steps[] = {1, 1, -1, -1, 2, -2, 3, -3, 5, 7, INT64_MIN, INT64_MAX};
  int rank = (int)pick(1, 5), n = pick(0, 4) == 0 ? 0 : (int)pick(1, rank), order[5];
  int64_t shape[5], start[5], stop[5], step[5], axes[5];
  for (int i = 0; i < rank; i++) {
    shape[i] = pick(0, 19) == 0 ? 0 : pick(1, pick(0, 2) == 0 ? 70 : 4);
    order[i] = i;
  }
  for (int i = rank - 1; i > 0; i--) {
    int j = (int)pick(0, i), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  bool explicit_axes = pick(0, 1);
  for (int k = 0; k < n; k++) {
    int a = explicit_axes ? order[k] : k;
    step[k] = steps[pick(0, 11)];
    start[k] = pick_slice_bound(shape[a]);
    stop[k] = pick_slice_bound(shape[a]);
    axes[k] = pick(0, 1) ? a : a - rank;
  }
  mc_type type = (mc_type)pick(0, MC_TYPE_COUNT - 1);
  slice_request(s, type, rank, shape, n, start, stop, step, explicit_axes ? axes : NULL);
}

static void free_store(request_store *s) {
  mc_tensor_free(&s->data);
  for (int k = 0; k < 4; k++)
    mc_tensor_free(&s->side[k]);
}

/* One request: the oracle's answer, then the optimized one per thread count. */
static bool agrees(const mc_request *req) {
  mc_tensor want, got;
  mc_error err;
  mc_status s = mc_oracle_run(req, CAP, &want, &err);
  if (s != MC_OK) {
    fprintf(stderr, "generator made an invalid request: %s\n", err.message);
    return false;
  }
  static const int threads[4] = {1, 2, 3, 7};
  static const char *const simd[2] = {"sse2", "avx2"};
  bool ok = true;
  for (int run = 0; run < 16 && ok; run++) {
    /* Every thread count with ordinary stores, then with streaming stores;
       the baseline kernels, then the AVX2 ones (where the CPU has AVX2). */
    bool streamed = run % 8 >= 4;
    setenv("MOVCONF_STREAM_MIN_BYTES", streamed ? "0" : "18446744073709551615", 1);
    setenv("MOVCONF_SIMD", simd[run / 8], 1);
    ok = mc_optimized_run(req, CAP, threads[run % 4], &got, &err) == MC_OK &&
         mc_tensor_same(&want, &got);
    if (!ok)
      fprintf(stderr, "%s %s with %d threads (%s stores, %s kernels) differs from the oracle\n",
              mc_op_name(req->op), mc_type_name(req->inputs[0]->type), threads[run % 4],
              streamed ? "streaming" : "ordinary", mc_optimized_simd());
    mc_tensor_free(&got);
  }
  unsetenv("MOVCONF_SIMD");
  mc_tensor_free(&want);
  return ok;
}

/* MOVCONF_SIMD picks the kernels: sse2 always gives the baseline ones, and
   the default is AVX2 exactly when the CPU has it. */
static void test_simd_choice(void) {
  setenv("MOVCONF_SIMD", "sse2", 1);
  CHECK_STR(mc_optimized_simd(), MC_HAVE_AVX2_KERNELS ? "sse2" : "baseline");
  unsetenv("MOVCONF_SIMD");
#if MC_HAVE_AVX2_KERNELS
  CHECK_STR(mc_optimized_simd(), __builtin_cpu_supports("avx2") ? "avx2" : "sse2");
#endif
}

/* Data and output of a request from fuzz bytes at most this large, as the
   makers' above: 16 checks of each, under the sanitizers too. */
#define FROM_BYTES_MAX ((size_t)16 << 10)

/* A valid request of op from random fuzz bytes (the fuzz targets'
   decoder, cases/bytes/fuzz_bytes.h), for the operations without a maker
   of their own above: natural selector bytes only, so that most decode to
   valid requests of the small size class; drawn again until the kernels'
   validation accepts one within FROM_BYTES_MAX (agrees() asks the oracle:
   a request only one of them accepts fails there). False (in owning
   nothing) when none did. */
static bool make_from_bytes(mc_op op, mc_fuzz_input *in) {
  for (int tries = 0; tries < 100; tries++) {
    uint8_t bytes[96];
    for (size_t i = 0; i < sizeof bytes; i++)
      bytes[i] = (uint8_t)(next_random() % 0xE0);
    bytes[0] = (uint8_t)op;
    if (!mc_fuzz_decode(bytes, sizeof bytes, in))
      continue;
    mc_type type;
    int rank;
    int64_t shape[MC_MAX_RANK];
    mc_error err;
    /* byte 0 names the operation today; the op test keeps a changed
       decoder from counting one operation's requests under another */
    if (in->req.op == op && in->req.inputs[0]->nbytes <= FROM_BYTES_MAX &&
        mc_optimized_output_shape(&in->req, FROM_BYTES_MAX, &type, &rank, shape, &err) == MC_OK)
      return true;
    mc_fuzz_input_free(in);
  }
  return false;
}

/* A random valid request of op: its maker's, else from fuzz bytes (then
 *decoded owns it). */
static bool make_request(mc_op op, request_store *s, mc_fuzz_input *decoded) {
  if (op == MC_OP_BATCH_TO_SPACE || op == MC_OP_SPACE_TO_BATCH)
    make_batch_space(s, op == MC_OP_BATCH_TO_SPACE);
  else if (op == MC_OP_SPACE_TO_DEPTH || op == MC_OP_DEPTH_TO_SPACE)
    make_space_depth(s, op == MC_OP_SPACE_TO_DEPTH);
  else if (op == MC_OP_EXTRACT_IMAGE_PATCHES)
    make_patches(s);
  else if (op == MC_OP_SHUFFLE_CHANNELS)
    make_shuffle(s);
  else if (op == MC_OP_SLICE)
    make_slice(s);
  else if (!make_from_bytes(op, decoded))
    return false;
  else
    s->req = decoded->req;
  return true;
}

static void test_random_requests(void) {
  int per_op[MC_OP_COUNT] = {0}, failures = 0;
  for (int i = 0; i < 6000 && failures < 5; i++) {
    request_store s;
    mc_fuzz_input decoded;
    memset(&s, 0, sizeof s);
    memset(&decoded, 0, sizeof decoded);
    mc_op op = (mc_op)pick(0, MC_OP_COUNT - 1);
    bool made = make_request(op, &s, &decoded);
    if (made) {
      bool ok = agrees(&s.req);
      CHECK(ok);
      failures += !ok;
      per_op[op]++;
    } else {
      CHECK(made); /* one failure: no request, nothing compared */
      failures++;
    }
    free_store(&s);
    mc_fuzz_input_free(&decoded);
  }
  printf("random requests per op:");
  for (int op = 0; op < MC_OP_COUNT; op++)
    printf(" %s %d", mc_op_name((mc_op)op), per_op[op]);
  printf("\n");
}

/* One fixed Slice request against the oracle in every configuration. */
static void slice_case(const char *what, mc_type type, int rank, const int64_t *shape, int n,
                       const int64_t *start, const int64_t *stop, const int64_t *step,
                       const int64_t *axes) {
  request_store s;
  memset(&s, 0, sizeof s);
  slice_request(&s, type, rank, shape, n, start, stop, step, axes);
  bool ok = agrees(&s.req);
  CHECK(ok);
  if (!ok)
    fprintf(stderr, "  slice request: %s\n", what);
  free_store(&s);
}

#define L(...) ((const int64_t[]){__VA_ARGS__})

/* Each path of the Slice kernel at least once, whatever the random draw:
   rows long enough for several AVX2 vectors plus a tail. */
static void test_slice_paths(void) {
  static const mc_type sizes[4] = {MC_U8, MC_F16, MC_F32, MC_F64};
  for (int t = 0; t < 4; t++) {
    slice_case("crop: row copies", sizes[t], 3, L(3, 9, 77), 2, L(1, 2), L(3, -1), L(1, 1),
               L(1, 2));
    slice_case("reversed innermost", sizes[t], 2, L(3, 77), 1, L(-2), L(INT64_MIN), L(-1), L(-1));
    slice_case("step 2 innermost", sizes[t], 2, L(3, 100), 1, L(1), L(INT64_MAX), L(2), L(1));
    slice_case("step 2, last element at the data's end", sizes[t], 1, L(63), 1, L(0), L(63), L(2),
               NULL);
    slice_case("step 3 innermost (gather)", sizes[t], 2, L(2, 100), 2, L(0, 99), L(2, 0), L(1, -3),
               NULL);
    slice_case("step 7 on two axes", sizes[t], 2, L(30, 90), 2, L(2, 1), L(29, 90), L(7, 7), NULL);
  }
  /* Reversed rows of 48 elements (whole lines for f32, straddling lines
     for u8) under two outer axes that do not merge: the runs of whole
     rows per call end at an axis's end, a range's end or mid-row. */
  for (int t = 0; t < 4; t++)
    slice_case("reversed rows under unmerged outer axes", sizes[t], 4, L(3, 6, 5, 48), 2, L(1, -1),
               L(5, INT64_MIN), L(1, -1), L(1, 3));
  slice_case("whole axes merged, outer reversed", MC_F32, 4, L(5, 3, 4, 6), 1, L(-1), L(INT64_MIN),
             L(-1), L(0));
  slice_case("everything reversed: one run", MC_I16, 3, L(4, 5, 40), 3, L(-1, -1, -1),
             L(-9, -9, -99), L(-1, -1, -1), L(0, 1, 2));
  slice_case("packed u4, odd offsets", MC_U4, 2, L(5, 13), 2, L(1, 12), L(5, 0), L(2, -1), NULL);
  slice_case("packed u1 step 3", MC_U1, 1, L(61), 1, L(60), L(-62), L(-3), NULL);
  slice_case("packed i4 copy", MC_I4, 2, L(3, 17), 1, L(3), L(16), L(1), L(-1));
  slice_case("no side values: the identity", MC_F32, 2, L(3, 17), 0, L(0), L(0), L(0), L(0));
  slice_case("empty output", MC_F32, 2, L(3, 5), 1, L(2), L(2), L(1), L(1));
  slice_case("step INT64_MIN: one element", MC_F64, 2, L(4, 9), 2, L(3, 5), L(0, 0),
             L(INT64_MIN, -2), L(-2, -1));
}

/* req streamed into a caller's buffer 0, 4 and 1 bytes past a 64-byte
   boundary, two threads, against the oracle. */
static void agrees_into_offsets(const mc_request *req) {
  mc_tensor want;
  CHECK(mc_oracle_run(req, CAP, &want, NULL) == MC_OK);
  uint8_t *buffer = malloc(want.nbytes + 128);
  setenv("MOVCONF_STREAM_MIN_BYTES", "0", 1);
  static const size_t offsets[3] = {0, 4, 1};
  for (int k = 0; k < 3; k++) {
    mc_tensor into = want;
    into.data = buffer + 64 - (uintptr_t)buffer % 64 + offsets[k];
    into.allocation = NULL;
    memset(buffer, 0xFF, want.nbytes + 128);
    CHECK(mc_optimized_run_into(req, 2, &into, NULL) == MC_OK);
    CHECK(memcmp(into.data, want.data, want.nbytes) == 0);
  }
  unsetenv("MOVCONF_STREAM_MIN_BYTES");
  free(buffer);
  mc_tensor_free(&want);
}

/* One fixed Transpose request against the oracle in every configuration:
   ordinary stores reach the tiles written straight into the output, at
   MOVCONF_SIMD=sse2 as well as with the AVX2 kernels. */
static void transpose_case(const char *what, mc_type type, int rank, const int64_t *shape,
                           const int64_t *order) {
  request_store s;
  memset(&s, 0, sizeof s);
  s.req = (mc_request){.op = MC_OP_TRANSPOSE, .n_inputs = 2, .attrs = mc_attrs_none()};
  make_typed_data(&s, type, rank, shape);
  make_side(&s, 0, rank, order);
  bool ok = agrees(&s.req);
  CHECK(ok);
  if (!ok)
    fprintf(stderr, "  transpose request: %s\n", what);
  free_store(&s);
}

/* The tiled path for each element size: whole register blocks (8 x 8 for
   4-byte elements in the AVX2 kernels, 16 / size square otherwise), the
   blocks' edges, and several tiles along both axes. */
static void test_transpose_tiles(void) {
  static const mc_type sizes[4] = {MC_U8, MC_F16, MC_F32, MC_F64};
  for (int t = 0; t < 4; t++) {
    transpose_case("one tile with edges", sizes[t], 3, L(2, 37, 45), L(0, 2, 1));
    transpose_case("tiles along both axes", sizes[t], 2, L(70, 300), L(1, 0));
    transpose_case("channels last", sizes[t], 4, L(2, 19, 5, 9), L(0, 2, 3, 1));
    /* Streamed, whole output lines straight from the registers (AVX2):
       input rows further apart than output rows and not, then tiles whose
       edge is not whole steps next to tiles that are. */
    transpose_case("lines, input rows apart", sizes[t], 3, L(2, 64, 128), L(0, 2, 1));
    transpose_case("lines, output rows apart", sizes[t], 2, L(128, 64), L(1, 0));
    transpose_case("lines and edges", sizes[t], 3, L(2, 72, 136), L(0, 2, 1));
  }
}

/* Streamed reversed rows into a caller's buffer at an offset: of a whole
   element (the vectors align by a head), of one byte (an f32 output that
   can not align: ordinary stores). */
static void test_slice_reverse_into_offset(void) {
  request_store s;
  memset(&s, 0, sizeof s);
  slice_request(&s, MC_F32, 2, L(9, 100), 1, L(-1), L(INT64_MIN), L(-1), L(1));
  agrees_into_offsets(&s.req);
  free_store(&s);
}

/* SpaceToBatch with block 4 on the last axis of 4-byte elements, whatever
   the random draw (its blocks stop at 3): the AVX2 kernels' 8-group steps,
   whole and reaching into the pads, rows of whole steps and not, and an
   inner padded axis for the zero rows. `into`: also into a caller's buffer
   off the 64-byte lines, streamed (rows off the 32-byte boundaries take
   the stage). */
static void s2b_four_ways_case(mc_type type, const int64_t *shape, const int64_t *begin,
                               const int64_t *end, bool into) {
  request_store s;
  memset(&s, 0, sizeof s);
  s.req = (mc_request){.op = MC_OP_SPACE_TO_BATCH, .n_inputs = 4, .attrs = mc_attrs_none()};
  make_typed_data(&s, type, 3, shape);
  make_side(&s, 0, 3, L(1, 2, 4));
  make_side(&s, 1, 3, begin);
  make_side(&s, 2, 3, end);
  CHECK(agrees(&s.req));
  if (into)
    agrees_into_offsets(&s.req);
  free_store(&s);
}

static void test_space_to_batch_four_ways(void) {
  s2b_four_ways_case(MC_F32, L(2, 5, 64), L(0, 1, 0), L(0, 0, 0), true);
  s2b_four_ways_case(MC_I32, L(3, 7, 92), L(0, 1, 1), L(0, 2, 3), true);
  s2b_four_ways_case(MC_U32, L(1, 4, 29), L(0, 0, 2), L(0, 0, 1), false);  /* 8 groups */
  s2b_four_ways_case(MC_F32, L(2, 3, 20), L(0, 1, 1), L(0, 0, 3), false);  /* 6: not whole */
  s2b_four_ways_case(MC_I32, L(1, 2, 3), L(0, 0, 13), L(0, 0, 16), false); /* 3 of 32 */
}

/* ShuffleChannels with the channels last, whatever the random draw: each
   outer index a G x K transpose of single elements (the weaves), for K
   below, at and beyond one AVX2 vector (the whole-row weaves' overlapping
   last vector) and output rows on and off the 64-byte lines (the streamed
   weave's partial lines), several rows per thread. */
static void test_shuffle_last_axis(void) {
  static const mc_type sizes[4] = {MC_U8, MC_F16, MC_F32, MC_F64};
  static const int64_t per_groups[] = {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 60, 61};
  for (int t = 0; t < 4; t++)
    for (int64_t group = 2; group <= 4; group++)
      for (size_t k = 0; k < sizeof per_groups / sizeof per_groups[0]; k++) {
        request_store s;
        memset(&s, 0, sizeof s);
        s.req = (mc_request){.op = MC_OP_SHUFFLE_CHANNELS, .n_inputs = 1, .attrs = mc_attrs_none()};
        mc_attrs_set_int(&s.req.attrs, MC_ATTR_AXIS, -1);
        mc_attrs_set_int(&s.req.attrs, MC_ATTR_GROUP, group);
        make_typed_data(&s, sizes[t], 3, L(2, 5, group * per_groups[k]));
        bool ok = agrees(&s.req);
        CHECK(ok);
        if (!ok)
          fprintf(stderr, "  shuffle: group %lld, %lld per group\n", (long long)group,
                  (long long)per_groups[k]);
        free_store(&s);
      }
}

/* run_into overwrites whatever the buffer held, tail bits of packed types included. */
static void test_run_into_overwrites(void) {
  request_store s;
  memset(&s, 0, sizeof s);
  int64_t shape[4] = {1, 4, 1, 3};
  s.req = (mc_request){.op = MC_OP_DEPTH_TO_SPACE, .n_inputs = 1, .attrs = mc_attrs_none()};
  mc_attrs_set_string(&s.req.attrs, MC_ATTR_MODE, "blocks_first");
  mc_attrs_set_int(&s.req.attrs, MC_ATTR_BLOCK_SIZE, 2);
  if (mc_tensor_alloc(&s.data, MC_U4, 4, shape, CAP) != MC_OK)
    abort();
  fill_random(&s.data);
  s.req.inputs[0] = &s.data;
  mc_tensor want, into;
  CHECK(mc_oracle_run(&s.req, CAP, &want, NULL) == MC_OK);
  CHECK(mc_tensor_alloc(&into, MC_U4, 4, want.shape, CAP) == MC_OK);
  memset(into.data, 0xFF, into.nbytes);
  CHECK(mc_optimized_run_into(&s.req, 2, &into, NULL) == MC_OK);
  CHECK(mc_tensor_same(&want, &into));
  into.shape[3]++;
  CHECK_STR(mc_status_name(mc_optimized_run_into(&s.req, 2, &into, NULL)), "invalid_argument");
  mc_tensor_free(&want);
  mc_tensor_free(&into);
  free_store(&s);
}

/* The row primitives by hand: strided copies per element size and for u4. */
static void test_rows(void) {
  uint8_t src[32], dst[32];
  for (int i = 0; i < 32; i++)
    src[i] = (uint8_t)i;
  mc_rowio io2 = mc_rowio_make(MC_F16, false);
  memset(dst, 0xAA, sizeof dst);
  /* dst elements 1, 3, 5 = src elements 0, 2, 4 (2 bytes each) */
  mc_row_copy(&io2, dst, 1, 2, src, 0, 2, 3);
  const uint8_t want2[12] = {0xAA, 0xAA, 0, 1, 0xAA, 0xAA, 4, 5, 0xAA, 0xAA, 8, 9};
  CHECK_MEM(dst, want2, 12);
  mc_rowio io8 = mc_rowio_make(MC_F64, false);
  memset(dst, 0xAA, sizeof dst);
  mc_row_copy(&io8, dst, 0, 1, src, 1, 1, 2); /* memcpy of 16 bytes from byte 8 */
  CHECK_MEM(dst, src + 8, 16);
  mc_row_zero(&io8, dst, 1, 1, 1);
  CHECK(dst[8] == 0 && dst[15] == 0 && dst[7] == 15 && dst[16] == 0xAA);
  mc_rowio io4 = mc_rowio_make(MC_U4, false);
  uint8_t packed[2] = {0x21, 0x43}, out[2] = {0, 0}; /* elements 1,2,3,4 */
  mc_row_copy(&io4, out, 0, 1, packed, 1, 2, 2);     /* elements 1 and 3: values 2, 4 */
  CHECK_EQ_I64(out[0], 0x42);
  mc_row_zero(&io4, out, 1, 1, 1);
  CHECK_EQ_I64(out[0], 0x02);
  CHECK_EQ_I64(mc_count_below(1, 3, 7), 2); /* 1, 4 */
  CHECK_EQ_I64(mc_count_below(7, 3, 7), 0);
  mc_row_walk w;
  int64_t dims[2] = {2, 3};
  mc_row_walk_start(&w, 2, dims, 4);
  CHECK(w.idx[0] == 1 && w.idx[1] == 1);
  mc_row_walk_next(&w);
  mc_row_walk_next(&w);
  CHECK(w.idx[0] == 0 && w.idx[1] == 0);
}

/* The streamed weaves and copies against their definitions, with rows
   longer than the stage (several chunks), destinations off the 16-byte
   grid and every element size. */
static void test_streamed_rows(void) {
  enum { WAYS = 3, GROUPS = 700, N = WAYS * GROUPS * 8 + 64 };
  static uint8_t src[N], got[N], want[N];
  for (int i = 0; i < N; i++)
    src[i] = (uint8_t)(i * 7 + 3);
  static const mc_type types[4] = {MC_U8, MC_F16, MC_F32, MC_F64};
  for (int t = 0; t < 4; t++) {
    mc_rowio io = mc_rowio_make(types[t], true);
    const int64_t e = (int64_t)io.esize;
    const int64_t rows[WAYS] = {5, 5 + GROUPS + 1, 5 + 2 * GROUPS + 3};
    /* interleave: dst[1 + g*WAYS + o] = src[rows[o] + g] */
    memset(got, 0xAA, N);
    memset(want, 0xAA, N);
    mc_rows_interleave(&io, got, 1, src, rows, WAYS, GROUPS);
    for (int64_t g = 0; g < GROUPS; g++)
      for (int64_t o = 0; o < WAYS; o++)
        memcpy(want + (1 + g * WAYS + o) * e, src + (rows[o] + g) * e, (size_t)e);
    CHECK_MEM(got, want, N);
    /* deinterleave: dst[rows[o] + g] = src[3 + g*WAYS + o] */
    memset(got, 0xAA, N);
    memset(want, 0xAA, N);
    mc_rows_deinterleave(&io, got, rows, src, 3, WAYS, GROUPS);
    for (int64_t g = 0; g < GROUPS; g++)
      for (int64_t o = 0; o < WAYS; o++)
        memcpy(want + (rows[o] + g) * e, src + (3 + g * WAYS + o) * e, (size_t)e);
    CHECK_MEM(got, want, N);
    /* strided gather into a run, then a zero run */
    memset(got, 0xAA, N);
    memset(want, 0xAA, N);
    mc_row_copy(&io, got, 1, 1, src, 2, WAYS, GROUPS);
    mc_row_zero(&io, got, 1 + GROUPS, 1, 100);
    for (int64_t k = 0; k < GROUPS; k++)
      memcpy(want + (1 + k) * e, src + (2 + k * WAYS) * e, (size_t)e);
    memset(want + (1 + GROUPS) * e, 0, (size_t)(100 * e));
    CHECK_MEM(got, want, N);
  }
}

/* The primitives' edges the kernels never ask for (they call them with
   at least one group and unit zeroing steps): no groups write nothing, a
   strided zero clears every dstep-th element only, a walk over a shape
   with an empty axis starts at zeros without dividing by zero. */
static void test_row_edges(void) {
  /* Room for the widest element type's path, which the compiler checks too. */
  uint8_t src[64], dst[64];
  for (int i = 0; i < 64; i++)
    src[i] = (uint8_t)(i + 1);
  const int64_t starts[2] = {0, 4};
  mc_rowio io1 = mc_rowio_make(MC_U8, false);
  memset(dst, 0xAA, sizeof dst);
  mc_rows_interleave(&io1, dst, 0, src, starts, 2, 0);
  mc_rows_deinterleave(&io1, dst, starts, src, 0, 2, 0);
  uint8_t untouched[64];
  memset(untouched, 0xAA, sizeof untouched);
  CHECK_MEM(dst, untouched, sizeof dst);
  /* dst[d + g*2 + o] = src[s[o] + g]: 1, 5, 2, 6 */
  mc_rows_interleave(&io1, dst, 1, src, starts, 2, 2);
  const uint8_t woven[6] = {0xAA, 1, 5, 2, 6, 0xAA};
  CHECK_MEM(dst, woven, sizeof woven);
  mc_rowio io2 = mc_rowio_make(MC_I16, false);
  memcpy(dst, src, sizeof dst);
  mc_row_zero(&io2, dst, 1, 3, 2); /* i16 elements 1 and 4: bytes 2-3 and 8-9 */
  const uint8_t zeroed[10] = {1, 2, 0, 0, 5, 6, 7, 8, 0, 0};
  CHECK_MEM(dst, zeroed, sizeof zeroed);
  CHECK_EQ_I64(dst[10], 11);
  mc_row_walk w;
  const int64_t empty[2] = {0, 3};
  mc_row_walk_start(&w, 2, empty, 0);
  CHECK(w.idx[0] == 0 && w.idx[1] == 0);
}

/* The row stage: consecutive claims accumulate into one run; a claim that
   would not fit streams the run out first. */
static void test_row_stage(void) {
  static uint8_t out[3 * MC_ROW_STAGE_BYTES];
  mc_opt_plan plan;
  memset(&plan, 0, sizeof plan);
  mc_kernel_job job = {.plan = &plan, .io = mc_rowio_make(MC_F32, true), .out = out};
  static mc_row_stage stage;
  mc_row_stage_init(&stage, &job, MC_ROW_STAGE_BYTES / 4 + 1);
  CHECK(!stage.active); /* one row would not fit */
  mc_row_stage_init(&stage, &job, 100);
  CHECK(stage.active && stage.capacity == MC_ROW_STAGE_BYTES / 4);
  memset(out, 0xAA, sizeof out);
  CHECK_EQ_I64(mc_row_stage_claim(&stage, &job, 10, 100), 0);
  CHECK_EQ_I64(mc_row_stage_claim(&stage, &job, 110, 100), 100); /* continues the run */
  memset(stage.bytes, 1, 200 * 4);
  CHECK(out[10 * 4] == 0xAA); /* nothing streamed yet */
  CHECK_EQ_I64(mc_row_stage_claim(&stage, &job, 210, stage.capacity - 199), 0); /* too big */
  CHECK(out[10 * 4] == 1 && out[210 * 4 - 1] == 1 && out[210 * 4] == 0xAA && out[39] == 0xAA);
  memset(stage.bytes, 3, (size_t)(stage.capacity - 199) * 4);
  mc_row_stage_flush(&stage, &job);
  CHECK(out[210 * 4] == 3 && out[(210 + stage.capacity - 199) * 4 - 1] == 3);
  CHECK(out[(210 + stage.capacity - 199) * 4] == 0xAA);
  CHECK_EQ_I64(stage.filled, 0);
}

/* A stream run (stream.h) against its definition: from every start offset
   within a line, pieces of copies and zeros of lengths around the line size
   land in order, and not a byte before the run's start or after its end is
   written (a neighbouring thread's run writes those). */
static void test_stream_run(void) {
  enum { SIZE = 1024 };
  static const size_t lengths[] = {1, 63, 64, 65, 0, 130, 7, 192, 64, 3, 2, 16, 31, 32, 33, 8, 4};
  enum { PIECES = sizeof lengths / sizeof lengths[0] };
  _Alignas(64) static uint8_t got[SIZE], want[SIZE], src[SIZE];
  for (int i = 0; i < SIZE; i++)
    src[i] = (uint8_t)(i * 5 + 1);
  for (size_t start = 0; start < 64; start++)
    for (size_t first = 0; first < PIECES; first++) {
      memset(got, 0xAA, SIZE);
      memset(want, 0xAA, SIZE);
      mc_stream_run run;
      mc_stream_run_begin(&run, got + start);
      size_t at = start, from = 0;
      for (size_t k = 0; k < PIECES; k++) {
        const size_t n = lengths[(first + k) % PIECES];
        const bool zeros = k % 3 == 1;
        mc_stream_put(&run, zeros ? NULL : src + from, n);
        if (zeros)
          memset(want + at, 0, n);
        else
          memcpy(want + at, src + from, n);
        at += n;
        from += 3;
      }
      mc_stream_run_end(&run);
      mc_stream_fence();
      CHECK_MEM(got, want, SIZE);
    }
}

/* A malformed MOVCONF_STREAM_MIN_BYTES neither fails a call nor changes
   its result (which store kind it picks is not observable from here). */
static void test_stream_env_ignored_when_malformed(void) {
  request_store s;
  memset(&s, 0, sizeof s);
  make_space_depth(&s, true);
  setenv("MOVCONF_STREAM_MIN_BYTES", "lots", 1);
  mc_tensor want, got;
  CHECK(mc_oracle_run(&s.req, CAP, &want, NULL) == MC_OK);
  CHECK(mc_optimized_run(&s.req, CAP, 2, &got, NULL) == MC_OK);
  CHECK(mc_tensor_same(&want, &got));
  mc_tensor_free(&want);
  mc_tensor_free(&got);
  free_store(&s);
}

int main(void) {
  /* Split even these small requests over the threads. */
  setenv("MOVCONF_PARALLEL_MIN_BYTES", "0", 1);
  test_rows();
  test_streamed_rows();
  test_row_edges();
  test_row_stage();
  test_stream_run();
  test_stream_env_ignored_when_malformed();
  test_run_into_overwrites();
  test_slice_reverse_into_offset();
  test_simd_choice();
  test_slice_paths();
  test_transpose_tiles();
  test_shuffle_last_axis();
  test_space_to_batch_four_ways();
  test_random_requests();
  return check_report();
}
