/* The oracle through its public API, against results worked out by hand
   (the reasoning is in each comment), and its error paths. */
#include "oracle_check.h"

static mc_tensor vec_i64(int n, const int64_t *values) {
  int64_t shape[1] = {n};
  return make(MC_I64, 1, shape, values);
}

typedef struct b2s_inputs {
  mc_tensor data, block, begin, end;
  mc_request req;
} b2s_inputs;

static void b2s_setup(b2s_inputs *in, mc_op op, mc_tensor data, int n, const int64_t *block,
                      const int64_t *begin, const int64_t *end) {
  in->data = data;
  in->block = vec_i64(n, block);
  in->begin = vec_i64(n, begin);
  in->end = vec_i64(n, end);
  in->req = (mc_request){.op = op, .n_inputs = 4, .attrs = mc_attrs_none()};
  in->req.inputs[0] = &in->data;
  in->req.inputs[1] = &in->block;
  in->req.inputs[2] = &in->begin;
  in->req.inputs[3] = &in->end;
}

static void b2s_free(b2s_inputs *in) {
  mc_tensor_free(&in->data);
  mc_tensor_free(&in->block);
  mc_tensor_free(&in->begin);
  mc_tensor_free(&in->end);
}

/* data [4,2] = 0..7, block [1,2]: batch' = 2; output row b interleaves
   input rows b (block offset 0) and b+2 (offset 1): [0,4,1,5] and [2,6,3,7];
   crops_end [0,1] drops the last column. */
static void test_batch_to_space(void) {
  int64_t shape[2] = {4, 2}, values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  b2s_inputs in;
  b2s_setup(&in, MC_OP_BATCH_TO_SPACE, make(MC_I32, 2, shape, values), 2, (int64_t[]){1, 2},
            (int64_t[]){0, 0}, (int64_t[]){0, 1});
  expect_output(&in.req, 2, (int64_t[]){2, 3}, (int64_t[]){0, 4, 1, 2, 6, 3});
  b2s_free(&in);
}

/* The inverse: [[0,4,1],[2,6,3]] padded at the end to [[0,4,1,0],[2,6,3,0]];
   batch o*2+b takes columns o, o+2 of row b: [0,1],[2,3],[4,0],[6,0]. */
static void test_space_to_batch(void) {
  int64_t shape[2] = {2, 3}, values[6] = {0, 4, 1, 2, 6, 3};
  b2s_inputs in;
  b2s_setup(&in, MC_OP_SPACE_TO_BATCH, make(MC_I32, 2, shape, values), 2, (int64_t[]){1, 2},
            (int64_t[]){0, 0}, (int64_t[]){0, 1});
  expect_output(&in.req, 2, (int64_t[]){4, 2}, (int64_t[]){0, 1, 2, 3, 4, 0, 6, 0});
  b2s_free(&in);
}

static void b2s_errors(void) {
  int64_t shape[2] = {4, 2};
  b2s_inputs in;
  /* block 0 breaks V5 and leaves batch 4 indivisible (V9): V5 comes first. */
  b2s_setup(&in, MC_OP_BATCH_TO_SPACE, make(MC_I32, 2, shape, NULL), 2, (int64_t[]){1, 0},
            (int64_t[]){0, 0}, (int64_t[]){0, 0});
  expect_error(&in.req, CAP, "block_below_one", "B2S-V5", NULL);
  b2s_free(&in);
  b2s_setup(&in, MC_OP_BATCH_TO_SPACE, make(MC_I32, 2, shape, NULL), 2, (int64_t[]){1, 3},
            (int64_t[]){0, 0}, (int64_t[]){0, 0});
  expect_error(&in.req, CAP, "batch_not_divisible", "B2S-V9", NULL);
  /* A tensor whose bytes do not match its type and shape is API misuse. */
  in.block.type = MC_BOOLEAN;
  expect_error(&in.req, CAP, "invalid_argument", NULL, NULL);
  in.block.type = MC_I64;
  mc_tensor flags = make(MC_BOOLEAN, 1, (int64_t[]){2}, (int64_t[]){1, 1});
  in.req.inputs[1] = &flags;
  expect_error(&in.req, CAP, "side_input_type", "B2S-V2", NULL);
  in.req.inputs[1] = &in.block;
  mc_tensor_free(&flags);
  /* crops 3+3 > D*B = 2*2 */
  mc_store_bits(in.block.data, MC_I64, 1, 2);
  mc_store_bits(in.begin.data, MC_I64, 1, 3);
  mc_store_bits(in.end.data, MC_I64, 1, 3);
  expect_error(&in.req, CAP, "crop_exceeds", "B2S-V10", NULL);
  /* crops 2+2 == D*B is allowed: the axis becomes empty. */
  mc_store_bits(in.begin.data, MC_I64, 1, 2);
  mc_store_bits(in.end.data, MC_I64, 1, 2);
  expect_output(&in.req, 2, (int64_t[]){2, 0}, NULL);
  /* a u64 side value above INT64_MAX */
  mc_tensor big = make(MC_U64, 1, (int64_t[]){2}, (int64_t[]){1, INT64_MIN});
  in.req.inputs[1] = &big;
  expect_error(&in.req, CAP, "value_out_of_range", "MC-L2", NULL);
  mc_tensor_free(&big);
  /* the output byte cap: [2,4] i32 = 32 bytes > 16 */
  in.req.inputs[1] = &in.block;
  mc_store_bits(in.begin.data, MC_I64, 1, 0);
  mc_store_bits(in.end.data, MC_I64, 1, 0);
  expect_error(&in.req, 16, "output_too_large", "MC-L4", NULL);
  in.req.n_inputs = 3;
  expect_error(&in.req, CAP, "invalid_argument", NULL, NULL);
  b2s_free(&in);
}

static mc_request depth_request(mc_op op, const mc_tensor *data, int64_t bs, const char *mode) {
  mc_request req = {.op = op, .n_inputs = 1, .attrs = mc_attrs_none()};
  req.inputs[0] = data;
  mc_attrs_set_int(&req.attrs, MC_ATTR_BLOCK_SIZE, bs);
  mc_attrs_set_string(&req.attrs, MC_ATTR_MODE, mode);
  return req;
}

/* [1,2,2,2]: channel 0 = [0 1; 2 3], channel 1 = [4 5; 6 7]. blocks_first
   puts depth index offset*C + c: [0,4,1,5,2,6,3,7]; depth_first c*4 + offset:
   [0..7]. DepthToSpace undoes each in the same mode. */
static void test_space_depth(void) {
  int64_t shape[4] = {1, 2, 2, 2}, values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  int64_t moved_shape[4] = {1, 8, 1, 1};
  int64_t blocks_first[8] = {0, 4, 1, 5, 2, 6, 3, 7};
  mc_tensor data = make(MC_F32, 4, shape, values);
  mc_request req = depth_request(MC_OP_SPACE_TO_DEPTH, &data, 2, "blocks_first");
  expect_output(&req, 4, moved_shape, blocks_first);
  mc_attrs_set_string(&req.attrs, MC_ATTR_MODE, "depth_first");
  expect_output(&req, 4, moved_shape, values);
  mc_tensor moved = make(MC_F32, 4, moved_shape, blocks_first);
  req = depth_request(MC_OP_DEPTH_TO_SPACE, &moved, 2, "blocks_first");
  expect_output(&req, 4, shape, values);
  mc_attrs_set_string(&req.attrs, MC_ATTR_MODE, "sideways");
  expect_error(&req, CAP, "mode_invalid", "D2S-V3", NULL);
  mc_attrs_set_string(&req.attrs, MC_ATTR_MODE, NULL);
  expect_error(&req, CAP, "mode_missing", "D2S-V2", NULL);
  req = depth_request(MC_OP_DEPTH_TO_SPACE, &moved, 3, "depth_first");
  expect_error(&req, CAP, "depth_not_divisible", "D2S-V5", NULL);
  /* 2^32 squared overflows int64 before divisibility can be judged. */
  mc_attrs_set_int(&req.attrs, MC_ATTR_BLOCK_SIZE, (int64_t)1 << 32);
  expect_error(&req, CAP, "shape_overflow", "MC-L3", NULL);
  req = depth_request(MC_OP_SPACE_TO_DEPTH, &data, 0, "blocks_first");
  expect_error(&req, CAP, "block_size_below_one", "S2D-V4", NULL);
  mc_tensor_free(&data);
  mc_tensor_free(&moved);
}

/* u1 [1,4,1,1] = 1,0,0,1 through DepthToSpace bs 2: out[0,0,i,j] is channel
   i*2+j, so the same bit order, packed from bit 7: 0b1001'0000. u4 data
   1,2,3,4 through SpaceToDepth [1,1,2,2] -> [1,4,1,1] keeps the order:
   bytes 0x21 0x43 (element 0 in the low nibble). */
static void test_packed_types(void) {
  mc_tensor bits = make(MC_U1, 4, (int64_t[]){1, 4, 1, 1}, (int64_t[]){1, 0, 0, 1});
  mc_request req = depth_request(MC_OP_DEPTH_TO_SPACE, &bits, 2, "blocks_first");
  mc_tensor out;
  CHECK(mc_oracle_run(&req, CAP, &out, NULL) == MC_OK);
  CHECK_EQ_I64(out.nbytes, 1);
  CHECK_EQ_I64(out.data[0], 0x90);
  mc_tensor_free(&out);
  mc_tensor nibbles = make(MC_U4, 4, (int64_t[]){1, 1, 2, 2}, (int64_t[]){1, 2, 3, 4});
  req = depth_request(MC_OP_SPACE_TO_DEPTH, &nibbles, 2, "depth_first");
  CHECK(mc_oracle_run(&req, CAP, &out, NULL) == MC_OK);
  CHECK_EQ_I64(out.nbytes, 2);
  CHECK_EQ_I64(out.data[0], 0x21);
  CHECK_EQ_I64(out.data[1], 0x43);
  mc_tensor_free(&out);
  mc_tensor_free(&bits);
  mc_tensor_free(&nibbles);
}

static mc_request patches_request(const mc_tensor *data, const int64_t sizes[2],
                                  const int64_t strides[2], const char *pad) {
  mc_request req = {.op = MC_OP_EXTRACT_IMAGE_PATCHES, .n_inputs = 1, .attrs = mc_attrs_none()};
  req.inputs[0] = data;
  mc_attrs_set_list(&req.attrs, MC_ATTR_SIZES, &(mc_int_list){2, {sizes[0], sizes[1]}});
  mc_attrs_set_list(&req.attrs, MC_ATTR_STRIDES, &(mc_int_list){2, {strides[0], strides[1]}});
  mc_attrs_set_list(&req.attrs, MC_ATTR_RATES, &(mc_int_list){2, {1, 1}});
  mc_attrs_set_string(&req.attrs, MC_ATTR_AUTO_PAD, pad);
  return req;
}

static void test_patches(void) {
  /* 3x3 image 1..9, 2x2 patches, stride 1, valid: 2x2 positions; channel
     (r,c) holds the element at offset (r,c) of each patch. */
  mc_tensor image =
      make(MC_I32, 4, (int64_t[]){1, 1, 3, 3}, (int64_t[]){1, 2, 3, 4, 5, 6, 7, 8, 9});
  mc_request req = patches_request(&image, (int64_t[]){2, 2}, (int64_t[]){1, 1}, "valid");
  expect_output(&req, 4, (int64_t[]){1, 4, 2, 2},
                (int64_t[]){1, 2, 4, 5, 2, 3, 5, 6, 4, 5, 7, 8, 5, 6, 8, 9});
  /* Row [7, 8], 1x2 patches, stride 1, same: 2 positions, padding 1.
     same_upper pads at the end: [7 8 0] -> channels [7,8] and [8,0];
     same_lower at the start: [0 7 8] -> channels [0,7] and [7,8]. */
  mc_tensor row = make(MC_I32, 4, (int64_t[]){1, 1, 1, 2}, (int64_t[]){7, 8});
  req = patches_request(&row, (int64_t[]){1, 2}, (int64_t[]){1, 1}, "same_upper");
  expect_output(&req, 4, (int64_t[]){1, 2, 1, 2}, (int64_t[]){7, 8, 8, 0});
  mc_attrs_set_string(&req.attrs, MC_ATTR_AUTO_PAD, "same_lower");
  expect_output(&req, 4, (int64_t[]){1, 2, 1, 2}, (int64_t[]){0, 7, 7, 8});
  mc_attrs_set_string(&req.attrs, MC_ATTR_AUTO_PAD, "same");
  expect_error(&req, CAP, "auto_pad_invalid", "EIP-V7", NULL);
  /* A patch larger than the image under valid: no position fits. Huge
     sizes must not make the oracle walk empty loops for ages. */
  req = patches_request(&image, (int64_t[]){1 << 30, 1 << 30}, (int64_t[]){1, 1}, "valid");
  expect_output(&req, 4, (int64_t[]){1, (int64_t)1 << 60, 0, 0}, NULL);
  mc_attrs_list_slot(&req.attrs, MC_ATTR_SIZES)->count = 1;
  expect_error(&req, CAP, "attribute_length", "EIP-V3", NULL);
  mc_attrs_list_slot(&req.attrs, MC_ATTR_SIZES)->count = -1;
  expect_error(&req, CAP, "attribute_missing", "EIP-V2", NULL);
  mc_tensor_free(&image);
  mc_tensor_free(&row);
}

static void test_common_clauses(void) {
  CHECK_STR(mc_status_name(mc_oracle_run(NULL, CAP, &(mc_tensor){0}, NULL)), "invalid_argument");
  mc_type type;
  int rank;
  int64_t shape[MC_MAX_RANK];
  mc_error err;
  CHECK_STR(mc_status_name(mc_oracle_output_shape(NULL, CAP, &type, &rank, shape, &err)),
            "invalid_argument");
  CHECK(strstr(err.message, "no request") != NULL);
  int64_t ones[17] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  mc_tensor deep = make(MC_U8, 17, ones, NULL);
  mc_request req = depth_request(MC_OP_SPACE_TO_DEPTH, &deep, 1, "blocks_first");
  expect_error(&req, CAP, "rank_limit", "MC-L1", NULL);
  deep.type = (mc_type)99;
  expect_error(&req, CAP, "unsupported_type", "MC-T1", NULL);
  deep.type = MC_U8;
  mc_tensor_free(&deep);
}

int main(void) {
  test_batch_to_space();
  test_space_to_batch();
  b2s_errors();
  test_space_depth();
  test_packed_types();
  test_patches();
  test_common_clauses();
  return check_report();
}
