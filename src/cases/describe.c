/* Short descriptions of a case for reports and `movconf show`: its
   inputs' types and shapes, its attributes, and whether its data input is
   index-filled. One place, so that every report says it the same way. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cases/cases.h"
#include "cases/json.h"
#include "common/text.h"
#include "movconf/tensor.h"

void mc_shape_text(const mc_tensor *t, char *buf, size_t n) {
  size_t used = (size_t)snprintf(buf, n, "%s [", mc_type_name(t->type));
  for (int d = 0; d < t->rank && used < n; d++)
    used += (size_t)snprintf(buf + used, n - used, "%s%" PRId64, d ? "," : "", t->shape[d]);
  if (used < n)
    snprintf(buf + used, n - used, "]");
}

void mc_element_text(mc_type t, uint64_t bits, char *buf, size_t n) {
  const mc_type_info *info = mc_type_get(t);
  if (t == MC_BOOLEAN)
    snprintf(buf, n, "%s", bits ? (bits == 1 ? "true" : "0x??") : "false");
  else if (mc_float_bits_text(t, bits, buf, n))
    return;
  else if (info && info->is_signed && info->bits < 64 && (bits >> (info->bits - 1)) & 1)
    snprintf(buf, n, "%" PRId64, (int64_t)bits - ((int64_t)1 << info->bits));
  else if (info && info->is_signed)
    snprintf(buf, n, "%" PRId64, (int64_t)bits);
  else
    snprintf(buf, n, "%" PRIu64, bits);
}

/* Side inputs (block_shape, crops, pads) are few values that decide the
   case, so their values are shown, up to this many. */
#define SIDE_VALUES_SHOWN 16

/* "block_shape [1,2,2] (i64 [3])". */
static void put_side_input(mc_text *t, const char *name, const mc_tensor *v) {
  int64_t n = mc_tensor_elements(v);
  char shape[600];
  mc_shape_text(v, shape, sizeof shape);
  mc_text_printf(t, "%s [", name);
  for (int64_t i = 0; v->data && i < n && i < SIDE_VALUES_SHOWN; i++) {
    char value[64];
    mc_element_text(v->type, mc_load_bits(v->data, v->type, i), value, sizeof value);
    mc_text_printf(t, "%s%s", i ? "," : "", value);
  }
  mc_text_printf(t, "%s] (%s)", n > SIDE_VALUES_SHOWN ? ",..." : "", shape);
}

char *mc_case_inputs_text(const mc_case *c) {
  mc_text t = {0};
  for (int i = 0; i < c->n_inputs; i++) {
    if (i)
      mc_text_printf(&t, ", ");
    if (i > 0) {
      put_side_input(&t, mc_op_input_name(c->op, i), &c->inputs[i].tensor);
      continue;
    }
    char shape[600];
    mc_shape_text(&c->inputs[i].tensor, shape, sizeof shape);
    mc_text_printf(&t, "%s %s", mc_op_input_name(c->op, i), shape);
  }
  char *s = mc_strdupf("%s", t.p ? t.p : "");
  mc_text_free(&t);
  return s;
}

static void put_attr_value(mc_text *t, const mc_attrs *a, mc_attr id) {
  if (!mc_attrs_present(a, id)) {
    mc_text_printf(t, "(absent)");
  } else if (mc_attr_kind_of(id) == MC_ATTR_KIND_INT) {
    mc_text_printf(t, "%" PRId64, mc_attrs_int(a, id));
  } else if (mc_attr_kind_of(id) == MC_ATTR_KIND_STRING) {
    mc_text_printf(t, "\"%s\"", mc_attrs_string(a, id));
  } else {
    const mc_int_list *l = mc_attrs_list(a, id);
    mc_text_printf(t, "[");
    for (int k = 0; k < l->count && k < MC_MAX_ATTR_LEN; k++)
      mc_text_printf(t, "%s%" PRId64, k ? "," : "", l->v[k]);
    mc_text_printf(t, "%s]", l->count > MC_MAX_ATTR_LEN ? ",..." : "");
  }
}

char *mc_case_attrs_text(const mc_case *c) {
  mc_text t = {0};
  for (int i = 0; i < mc_op_attr_count(c->op); i++) {
    mc_attr id = mc_op_attr(c->op, i);
    mc_text_printf(&t, "%s%s ", i ? ", " : "", mc_attr_name(id));
    put_attr_value(&t, &c->attrs, id);
  }
  char *s = mc_strdupf("%s", t.p ? t.p : "");
  mc_text_free(&t);
  return s;
}

const char *mc_case_mode(const mc_case *c) {
  for (int i = 0; i < mc_op_attr_count(c->op); i++) {
    mc_attr id = mc_op_attr(c->op, i);
    if (mc_attr_kind_of(id) == MC_ATTR_KIND_STRING)
      return mc_attrs_present(&c->attrs, id) ? mc_attrs_string(&c->attrs, id) : "(absent)";
  }
  return "-";
}

/* Iota values are distinct, and a counter is as long as it does not wrap
   around its type's bits. */
bool mc_case_tensor_index_filled(const mc_case_tensor *in) {
  if (in->tensor.data == NULL)
    return false;
  if (in->kind == MC_PAYLOAD_FILL_IOTA)
    return true;
  if (in->kind != MC_PAYLOAD_FILL_COUNTER)
    return false;
  unsigned bits = mc_type_bits(in->tensor.type);
  int64_t n = mc_tensor_elements(&in->tensor);
  return bits >= 63 || (uint64_t)n <= ((uint64_t)1 << bits);
}
