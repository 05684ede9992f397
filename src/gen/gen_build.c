/* movconf gen: one combination of a group's parameters to a request
   (generators/README.md defines every parameter). Two styles per operation:
   rules (spatial sizes, a block, a margin policy: the valid inputs follow
   from them) and raw inputs (data_shape and the side inputs' values as
   given, for invalid and hostile inputs). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/json.h"
#include "cases/payload.h"
#include "common/checked.h"
#include "gen/gen.h"
#include "gen/gen_build.h"
#include "movconf/tensor.h"

#define MAX_EXACT (INT64_C(1) << 53)

/* ---- messages ---- */

bool mc_gen_fail(char *err, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, n, fmt, ap);
  va_end(ap);
  return false;
}

/* ---- reading parameter values ---- */

const cJSON *mc_gen_param(const mc_gen_params *p, const char *name) {
  for (int i = 0; i < p->n; i++)
    if (strcmp(p->name[i], name) == 0)
      return p->value[i];
  return NULL;
}

/* A JSON number with an integral value within 2^53, or a decimal string
   up to 2^64 - 1 in magnitude (the case format's integers). */
bool mc_gen_read_int(const cJSON *v, const char *what, mc_int *out, char *err, size_t n) {
  if (cJSON_IsString(v)) {
    if (mc_decimal_string_integer(v->valuestring, out) == MC_NUM_OK)
      return true;
    return mc_gen_fail(err, n, "%s: \"%s\" is not a decimal integer within 64 bits", what,
                       v->valuestring);
  }
  if (cJSON_IsNumber(v)) {
    double d = v->valuedouble;
    if (d >= -(double)MAX_EXACT && d <= (double)MAX_EXACT && d == (double)(int64_t)d) {
      *out = mc_int_from_i64((int64_t)d);
      return true;
    }
  }
  return mc_gen_fail(err, n, "%s: an integer (a number within 2^53 or a decimal string) is needed",
                     what);
}

bool mc_gen_read_i64(const cJSON *v, const char *what, int64_t *out, char *err, size_t n) {
  mc_int big;
  if (!mc_gen_read_int(v, what, &big, err, n))
    return false;
  if (!mc_int_to_i64(big, out))
    return mc_gen_fail(err, n, "%s: the value is outside int64", what);
  return true;
}

/* An integer parameter, def when absent. */
bool mc_gen_get_i64(const mc_gen_params *p, const char *name, int64_t def, int64_t *out, char *err,
                    size_t n) {
  const cJSON *v = mc_gen_param(p, name);
  if (!v) {
    *out = def;
    return true;
  }
  return mc_gen_read_i64(v, name, out, err, n);
}

/* A list of integers of at most max entries. */
bool mc_gen_read_list(const cJSON *v, const char *what, mc_int *out, int max, int *count, char *err,
                      size_t n) {
  if (!cJSON_IsArray(v))
    return mc_gen_fail(err, n, "%s: an array of integers is needed", what);
  int k = cJSON_GetArraySize(v);
  if (k > max)
    return mc_gen_fail(err, n, "%s: %d values, at most %d", what, k, max);
  for (int i = 0; i < k; i++)
    if (!mc_gen_read_int(cJSON_GetArrayItem(v, i), what, &out[i], err, n))
      return false;
  *count = k;
  return true;
}

bool mc_gen_read_i64_list(const cJSON *v, const char *what, int64_t *out, int max, int *count,
                          char *err, size_t n) {
  mc_int big[MC_GEN_MAX_SIDE] = {{0}};
  if (max > MC_GEN_MAX_SIDE)
    max = MC_GEN_MAX_SIDE;
  if (!mc_gen_read_list(v, what, big, max, count, err, n))
    return false;
  for (int i = 0; i < *count; i++)
    if (!mc_int_to_i64(big[i], &out[i]))
      return mc_gen_fail(err, n, "%s[%d]: the value is outside int64", what, i);
  return true;
}

static bool get_string(const mc_gen_params *p, const char *name, const char *def, const char **out,
                       char *err, size_t n) {
  const cJSON *v = mc_gen_param(p, name);
  if (!v) {
    *out = def;
    return true;
  }
  if (!cJSON_IsString(v))
    return mc_gen_fail(err, n, "%s: a string is needed", name);
  *out = v->valuestring;
  return true;
}

static bool get_type(const mc_gen_params *p, const char *name, const char *def, mc_type *out,
                     char *err, size_t n) {
  const char *s = NULL;
  if (!get_string(p, name, def, &s, err, n))
    return false;
  *out = mc_type_from_name(s);
  if (*out == MC_TYPE_INVALID)
    return mc_gen_fail(err, n, "%s: unknown element type '%s'", name, s);
  return true;
}

void mc_gen_format_value(const cJSON *v, char *buf, size_t n) {
  size_t used = 0;
  buf[0] = '\0';
  if (cJSON_IsArray(v)) {
    used += (size_t)snprintf(buf, n, "[");
    int i = 0;
    for (const cJSON *e = v->child; e && used < n; e = e->next, i++) {
      char item[64];
      mc_gen_format_value(e, item, sizeof item);
      used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", item);
    }
    if (used < n)
      snprintf(buf + used, n - used, "]");
  } else if (cJSON_IsString(v)) {
    snprintf(buf, n, "%s", v->valuestring);
  } else if (cJSON_IsNumber(v)) {
    snprintf(buf, n, "%lld", (long long)v->valuedouble); /* integral: checked when read */
  } else if (cJSON_IsNull(v)) {
    snprintf(buf, n, "absent");
  } else {
    snprintf(buf, n, "?");
  }
}

/* ---- tensors ---- */

static bool alloc_tensor(mc_tensor *t, mc_type type, int rank, const int64_t *shape,
                         size_t max_bytes, const char *what, char *err, size_t n) {
  if (rank < 0 || rank > MC_TENSOR_MAX_RANK)
    return mc_gen_fail(err, n, "%s: rank %d is outside 0..%d", what, rank, MC_TENSOR_MAX_RANK);
  for (int a = 0; a < rank; a++)
    if (shape[a] < 0)
      return mc_gen_fail(err, n, "%s: dimension %d is negative", what, a);
  mc_status s = mc_tensor_alloc(t, type, rank, shape, max_bytes);
  if (s != MC_OK)
    return mc_gen_fail(err, n,
                       "%s: the tensor is too large for a generated case (%s; at most %zu bytes)",
                       what, mc_status_name(s), max_bytes);
  return true;
}

/* The bits of integer v as an element of t: exactly, for every type (a
   side input of a float or boolean type is invalid, but has values). */
static bool value_bits(mc_type t, mc_int v, uint64_t *bits) {
  const mc_type_info *info = mc_type_get(t);
  int64_t i;
  if (info->is_integer)
    return mc_int_type_bits(t, v, bits);
  if (!mc_int_to_i64(v, &i))
    return false;
  if (t == MC_BOOLEAN) {
    *bits = (uint64_t)i;
    return i == 0 || i == 1;
  }
  return i >= -MAX_EXACT && i <= MAX_EXACT && mc_float_type_bits(t, (double)i, bits);
}

/* A side input of type type and shape, holding values cycled over its
   elements (zeros when there are none). */
bool mc_gen_side_tensor(mc_tensor *t, mc_type type, int rank, const int64_t *shape,
                        const mc_int *values, int n_values, const char *what, char *err, size_t n) {
  int64_t count;
  if (!mc_shape_elements(rank, shape, &count) || count > MC_GEN_MAX_SIDE)
    return mc_gen_fail(err, n, "%s: more than %d elements", what, MC_GEN_MAX_SIDE);
  if (!alloc_tensor(t, type, rank, shape, MC_GEN_MAX_INPUT_BYTES, what, err, n))
    return false;
  for (int64_t i = 0; i < count; i++) {
    mc_int v = n_values ? values[i % n_values] : mc_int_from_i64(0);
    uint64_t bits = 0;
    if (!value_bits(type, v, &bits)) {
      char shown[32];
      mc_int_format(v, shown, sizeof shown);
      return mc_gen_fail(err, n, "%s[%lld]: %s is not a value of %s", what, (long long)i, shown,
                         mc_type_name(type));
    }
    mc_store_bits(t->data, type, i, bits);
  }
  return true;
}

bool mc_gen_side_vector(mc_tensor *t, mc_type type, const int64_t *values, int count,
                        const char *what, char *err, size_t n) {
  mc_int big[MC_GEN_MAX_SIDE] = {{0}};
  for (int i = 0; i < count; i++)
    big[i] = mc_int_from_i64(values[i]);
  int64_t shape[1] = {count};
  return mc_gen_side_tensor(t, type, 1, shape, big, count, what, err, n);
}

/* ---- data fills ---- */

/* Bit patterns that break implementations which look at values: signed
   zeros, denormals, infinities, NaNs with payloads (quiet, signalling,
   negative), extremes. Integers (and booleans, so non-canonical ones): 0,
   1, all ones, the top bit alone, all but the top bit, alternating bits. */
static const uint64_t f16_specials[] = {0x0000, 0x8000, 0x0001, 0x03FF, 0x8001,
                                        0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x7E5A,
                                        0xFFFF, 0x7BFF, 0x3C00, 0x0400, 0xFD3B};
static const uint64_t bf16_specials[] = {0x0000, 0x8000, 0x0001, 0x007F, 0x8001,
                                         0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0x7FA5,
                                         0xFFFF, 0x7F7F, 0x3F80, 0x0080, 0xFFC1};
static const uint64_t f32_specials[] = {0x00000000, 0x80000000, 0x00000001, 0x007FFFFF, 0x80000001,
                                        0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0x7FA5A5A5,
                                        0xFFFFFFFF, 0x7F7FFFFF, 0x3F800000, 0x00800000, 0xFFC00001};
static const uint64_t f64_specials[] = {
    UINT64_C(0x0000000000000000), UINT64_C(0x8000000000000000), UINT64_C(0x0000000000000001),
    UINT64_C(0x000FFFFFFFFFFFFF), UINT64_C(0x8000000000000001), UINT64_C(0x7FF0000000000000),
    UINT64_C(0xFFF0000000000000), UINT64_C(0x7FF8000000000000), UINT64_C(0x7FF0000000000001),
    UINT64_C(0x7FF5A5A5A5A5A5A5), UINT64_C(0xFFFFFFFFFFFFFFFF), UINT64_C(0x7FEFFFFFFFFFFFFF),
    UINT64_C(0x3FF0000000000000), UINT64_C(0x0010000000000000), UINT64_C(0xFFF8000000000001)};
static const uint64_t f8e4m3_specials[] = {0x00, 0x80, 0x01, 0x07, 0x81, 0x7F, 0xFF,
                                           0x7E, 0xFE, 0x38, 0x08, 0x77, 0x87};
static const uint64_t f8e5m2_specials[] = {0x00, 0x80, 0x01, 0x03, 0x81, 0x7C, 0xFC, 0x7E,
                                           0x7D, 0x7F, 0xFF, 0x7B, 0x3C, 0x04, 0xFD};

static int float_specials(mc_type t, const uint64_t **table) {
#define TABLE(x) (*table = x, (int)(sizeof x / sizeof x[0]))
  switch (t) {
  case MC_F16:
    return TABLE(f16_specials);
  case MC_BF16:
    return TABLE(bf16_specials);
  case MC_F32:
    return TABLE(f32_specials);
  case MC_F64:
    return TABLE(f64_specials);
  case MC_F8E4M3:
    return TABLE(f8e4m3_specials);
  case MC_F8E5M2:
    return TABLE(f8e5m2_specials);
  default:
    return 0;
  }
#undef TABLE
}

static uint64_t integer_special(unsigned bits, int64_t i) {
  uint64_t all = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
  uint64_t top = UINT64_C(1) << (bits - 1);
  const uint64_t patterns[] = {0,
                               1,
                               all,
                               top,
                               all & ~top,
                               all & UINT64_C(0x5555555555555555),
                               all & UINT64_C(0xAAAAAAAAAAAAAAAA)};
  return patterns[i % (int64_t)(sizeof patterns / sizeof patterns[0])];
}

static void fill_specials(mc_tensor *t, int64_t count) {
  const uint64_t *table = NULL;
  int n = float_specials(t->type, &table);
  for (int64_t i = 0; i < count; i++)
    mc_store_bits(t->data, t->type, i,
                  n ? table[i % n] : integer_special(mc_type_bits(t->type), i));
}

/* iota: element i has the value start + i, exactly. */
static bool fill_iota(mc_tensor *t, int64_t count, int64_t start, char *err, size_t n) {
  for (int64_t i = 0; i < count; i++) {
    int64_t v;
    uint64_t bits = 0;
    if (!mc_add_i64(start, i, &v) || !value_bits(t->type, mc_int_from_i64(v), &bits))
      return mc_gen_fail(err, n,
                         "fill iota: element %lld (value start + %lld) is not a value of %s",
                         (long long)i, (long long)i, mc_type_name(t->type));
    mc_store_bits(t->data, t->type, i, bits);
  }
  return true;
}

/* Allocates the data input and fills it as the fill parameter says. */
bool mc_gen_make_data(mc_gen_case *c, const mc_gen_params *p, int rank, const int64_t *shape,
                      uint64_t case_seed, char *err, size_t n) {
  mc_type type;
  const char *fill = NULL;
  int64_t start;
  if (!get_type(p, "type", "u8", &type, err, n) ||
      !get_string(p, "fill", "counter", &fill, err, n) ||
      !mc_gen_get_i64(p, "fill_start", 0, &start, err, n))
    return false;
  mc_tensor *t = &c->tensors[0];
  size_t max_bytes = p->max_input_bytes ? p->max_input_bytes : MC_GEN_MAX_INPUT_BYTES;
  if (!alloc_tensor(t, type, rank, shape, max_bytes, "data", err, n))
    return false;
  int64_t count = mc_tensor_elements(t);
  if (strcmp(fill, "counter") == 0) {
    mc_fill_counter(t, count, start);
    c->fill = MC_PAYLOAD_FILL_COUNTER;
    memcpy(&c->fill_param, &start, sizeof start);
  } else if (strcmp(fill, "iota") == 0) {
    c->fill = MC_PAYLOAD_FILL_IOTA;
    memcpy(&c->fill_param, &start, sizeof start);
    return fill_iota(t, count, start, err, n);
  } else if (strcmp(fill, "prng") == 0) {
    mc_fill_prng(t, count, case_seed);
    c->fill = MC_PAYLOAD_FILL_PRNG;
    c->fill_param = case_seed;
  } else if (strcmp(fill, "specials") == 0) {
    fill_specials(t, count);
    c->fill = MC_PAYLOAD_HEX;
  } else {
    return mc_gen_fail(err, n, "fill: '%s' is not counter, iota, prng or specials", fill);
  }
  return true;
}

bool mc_gen_raw_data(mc_gen_case *c, const mc_gen_params *p, const cJSON *raw, uint64_t case_seed,
                     char *err, size_t n) {
  int64_t shape[MC_TENSOR_MAX_RANK];
  int rank;
  return mc_gen_read_i64_list(raw, "data_shape", shape, MC_TENSOR_MAX_RANK, &rank, err, n) &&
         mc_gen_make_data(c, p, rank, shape, case_seed, err, n);
}

bool mc_gen_required_raw_data(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err,
                              size_t n) {
  const cJSON *raw = mc_gen_param(p, "data_shape");
  if (!raw)
    return mc_gen_fail(err, n, "data_shape: missing");
  return mc_gen_raw_data(c, p, raw, case_seed, err, n);
}

/* ---- side-input types ---- */

/* side_type: one type for all count side inputs, or an array of count. */
bool mc_gen_side_types(const mc_gen_params *p, mc_type *out, int count, char *err, size_t n) {
  const cJSON *v = mc_gen_param(p, "side_type");
  if (!v || cJSON_IsString(v)) {
    if (!get_type(p, "side_type", "i64", &out[0], err, n))
      return false;
    for (int i = 1; i < count; i++)
      out[i] = out[0];
    return true;
  }
  if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != count)
    return mc_gen_fail(err, n, "side_type: a type name or an array of %d", count);
  for (int i = 0; i < count; i++) {
    const cJSON *e = cJSON_GetArrayItem(v, i);
    out[i] = cJSON_IsString(e) ? mc_type_from_name(e->valuestring) : MC_TYPE_INVALID;
    if (out[i] == MC_TYPE_INVALID)
      return mc_gen_fail(err, n, "side_type[%d]: not an element type name", i);
  }
  return true;
}

/* ---- attributes ---- */

/* An integer attribute: absent when the parameter is absent or null. */
bool mc_gen_int_attr(mc_gen_case *c, const mc_gen_params *p, const char *name, mc_attr id,
                     char *err, size_t n) {
  const cJSON *v = mc_gen_param(p, name);
  int64_t value;
  if (!v || cJSON_IsNull(v))
    return true;
  if (!mc_gen_read_i64(v, name, &value, err, n))
    return false;
  mc_attrs_set_int(&c->req.attrs, id, value);
  return true;
}

bool mc_gen_list_attr(mc_gen_case *c, const mc_gen_params *p, const char *name, mc_attr id,
                      char *err, size_t n) {
  const cJSON *v = mc_gen_param(p, name);
  mc_int_list *out = mc_attrs_list_slot(&c->req.attrs, id);
  out->count = -1;
  if (!v || cJSON_IsNull(v))
    return true;
  return mc_gen_read_i64_list(v, name, out->v, MC_MAX_ATTR_LEN, &out->count, err, n);
}

/* ---- entry points ---- */

bool mc_gen_build(mc_op op, const mc_gen_params *params, uint64_t case_seed, mc_gen_case *out,
                  char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  out->req.op = op;
  out->req.attrs = mc_attrs_none();
  out->req.n_inputs = mc_op_input_count(op);
  for (int i = 0; i < out->req.n_inputs; i++)
    out->req.inputs[i] = &out->tensors[i];
  const mc_gen_op_desc *desc = mc_gen_op_of(op);
  if (!desc ? !mc_gen_fail(err, errlen, "unknown operation")
            : !desc->build(out, params, case_seed, err, errlen)) {
    mc_gen_case_free(out);
    return false;
  }
  return true;
}

void mc_gen_case_free(mc_gen_case *c) {
  for (int i = 0; i < MC_MAX_INPUTS; i++)
    mc_tensor_free(&c->tensors[i]);
}
