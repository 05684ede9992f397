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
#include "movconf/tensor.h"

#define MAX_SIDE 64 /* values of one generated side input */
#define MAX_EXACT (INT64_C(1) << 53)

/* ---- messages ---- */

static bool fail(char *err, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static bool fail(char *err, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, n, fmt, ap);
  va_end(ap);
  return false;
}

/* ---- reading parameter values ---- */

static const cJSON *param(const mc_gen_params *p, const char *name) {
  for (int i = 0; i < p->n; i++)
    if (strcmp(p->name[i], name) == 0)
      return p->value[i];
  return NULL;
}

/* A JSON number with an integral value within 2^53, or a decimal string
   up to 2^64 - 1 in magnitude (the case format's integers). */
static bool read_big(const cJSON *v, const char *what, mc_int *out, char *err, size_t n) {
  if (cJSON_IsString(v)) {
    if (mc_decimal_string_integer(v->valuestring, out) == MC_NUM_OK)
      return true;
    return fail(err, n, "%s: \"%s\" is not a decimal integer within 64 bits", what, v->valuestring);
  }
  if (cJSON_IsNumber(v)) {
    double d = v->valuedouble;
    if (d >= -(double)MAX_EXACT && d <= (double)MAX_EXACT && d == (double)(int64_t)d) {
      *out = mc_int_from_i64((int64_t)d);
      return true;
    }
  }
  return fail(err, n, "%s: an integer (a number within 2^53 or a decimal string) is needed", what);
}

static bool read_i64(const cJSON *v, const char *what, int64_t *out, char *err, size_t n) {
  mc_int big;
  if (!read_big(v, what, &big, err, n))
    return false;
  if (!mc_int_to_i64(big, out))
    return fail(err, n, "%s: the value is outside int64", what);
  return true;
}

/* An integer parameter, def when absent. */
static bool get_i64(const mc_gen_params *p, const char *name, int64_t def, int64_t *out, char *err,
                    size_t n) {
  const cJSON *v = param(p, name);
  if (!v) {
    *out = def;
    return true;
  }
  return read_i64(v, name, out, err, n);
}

/* A list of integers of at most max entries. */
static bool read_list(const cJSON *v, const char *what, mc_int *out, int max, int *count, char *err,
                      size_t n) {
  if (!cJSON_IsArray(v))
    return fail(err, n, "%s: an array of integers is needed", what);
  int k = cJSON_GetArraySize(v);
  if (k > max)
    return fail(err, n, "%s: %d values, at most %d", what, k, max);
  for (int i = 0; i < k; i++)
    if (!read_big(cJSON_GetArrayItem(v, i), what, &out[i], err, n))
      return false;
  *count = k;
  return true;
}

static bool read_i64_list(const cJSON *v, const char *what, int64_t *out, int max, int *count,
                          char *err, size_t n) {
  mc_int big[MAX_SIDE] = {{0}};
  if (max > MAX_SIDE)
    max = MAX_SIDE;
  if (!read_list(v, what, big, max, count, err, n))
    return false;
  for (int i = 0; i < *count; i++)
    if (!mc_int_to_i64(big[i], &out[i]))
      return fail(err, n, "%s[%d]: the value is outside int64", what, i);
  return true;
}

static bool get_string(const mc_gen_params *p, const char *name, const char *def, const char **out,
                       char *err, size_t n) {
  const cJSON *v = param(p, name);
  if (!v) {
    *out = def;
    return true;
  }
  if (!cJSON_IsString(v))
    return fail(err, n, "%s: a string is needed", name);
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
    return fail(err, n, "%s: unknown element type '%s'", name, s);
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
    return fail(err, n, "%s: rank %d is outside 0..%d", what, rank, MC_TENSOR_MAX_RANK);
  for (int a = 0; a < rank; a++)
    if (shape[a] < 0)
      return fail(err, n, "%s: dimension %d is negative", what, a);
  mc_status s = mc_tensor_alloc(t, type, rank, shape, max_bytes);
  if (s != MC_OK)
    return fail(err, n, "%s: the tensor is too large for a generated case (%s; at most %zu bytes)",
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
static bool side_tensor(mc_tensor *t, mc_type type, int rank, const int64_t *shape,
                        const mc_int *values, int n_values, const char *what, char *err, size_t n) {
  int64_t count;
  if (!mc_shape_elements(rank, shape, &count) || count > MAX_SIDE)
    return fail(err, n, "%s: more than %d elements", what, MAX_SIDE);
  if (!alloc_tensor(t, type, rank, shape, MC_GEN_MAX_INPUT_BYTES, what, err, n))
    return false;
  for (int64_t i = 0; i < count; i++) {
    mc_int v = n_values ? values[i % n_values] : mc_int_from_i64(0);
    uint64_t bits = 0;
    if (!value_bits(type, v, &bits)) {
      char shown[32];
      mc_int_format(v, shown, sizeof shown);
      return fail(err, n, "%s[%lld]: %s is not a value of %s", what, (long long)i, shown,
                  mc_type_name(type));
    }
    mc_store_bits(t->data, type, i, bits);
  }
  return true;
}

static bool side_vector(mc_tensor *t, mc_type type, const int64_t *values, int count,
                        const char *what, char *err, size_t n) {
  mc_int big[MAX_SIDE] = {{0}};
  for (int i = 0; i < count; i++)
    big[i] = mc_int_from_i64(values[i]);
  int64_t shape[1] = {count};
  return side_tensor(t, type, 1, shape, big, count, what, err, n);
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
      return fail(err, n, "fill iota: element %lld (value start + %lld) is not a value of %s",
                  (long long)i, (long long)i, mc_type_name(t->type));
    mc_store_bits(t->data, t->type, i, bits);
  }
  return true;
}

/* Allocates the data input and fills it as the fill parameter says. */
static bool make_data(mc_gen_case *c, const mc_gen_params *p, int rank, const int64_t *shape,
                      uint64_t case_seed, char *err, size_t n) {
  mc_type type;
  const char *fill = NULL;
  int64_t start;
  if (!get_type(p, "type", "u8", &type, err, n) ||
      !get_string(p, "fill", "counter", &fill, err, n) ||
      !get_i64(p, "fill_start", 0, &start, err, n))
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
    return fail(err, n, "fill: '%s' is not counter, iota, prng or specials", fill);
  }
  return true;
}

/* ---- side-input types ---- */

/* side_type: one type for all three side inputs, or an array of three. */
static bool side_types(const mc_gen_params *p, mc_type out[3], char *err, size_t n) {
  const cJSON *v = param(p, "side_type");
  if (!v || cJSON_IsString(v)) {
    if (!get_type(p, "side_type", "i64", &out[0], err, n))
      return false;
    out[1] = out[2] = out[0];
    return true;
  }
  if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 3)
    return fail(err, n, "side_type: a type name or an array of three");
  for (int i = 0; i < 3; i++) {
    const cJSON *e = cJSON_GetArrayItem(v, i);
    out[i] = cJSON_IsString(e) ? mc_type_from_name(e->valuestring) : MC_TYPE_INVALID;
    if (out[i] == MC_TYPE_INVALID)
      return fail(err, n, "side_type[%d]: not an element type name", i);
  }
  return true;
}

/* ---- BatchToSpace-2 and SpaceToBatch-2 ---- */

/* The block of each spatial axis: one integer for all, a list, or "dim"
   (the axis' own size, at least 1). */
static bool rule_blocks(const mc_gen_params *p, const int64_t *spatial, int k, int64_t *block,
                        char *err, size_t n) {
  const cJSON *v = param(p, "block");
  if (!v) {
    for (int i = 0; i < k; i++)
      block[i] = 1;
    return true;
  }
  if (cJSON_IsString(v) && strcmp(v->valuestring, "dim") == 0) {
    for (int i = 0; i < k; i++)
      block[i] = spatial[i] > 0 ? spatial[i] : 1;
    return true;
  }
  if (cJSON_IsArray(v)) {
    int count;
    if (!read_i64_list(v, "block", block, MC_MAX_RANK, &count, err, n))
      return false;
    if (count != k)
      return fail(err, n, "block: %d values for %d spatial axes", count, k);
    return true;
  }
  int64_t b;
  if (!read_i64(v, "block", &b, err, n))
    return false;
  for (int i = 0; i < k; i++)
    block[i] = b;
  return true;
}

/* The margin policy of spatial axis i: one string for all, or a list. */
static bool policy_of(const mc_gen_params *p, const char *name, int axis, int k, const char **out,
                      char *err, size_t n) {
  const cJSON *v = param(p, name);
  if (!v) {
    *out = "zero";
    return true;
  }
  if (cJSON_IsArray(v)) {
    if (cJSON_GetArraySize(v) != k)
      return fail(err, n, "%s: %d policies for %d spatial axes", name, cJSON_GetArraySize(v), k);
    v = cJSON_GetArrayItem(v, axis);
  }
  if (!cJSON_IsString(v))
    return fail(err, n, "%s: a policy name or a list of them", name);
  *out = v->valuestring;
  return true;
}

/* Crops of one axis of size d and block b, on the stretched size s = d * b
   (B2S-V10: begin + end <= s). */
static bool crop_policy(const char *policy, int64_t d, int64_t b, uint64_t random, int64_t *begin,
                        int64_t *end, char *err, size_t n) {
  int64_t s;
  if (!mc_mul_i64(d, b, &s))
    return fail(err, n, "block: D * B overflows int64");
  int64_t one = s > 0 ? 1 : 0;
  *begin = *end = 0;
  if (strcmp(policy, "zero") == 0) {
  } else if (strcmp(policy, "begin") == 0) {
    *begin = one;
  } else if (strcmp(policy, "end") == 0) {
    *end = one;
  } else if (strcmp(policy, "mid") == 0) {
    *begin = s / 4;
    *end = s / 4;
  } else if (strcmp(policy, "max_begin") == 0) {
    *begin = s;
  } else if (strcmp(policy, "max_end") == 0) {
    *end = s;
  } else if (strcmp(policy, "max") == 0) {
    *begin = s / 2;
    *end = s - s / 2;
  } else if (strcmp(policy, "random") == 0) {
    *begin = (int64_t)(random % ((uint64_t)s + 1));
    *end = (int64_t)((random >> 32) % ((uint64_t)(s - *begin) + 1));
  } else {
    return fail(err, n,
                "crops: '%s' is not zero, begin, end, mid, max_begin, max_end, max or random",
                policy);
  }
  return true;
}

/* Pads of one axis of size d and block b (S2B-V9: d + begin + end divisible
   by b); r pads d up to the next multiple of b. */
static bool pad_policy(const char *policy, int64_t d, int64_t b, uint64_t random, int64_t *begin,
                       int64_t *end, char *err, size_t n) {
  if (b < 1 || b > INT32_MAX || d > INT32_MAX)
    return fail(err, n, "block and spatial: rules take blocks in 1..2^31-1 and sizes below 2^31");
  int64_t r = (b - d % b) % b;
  *begin = *end = 0;
  if (strcmp(policy, "zero") == 0) {
    if (r)
      return fail(err, n, "pads: zero pads, but %lld is not divisible by %lld", (long long)d,
                  (long long)b);
  } else if (strcmp(policy, "minimal") == 0) {
    *end = r;
  } else if (strcmp(policy, "begin") == 0) {
    *begin = r;
  } else if (strcmp(policy, "split") == 0) {
    *begin = r / 2;
    *end = r - r / 2;
  } else if (strcmp(policy, "extra") == 0) {
    *begin = r + b;
    *end = b;
  } else if (strcmp(policy, "wide") == 0) {
    *begin = 2 * b + r;
    *end = 3 * b;
  } else if (strcmp(policy, "random") == 0) {
    int64_t total = r + b * (int64_t)(random % 3);
    *begin = (int64_t)((random >> 8) % ((uint64_t)total + 1));
    *end = total - *begin;
  } else {
    return fail(err, n, "pads: '%s' is not zero, minimal, begin, split, extra, wide or random",
                policy);
  }
  return true;
}

/* The raw style: data_shape and the three side inputs as given, with
   side_shapes replacing their 1-D shapes. */
static bool batch_raw(mc_gen_case *c, const mc_gen_params *p, const char *const names[3],
                      uint64_t case_seed, char *err, size_t n) {
  int64_t shape[MC_TENSOR_MAX_RANK];
  int rank;
  if (!read_i64_list(param(p, "data_shape"), "data_shape", shape, MC_TENSOR_MAX_RANK, &rank, err,
                     n) ||
      !make_data(c, p, rank, shape, case_seed, err, n))
    return false;
  mc_type types[3];
  if (!side_types(p, types, err, n))
    return false;
  const cJSON *shapes = param(p, "side_shapes");
  if (shapes && (!cJSON_IsArray(shapes) || cJSON_GetArraySize(shapes) != 3))
    return fail(err, n, "side_shapes: an array of three shapes");
  for (int s = 0; s < 3; s++) {
    mc_int values[MAX_SIDE];
    int count = 0;
    const cJSON *v = param(p, names[s]);
    if (!v)
      return fail(err, n, "%s: missing (data_shape given, so every input is given)", names[s]);
    if (!read_list(v, names[s], values, MAX_SIDE, &count, err, n))
      return false;
    int64_t side_shape[MC_TENSOR_MAX_RANK] = {count};
    int side_rank = 1;
    if (shapes && !read_i64_list(cJSON_GetArrayItem(shapes, s), "side_shapes", side_shape,
                                 MC_TENSOR_MAX_RANK, &side_rank, err, n))
      return false;
    if (!side_tensor(&c->tensors[1 + s], types[s], side_rank, side_shape, values, count, names[s],
                     err, n))
      return false;
  }
  return true;
}

/* How the rules of BatchToSpace-2 and SpaceToBatch-2 differ. */
typedef struct batch_rules {
  const char *names[3];    /* the side inputs */
  const char *margins;     /* the policy parameter: crops or pads */
  const char *batch_param; /* BatchToSpace: sub_batch (times the blocks); SpaceToBatch: batch */
  bool (*margin)(const char *policy, int64_t d, int64_t b, uint64_t random, int64_t *begin,
                 int64_t *end, char *err, size_t n);
  uint64_t salt; /* of the random margins' seeds */
} batch_rules;

static const batch_rules b2s_rules = {
    {"block_shape", "crops_begin", "crops_end"}, "crops", "sub_batch", crop_policy, 0xC0};
static const batch_rules s2b_rules = {
    {"block_shape", "pads_begin", "pads_end"}, "pads", "batch", pad_policy, 0xAD};

/* By rules: spatial (D_1..D_{N-1}), block, the batch parameter and a
   margin policy per axis. */
static bool batch_by_rules(mc_gen_case *c, const mc_gen_params *p, const batch_rules *r,
                           uint64_t case_seed, char *err, size_t n) {
  int64_t spatial[MC_MAX_RANK], block[MC_MAX_RANK + 1] = {1}, begin[MC_MAX_RANK + 1] = {0},
                                                    end[MC_MAX_RANK + 1] = {0};
  int k;
  int64_t shape[MC_MAX_RANK] = {0};
  const cJSON *sp = param(p, "spatial");
  if (!sp)
    return fail(err, n, "spatial: missing (or give data_shape and the side inputs)");
  if (!read_i64_list(sp, "spatial", spatial, MC_MAX_RANK - 1, &k, err, n) ||
      !rule_blocks(p, spatial, k, block + 1, err, n) ||
      !get_i64(p, r->batch_param, 1, &shape[0], err, n))
    return false;
  bool times_blocks = r == &b2s_rules; /* batch = sub_batch * prod(block) */
  for (int i = 0; i < k; i++) {
    const char *policy = NULL;
    if (times_blocks && !mc_mul_i64(shape[0], block[1 + i], &shape[0]))
      return fail(err, n, "block: the batch overflows int64");
    if (!policy_of(p, r->margins, i, k, &policy, err, n) ||
        !r->margin(policy, spatial[i], block[1 + i],
                   mc_splitmix64(case_seed ^ r->salt, (uint64_t)i), &begin[1 + i], &end[1 + i], err,
                   n))
      return false;
    shape[1 + i] = spatial[i];
  }
  mc_type types[3];
  return make_data(c, p, k + 1, shape, case_seed, err, n) && side_types(p, types, err, n) &&
         side_vector(&c->tensors[1], types[0], block, k + 1, r->names[0], err, n) &&
         side_vector(&c->tensors[2], types[1], begin, k + 1, r->names[1], err, n) &&
         side_vector(&c->tensors[3], types[2], end, k + 1, r->names[2], err, n);
}

/* ---- SpaceToDepth-1, DepthToSpace-1 ---- */

/* block_size (an integer, or null / absent: the attribute is absent) and
   mode (a string, or null / absent). Returns the block size rules use. */
static bool depth_attrs(mc_gen_case *c, const mc_gen_params *p, int64_t *bs, char *err, size_t n) {
  const cJSON *b = param(p, "block_size"), *m = param(p, "mode");
  *bs = 1;
  if (b && !cJSON_IsNull(b)) {
    if (!read_i64(b, "block_size", bs, err, n))
      return false;
    mc_attrs_set_int(&c->req.attrs, MC_ATTR_BLOCK_SIZE, *bs);
  }
  if (m && !cJSON_IsNull(m)) {
    if (!cJSON_IsString(m) || strlen(m->valuestring) >= sizeof c->mode)
      return fail(err, n, "mode: a string of at most %d bytes, or null", MC_GEN_MAX_STRING - 1);
    snprintf(c->mode, sizeof c->mode, "%s", m->valuestring);
    mc_attrs_set_string(&c->req.attrs, MC_ATTR_MODE, c->mode);
  }
  return true;
}

/* data_shape as given, or [batch, channels, spatial...] with
   spatial_scale multiplying the spatial sizes and channel_scale the
   channels (the rules of SpaceToDepth and DepthToSpace). */
static bool depth_data(mc_gen_case *c, const mc_gen_params *p, const char *spatial_name,
                       int64_t spatial_scale, int64_t bs, bool scale_channels, uint64_t case_seed,
                       char *err, size_t n) {
  int64_t shape[MC_TENSOR_MAX_RANK];
  int rank;
  const cJSON *raw = param(p, "data_shape");
  if (raw) {
    if (!read_i64_list(raw, "data_shape", shape, MC_TENSOR_MAX_RANK, &rank, err, n))
      return false;
    return make_data(c, p, rank, shape, case_seed, err, n);
  }
  const cJSON *sp = param(p, spatial_name);
  int k;
  if (!sp)
    return fail(err, n, "%s: missing (or give data_shape)", spatial_name);
  if (!read_i64_list(sp, spatial_name, shape + 2, MC_MAX_RANK - 2, &k, err, n) ||
      !get_i64(p, "batch", 1, &shape[0], err, n) || !get_i64(p, "channels", 1, &shape[1], err, n))
    return false;
  if (bs < 1)
    return fail(err, n, "block_size: rules need a block size of at least 1");
  for (int i = 0; i < k; i++)
    if (!mc_mul_i64(shape[2 + i], spatial_scale, &shape[2 + i]))
      return fail(err, n, "%s: the size overflows int64", spatial_name);
  if (scale_channels) {
    int64_t volume;
    if (!mc_pow_i64(bs, k, &volume) || !mc_mul_i64(shape[1], volume, &shape[1]))
      return fail(err, n, "channels: channels * block_size^K overflows int64");
  }
  return make_data(c, p, k + 2, shape, case_seed, err, n);
}

/* SpaceToDepth-1 by rules: blocks are the output's spatial sizes. */
static bool s2d_build(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err,
                      size_t n) {
  int64_t bs;
  return depth_attrs(c, p, &bs, err, n) &&
         depth_data(c, p, "blocks", bs, bs, false, case_seed, err, n);
}

/* DepthToSpace-1 by rules: channels are the output's channels. */
static bool d2s_build(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err,
                      size_t n) {
  int64_t bs;
  return depth_attrs(c, p, &bs, err, n) &&
         depth_data(c, p, "spatial", 1, bs, true, case_seed, err, n);
}

/* ---- ExtractImagePatches-3 ---- */

static bool eip_list(const mc_gen_params *p, const char *name, mc_int_list *out, char *err,
                     size_t n) {
  const cJSON *v = param(p, name);
  out->count = -1;
  if (!v || cJSON_IsNull(v))
    return true;
  return read_i64_list(v, name, out->v, MC_MAX_ATTR_LEN, &out->count, err, n);
}

static bool eip_build(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err,
                      size_t n) {
  mc_attrs *a = &c->req.attrs;
  if (!eip_list(p, "sizes", mc_attrs_list_slot(a, MC_ATTR_SIZES), err, n) ||
      !eip_list(p, "strides", mc_attrs_list_slot(a, MC_ATTR_STRIDES), err, n) ||
      !eip_list(p, "rates", mc_attrs_list_slot(a, MC_ATTR_RATES), err, n))
    return false;
  const cJSON *pad = param(p, "auto_pad");
  if (pad && !cJSON_IsNull(pad)) {
    if (!cJSON_IsString(pad) || strlen(pad->valuestring) >= sizeof c->auto_pad)
      return fail(err, n, "auto_pad: a string of at most %d bytes, or null", MC_GEN_MAX_STRING - 1);
    snprintf(c->auto_pad, sizeof c->auto_pad, "%s", pad->valuestring);
    mc_attrs_set_string(a, MC_ATTR_AUTO_PAD, c->auto_pad);
  }
  int64_t shape[MC_TENSOR_MAX_RANK];
  int rank;
  const cJSON *raw = param(p, "data_shape");
  if (raw) {
    if (!read_i64_list(raw, "data_shape", shape, MC_TENSOR_MAX_RANK, &rank, err, n))
      return false;
  } else {
    int count;
    const cJSON *image = param(p, "image");
    if (!image)
      return fail(err, n, "image: missing (or give data_shape)");
    if (!read_i64_list(image, "image", shape + 2, 2, &count, err, n) || count != 2)
      return count == 2 ? false : fail(err, n, "image: [rows, cols]");
    if (!get_i64(p, "batch", 1, &shape[0], err, n) || !get_i64(p, "depth", 1, &shape[1], err, n))
      return false;
    rank = 4;
  }
  return make_data(c, p, rank, shape, case_seed, err, n);
}

/* ---- ShuffleChannels-1 ---- */

/* An integer attribute: absent when the parameter is absent or null. */
static bool int_attr(mc_gen_case *c, const mc_gen_params *p, const char *name, mc_attr id,
                     char *err, size_t n) {
  const cJSON *v = param(p, name);
  int64_t value;
  if (!v || cJSON_IsNull(v))
    return true;
  if (!read_i64(v, name, &value, err, n))
    return false;
  mc_attrs_set_int(&c->req.attrs, id, value);
  return true;
}

/* By rules: data [before..., group * per_group, after...]; axis, when not
   given, names the channel axis (counted from the end with negative_axis).
   Raw: data_shape, and axis and group as given. */
static bool sc_build(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err,
                     size_t n) {
  if (!int_attr(c, p, "axis", MC_ATTR_AXIS, err, n) ||
      !int_attr(c, p, "group", MC_ATTR_GROUP, err, n))
    return false;
  int64_t shape[MC_TENSOR_MAX_RANK];
  int rank, before, after;
  const cJSON *raw = param(p, "data_shape");
  if (raw)
    return read_i64_list(raw, "data_shape", shape, MC_TENSOR_MAX_RANK, &rank, err, n) &&
           make_data(c, p, rank, shape, case_seed, err, n);
  const cJSON *b = param(p, "before"), *a = param(p, "after"), *neg = param(p, "negative_axis");
  int64_t per_group;
  if ((b && !read_i64_list(b, "before", shape, MC_MAX_RANK - 1, &before, err, n)) ||
      !get_i64(p, "per_group", 1, &per_group, err, n))
    return false;
  before = b ? before : 0;
  if (a && !read_i64_list(a, "after", shape + before + 1, MC_MAX_RANK - 1 - before, &after, err, n))
    return false;
  after = a ? after : 0;
  rank = before + 1 + after;
  const int64_t group = mc_attrs_int(&c->req.attrs, MC_ATTR_GROUP);
  if (group < 1 || !mc_mul_i64(group, per_group, &shape[before]))
    return fail(err, n, "group: rules need a group of at least 1 and group * per_group in int64");
  if (neg && !cJSON_IsBool(neg))
    return fail(err, n, "negative_axis: true or false");
  if (!param(p, "axis"))
    mc_attrs_set_int(&c->req.attrs, MC_ATTR_AXIS,
                     cJSON_IsTrue(neg) ? before - rank : (int64_t)before);
  return make_data(c, p, rank, shape, case_seed, err, n);
}

/* ---- entry points ---- */

static const char *const b2s_names[] = {
    "type",  "side_type",  "fill",        "fill_start",  "spatial",   "block",       "sub_batch",
    "crops", "data_shape", "block_shape", "crops_begin", "crops_end", "side_shapes", NULL};
static const char *const s2b_names[] = {
    "type", "side_type",  "fill",        "fill_start", "spatial",  "block",       "batch",
    "pads", "data_shape", "block_shape", "pads_begin", "pads_end", "side_shapes", NULL};
static const char *const s2d_names[] = {"type",       "fill",   "fill_start", "batch",
                                        "channels",   "blocks", "block_size", "mode",
                                        "data_shape", NULL};
static const char *const d2s_names[] = {"type",       "fill",    "fill_start", "batch",
                                        "channels",   "spatial", "block_size", "mode",
                                        "data_shape", NULL};
static const char *const eip_names[] = {"type",    "fill",  "fill_start", "batch",
                                        "depth",   "image", "data_shape", "sizes",
                                        "strides", "rates", "auto_pad",   NULL};
static const char *const sc_names[] = {
    "type",          "fill",       "fill_start", "before", "per_group", "after",
    "negative_axis", "data_shape", "axis",       "group",  NULL};

const char *const *mc_gen_param_names(mc_op op) {
  switch (op) {
  case MC_OP_BATCH_TO_SPACE:
    return b2s_names;
  case MC_OP_SPACE_TO_BATCH:
    return s2b_names;
  case MC_OP_SPACE_TO_DEPTH:
    return s2d_names;
  case MC_OP_DEPTH_TO_SPACE:
    return d2s_names;
  case MC_OP_EXTRACT_IMAGE_PATCHES:
    return eip_names;
  case MC_OP_SHUFFLE_CHANNELS:
    return sc_names;
  case MC_OP_INVALID:
  case MC_OP_COUNT:
    break;
  }
  return NULL;
}

static bool build_inputs(mc_op op, const mc_gen_params *p, uint64_t case_seed, mc_gen_case *c,
                         char *err, size_t n) {
  bool raw = param(p, "data_shape") != NULL;
  switch (op) {
  case MC_OP_BATCH_TO_SPACE:
    return raw ? batch_raw(c, p, b2s_rules.names, case_seed, err, n)
               : batch_by_rules(c, p, &b2s_rules, case_seed, err, n);
  case MC_OP_SPACE_TO_BATCH:
    return raw ? batch_raw(c, p, s2b_rules.names, case_seed, err, n)
               : batch_by_rules(c, p, &s2b_rules, case_seed, err, n);
  case MC_OP_SPACE_TO_DEPTH:
    return s2d_build(c, p, case_seed, err, n);
  case MC_OP_DEPTH_TO_SPACE:
    return d2s_build(c, p, case_seed, err, n);
  case MC_OP_EXTRACT_IMAGE_PATCHES:
    return eip_build(c, p, case_seed, err, n);
  case MC_OP_SHUFFLE_CHANNELS:
    return sc_build(c, p, case_seed, err, n);
  case MC_OP_INVALID:
  case MC_OP_COUNT:
    break;
  }
  return fail(err, n, "unknown operation");
}

bool mc_gen_build(mc_op op, const mc_gen_params *params, uint64_t case_seed, mc_gen_case *out,
                  char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  out->req.op = op;
  out->req.attrs = mc_attrs_none();
  out->req.n_inputs = mc_op_input_count(op);
  for (int i = 0; i < out->req.n_inputs; i++)
    out->req.inputs[i] = &out->tensors[i];
  if (!build_inputs(op, params, case_seed, out, err, errlen)) {
    mc_gen_case_free(out);
    return false;
  }
  return true;
}

void mc_gen_case_free(mc_gen_case *c) {
  for (int i = 0; i < MC_MAX_INPUTS; i++)
    mc_tensor_free(&c->tensors[i]);
}
