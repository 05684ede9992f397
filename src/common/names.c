/* Name tables: element types, status codes and operations. Names are the
   stable strings case files and reports use, so they live in one place. */
#include "common/names_test.h"
#include "common/op_rows.h"
#include "movconf/ops.h"
#include "movconf/types.h"

#include <ctype.h>
#include <string.h>

static const mc_type_info type_table[MC_TYPE_COUNT] = {
    /* name, bits, is_integer, is_signed, is_float */
    [MC_BOOLEAN] = {"boolean", 8, false, false, false},
    [MC_U8] = {"u8", 8, true, false, false},
    [MC_I8] = {"i8", 8, true, true, false},
    [MC_U16] = {"u16", 16, true, false, false},
    [MC_I16] = {"i16", 16, true, true, false},
    [MC_F16] = {"f16", 16, false, true, true},
    [MC_BF16] = {"bf16", 16, false, true, true},
    [MC_U32] = {"u32", 32, true, false, false},
    [MC_I32] = {"i32", 32, true, true, false},
    [MC_F32] = {"f32", 32, false, true, true},
    [MC_U64] = {"u64", 64, true, false, false},
    [MC_I64] = {"i64", 64, true, true, false},
    [MC_F64] = {"f64", 64, false, true, true},
    [MC_F8E4M3] = {"f8e4m3", 8, false, true, true},
    [MC_F8E5M2] = {"f8e5m2", 8, false, true, true},
    [MC_U1] = {"u1", 1, true, false, false},
    [MC_U4] = {"u4", 4, true, false, false},
    [MC_I4] = {"i4", 4, true, true, false},
};

const mc_type_info *mc_type_get(mc_type t) {
  if (t < 0 || t >= MC_TYPE_COUNT) {
    return NULL;
  }
  return &type_table[t];
}

const char *mc_type_name(mc_type t) {
  const mc_type_info *info = mc_type_get(t);
  return info ? info->name : "invalid";
}

mc_type mc_type_from_name(const char *name) {
  if (!name) {
    return MC_TYPE_INVALID;
  }
  for (int i = 0; i < MC_TYPE_COUNT; i++) {
    if (strcmp(type_table[i].name, name) == 0) {
      return (mc_type)i;
    }
  }
  return MC_TYPE_INVALID;
}

unsigned mc_type_bits(mc_type t) {
  const mc_type_info *info = mc_type_get(t);
  return info ? info->bits : 0;
}

bool mc_type_is_side_integer(mc_type t) {
  switch (t) {
  case MC_I8:
  case MC_I16:
  case MC_I32:
  case MC_I64:
  case MC_U8:
  case MC_U16:
  case MC_U32:
  case MC_U64:
    return true;
  default:
    return false;
  }
}

static const char *const status_names[] = {
    [MC_OK] = "ok",
    [MC_E_INVALID_ARGUMENT] = "invalid_argument",
    [MC_E_UNSUPPORTED_TYPE] = "unsupported_type",
    [MC_E_RANK_LIMIT] = "rank_limit",
    [MC_E_VALUE_OUT_OF_RANGE] = "value_out_of_range",
    [MC_E_SHAPE_OVERFLOW] = "shape_overflow",
    [MC_E_OUTPUT_TOO_LARGE] = "output_too_large",
    [MC_E_OUT_OF_MEMORY] = "out_of_memory",
    [MC_E_DATA_RANK] = "data_rank",
    [MC_E_SIDE_INPUT_TYPE] = "side_input_type",
    [MC_E_SIDE_INPUT_RANK] = "side_input_rank",
    [MC_E_SIDE_INPUT_LENGTH] = "side_input_length",
    [MC_E_BLOCK_BELOW_ONE] = "block_below_one",
    [MC_E_BLOCK_FIRST_NOT_ONE] = "block_first_not_one",
    [MC_E_CROP_NEGATIVE] = "crop_negative",
    [MC_E_CROP_FIRST_NOT_ZERO] = "crop_first_not_zero",
    [MC_E_BATCH_NOT_DIVISIBLE] = "batch_not_divisible",
    [MC_E_CROP_EXCEEDS] = "crop_exceeds",
    [MC_E_PAD_NEGATIVE] = "pad_negative",
    [MC_E_PAD_FIRST_NOT_ZERO] = "pad_first_not_zero",
    [MC_E_PADDED_NOT_DIVISIBLE] = "padded_not_divisible",
    [MC_E_MODE_MISSING] = "mode_missing",
    [MC_E_MODE_INVALID] = "mode_invalid",
    [MC_E_BLOCK_SIZE_BELOW_ONE] = "block_size_below_one",
    [MC_E_SPATIAL_NOT_DIVISIBLE] = "spatial_not_divisible",
    [MC_E_DEPTH_NOT_DIVISIBLE] = "depth_not_divisible",
    [MC_E_ATTRIBUTE_MISSING] = "attribute_missing",
    [MC_E_ATTRIBUTE_LENGTH] = "attribute_length",
    [MC_E_SIZES_BELOW_ONE] = "sizes_below_one",
    [MC_E_STRIDES_BELOW_ONE] = "strides_below_one",
    [MC_E_RATES_BELOW_ONE] = "rates_below_one",
    [MC_E_AUTO_PAD_INVALID] = "auto_pad_invalid",
    [MC_E_AXIS_OUT_OF_RANGE] = "axis_out_of_range",
    [MC_E_GROUP_BELOW_ONE] = "group_below_one",
    [MC_E_CHANNEL_NOT_DIVISIBLE] = "channel_not_divisible",
    [MC_E_STEP_ZERO] = "step_zero",
    [MC_E_AXES_NOT_UNIQUE] = "axes_not_unique",
    [MC_E_PAD_TOO_LARGE] = "pad_too_large",
    [MC_E_MASK_INVALID] = "mask_invalid",
    [MC_E_TOO_MANY_INDICES] = "too_many_indices",
    [MC_E_INDEX_OUT_OF_RANGE] = "index_out_of_range",
    [MC_E_BATCH_MISMATCH] = "batch_mismatch",
};

/* A status added to the enum without a name here fails the build; a gap
   inside the table is caught by the unit test (every name is non-NULL). */
_Static_assert(sizeof status_names / sizeof status_names[0] == MC_STATUS_COUNT,
               "status_names must name every mc_status");

const char *mc_status_name(mc_status s) {
  if ((int)s < 0 || s >= MC_STATUS_COUNT || !status_names[s]) {
    return "unknown";
  }
  return status_names[s];
}

int mc_status_from_name(const char *name) {
  if (!name) {
    return -1;
  }
  for (int i = 0; i < MC_STATUS_COUNT; i++) {
    if (status_names[i] && strcmp(status_names[i], name) == 0) {
      return i;
    }
  }
  return -1;
}

typedef struct op_info {
  const char *name;
  const char *slug;
  const char *clause_prefix;
  int input_count;
  int required_inputs; /* the rest, trailing, are optional */
  const char *inputs[MC_MAX_INPUTS];
  int attr_count;
  const mc_attr *attrs;
  unsigned traits; /* MC_OP_PADS_ZEROS, MC_OP_DATA_SCALAR(k) */
} op_info;

static const op_info op_table[] = {
#define MC_OP_ROW(NAME, slug, name, prefix, inputs, required, attrs, traits)                       \
  [MC_OP_##NAME] = {name,                                                                          \
                    #slug,                                                                         \
                    prefix,                                                                        \
                    MC_ROW_INPUT_COUNT(inputs),                                                    \
                    required,                                                                      \
                    {MC_ROW_LIST inputs},                                                          \
                    MC_ROW_ATTR_COUNT(attrs),                                                      \
                    MC_ROW_ATTRS(attrs) + 1 /* past the placeholder */,                            \
                    traits},
#include "movconf/op_list.h"
#undef MC_OP_ROW
};

_Static_assert(sizeof op_table / sizeof op_table[0] == MC_OP_COUNT,
               "op_table must describe every mc_op");
/* A row's inputs fit the request and its required ones are a prefix of
   them; its traits name only inputs it has, and never the data. */
#define MC_OP_ROW(NAME, slug, name, prefix, inputs, required, attrs, traits)                       \
  _Static_assert(MC_ROW_INPUT_COUNT(inputs) <= MC_MAX_INPUTS && (required) >= 1 &&                 \
                     (required) <= MC_ROW_INPUT_COUNT(inputs),                                     \
                 #slug ": 1 <= required inputs <= inputs <= MC_MAX_INPUTS");                       \
  _Static_assert(((traits) & ~(MC_OP_PADS_ZEROS | ((2u << MC_ROW_INPUT_COUNT(inputs)) - 4u))) ==   \
                     0,                                                                            \
                 #slug ": traits are MC_OP_PADS_ZEROS and MC_OP_DATA_SCALAR(1 .. inputs - 1)");
#include "movconf/op_list.h"
#undef MC_OP_ROW

static const op_info *op_get(mc_op op) {
  if ((int)op < 0 || op >= MC_OP_COUNT) {
    return NULL;
  }
  return &op_table[op];
}

const char *mc_op_name(mc_op op) {
  const op_info *info = op_get(op);
  return info ? info->name : "invalid";
}

const char *mc_op_slug(mc_op op) {
  const op_info *info = op_get(op);
  return info ? info->slug : "invalid";
}

const char *mc_op_clause_prefix(mc_op op) {
  const op_info *info = op_get(op);
  return info ? info->clause_prefix : "invalid";
}

void mc_op_case_prefix(mc_op op, char *buf, size_t n) {
  if (n == 0)
    return;
  const char *p = mc_op_clause_prefix(op);
  size_t i = 0;
  for (; p[i] && i + 1 < n; i++)
    buf[i] = (char)tolower((unsigned char)p[i]);
  buf[i] = '\0';
}

mc_op mc_op_from_name(const char *name) {
  if (!name) {
    return MC_OP_INVALID;
  }
  for (int i = 0; i < MC_OP_COUNT; i++) {
    if (strcmp(op_table[i].name, name) == 0 || strcmp(op_table[i].slug, name) == 0) {
      return (mc_op)i;
    }
  }
  return MC_OP_INVALID;
}

int mc_op_input_count(mc_op op) {
  const op_info *info = op_get(op);
  return info ? info->input_count : 0;
}

int mc_op_required_input_count(mc_op op) {
  const op_info *info = op_get(op);
  return info ? info->required_inputs : 0;
}

bool mc_op_input_count_ok(mc_op op, int n) {
  const op_info *info = op_get(op);
  return info && n >= info->required_inputs && n <= info->input_count;
}

const char *mc_op_input_name(mc_op op, int index) {
  const op_info *info = op_get(op);
  if (!info || index < 0 || index >= info->input_count) {
    return NULL;
  }
  return info->inputs[index];
}

bool mc_op_pads_zeros(mc_op op) {
  const op_info *info = op_get(op);
  return info && (info->traits & MC_OP_PADS_ZEROS);
}

bool mc_op_input_is_data_scalar(mc_op op, int k) {
  const op_info *info = op_get(op);
  return info && k > 0 && k < info->input_count && (info->traits & MC_OP_DATA_SCALAR(k));
}

typedef struct attr_info {
  const char *name;
  mc_attr_kind kind;
  int64_t default_int; /* INT: the value while absent */
} attr_info;

static const attr_info attr_table[] = {
    [MC_ATTR_BLOCK_SIZE] = {"block_size", MC_ATTR_KIND_INT, 1},
    [MC_ATTR_MODE] = {"mode", MC_ATTR_KIND_STRING, 0},
    [MC_ATTR_SIZES] = {"sizes", MC_ATTR_KIND_INT_LIST, 0},
    [MC_ATTR_STRIDES] = {"strides", MC_ATTR_KIND_INT_LIST, 0},
    [MC_ATTR_RATES] = {"rates", MC_ATTR_KIND_INT_LIST, 0},
    [MC_ATTR_AUTO_PAD] = {"auto_pad", MC_ATTR_KIND_STRING, 0},
    [MC_ATTR_AXIS] = {"axis", MC_ATTR_KIND_INT, 1},
    [MC_ATTR_GROUP] = {"group", MC_ATTR_KIND_INT, 1},
    [MC_ATTR_PAD_MODE] = {"pad_mode", MC_ATTR_KIND_STRING, 0},
    [MC_ATTR_BEGIN_MASK] = {"begin_mask", MC_ATTR_KIND_INT_LIST, 0},
    [MC_ATTR_END_MASK] = {"end_mask", MC_ATTR_KIND_INT_LIST, 0},
    [MC_ATTR_NEW_AXIS_MASK] = {"new_axis_mask", MC_ATTR_KIND_INT_LIST, 0},
    [MC_ATTR_SHRINK_AXIS_MASK] = {"shrink_axis_mask", MC_ATTR_KIND_INT_LIST, 0},
    [MC_ATTR_ELLIPSIS_MASK] = {"ellipsis_mask", MC_ATTR_KIND_INT_LIST, 0},
    [MC_ATTR_BATCH_DIMS] = {"batch_dims", MC_ATTR_KIND_INT, 0},
};

_Static_assert(sizeof attr_table / sizeof attr_table[0] == MC_ATTR_COUNT,
               "attr_table must describe every mc_attr");

static bool attr_valid(mc_attr a) {
  return (int)a >= 0 && a < MC_ATTR_COUNT;
}

const char *mc_attr_name(mc_attr a) {
  return attr_valid(a) ? attr_table[a].name : "invalid";
}

mc_attr_kind mc_attr_kind_of(mc_attr a) {
  return attr_valid(a) ? attr_table[a].kind : MC_ATTR_KIND_INT;
}

int64_t mc_attr_default_int(mc_attr a) {
  return attr_valid(a) ? attr_table[a].default_int : 0;
}

/* Tests may give an operation another attribute list (names_test.h). */
static const mc_attr *attrs_override[MC_OP_COUNT];
static int attrs_override_count[MC_OP_COUNT];

void mc_test_set_op_attrs(mc_op op, const mc_attr *attrs, int count) {
  attrs_override[op] = count >= 0 ? attrs : NULL;
  attrs_override_count[op] = count;
}

static const mc_attr *op_attrs(mc_op op, int *count) {
  const op_info *info = op_get(op);
  if (!info) {
    *count = 0;
    return NULL;
  }
  if (attrs_override[op]) {
    *count = attrs_override_count[op];
    return attrs_override[op];
  }
  *count = info->attr_count;
  return info->attrs;
}

int mc_op_attr_count(mc_op op) {
  int n;
  op_attrs(op, &n);
  return n;
}

mc_attr mc_op_attr(mc_op op, int index) {
  int n;
  const mc_attr *attrs = op_attrs(op, &n);
  return attrs[index];
}

int mc_op_attr_from_name(mc_op op, const char *name) {
  int n;
  const mc_attr *attrs = op_attrs(op, &n);
  for (int i = 0; name && i < n; i++)
    if (strcmp(attr_table[attrs[i]].name, name) == 0)
      return (int)attrs[i];
  return -1;
}

mc_attrs mc_attrs_none(void) {
  mc_attrs attrs;
  memset(&attrs, 0, sizeof attrs);
  for (int id = 0; id < MC_ATTR_COUNT; id++)
    attrs.by_id[id].list.count = -1;
  return attrs;
}

/* The value of attribute id in a; NULL for an id outside the table. */
static mc_attr_value *value_of(const mc_attrs *a, mc_attr id) {
  return attr_valid(id) ? (mc_attr_value *)&a->by_id[id] : NULL;
}

bool mc_attrs_present(const mc_attrs *a, mc_attr id) {
  const mc_attr_value *v = value_of(a, id);
  if (!v)
    return false;
  switch (mc_attr_kind_of(id)) {
  case MC_ATTR_KIND_INT:
    return v->present;
  case MC_ATTR_KIND_STRING:
    return v->s != NULL;
  case MC_ATTR_KIND_INT_LIST:
    return v->list.count >= 0;
  }
  return false;
}

int64_t mc_attrs_int(const mc_attrs *a, mc_attr id) {
  const mc_attr_value *v = value_of(a, id);
  return !v ? 0 : v->present ? v->i : attr_table[id].default_int;
}

const char *mc_attrs_string(const mc_attrs *a, mc_attr id) {
  const mc_attr_value *v = value_of(a, id);
  return v ? v->s : NULL;
}

const mc_int_list *mc_attrs_list(const mc_attrs *a, mc_attr id) {
  const mc_attr_value *v = value_of(a, id);
  return v ? &v->list : NULL;
}

mc_int_list *mc_attrs_list_slot(mc_attrs *a, mc_attr id) {
  mc_attr_value *v = value_of(a, id);
  return v ? &v->list : NULL;
}

void mc_attrs_set_int(mc_attrs *a, mc_attr id, int64_t value) {
  mc_attr_value *v = value_of(a, id);
  if (v) {
    v->present = true;
    v->i = value;
  }
}

void mc_attrs_set_string(mc_attrs *a, mc_attr id, const char *s) {
  mc_attr_value *v = value_of(a, id);
  if (v)
    v->s = s;
}

void mc_attrs_set_list(mc_attrs *a, mc_attr id, const mc_int_list *l) {
  mc_attr_value *v = value_of(a, id);
  if (v)
    v->list = *l;
}
