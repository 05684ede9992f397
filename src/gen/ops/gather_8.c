/* movconf gen: Gather-8 (generators/gather_8.json). The inputs as given:
   data_shape; indices (a list of integers cycled over indices_shape, which
   defaults to the list's own length; "iota" for 0, 1, ... and
   "reversed" for -1, -2, ... over indices_shape); axis (an integer, 0 when
   absent) of shape axis_shape ([] when absent); side_type (one type, or
   [indices, axis]); batch_dims. */
#include <string.h>

#include "gen/gen_build.h"
#include "movconf/tensor.h"

enum { INDICES = 1, AXIS = 2 };

/* indices by name over count elements. */
static bool named_indices(const char *name, int64_t count, mc_int *out, int *n_out, char *err,
                          size_t n) {
  if (count > MC_GEN_MAX_SIDE)
    return mc_gen_fail(err, n, "indices: more than %d elements", MC_GEN_MAX_SIDE);
  *n_out = (int)count;
  for (int64_t i = 0; i < count; i++) {
    if (strcmp(name, "iota") == 0)
      out[i] = mc_int_from_i64(i);
    else if (strcmp(name, "reversed") == 0)
      out[i] = mc_int_from_i64(-1 - i);
    else
      return mc_gen_fail(err, n, "indices: '%s' is not a list, iota or reversed", name);
  }
  return true;
}

static bool build_indices(mc_gen_case *c, const mc_gen_params *p, mc_type type, char *err,
                          size_t n) {
  const cJSON *given = mc_gen_param(p, "indices"), *shapes = mc_gen_param(p, "indices_shape");
  mc_int values[MC_GEN_MAX_SIDE];
  int count = 0, rank = 1;
  int64_t shape[MC_TENSOR_MAX_RANK] = {0};
  if (!given)
    return mc_gen_fail(err, n, "indices: missing");
  if (shapes &&
      !mc_gen_read_i64_list(shapes, "indices_shape", shape, MC_TENSOR_MAX_RANK, &rank, err, n))
    return false;
  if (cJSON_IsString(given)) {
    int64_t elements = 0;
    if (!shapes)
      return mc_gen_fail(err, n, "indices: a name needs indices_shape");
    if (!mc_shape_elements(rank, shape, &elements) ||
        !named_indices(given->valuestring, elements, values, &count, err, n))
      return false;
  } else if (!mc_gen_read_list(given, "indices", values, MC_GEN_MAX_SIDE, &count, err, n)) {
    return false;
  }
  if (!shapes)
    shape[0] = count;
  return mc_gen_side_tensor(&c->tensors[INDICES], type, rank, shape, values, count, "indices", err,
                            n);
}

static bool build(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err, size_t n) {
  mc_type types[2];
  if (!mc_gen_int_attr(c, p, "batch_dims", MC_ATTR_BATCH_DIMS, err, n) ||
      !mc_gen_required_raw_data(c, p, case_seed, err, n) || !mc_gen_side_types(p, types, 2, err, n))
    return false;
  if (!build_indices(c, p, types[0], err, n))
    return false;
  const cJSON *axis = mc_gen_param(p, "axis"), *axis_shapes = mc_gen_param(p, "axis_shape");
  mc_int value = mc_int_from_i64(0);
  int count = 1, rank = 0;
  int64_t shape[MC_TENSOR_MAX_RANK] = {1};
  if (axis && !mc_gen_read_int(axis, "axis", &value, err, n))
    return false;
  if (axis_shapes &&
      !mc_gen_read_i64_list(axis_shapes, "axis_shape", shape, MC_TENSOR_MAX_RANK, &rank, err, n))
    return false;
  return mc_gen_side_tensor(&c->tensors[AXIS], types[1], rank, shape, &value, count, "axis", err,
                            n);
}

static const char *const param_names[] = {"type",      "fill",          "fill_start", "data_shape",
                                          "indices",   "indices_shape", "axis",       "axis_shape",
                                          "side_type", "batch_dims",    NULL};

const mc_gen_op_desc mc_gen_gather_8 = {param_names, build};
