/* Pad-12 as the specification reads: on every axis the negative side is
   cropped (PAD-S2) and the positive side extended by the mode (PAD-S1),
   reading the data's uncropped axis (errata E50). One axis at a time, the
   axes that shrink first, so that no intermediate is larger than the data
   or the output. Clauses: spec/pad_12.md; errata E50 to E57. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "movconf/tensor.h"
#include "oracle/oracle_ops.h"

enum { PADS_BEGIN = 1, PADS_END = 2, PAD_VALUE = 3 };

typedef enum pad_mode { MODE_CONSTANT, MODE_EDGE, MODE_REFLECT, MODE_SYMMETRIC } pad_mode;

static const char *const mode_spellings[] = {"constant", "edge", "reflect", "symmetric"};

/* PAD-V1 to PAD-V3: data rank, then pad_mode present and spelled exactly. */
static mc_status check_data_and_mode(const mc_request *req, pad_mode *mode, mc_error *err) {
  if (req->inputs[0]->rank < 1)
    return mc_fail(err, MC_E_DATA_RANK, "PAD-V1", "data has rank %d; at least 1 is required",
                   req->inputs[0]->rank);
  const char *s = mc_attrs_string(&req->attrs, MC_ATTR_PAD_MODE);
  if (!s)
    return mc_fail(err, MC_E_MODE_MISSING, "PAD-V2", "pad_mode is required");
  for (int m = 0; m < 4; m++)
    if (strcmp(s, mode_spellings[m]) == 0) {
      *mode = (pad_mode)m;
      return MC_OK;
    }
  return mc_fail(err, MC_E_MODE_INVALID, "PAD-V3",
                 "pad_mode \"%.40s\" is not constant, edge, reflect or symmetric", s);
}

/* PAD-V4 to PAD-V6, then MC-L2: each clause over pads_begin, then pads_end. */
static mc_status check_pads(const mc_request *req, int64_t *begin, int64_t *end, mc_error *err) {
  const int rank = req->inputs[0]->rank;
  for (int k = PADS_BEGIN; k <= PADS_END; k++)
    if (!mc_type_is_side_integer(req->inputs[k]->type))
      return mc_fail(err, MC_E_SIDE_INPUT_TYPE, "PAD-V4",
                     "%s has type %s; an integer type is required", mc_op_input_name(req->op, k),
                     mc_type_name(req->inputs[k]->type));
  for (int k = PADS_BEGIN; k <= PADS_END; k++)
    if (req->inputs[k]->rank != 1)
      return mc_fail(err, MC_E_SIDE_INPUT_RANK, "PAD-V5", "%s has rank %d; it must be 1-D",
                     mc_op_input_name(req->op, k), req->inputs[k]->rank);
  for (int k = PADS_BEGIN; k <= PADS_END; k++)
    if (req->inputs[k]->shape[0] != rank)
      return mc_fail(err, MC_E_SIDE_INPUT_LENGTH, "PAD-V6",
                     "%s has %lld elements; data has %d axes", mc_op_input_name(req->op, k),
                     (long long)req->inputs[k]->shape[0], rank);
  for (int k = PADS_BEGIN; k <= PADS_END; k++)
    for (int a = 0; a < rank; a++)
      if (!mc_side_value(req->inputs[k], a, k == PADS_BEGIN ? &begin[a] : &end[a]))
        return mc_fail(err, MC_E_VALUE_OUT_OF_RANGE, "MC-L2", "%s[%d] is above INT64_MAX",
                       mc_op_input_name(req->op, k), a);
  return MC_OK;
}

/* PAD-V7, PAD-V8: a pad_value given in constant mode is a scalar of the
   data's type; other modes ignore it whatever it is (errata E54). */
static mc_status check_pad_value(const mc_request *req, pad_mode mode, mc_error *err) {
  if (mode != MODE_CONSTANT || req->n_inputs <= PAD_VALUE)
    return MC_OK;
  const mc_tensor *v = req->inputs[PAD_VALUE], *data = req->inputs[0];
  if (v->type != data->type)
    return mc_fail(err, MC_E_SIDE_INPUT_TYPE, "PAD-V7", "pad_value has type %s; data's type %s",
                   mc_type_name(v->type), mc_type_name(data->type));
  if (v->rank != 0)
    return mc_fail(err, MC_E_SIDE_INPUT_RANK, "PAD-V8", "pad_value has rank %d; it must be 0",
                   v->rank);
  return MC_OK;
}

/* PAD-V9: what edge, reflect and symmetric copy from must exist. The
   largest positive pad an axis of d elements takes: edge any but none when
   d = 0, reflect d - 1, symmetric d; a pad of 0 or less always (E51, E52). */
static mc_status check_limits(const mc_request *req, pad_mode mode, const int64_t *begin,
                              const int64_t *end, mc_error *err) {
  if (mode == MODE_CONSTANT)
    return MC_OK;
  for (int k = PADS_BEGIN; k <= PADS_END; k++)
    for (int a = 0; a < req->inputs[0]->rank; a++) {
      const int64_t d = req->inputs[0]->shape[a], p = k == PADS_BEGIN ? begin[a] : end[a];
      const int64_t most = mode == MODE_EDGE      ? (d > 0 ? INT64_MAX : 0)
                           : mode == MODE_REFLECT ? (d > 0 ? d - 1 : 0)
                                                  : d;
      if (p > most)
        return mc_fail(err, MC_E_PAD_TOO_LARGE, "PAD-V9",
                       "%s[%d] is %lld; %s mode on an axis of %lld allows at most %lld",
                       mc_op_input_name(req->op, k), a, (long long)p, mode_spellings[mode],
                       (long long)d, (long long)most);
    }
  return MC_OK;
}

/* PAD-O1 on axis a, with MC-L3 when begin + d + end exceeds int64; a sum
   below INT64_MIN is negative and clamps to 0 like any other. */
static mc_status output_dim(int a, int64_t d, int64_t begin, int64_t end, int64_t *out,
                            mc_error *err) {
  if (begin > 0 && d > INT64_MAX - begin)
    return mc_fail(err, MC_E_SHAPE_OVERFLOW, "MC-L3", "pads_begin[%d] + data dim does not fit", a);
  const int64_t partial = begin + d;
  if (end > 0 && partial > INT64_MAX - end)
    return mc_fail(err, MC_E_SHAPE_OVERFLOW, "MC-L3",
                   "pads_begin[%d] + dim + pads_end[%d] does "
                   "not fit",
                   a, a);
  *out = end < 0 && partial < INT64_MIN - end ? 0 : partial + end;
  if (*out < 0)
    *out = 0;
  return MC_OK;
}

/* PAD-S1 and PAD-S2 for one position j of an output axis: the data
   position it reads, or -1 for pad_value. j - begin is formed in uint64
   when begin <= 0 (it may pass INT64_MAX); the folds are exact since
   PAD-V9 bounds the pads. */
static int64_t source_position(int64_t j, int64_t begin, int64_t d, pad_mode mode) {
  bool before = false, after = false;
  int64_t i = 0; /* inside [0, d) when neither */
  if (begin > 0 && j < begin) {
    before = true;
    i = j - begin; /* in [-begin, -1] */
  } else {
    const uint64_t u = begin > 0 ? (uint64_t)(j - begin) : (uint64_t)j + (0 - (uint64_t)begin);
    after = u >= (uint64_t)d;
    i = after ? (u - (uint64_t)d < (uint64_t)d ? (int64_t)u : INT64_MAX) : (int64_t)u;
  }
  if (!before && !after)
    return i;
  switch (mode) {
  case MODE_CONSTANT:
    return -1;
  case MODE_EDGE:
    return before ? 0 : d - 1;
  case MODE_REFLECT:
    return before ? -i : 2 * (d - 1) - i;
  default: /* symmetric */
    return before ? -i - 1 : 2 * d - 1 - i;
  }
}

/* One axis of `shape` (viewed as outer x d x inner) becomes n positions:
   position j of every row reads source_position(j), or holds the value. */
static void pad_axis(mc_type t, const mc_shape *shape, int axis, const uint8_t *in, int64_t n,
                     int64_t begin, pad_mode mode, uint64_t value, uint8_t *out) {
  int64_t outer = 1, inner = 1;
  for (int a = 0; a < axis; a++)
    outer *= shape->dim[a];
  for (int a = axis + 1; a < shape->rank; a++)
    inner *= shape->dim[a];
  const int64_t d = shape->dim[axis];
  for (int64_t o = 0; o < outer; o++)
    for (int64_t j = 0; j < n; j++) {
      const int64_t src = source_position(j, begin, d, mode);
      for (int64_t e = 0; e < inner; e++) {
        const int64_t to = (o * n + j) * inner + e;
        if (src < 0)
          mc_store_bits(out, t, to, value);
        else
          mc_copy_element(out, to, in, (o * d + src) * inner + e, t);
      }
    }
}

/* The steps over every axis, those that shrink (or keep) their size before
   those that grow, each pass into a new buffer. */
static mc_status pad_data(const mc_request *req, pad_mode mode, const int64_t *begin,
                          const mc_tensor *out, mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  const bool has_value = mode == MODE_CONSTANT && req->n_inputs > PAD_VALUE;
  const uint64_t value = has_value ? mc_load_bits(req->inputs[PAD_VALUE]->data, data->type, 0) : 0;
  mc_shape shape = mc_shape_make(data->rank, data->shape);
  const uint8_t *cur = data->data;
  uint8_t *owned = NULL;
  for (int pass = 0; pass < 2; pass++)
    for (int a = 0; a < data->rank; a++) {
      const bool grows = out->shape[a] > data->shape[a];
      if (grows != (pass == 1))
        continue;
      mc_shape next = shape;
      next.dim[a] = out->shape[a];
      int64_t count = 0;
      size_t bytes = 0;
      mc_shape_count(&next, &count); /* at most the data's or the output's count */
      mc_storage_bytes(data->type, count, &bytes);
      uint8_t *buf = malloc(bytes ? bytes : 1);
      if (!buf) {
        free(owned);
        return mc_fail(err, MC_E_OUT_OF_MEMORY, NULL, "cannot allocate a padded intermediate");
      }
      memset(buf, 0, bytes);
      pad_axis(data->type, &shape, a, cur, next.dim[a], begin[a], mode, value, buf);
      free(owned);
      owned = buf;
      cur = buf;
      shape = next;
    }
  memcpy(out->data, cur, out->nbytes);
  free(owned);
  return MC_OK;
}

mc_status mc_oracle_pad_12(const mc_request *req, size_t cap, mc_tensor *out, mc_error *err) {
  const mc_tensor *data = req->inputs[0];
  pad_mode mode = MODE_CONSTANT;
  int64_t begin[MC_MAX_RANK], end[MC_MAX_RANK], out_shape[MC_MAX_RANK];
  mc_status s = check_data_and_mode(req, &mode, err);
  if (s == MC_OK)
    s = check_pads(req, begin, end, err);
  if (s == MC_OK)
    s = check_pad_value(req, mode, err);
  if (s == MC_OK)
    s = check_limits(req, mode, begin, end, err);
  for (int a = 0; s == MC_OK && a < data->rank; a++)
    s = output_dim(a, data->shape[a], begin[a], end[a], &out_shape[a], err);
  if (s != MC_OK)
    return s;
  s = mc_oracle_alloc_output(out, data->type, data->rank, out_shape, cap, err);
  /* An empty output has nothing to compute, and its passes could walk an
     axis of 2^40 positions over rows of no element. */
  if (s == MC_OK && mc_tensor_elements(out) > 0)
    s = pad_data(req, mode, begin, out, err);
  return s;
}
