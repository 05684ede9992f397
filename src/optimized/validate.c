/* Validation for the optimized kernels. It follows spec/check-order.md and
   computes the output shape straight from each operation's output formula
   (the O clauses), never building the literal steps' intermediates, so that
   it is an independent second reading of the spec next to the oracle. */
#include <string.h>

#include "common/checked.h"
#include "common/error.h"
#include "movconf/tensor.h"
#include "optimized/mutants.h"
#include "optimized/plan.h"

/* ---- Check 0: the request describes itself consistently (API misuse) ---- */

static mc_status check_input_tensor(const mc_tensor *t, mc_op op, int index, mc_error *err) {
  const char *name = mc_op_input_name(op, index);
  if (!t)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "no tensor given for input %s", name);
  if (t->rank < 0 || t->rank > MC_TENSOR_MAX_RANK)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "input %s claims rank %d", name, t->rank);
  int64_t elements;
  if (!mc_shape_elements(t->rank, t->shape, &elements))
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL,
                   "input %s: a dimension is negative or the element count is not representable",
                   name);
  /* An unknown type has no storage size; MC-T1 or V2 reports it later. */
  size_t expected_bytes;
  if (mc_type_get(t->type) &&
      (!mc_storage_bytes(t->type, elements, &expected_bytes) || expected_bytes != t->nbytes))
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL,
                   "input %s: %zu bytes given, its type and shape need another size", name,
                   t->nbytes);
  if (t->nbytes > 0 && !t->data)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "input %s has bytes but no buffer", name);
  return MC_OK;
}

static mc_status check_request_shape(const mc_request *req, mc_error *err) {
  if (req->op < 0 || req->op >= MC_OP_COUNT)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "operation code %d is not known",
                   (int)req->op);
  int wanted = mc_op_input_count(req->op);
  if (req->n_inputs != wanted)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "%s needs %d inputs, %d were given",
                   mc_op_name(req->op), wanted, req->n_inputs);
  for (int i = 0; i < wanted; i++) {
    mc_status s = check_input_tensor(req->inputs[i], req->op, i, err);
    if (s != MC_OK)
      return s;
  }
  return MC_OK;
}

/* ---- Checks 1 and 2: MC-T1, MC-L1 ---- */

static mc_status check_type_and_ranks(const mc_request *req, mc_error *err) {
  if (!mc_type_get(req->inputs[0]->type))
    return mc_fail(err, MC_E_UNSUPPORTED_TYPE, "MC-T1", "data has unknown element type code %d",
                   (int)req->inputs[0]->type);
  for (int i = 0; i < req->n_inputs; i++)
    if (MC_MUTANT(rank_limit_off_by_one, req->inputs[i]->rank > MC_MAX_RANK,
                  req->inputs[i]->rank >= MC_MAX_RANK))
      return mc_fail(err, MC_E_RANK_LIMIT, "MC-L1", "input %s has %d axes, more than %d allowed",
                     mc_op_input_name(req->op, i), req->inputs[i]->rank, MC_MAX_RANK);
  return MC_OK;
}

static mc_status overflow(mc_error *err, const char *what) {
  return mc_fail(err, MC_E_SHAPE_OVERFLOW, "MC-L3", "%s does not fit in int64", what);
}

/* ---- BatchToSpace-2 and SpaceToBatch-2 ---- */

/* The clause ids and error codes that differ between the two operations. */
typedef struct batch_space_rules {
  const char *v1, *v2, *v3, *v4, *v5, *v6, *v7, *v8;
  mc_status negative, first_not_zero;
  const char *offset_name; /* "crop" or "pad" */
} batch_space_rules;

static const batch_space_rules b2s_rules = {
    "B2S-V1", "B2S-V2", "B2S-V3", "B2S-V4",           "B2S-V5",
    "B2S-V6", "B2S-V7", "B2S-V8", MC_E_CROP_NEGATIVE, MC_E_CROP_FIRST_NOT_ZERO,
    "crop"};
static const batch_space_rules s2b_rules = {
    "S2B-V1", "S2B-V2", "S2B-V3", "S2B-V4",          "S2B-V5",
    "S2B-V6", "S2B-V7", "S2B-V8", MC_E_PAD_NEGATIVE, MC_E_PAD_FIRST_NOT_ZERO,
    "pad"};

/* V2, V3, V4: each clause over the three side inputs before the next clause. */
static mc_status check_side_inputs_form(const mc_request *req, int n, const batch_space_rules *r,
                                        mc_error *err) {
  for (int i = 1; i <= 3; i++)
    if (!mc_type_is_side_integer(req->inputs[i]->type))
      return mc_fail(err, MC_E_SIDE_INPUT_TYPE, r->v2, "%s has type %s, not a side-input integer",
                     mc_op_input_name(req->op, i), mc_type_name(req->inputs[i]->type));
  for (int i = 1; i <= 3; i++)
    if (req->inputs[i]->rank != 1)
      return mc_fail(err, MC_E_SIDE_INPUT_RANK, r->v3, "%s has rank %d, it must be 1-D",
                     mc_op_input_name(req->op, i), req->inputs[i]->rank);
  for (int i = 1; i <= 3; i++)
    if (req->inputs[i]->shape[0] != n)
      return mc_fail(err, MC_E_SIDE_INPUT_LENGTH, r->v4,
                     "%s has %lld values; data has %d axes, one value each",
                     mc_op_input_name(req->op, i), (long long)req->inputs[i]->shape[0], n);
  return MC_OK;
}

/* Value k of a side input; false when it does not fit int64 (MC-L2). */
static bool side_value(const mc_tensor *t, int k, int64_t *value) {
  /* The faulty twin reads a u64 above INT64_MAX as a wrapped int64. */
  return MC_MUTANT(side_u64_wraps, mc_side_value(t, k, value),
                   mc_side_value(t, k, value) ||
                       (*value = (int64_t)mc_load_bits(t->data, t->type, k), true));
}

/* MC-L2: every value of the three side inputs, in input then index order. */
static mc_status read_side_inputs(const mc_request *req, int n, mc_opt_plan *plan, mc_error *err) {
  int64_t *dest[3] = {plan->block, plan->begin, plan->end};
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < n; k++)
      if (!side_value(req->inputs[i + 1], k, &dest[i][k]))
        return mc_fail(err, MC_E_VALUE_OUT_OF_RANGE, "MC-L2", "%s[%d] is above INT64_MAX",
                       mc_op_input_name(req->op, i + 1), k);
  return MC_OK;
}

/* V5 to V8 on the values just read. */
static mc_status check_side_values(const mc_opt_plan *plan, const batch_space_rules *r,
                                   mc_error *err) {
  int n = plan->rank;
  for (int k = 0; k < n; k++)
    if (plan->block[k] < 1)
      return mc_fail(err, MC_E_BLOCK_BELOW_ONE, r->v5, "block_shape[%d] = %lld is below 1", k,
                     (long long)plan->block[k]);
  if (MC_MUTANT(batch_first_block_unchecked, plan->block[0] != 1, false))
    return mc_fail(err, MC_E_BLOCK_FIRST_NOT_ONE, r->v6,
                   "block_shape[0] = %lld; the batch axis takes no block",
                   (long long)plan->block[0]);
  const int64_t *lists[2] = {plan->begin, plan->end};
  const char *sides[2] = {"begin", "end"};
  for (int s = 0; s < MC_MUTANT(batch_end_negative_unchecked, 2, 1); s++)
    for (int k = 0; k < n; k++)
      if (lists[s][k] < 0)
        return mc_fail(err, r->negative, r->v7, "%ss_%s[%d] = %lld is negative", r->offset_name,
                       sides[s], k, (long long)lists[s][k]);
  for (int s = 0; s < 2; s++)
    if (lists[s][0] != 0)
      return mc_fail(err, r->first_not_zero, r->v8, "%ss_%s[0] = %lld; the batch axis keeps 0",
                     r->offset_name, sides[s], (long long)lists[s][0]);
  return MC_OK;
}

/* Everything both operations check before their own arithmetic. */
static mc_status check_batch_space_common(const mc_request *req, mc_opt_plan *plan,
                                          const batch_space_rules *r, mc_error *err) {
  if (plan->rank < 2)
    return mc_fail(err, MC_E_DATA_RANK, r->v1, "data has rank %d; at least 2 is needed",
                   plan->rank);
  mc_status s = check_side_inputs_form(req, plan->rank, r, err);
  if (s == MC_OK)
    s = read_side_inputs(req, plan->rank, plan, err);
  if (s == MC_OK)
    s = check_side_values(plan, r, err);
  return s;
}

/* crops_begin + crops_end <= extent, exactly: both are >= 0, so compare
   without forming a sum that might not fit (errata E19). */
static bool crops_fit(int64_t crop_begin, int64_t crop_end, int64_t extent) {
  return crop_begin <= extent && MC_MUTANT(b2s_crops_sum_strict, crop_end <= extent - crop_begin,
                                           crop_end < extent - crop_begin);
}

static mc_status validate_batch_to_space(const mc_request *req, mc_opt_plan *plan, mc_error *err) {
  mc_status s = check_batch_space_common(req, plan, &b2s_rules, err);
  if (s != MC_OK)
    return s;
  int n = plan->rank;
  int64_t cells;
  if (!mc_product_i64(plan->block, n, &cells))
    return overflow(err, "the product of block_shape");
  int64_t batch = plan->in_shape[0];
  if (MC_MUTANT(b2s_divisibility_unchecked, batch % cells != 0, false))
    return mc_fail(err, MC_E_BATCH_NOT_DIVISIBLE, "B2S-V9",
                   "batch %lld is not a multiple of the %lld block cells", (long long)batch,
                   (long long)cells);
  plan->out_shape[0] = batch / cells;
  for (int i = 1; i < n; i++) {
    int64_t extent;
    if (!mc_mul_i64(plan->in_shape[i], plan->block[i], &extent))
      return overflow(err, "D_i * block_shape[i]");
    if (!crops_fit(plan->begin[i], plan->end[i], extent))
      return mc_fail(err, MC_E_CROP_EXCEEDS, "B2S-V10",
                     "axis %d: crops %lld + %lld exceed the extent %lld", i,
                     (long long)plan->begin[i], (long long)plan->end[i], (long long)extent);
    plan->out_shape[i] = extent - plan->begin[i] - plan->end[i];
  }
  return MC_OK;
}

static mc_status validate_space_to_batch(const mc_request *req, mc_opt_plan *plan, mc_error *err) {
  mc_status s = check_batch_space_common(req, plan, &s2b_rules, err);
  if (s != MC_OK)
    return s;
  int n = plan->rank;
  for (int i = 1; i < n; i++) {
    int64_t padded;
    if (!mc_add_i64(plan->in_shape[i], plan->begin[i], &padded) ||
        !mc_add_i64(padded, plan->end[i], &padded))
      return overflow(err, "D_i + pads_begin[i] + pads_end[i]");
    if (padded % plan->block[i] != 0)
      return mc_fail(err, MC_E_PADDED_NOT_DIVISIBLE, "S2B-V9",
                     "axis %d: padded length %lld is not a multiple of block %lld", i,
                     (long long)padded, (long long)plan->block[i]);
    plan->out_shape[i] = padded / plan->block[i];
  }
  /* Left to right from the batch, so a batch of 0 stays 0 (S2B-V9). */
  int64_t out_batch = plan->in_shape[0];
  for (int i = 1; i < n; i++)
    if (!mc_mul_i64(out_batch, plan->block[i], &out_batch))
      return overflow(err, "the output batch");
  plan->out_shape[0] = out_batch;
  return MC_OK;
}

/* ---- SpaceToDepth-1 and DepthToSpace-1 ---- */

/* V1 to V4 of both operations; ids holds the four clause ids of the op. */
static mc_status check_depth_space_attrs(const mc_request *req, mc_opt_plan *plan,
                                         const char *const ids[4], mc_error *err) {
  if (plan->rank < 3)
    return mc_fail(err, MC_E_DATA_RANK, ids[0], "data has rank %d; at least 3 is needed",
                   plan->rank);
  const char *mode = mc_attrs_string(&req->attrs, MC_ATTR_MODE);
  if (!mode)
    return mc_fail(err, MC_E_MODE_MISSING, ids[1], "the mode attribute is not given");
  if (strcmp(mode, "depth_first") == 0)
    plan->depth_first = true;
  else if (strcmp(mode, "blocks_first") == 0)
    plan->depth_first = false;
  else
    return mc_fail(err, MC_E_MODE_INVALID, ids[2],
                   "mode must be blocks_first or depth_first exactly");
  plan->block_size = mc_attrs_int(&req->attrs, MC_ATTR_BLOCK_SIZE); /* 1 when absent */
  if (plan->block_size < 1)
    return mc_fail(err, MC_E_BLOCK_SIZE_BELOW_ONE, ids[3], "block_size %lld is below 1",
                   (long long)plan->block_size);
  return MC_OK;
}

static mc_status validate_space_to_depth(const mc_request *req, mc_opt_plan *plan, mc_error *err) {
  static const char *const ids[4] = {"S2D-V1", "S2D-V2", "S2D-V3", "S2D-V4"};
  mc_status s = check_depth_space_attrs(req, plan, ids, err);
  if (s != MC_OK)
    return s;
  plan->depth_first = MC_MUTANT(s2d_modes_swapped, plan->depth_first, !plan->depth_first);
  int64_t bs = plan->block_size;
  for (int i = 2; i < plan->rank; i++) {
    bool checked = MC_MUTANT(s2d_divisibility_last_axis_only, true, i == plan->rank - 1);
    if (plan->in_shape[i] % bs != 0 && checked)
      return mc_fail(err, MC_E_SPATIAL_NOT_DIVISIBLE, "S2D-V5",
                     "spatial axis %d of length %lld is not a multiple of block_size %lld", i,
                     (long long)plan->in_shape[i], (long long)bs);
    plan->out_shape[i] = plan->in_shape[i] / bs;
  }
  int64_t grid, depth;
  if (!mc_pow_i64(bs, plan->rank - 2, &grid))
    return overflow(err, "block_size^K");
  if (!mc_mul_i64(plan->in_shape[1], grid, &depth))
    return overflow(err, "C * block_size^K");
  plan->out_shape[0] = plan->in_shape[0];
  plan->out_shape[1] = depth;
  return MC_OK;
}

static mc_status validate_depth_to_space(const mc_request *req, mc_opt_plan *plan, mc_error *err) {
  static const char *const ids[4] = {"D2S-V1", "D2S-V2", "D2S-V3", "D2S-V4"};
  mc_status s = check_depth_space_attrs(req, plan, ids, err);
  if (s != MC_OK)
    return s;
  plan->depth_first = MC_MUTANT(d2s_modes_swapped, plan->depth_first, !plan->depth_first);
  int64_t bs = plan->block_size;
  int64_t grid;
  if (!mc_pow_i64(bs, plan->rank - 2, &grid))
    return overflow(err, "block_size^K");
  if (plan->in_shape[1] % MC_MUTANT(d2s_depth_divisible_by_block, grid, bs) != 0)
    return mc_fail(err, MC_E_DEPTH_NOT_DIVISIBLE, "D2S-V5",
                   "depth %lld is not a multiple of block_size^K = %lld",
                   (long long)plan->in_shape[1], (long long)grid);
  plan->out_shape[0] = plan->in_shape[0];
  plan->out_shape[1] = plan->in_shape[1] / grid;
  for (int i = 2; i < plan->rank; i++)
    if (!mc_mul_i64(plan->in_shape[i], bs, &plan->out_shape[i]))
      return overflow(err, "D_i * block_size");
  return MC_OK;
}

/* ---- ExtractImagePatches-3 ---- */

typedef enum pad_kind { PAD_VALID, PAD_SAME_UPPER, PAD_SAME_LOWER } pad_kind;

static mc_status check_patch_attrs_given(const mc_attrs *a, mc_error *err) {
  const mc_int_list *lists[3] = {mc_attrs_list(a, MC_ATTR_SIZES), mc_attrs_list(a, MC_ATTR_STRIDES),
                                 mc_attrs_list(a, MC_ATTR_RATES)};
  static const char *const names[3] = {"sizes", "strides", "rates"};
  for (int k = 0; k < 3; k++)
    if (lists[k]->count < 0)
      return mc_fail(err, MC_E_ATTRIBUTE_MISSING, "EIP-V2", "attribute %s is not given", names[k]);
  if (!mc_attrs_present(a, MC_ATTR_AUTO_PAD))
    return mc_fail(err, MC_E_ATTRIBUTE_MISSING, "EIP-V2", "attribute auto_pad is not given");
  for (int k = 0; k < 3; k++)
    if (lists[k]->count != 2)
      return mc_fail(err, MC_E_ATTRIBUTE_LENGTH, "EIP-V3", "%s has %d values instead of 2",
                     names[k], lists[k]->count);
  return MC_OK;
}

/* V4, V5, V6: each list needs both values >= 1, sizes first. */
static mc_status check_patch_values(const mc_attrs *a, mc_error *err) {
  const mc_int_list *lists[3] = {mc_attrs_list(a, MC_ATTR_SIZES), mc_attrs_list(a, MC_ATTR_STRIDES),
                                 mc_attrs_list(a, MC_ATTR_RATES)};
  static const char *const names[3] = {"sizes", "strides", "rates"};
  static const char *const ids[3] = {"EIP-V4", "EIP-V5", "EIP-V6"};
  static const mc_status codes[3] = {MC_E_SIZES_BELOW_ONE, MC_E_STRIDES_BELOW_ONE,
                                     MC_E_RATES_BELOW_ONE};
  for (int k = 0; k < MC_MUTANT(eip_rates_unchecked, 3, 2); k++)
    for (int i = 0; i < 2; i++)
      if (lists[k]->v[i] < 1)
        return mc_fail(err, codes[k], ids[k], "%s[%d] = %lld is below 1", names[k], i,
                       (long long)lists[k]->v[i]);
  return MC_OK;
}

static mc_status parse_auto_pad(const char *text, pad_kind *kind, mc_error *err) {
  if (strcmp(text, "valid") == 0)
    *kind = PAD_VALID;
  else if (strcmp(text, "same_upper") == 0)
    *kind = PAD_SAME_UPPER;
  else if (strcmp(text, "same_lower") == 0)
    *kind = PAD_SAME_LOWER;
  else
    return mc_fail(err, MC_E_AUTO_PAD_INVALID, "EIP-V7",
                   "auto_pad must be valid, same_upper or same_lower exactly");
  return MC_OK;
}

/* One axis: window span, window count and leading padding (EIP-S1..S3). */
static mc_status patch_axis(int64_t in, int64_t size, int64_t stride, int64_t rate, pad_kind kind,
                            int64_t *count, int64_t *pad_begin, mc_error *err) {
  int64_t span;
  if (!mc_mul_i64(size - 1, rate, &span) || !mc_add_i64(span, 1, &span))
    return overflow(err, "the effective patch size (size - 1) * rate + 1");
  *pad_begin = 0;
  if (kind == PAD_VALID) {
    bool fits = MC_MUTANT(eip_valid_count_truncating, in >= span, true);
    *count = fits ? (in - span) / stride + 1 : 0;
    return MC_OK;
  }
  *count = in / stride + MC_MUTANT(eip_same_count_floor, in % stride != 0, 0);
  if (*count == 0)
    return MC_OK;
  /* (count-1)*stride lies in [in - stride, in), so the total padding
     (count-1)*stride + span - in equals span - reach with reach in
     (0, stride]: it always fits, and computing it this way never overflows. */
  int64_t reach = in - (*count - 1) * stride;
  int64_t total = span > reach ? span - reach : 0;
  bool upper =
      MC_MUTANT(eip_same_upper_lower_swapped, kind == PAD_SAME_UPPER, kind != PAD_SAME_UPPER);
  *pad_begin = upper ? total / 2 : total - total / 2;
  return MC_OK;
}

static mc_status validate_extract_image_patches(const mc_request *req, mc_opt_plan *plan,
                                                mc_error *err) {
  if (plan->rank != 4)
    return mc_fail(err, MC_E_DATA_RANK, "EIP-V1", "data has rank %d; exactly 4 is needed",
                   plan->rank);
  const mc_attrs *a = &req->attrs;
  pad_kind kind = PAD_VALID;
  mc_status s = check_patch_attrs_given(a, err);
  if (s == MC_OK)
    s = check_patch_values(a, err);
  if (s == MC_OK)
    s = parse_auto_pad(mc_attrs_string(a, MC_ATTR_AUTO_PAD), &kind, err);
  if (s != MC_OK)
    return s;
  for (int i = 0; i < 2; i++) {
    plan->size[i] = mc_attrs_list(a, MC_ATTR_SIZES)->v[i];
    plan->stride[i] = mc_attrs_list(a, MC_ATTR_STRIDES)->v[i];
    plan->rate[i] = mc_attrs_list(a, MC_ATTR_RATES)->v[i];
    s = patch_axis(plan->in_shape[2 + i], plan->size[i], plan->stride[i], plan->rate[i], kind,
                   &plan->out_shape[2 + i], &plan->pad_begin[i], err);
    if (s != MC_OK)
      return s;
  }
  int64_t depth;
  if (!mc_mul_i64(plan->in_shape[1], plan->size[0], &depth) ||
      !mc_mul_i64(depth, plan->size[1], &depth))
    return overflow(err, "the output depth depth * size_rows * size_cols");
  plan->out_shape[0] = plan->in_shape[0];
  plan->out_shape[1] = depth;
  return MC_OK;
}

/* ---- Check 6: the output's size and the cap ---- */

static mc_status check_output_size(mc_opt_plan *plan, size_t max_output_bytes, mc_error *err) {
  if (!mc_shape_elements(plan->rank, plan->out_shape, &plan->out_elements))
    return overflow(err, "the output element count");
  if (!mc_storage_bytes(plan->type, plan->out_elements, &plan->out_bytes))
    return overflow(err, "the output byte size");
  if (plan->out_bytes > max_output_bytes)
    return mc_fail(err, MC_E_OUTPUT_TOO_LARGE, "MC-L4",
                   "the output needs %zu bytes, over the cap of %zu", plan->out_bytes,
                   max_output_bytes);
  return MC_OK;
}

typedef mc_status (*validate_fn)(const mc_request *, mc_opt_plan *, mc_error *);

/* A row per operation (a hole: tests/test_op_tables.c). */
static const validate_fn validators[] = {
    [MC_OP_BATCH_TO_SPACE] = validate_batch_to_space,
    [MC_OP_SPACE_TO_BATCH] = validate_space_to_batch,
    [MC_OP_SPACE_TO_DEPTH] = validate_space_to_depth,
    [MC_OP_DEPTH_TO_SPACE] = validate_depth_to_space,
    [MC_OP_EXTRACT_IMAGE_PATCHES] = validate_extract_image_patches,
    [MC_OP_SHUFFLE_CHANNELS] = mc_opt_validate_shuffle_channels,
};
_Static_assert(sizeof validators / sizeof validators[0] == MC_OP_COUNT,
               "validators: a row per operation");

bool mc_opt_has_validator(mc_op op) {
  return (int)op >= 0 && op < MC_OP_COUNT && validators[op] != NULL;
}

mc_status mc_opt_validate(const mc_request *req, size_t max_output_bytes, mc_opt_plan *plan,
                          mc_error *err) {
  mc_error_clear(err);
  if (!plan)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "no plan to fill");
  memset(plan, 0, sizeof *plan);
  if (!req)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "no request given");
  mc_status s = check_request_shape(req, err);
  if (s == MC_OK)
    s = check_type_and_ranks(req, err);
  if (s != MC_OK)
    return s;
  const mc_tensor *data = req->inputs[0];
  plan->op = req->op;
  plan->type = data->type;
  plan->rank = data->rank;
  memcpy(plan->in_shape, data->shape, (size_t)data->rank * sizeof data->shape[0]);
  plan->block_size = 1;
  s = validators[req->op](req, plan, err);
  if (s == MC_OK)
    s = check_output_size(plan, max_output_bytes, err);
  return s;
}
