/* movconf gen: Slice-8 (generators/slice_8.json). The inputs as given:
   data_shape; start, stop, step (a list, or one value for every named
   axis; "min" and "max" stand for the side input's type's extremes);
   axes (a list, "all", "negative", "reversed", or absent); side_type (one
   type, or four: start, stop, step, axes); side_shapes (four shapes
   replacing the 1-D ones, values cycled over them). */
#include <string.h>

#include "gen/gen_build.h"

enum { SIDE_INPUTS = 4 };
static const char *const side_names[SIDE_INPUTS] = {"start", "stop", "step", "axes"};

/* The least ("min") or greatest ("max") value of integer type t. */
static bool type_extreme(mc_type t, const char *which, mc_int *out) {
  const mc_type_info *info = mc_type_get(t);
  if (!info || !info->is_integer || info->bits == 0 || info->bits > 64)
    return false;
  const uint64_t half = UINT64_C(1) << (info->bits - 1);
  const bool max = strcmp(which, "max") == 0;
  if (!max && strcmp(which, "min") != 0)
    return false;
  if (info->is_signed)
    *out = max ? (mc_int){false, half - 1} : (mc_int){true, half};
  else
    *out = max ? (mc_int){false, half - 1 + half} : (mc_int){false, 0};
  return true;
}

/* One value of a side input of type t: an integer, or "min"/"max". */
static bool read_value(const cJSON *v, mc_type t, const char *what, mc_int *out, char *err,
                       size_t n) {
  if (cJSON_IsString(v) &&
      (strcmp(v->valuestring, "min") == 0 || strcmp(v->valuestring, "max") == 0)) {
    if (!type_extreme(t, v->valuestring, out))
      return mc_gen_fail(err, n, "%s: \"%s\" needs an integer side_type, not %s", what,
                         v->valuestring, mc_type_name(t));
    return true;
  }
  return mc_gen_read_int(v, what, out, err, n);
}

/* The values of side input `what`: a list, or one value repeated for
   each of the `named` axes. */
static bool read_values(const cJSON *v, mc_type t, const char *what, int named, mc_int *out,
                        int *count, char *err, size_t n) {
  if (!cJSON_IsArray(v)) {
    if (!read_value(v, t, what, &out[0], err, n))
      return false;
    for (int i = 1; i < named; i++)
      out[i] = out[0];
    *count = named;
    return true;
  }
  *count = cJSON_GetArraySize(v);
  if (*count > MC_GEN_MAX_SIDE)
    return mc_gen_fail(err, n, "%s: %d values, at most %d", what, *count, MC_GEN_MAX_SIDE);
  for (int i = 0; i < *count; i++)
    if (!read_value(cJSON_GetArrayItem(v, i), t, what, &out[i], err, n))
      return false;
  return true;
}

/* axes by name: every axis from the first ("all") or counted from the end
   ("negative"), or from the last to the first ("reversed"). */
static bool named_axes(const char *name, int rank, mc_int *out, char *err, size_t n) {
  for (int i = 0; i < rank; i++) {
    if (strcmp(name, "all") == 0)
      out[i] = mc_int_from_i64(i);
    else if (strcmp(name, "negative") == 0)
      out[i] = mc_int_from_i64(i - rank);
    else if (strcmp(name, "reversed") == 0)
      out[i] = mc_int_from_i64(rank - 1 - i);
    else
      return mc_gen_fail(err, n, "axes: '%s' is not a list, all, negative or reversed", name);
  }
  return true;
}

/* Side input s (0 start .. 3 axes) into tensor 1 + s, in its 1-D shape of
   count values or its side_shapes entry. */
static bool make_side(mc_gen_case *c, int s, mc_type type, const mc_int *values, int count,
                      const cJSON *shapes, char *err, size_t n) {
  int64_t shape[MC_TENSOR_MAX_RANK] = {count};
  int rank = 1;
  if (shapes && !mc_gen_read_i64_list(cJSON_GetArrayItem(shapes, s), "side_shapes", shape,
                                      MC_TENSOR_MAX_RANK, &rank, err, n))
    return false;
  return mc_gen_side_tensor(&c->tensors[1 + s], type, rank, shape, values, count, side_names[s],
                            err, n);
}

static bool build(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err, size_t n) {
  if (!mc_gen_required_raw_data(c, p, case_seed, err, n))
    return false;
  const int rank = c->tensors[0].rank;
  mc_type types[SIDE_INPUTS];
  if (!mc_gen_side_types(p, types, SIDE_INPUTS, err, n))
    return false;
  const cJSON *shapes = mc_gen_param(p, "side_shapes");
  if (shapes && (!cJSON_IsArray(shapes) || cJSON_GetArraySize(shapes) != SIDE_INPUTS))
    return mc_gen_fail(err, n, "side_shapes: an array of four shapes (start, stop, step, axes)");
  mc_int values[MC_GEN_MAX_SIDE];
  int named = rank; /* entries a single value is repeated for */
  const cJSON *axes = mc_gen_param(p, "axes");
  const bool has_axes = axes && !cJSON_IsNull(axes);
  if (has_axes) {
    if (cJSON_IsString(axes) ? !named_axes(axes->valuestring, rank, values, err, n)
                             : !read_values(axes, types[3], "axes", rank, values, &named, err, n))
      return false;
    if (!make_side(c, 3, types[3], values, named, shapes, err, n))
      return false;
  }
  c->req.n_inputs = has_axes ? 1 + SIDE_INPUTS : SIDE_INPUTS;
  for (int s = 0; s < 3; s++) {
    const cJSON *v = mc_gen_param(p, side_names[s]);
    int count;
    if (!v)
      return mc_gen_fail(err, n, "%s: missing", side_names[s]);
    if (!read_values(v, types[s], side_names[s], named, values, &count, err, n) ||
        !make_side(c, s, types[s], values, count, shapes, err, n))
      return false;
  }
  return true;
}

static const char *const param_names[] = {"type",      "fill",        "fill_start", "data_shape",
                                          "start",     "stop",        "step",       "axes",
                                          "side_type", "side_shapes", NULL};

const mc_gen_op_desc mc_gen_slice_8 = {param_names, build};
