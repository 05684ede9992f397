/* movconf gen: Pad-12 (generators/pad_12.json). The inputs as given:
   data_shape; pads_begin, pads_end (a list, or one value for every axis);
   pad_mode (a string, or null for absent); pad_value_bits (the bits of
   pad_value, absent or null: no pad_value) of pad_value_type (default the
   data's); side_type (one type, or two: pads_begin, pads_end). */
#include <string.h>

#include "gen/gen_build.h"
#include "movconf/tensor.h"

enum { PADS = 2 };
static const char *const pad_names[PADS] = {"pads_begin", "pads_end"};

/* pads_begin or pads_end: a list, or one value repeated for each axis. */
static bool make_pads(mc_gen_case *c, const mc_gen_params *p, int s, mc_type type, int rank,
                      char *err, size_t n) {
  const cJSON *v = mc_gen_param(p, pad_names[s]);
  mc_int values[MC_GEN_MAX_SIDE];
  int count = rank;
  if (!v)
    return mc_gen_fail(err, n, "%s: missing", pad_names[s]);
  if (cJSON_IsArray(v)) {
    if (!mc_gen_read_list(v, pad_names[s], values, MC_GEN_MAX_SIDE, &count, err, n))
      return false;
  } else {
    if (!mc_gen_read_int(v, pad_names[s], &values[0], err, n))
      return false;
    for (int i = 1; i < rank; i++)
      values[i] = values[0];
  }
  const int64_t shape[1] = {count};
  return mc_gen_side_tensor(&c->tensors[1 + s], type, 1, shape, values, count, pad_names[s], err,
                            n);
}

/* pad_mode into the case's string buffer; absent when null or missing. */
static bool make_mode(mc_gen_case *c, const mc_gen_params *p, char *err, size_t n) {
  const cJSON *m = mc_gen_param(p, "pad_mode");
  if (!m || cJSON_IsNull(m))
    return true;
  if (!cJSON_IsString(m) || strlen(m->valuestring) >= sizeof c->mode)
    return mc_gen_fail(err, n, "pad_mode: a string of at most %d bytes, or null",
                       (int)sizeof c->mode - 1);
  snprintf(c->mode, sizeof c->mode, "%s", m->valuestring);
  mc_attrs_set_string(&c->req.attrs, MC_ATTR_PAD_MODE, c->mode);
  return true;
}

/* pad_value: a scalar holding pad_value_bits, of the data's type or
   pad_value_type. */
static bool make_value(mc_gen_case *c, const mc_gen_params *p, char *err, size_t n) {
  const cJSON *bits = mc_gen_param(p, "pad_value_bits");
  c->req.n_inputs = 3;
  if (!bits || cJSON_IsNull(bits))
    return true;
  int64_t v;
  if (!mc_gen_read_i64(bits, "pad_value_bits", &v, err, n))
    return false;
  mc_type type = c->tensors[0].type;
  const cJSON *t = mc_gen_param(p, "pad_value_type");
  if (t && (!cJSON_IsString(t) || (type = mc_type_from_name(t->valuestring)) == MC_TYPE_INVALID))
    return mc_gen_fail(err, n, "pad_value_type: not an element type name");
  if (mc_tensor_alloc(&c->tensors[3], type, 0, NULL, (size_t)-1) != MC_OK)
    return mc_gen_fail(err, n, "pad_value: out of memory");
  mc_store_bits(c->tensors[3].data, type, 0, (uint64_t)v);
  c->req.n_inputs = 4;
  return true;
}

static bool build(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err, size_t n) {
  if (!mc_gen_required_raw_data(c, p, case_seed, err, n))
    return false;
  mc_type types[PADS];
  if (!mc_gen_side_types(p, types, PADS, err, n))
    return false;
  for (int s = 0; s < PADS; s++)
    if (!make_pads(c, p, s, types[s], c->tensors[0].rank, err, n))
      return false;
  return make_mode(c, p, err, n) && make_value(c, p, err, n);
}

static const char *const param_names[] = {
    "type",     "fill",           "fill_start",     "data_shape", "pads_begin", "pads_end",
    "pad_mode", "pad_value_bits", "pad_value_type", "side_type",  NULL};

const mc_gen_op_desc mc_gen_pad_12 = {param_names, build};
