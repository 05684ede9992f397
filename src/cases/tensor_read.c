/* Tensors of a case file: element type, shape and the payload forms of
   spec/case-format.md section 7, decoded into raw bytes. */
#include "cases/cases_internal.h"
#include "common/checked.h"
#include "movconf/tensor.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tensor elements ---- */

static bool boolean_bits(mc_reader *rd, const cJSON *e, const char *where, uint64_t *bits) {
  char shown[64];
  if (cJSON_IsBool(e)) {
    *bits = cJSON_IsTrue(e) ? 1 : 0;
    return true;
  }
  const char *token;
  size_t n;
  mc_int v;
  if (cJSON_IsNumber(e) && mc_json_number_token(rd, e, &token, &n) &&
      mc_number_token_integer(token, n, &v) == MC_NUM_OK && !v.negative && v.magnitude <= 1) {
    *bits = v.magnitude;
    return true;
  }
  return mc_read_fail(rd, where, "%s is not a boolean (true, false, 0 or 1)",
                      mc_json_show(rd, e, shown, sizeof shown));
}

static bool integer_bits(mc_reader *rd, const cJSON *e, mc_type t, const char *where,
                         uint64_t *bits) {
  mc_int v;
  if (!mc_read_integer(rd, e, where, &v))
    return false;
  if (mc_int_type_bits(t, v, bits))
    return true;
  char shown[64], range[64];
  mc_int_type_range(t, range, sizeof range);
  return mc_read_fail(rd, where, "%s is out of range for %s (%s)",
                      mc_json_show(rd, e, shown, sizeof shown), mc_type_name(t), range);
}

static bool float_string_bits(mc_reader *rd, const cJSON *e, mc_type t, const char *where,
                              uint64_t *bits) {
  const char *s = e->valuestring;
  if (mc_float_special_bits(t, s, bits))
    return true;
  char shown[64];
  if (strcmp(s, "inf") == 0 || strcmp(s, "-inf") == 0)
    return mc_read_fail(rd, where, "%s has no infinity", mc_type_name(t));
  return mc_read_fail(
      rd, where,
      "%s is not a float value (a number, or one of \"inf\", \"-inf\", \"nan\", \"-nan\")",
      mc_json_show(rd, e, shown, sizeof shown));
}

static bool float_bits(mc_reader *rd, const cJSON *e, mc_type t, const char *where,
                       uint64_t *bits) {
  char shown[64];
  if (cJSON_IsString(e))
    return float_string_bits(rd, e, t, where, bits);
  const char *token;
  size_t n;
  if (!cJSON_IsNumber(e) || !mc_json_number_token(rd, e, &token, &n))
    return mc_read_fail(rd, where, "expected a number for %s, got %s", mc_type_name(t),
                        mc_json_kind(e));
  double d = 0;
  switch (mc_number_token_double(token, n, &d)) {
  case MC_NUM_OK:
    break;
  case MC_NUM_OVERFLOW:
    return mc_read_fail(rd, where, "%s overflows binary64 (use \"inf\" for infinity)",
                        mc_json_show(rd, e, shown, sizeof shown));
  default:
    return mc_read_fail(rd, where, "%s is nonzero but rounds to zero in binary64",
                        mc_json_show(rd, e, shown, sizeof shown));
  }
  if (mc_float_type_bits(t, d, bits))
    return true;
  return mc_read_fail(rd, where,
                      "%s is not exactly representable in %s (no rounding; use hex for "
                      "other bit patterns)",
                      mc_json_show(rd, e, shown, sizeof shown), mc_type_name(t));
}

static bool element_bits(mc_reader *rd, const cJSON *e, mc_type t, const char *path, int64_t index,
                         uint64_t *bits) {
  mc_path_buf where;
  mc_path_index(where, path, index);
  const mc_type_info *info = mc_type_get(t);
  if (t == MC_BOOLEAN)
    return boolean_bits(rd, e, where, bits);
  if (info->is_integer)
    return integer_bits(rd, e, t, where, bits);
  return float_bits(rd, e, t, where, bits);
}

/* ---- payload forms ---- */

static bool decode_values(mc_reader *rd, const cJSON *values, const char *path, mc_tensor *t) {
  int64_t i = 0;
  for (const cJSON *e = values->child; e; e = e->next, i++) {
    uint64_t bits;
    if (!element_bits(rd, e, t->type, path, i, &bits))
      return false;
    mc_store_bits(t->data, t->type, i, bits);
  }
  return true;
}

static bool check_tail_bits(mc_reader *rd, const char *path, const mc_tensor *t, int64_t count) {
  uint8_t unused = mc_unused_tail_mask(t->type, count);
  if (t->nbytes == 0 || (t->data[t->nbytes - 1] & unused) == 0)
    return true;
  return mc_read_fail(rd, path,
                      "unused bits of the last byte must be zero (byte 0x%02x, unused mask 0x%02x)",
                      t->data[t->nbytes - 1], unused);
}

/* hex or base64 into out (NULL: check only). */
static bool decode_bytes(mc_reader *rd, const cJSON *j, const char *path, uint8_t *out,
                         size_t nbytes) {
  const char *s;
  if (!mc_read_string(rd, j, path, &s))
    return false;
  char why[200];
  bool ok = strcmp(j->string, "hex") == 0 ? mc_hex_decode(s, out, nbytes, why, sizeof why)
                                          : mc_base64_decode(s, out, nbytes, why, sizeof why);
  return ok || mc_read_fail(rd, path, "%s", why);
}

/* Integer and boolean iota: the sequence is monotonic, so both ends in
   range means every element is. */
static bool iota_integers(mc_reader *rd, const char *path, mc_tensor *t, int64_t count,
                          int64_t start, int64_t last) {
  int64_t ends[2] = {start, last};
  for (int k = 0; k < 2; k++) {
    uint64_t bits;
    mc_int v = mc_int_from_i64(ends[k]);
    bool ok = t->type == MC_BOOLEAN ? !v.negative && v.magnitude <= 1
                                    : mc_int_type_bits(t->type, v, &bits);
    if (!ok) {
      char range[64];
      if (t->type == MC_BOOLEAN)
        snprintf(range, sizeof range, "0..1");
      else
        mc_int_type_range(t->type, range, sizeof range);
      return mc_read_fail(rd, path,
                          "element %" PRId64 " would be %" PRId64 ", out of range for %s (%s)",
                          k == 0 ? (int64_t)0 : count - 1, ends[k], mc_type_name(t->type), range);
    }
  }
  for (int64_t i = 0; i < count; i++) {
    uint64_t bits = 0;
    mc_int v = mc_int_from_i64(start + i);
    if (t->type == MC_BOOLEAN)
      bits = v.magnitude;
    else
      mc_int_type_bits(t->type, v, &bits);
    mc_store_bits(t->data, t->type, i, bits);
  }
  return true;
}

static bool iota_floats(mc_reader *rd, const char *path, mc_tensor *t, int64_t count,
                        int64_t start) {
  for (int64_t i = 0; i < count; i++) {
    double d;
    uint64_t bits;
    if (!mc_int_to_double(mc_int_from_i64(start + i), &d) || !mc_float_type_bits(t->type, d, &bits))
      return mc_read_fail(
          rd, path, "element %" PRId64 " would be %" PRId64 ", not exactly representable in %s", i,
          start + i, mc_type_name(t->type));
    mc_store_bits(t->data, t->type, i, bits);
  }
  return true;
}

static bool fill_iota(mc_reader *rd, const cJSON *j, const char *path, mc_case_tensor *ct,
                      int64_t count) {
  int64_t start;
  if (!mc_read_int64(rd, j, path, &start))
    return false;
  ct->kind = MC_PAYLOAD_FILL_IOTA;
  ct->fill_start = start;
  if (count == 0)
    return true;
  int64_t last;
  if (!mc_add_i64(start, count - 1, &last))
    return mc_read_fail(rd, path, "%" PRId64 " + %" PRId64 " elements overflows int64", start,
                        count);
  if (mc_type_get(ct->tensor.type)->is_float)
    return iota_floats(rd, path, &ct->tensor, count, start);
  return iota_integers(rd, path, &ct->tensor, count, start, last);
}

static bool fill_prng(mc_reader *rd, const cJSON *j, const char *path, mc_case_tensor *ct,
                      int64_t count) {
  static const char *const keys[] = {"seed"};
  const cJSON *seed_json;
  mc_path_buf seed_path;
  mc_int seed;
  if (!mc_read_object(rd, j, path) || !mc_read_keys(rd, j, path, keys, 1, "key") ||
      !mc_read_require(rd, j, path, "seed", &seed_json))
    return false;
  mc_path_key(seed_path, path, "seed");
  if (!mc_read_integer(rd, seed_json, seed_path, &seed))
    return false;
  if (seed.negative)
    return mc_read_fail(rd, seed_path, "a seed is in 0..18446744073709551615");
  ct->kind = MC_PAYLOAD_FILL_PRNG;
  /* fill_start keeps the seed's bit pattern: two's complement of it. */
  ct->fill_start = seed.magnitude > (uint64_t)INT64_MAX
                       ? -(int64_t)(UINT64_MAX - seed.magnitude) - 1
                       : (int64_t)seed.magnitude;
  if (ct->tensor.data) /* else deferred: mc_case_materialize */
    mc_fill_prng(&ct->tensor, count, seed.magnitude);
  return true;
}

static bool decode_fill(mc_reader *rd, const cJSON *fill, const char *path, mc_case_tensor *ct,
                        int64_t count) {
  static const char *const keys[] = {"iota", "counter", "prng"};
  if (!mc_read_object(rd, fill, path) || !mc_read_keys(rd, fill, path, keys, 3, "fill"))
    return false;
  int given = cJSON_GetArraySize(fill);
  if (given != 1)
    return mc_read_fail(rd, path, "give exactly one of iota, counter, prng (got %d)", given);
  const cJSON *g = fill->child;
  mc_path_buf gpath;
  mc_path_key(gpath, path, g->string);
  if (strcmp(g->string, "iota") == 0)
    return fill_iota(rd, g, gpath, ct, count);
  if (strcmp(g->string, "prng") == 0)
    return fill_prng(rd, g, gpath, ct, count);
  int64_t start;
  if (!mc_read_int64(rd, g, gpath, &start))
    return false;
  ct->kind = MC_PAYLOAD_FILL_COUNTER;
  ct->fill_start = start;
  if (ct->tensor.data) /* else deferred: mc_case_materialize */
    mc_fill_counter(&ct->tensor, count, start);
  return true;
}

/* A counter or prng fill (any start or seed is valid, so nothing is left
   to check) that a deferred load leaves unmade. */
static bool deferrable(const mc_reader *rd, const cJSON *payload, size_t nbytes) {
  const cJSON *g = cJSON_IsObject(payload) ? payload->child : NULL;
  return rd->defer_fills && nbytes > MC_CASE_DEFER_FILL_BYTES &&
         strcmp(payload->string, "fill") == 0 && g && !g->next && g->string &&
         (strcmp(g->string, "counter") == 0 || strcmp(g->string, "prng") == 0);
}

static bool materialize(mc_case_tensor *ct) {
  if (ct->tensor.data || (ct->kind != MC_PAYLOAD_FILL_COUNTER && ct->kind != MC_PAYLOAD_FILL_PRNG))
    return true;
  int64_t shape[MC_TENSOR_MAX_RANK], count;
  memcpy(shape, ct->tensor.shape, sizeof shape);
  if (!mc_shape_elements(ct->tensor.rank, shape, &count) ||
      mc_tensor_alloc(&ct->tensor, ct->tensor.type, ct->tensor.rank, shape,
                      MC_CASE_MAX_TENSOR_BYTES) != MC_OK)
    return false;
  if (ct->kind == MC_PAYLOAD_FILL_COUNTER)
    mc_fill_counter(&ct->tensor, count, ct->fill_start);
  else
    mc_fill_prng(&ct->tensor, count, (uint64_t)ct->fill_start);
  return true;
}

bool mc_case_materialize(mc_case *c) {
  bool ok = c->expect_error || materialize(&c->expected);
  for (int i = 0; i < c->n_inputs && ok; i++)
    ok = materialize(&c->inputs[i]);
  return ok;
}

/* A fill a deferred load would have left unmade goes back to unmade. */
static void release(mc_case_tensor *ct) {
  mc_tensor *t = &ct->tensor;
  if (!t->data || (ct->kind != MC_PAYLOAD_FILL_COUNTER && ct->kind != MC_PAYLOAD_FILL_PRNG) ||
      t->nbytes <= MC_CASE_DEFER_FILL_BYTES)
    return;
  free(t->allocation ? t->allocation : t->data);
  t->data = NULL;
  t->allocation = NULL;
}

void mc_case_file_release_fills(mc_case_file *f) {
  for (int k = 0; k < f->n_cases; k++) {
    mc_case *c = &f->cases[k];
    if (!c->expect_error)
      release(&c->expected);
    for (int i = 0; i < c->n_inputs; i++)
      release(&c->inputs[i]);
  }
}

static int hex_digit_value(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  c = (char)(c | 0x20);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static bool read_sha256(mc_reader *rd, const cJSON *j, const char *path, uint8_t digest[32]) {
  const char *s;
  if (!mc_read_string(rd, j, path, &s))
    return false;
  bool ok = strlen(s) == 64;
  for (size_t i = 0; ok && i < 64; i++)
    ok = hex_digit_value(s[i]) >= 0;
  if (!ok)
    return mc_read_fail(rd, path, "a sha256 is 64 hex digits");
  for (size_t i = 0; i < 32; i++)
    digest[i] = (uint8_t)(hex_digit_value(s[2 * i]) << 4 | hex_digit_value(s[2 * i + 1]));
  return true;
}

/* ---- tensors ---- */

static const char *const payload_forms[] = {"values", "hex", "base64", "fill", "sha256"};
enum { N_PAYLOAD_FORMS = 5 };

/* The one payload member of a tensor object. */
static bool find_payload(mc_reader *rd, const cJSON *j, const char *path, const cJSON **payload) {
  const cJSON *found = NULL;
  *payload = NULL;
  for (int k = 0; k < N_PAYLOAD_FORMS; k++) {
    const cJSON *p = mc_member(j, payload_forms[k]);
    if (!p)
      continue;
    if (found)
      return mc_read_fail(rd, path, "payload forms '%s' and '%s' are exclusive: give exactly one",
                          found->string, p->string);
    found = p;
  }
  if (!found)
    return mc_read_fail(rd, path, "no payload: give one of values, hex, base64, fill, sha256");
  *payload = found;
  return true;
}

static void show_shape(const mc_tensor *t, char *buf, size_t n) {
  size_t used = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < t->rank && used < n; i++)
    used += (size_t)snprintf(buf + used, n - used, "%s%" PRId64, i ? ", " : "", t->shape[i]);
  if (used < n)
    snprintf(buf + used, n - used, "]");
}

static bool read_shape(mc_reader *rd, const cJSON *j, const char *path, mc_tensor *t) {
  if (!cJSON_IsArray(j))
    return mc_read_fail(rd, path, "expected an array of dimensions, got %s", mc_json_kind(j));
  int rank = cJSON_GetArraySize(j);
  if (rank > MC_TENSOR_MAX_RANK)
    return mc_read_fail(rd, path, "rank %d is above the format's limit of %d", rank,
                        MC_TENSOR_MAX_RANK);
  t->rank = rank;
  int i = 0;
  for (const cJSON *d = j->child; d; d = d->next, i++) {
    mc_path_buf dpath;
    mc_path_index(dpath, path, i);
    if (!mc_read_int64(rd, d, dpath, &t->shape[i]))
      return false;
    if (t->shape[i] < 0)
      return mc_read_fail(rd, dpath, "dimension %" PRId64 " is negative", t->shape[i]);
  }
  return true;
}

/* Checks what can be checked before allocating, so that a wrong file never
   costs a large allocation. */
static bool precheck_payload(mc_reader *rd, const cJSON *payload, const char *path, int64_t count,
                             size_t nbytes) {
  if (strcmp(payload->string, "values") == 0) {
    if (!cJSON_IsArray(payload))
      return mc_read_fail(rd, path, "expected an array, got %s", mc_json_kind(payload));
    int n = cJSON_GetArraySize(payload);
    if (n != count)
      return mc_read_fail(rd, path, "%d values, but the shape has %" PRId64 " elements", n, count);
  } else if (strcmp(payload->string, "hex") == 0 || strcmp(payload->string, "base64") == 0) {
    if (!decode_bytes(rd, payload, path, NULL, nbytes))
      return false;
  }
  if (nbytes > MC_CASE_MAX_TENSOR_BYTES)
    return mc_read_fail(rd, path, "the tensor takes %zu bytes, more than the limit of %zu", nbytes,
                        MC_CASE_MAX_TENSOR_BYTES);
  if (nbytes > MC_CASE_MAX_FILE_TENSOR_BYTES - rd->tensor_bytes)
    return mc_read_fail(rd, path, "the file's tensors take more than %zu bytes together",
                        MC_CASE_MAX_FILE_TENSOR_BYTES);
  return true;
}

static bool decode_payload(mc_reader *rd, const cJSON *payload, const char *path,
                           mc_case_tensor *ct, int64_t count) {
  const char *form = payload->string;
  if (strcmp(form, "values") == 0) {
    ct->kind = MC_PAYLOAD_VALUES;
    return decode_values(rd, payload, path, &ct->tensor);
  }
  if (strcmp(form, "fill") == 0)
    return decode_fill(rd, payload, path, ct, count);
  ct->kind = strcmp(form, "hex") == 0 ? MC_PAYLOAD_HEX : MC_PAYLOAD_BASE64;
  return decode_bytes(rd, payload, path, ct->tensor.data, ct->tensor.nbytes) &&
         check_tail_bits(rd, path, &ct->tensor, count);
}

bool mc_read_tensor(mc_reader *rd, const cJSON *j, const char *path, bool is_output,
                    mc_case_tensor *ct) {
  static const char *const keys[] = {"type", "shape", "values", "hex", "base64", "fill", "sha256"};
  const cJSON *type_json, *shape_json, *payload;
  const char *type_name;
  mc_path_buf sub;
  if (!mc_read_object(rd, j, path) || !mc_read_keys(rd, j, path, keys, 7, "key") ||
      !mc_read_require(rd, j, path, "type", &type_json) ||
      !mc_read_require(rd, j, path, "shape", &shape_json))
    return false;
  mc_path_key(sub, path, "type");
  if (!mc_read_string(rd, type_json, sub, &type_name))
    return false;
  mc_tensor *t = &ct->tensor;
  t->type = mc_type_from_name(type_name);
  if (t->type == MC_TYPE_INVALID)
    return mc_read_fail(rd, sub, "unknown element type \"%.40s\"", type_name);
  mc_path_key(sub, path, "shape");
  if (!read_shape(rd, shape_json, sub, t))
    return false;
  int64_t count;
  size_t nbytes;
  char shape_text[160];
  show_shape(t, shape_text, sizeof shape_text);
  if (!mc_shape_elements(t->rank, t->shape, &count))
    return mc_read_fail(rd, sub, "the element count of %s overflows int64", shape_text);
  if (!mc_storage_bytes(t->type, count, &nbytes))
    return mc_read_fail(rd, sub, "the byte size of %s %s overflows", type_name, shape_text);
  if (!find_payload(rd, j, path, &payload))
    return false;
  mc_path_key(sub, path, payload->string);
  if (strcmp(payload->string, "sha256") == 0) {
    if (!is_output)
      return mc_read_fail(rd, sub, "sha256 is allowed only in expect.output");
    ct->kind = MC_PAYLOAD_SHA256;
    t->nbytes = nbytes; /* data stays NULL: only the digest is known */
    return read_sha256(rd, payload, sub, ct->sha256);
  }
  if (!precheck_payload(rd, payload, sub, count, nbytes))
    return false;
  if (deferrable(rd, payload, nbytes)) {
    t->nbytes = nbytes; /* data stays NULL until mc_case_materialize */
    rd->tensor_bytes += nbytes;
    return decode_fill(rd, payload, sub, ct, count);
  }
  int rank = t->rank;
  int64_t shape[MC_TENSOR_MAX_RANK];
  memcpy(shape, t->shape, sizeof shape);
  mc_status st = mc_tensor_alloc(t, t->type, rank, shape, MC_CASE_MAX_TENSOR_BYTES);
  if (st != MC_OK)
    return mc_read_fail(rd, path, "cannot allocate %zu bytes: %s", nbytes, mc_status_name(st));
  rd->tensor_bytes += nbytes;
  return decode_payload(rd, payload, sub, ct, count);
}
