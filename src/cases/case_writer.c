/* Readable case-file JSON: see case_writer.h. */
#include "case_writer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/cases.h"
#include "cases/json.h"
#include "movconf/tensor.h"

/* Above these (by default), tensors are written as hex, and expected
   outputs as sha256. */
enum { MAX_VALUES = 4096, MAX_EXPECTED_HEX_BYTES = 64 * 1024 };

static int64_t element_count(const mc_tensor *x) {
  int64_t n = 0;
  mc_shape_elements(x->rank, x->shape, &n);
  return n;
}

/* Integer types, and booleans holding only 0 and 1, read best as values. */
static bool values_readable(const mc_tensor *x, int64_t max_values) {
  const mc_type_info *info = mc_type_get(x->type);
  int64_t n = element_count(x);
  if (!info || n > max_values)
    return false;
  if (info->is_integer)
    return true;
  if (x->type != MC_BOOLEAN)
    return false;
  for (int64_t i = 0; i < n; i++)
    if (x->data[i] > 1)
      return false;
  return true;
}

static void write_values(mc_text *t, const mc_tensor *x) {
  const mc_type_info *info = mc_type_get(x->type);
  int64_t n = element_count(x);
  mc_text_printf(t, "\"values\": [");
  for (int64_t i = 0; i < n; i++) {
    uint64_t bits = mc_load_bits(x->data, x->type, i);
    mc_text_printf(t, i ? ", " : "");
    if (x->type == MC_BOOLEAN) {
      mc_text_printf(t, bits ? "true" : "false");
    } else if (info->is_signed && info->bits < 64 && (bits >> (info->bits - 1)) & 1) {
      mc_json_write_int(t, MC_JSON_CASE_FILE,
                        (int64_t)bits - ((int64_t)1 << info->bits)); /* sign-extend */
    } else if (info->is_signed) {
      int64_t v;
      memcpy(&v, &bits, sizeof v);
      mc_json_write_int(t, MC_JSON_CASE_FILE, v);
    } else {
      mc_json_write_uint(t, MC_JSON_CASE_FILE, bits);
    }
  }
  mc_text_printf(t, "]");
}

static void write_hex(mc_text *t, const uint8_t *data, size_t n) {
  mc_text_printf(t, "\"hex\": \"");
  for (size_t i = 0; i < n; i++)
    mc_text_printf(t, "%02x", data[i]);
  mc_text_printf(t, "\"");
}

static void write_tensor_head(mc_text *t, const mc_tensor *x) {
  mc_text_printf(t, "{\"type\": \"%s\", \"shape\": ", mc_type_name(x->type));
  mc_json_write_shape(t, MC_JSON_CASE_FILE, x->rank, x->shape);
  mc_text_printf(t, ", ");
}

static void write_input(mc_text *t, const mc_tensor *x) {
  write_tensor_head(t, x);
  if (values_readable(x, MAX_VALUES))
    write_values(t, x);
  else
    write_hex(t, x->data, x->nbytes);
  mc_text_printf(t, "}");
}

static void write_data(mc_text *t, const mc_case_out *c) {
  const mc_tensor *x = c->req->inputs[0];
  if (c->data_fill != MC_PAYLOAD_FILL_COUNTER && c->data_fill != MC_PAYLOAD_FILL_IOTA &&
      c->data_fill != MC_PAYLOAD_FILL_PRNG) {
    write_input(t, x);
    return;
  }
  write_tensor_head(t, x);
  if (c->data_fill != MC_PAYLOAD_FILL_PRNG) {
    int64_t start;
    memcpy(&start, &c->data_fill_param, sizeof start);
    mc_text_printf(
        t, "\"fill\": {\"%s\": ", c->data_fill == MC_PAYLOAD_FILL_IOTA ? "iota" : "counter");
    mc_json_write_int(t, MC_JSON_CASE_FILE, start);
    mc_text_printf(t, "}}");
  } else {
    mc_text_printf(t, "\"fill\": {\"prng\": {\"seed\": ");
    mc_json_write_uint(t, MC_JSON_CASE_FILE, c->data_fill_param);
    mc_text_printf(t, "}}}");
  }
}

static void write_expected(mc_text *t, const mc_case_out *c) {
  const mc_tensor *x = c->output;
  int64_t max_values = c->max_values > 0 ? c->max_values : MAX_VALUES;
  size_t max_inline = c->max_inline_bytes > 0 ? c->max_inline_bytes : MAX_EXPECTED_HEX_BYTES;
  write_tensor_head(t, x);
  if (x->nbytes <= max_inline && values_readable(x, max_values)) {
    write_values(t, x);
  } else if (x->nbytes <= max_inline) {
    write_hex(t, x->data, x->nbytes);
  } else {
    uint8_t digest[32];
    mc_sha256(x->data, x->nbytes, digest);
    mc_text_printf(t, "\"sha256\": \"");
    for (int i = 0; i < 32; i++)
      mc_text_printf(t, "%02x", digest[i]);
    mc_text_printf(t, "\"");
  }
  mc_text_printf(t, "}");
}

static void write_attrs(mc_text *t, const mc_request *req) {
  mc_text_printf(t, "      \"attributes\": ");
  mc_json_write_attrs(t, MC_JSON_CASE_FILE, req);
  mc_text_printf(t, ",\n");
}

void mc_write_case(mc_text *t, const mc_case_out *c) {
  const mc_request *req = c->req;
  mc_text_printf(t, "    {\n      \"id\": ");
  mc_json_write_string(t, c->id);
  mc_text_printf(t, ",\n      \"origin\": ");
  mc_json_write_string(t, c->origin);
  mc_text_printf(t, ",\n      \"clauses\": [");
  for (int i = 0; i < c->n_clauses; i++) {
    mc_text_printf(t, i ? ", " : "");
    mc_json_write_string(t, c->clauses[i]);
  }
  mc_text_printf(t, "],\n      \"inputs\": {\n");
  for (int i = 0; i < req->n_inputs; i++) {
    mc_text_printf(t, "        \"%s\": ", mc_op_input_name(req->op, i));
    if (i == 0)
      write_data(t, c);
    else
      write_input(t, req->inputs[i]);
    mc_text_printf(t, i + 1 < req->n_inputs ? ",\n" : "\n");
  }
  mc_text_printf(t, "      },\n");
  if (mc_op_attr_count(req->op) > 0)
    write_attrs(t, req);
  if (c->has_cap)
    mc_text_printf(t, "      \"max_output_bytes\": %zu,\n", c->max_output_bytes);
  if (c->expect_error) {
    mc_text_printf(t, "      \"expect\": {\"error\": \"%s\"}\n    }", mc_status_name(c->error));
  } else {
    mc_text_printf(t, "      \"expect\": {\"output\": ");
    write_expected(t, c);
    mc_text_printf(t, "}\n    }");
  }
}

void mc_write_file_head(mc_text *t, mc_op op, const char *description) {
  mc_text_printf(t, "{\n  \"format\": \"movconf-cases/1\",\n  \"op\": \"%s\",\n  \"description\": ",
                 mc_op_name(op));
  mc_json_write_string(t, description);
  mc_text_printf(t, ",\n  \"cases\": [\n");
}
