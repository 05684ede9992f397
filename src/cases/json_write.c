/* The one JSON writer: see json.h. */
#include "cases/json.h"

#include <inttypes.h>
#include <stdio.h>

#define MAX_EXACT_NUMBER (INT64_C(1) << 53) /* case files put larger integers in strings */

static const char *item_separator(mc_json_dialect d) {
  return d == MC_JSON_CASE_FILE ? ", " : ",";
}

static const char *key_separator(mc_json_dialect d) {
  return d == MC_JSON_CASE_FILE ? ": " : ":";
}

void mc_json_write_string(mc_text *t, const char *s) {
  mc_text_put(t, "\"", 1);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      mc_text_printf(t, "\\%c", *p);
    else if (*p == '\n')
      mc_text_put(t, "\\n", 2);
    else if (*p == '\t')
      mc_text_put(t, "\\t", 2);
    else if (*p < 0x20 || *p == 0x7F)
      mc_text_printf(t, "\\u%04x", *p);
    else
      mc_text_put(t, (const char *)p, 1);
  }
  mc_text_put(t, "\"", 1);
}

void mc_json_write_int(mc_text *t, mc_json_dialect d, int64_t v) {
  bool exact = v >= -MAX_EXACT_NUMBER && v <= MAX_EXACT_NUMBER;
  mc_text_printf(t, exact || d == MC_JSON_PROTOCOL ? "%" PRId64 : "\"%" PRId64 "\"", v);
}

void mc_json_write_uint(mc_text *t, mc_json_dialect d, uint64_t v) {
  bool exact = v <= (uint64_t)MAX_EXACT_NUMBER;
  mc_text_printf(t, exact || d == MC_JSON_PROTOCOL ? "%" PRIu64 : "\"%" PRIu64 "\"", v);
}

void mc_json_write_shape(mc_text *t, mc_json_dialect d, int rank, const int64_t *shape) {
  mc_text_put(t, "[", 1);
  for (int a = 0; a < rank; a++) {
    if (a)
      mc_text_printf(t, "%s", item_separator(d));
    mc_json_write_int(t, d, shape[a]);
  }
  mc_text_put(t, "]", 1);
}

static void write_list(mc_text *t, mc_json_dialect d, const mc_int_list *l) {
  mc_text_put(t, "[", 1);
  for (int i = 0; i < l->count; i++) {
    if (i)
      mc_text_printf(t, "%s", item_separator(d));
    mc_json_write_int(t, d, i < MC_MAX_ATTR_LEN ? l->v[i] : 0);
  }
  mc_text_put(t, "]", 1);
}

void mc_json_write_attrs(mc_text *t, mc_json_dialect d, const mc_request *req) {
  const mc_attrs *a = &req->attrs;
  bool first = true;
  mc_text_put(t, "{", 1);
  for (int i = 0; i < mc_op_attr_count(req->op); i++) {
    mc_attr id = mc_op_attr(req->op, i);
    if (!mc_attrs_present(a, id))
      continue;
    mc_text_printf(t, "%s", first ? "" : item_separator(d));
    mc_json_write_string(t, mc_attr_name(id));
    mc_text_printf(t, "%s", key_separator(d));
    switch (mc_attr_kind_of(id)) {
    case MC_ATTR_KIND_INT:
      mc_json_write_int(t, d, mc_attrs_int(a, id));
      break;
    case MC_ATTR_KIND_STRING:
      mc_json_write_string(t, mc_attrs_string(a, id));
      break;
    case MC_ATTR_KIND_INT_LIST:
      write_list(t, d, mc_attrs_list(a, id));
      break;
    }
    first = false;
  }
  mc_text_put(t, "}", 1);
}

static const char *attr_kind_name(mc_attr_kind kind) {
  switch (kind) {
  case MC_ATTR_KIND_INT:
    return "int";
  case MC_ATTR_KIND_INT_LIST:
    return "int_list";
  case MC_ATTR_KIND_STRING:
    return "string";
  }
  return "invalid";
}

static void write_op_entry(mc_text *t, mc_op op) {
  mc_text_printf(t, "{\"name\": ");
  mc_json_write_string(t, mc_op_name(op));
  mc_text_printf(t, ", \"slug\": ");
  mc_json_write_string(t, mc_op_slug(op));
  mc_text_printf(t, ", \"prefix\": ");
  mc_json_write_string(t, mc_op_clause_prefix(op));
  mc_text_printf(t, ", \"inputs\": [");
  for (int k = 0; k < mc_op_input_count(op); k++) {
    mc_text_printf(t, "%s{\"name\": ", k ? ", " : "");
    mc_json_write_string(t, mc_op_input_name(op, k));
    mc_text_printf(t, ", \"optional\": %s}",
                   k >= mc_op_required_input_count(op) ? "true" : "false");
  }
  mc_text_printf(t, "], \"attributes\": [");
  for (int k = 0; k < mc_op_attr_count(op); k++) {
    mc_attr a = mc_op_attr(op, k);
    mc_text_printf(t, "%s{\"name\": ", k ? ", " : "");
    mc_json_write_string(t, mc_attr_name(a));
    mc_text_printf(t, ", \"kind\": \"%s\"}", attr_kind_name(mc_attr_kind_of(a)));
  }
  mc_text_printf(t, "]}");
}

void mc_json_write_op_list(mc_text *t) {
  mc_text_printf(t, "{\"operations\": [");
  for (int i = 0; i < MC_OP_COUNT; i++) {
    mc_text_printf(t, "%s\n  ", i ? "," : "");
    write_op_entry(t, (mc_op)i);
  }
  mc_text_printf(t, "\n]}\n");
}
