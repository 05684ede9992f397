/* movconf gen: Transpose-1 (generators/transpose_1.json). The inputs as
   given: data_shape; input_order (a list of integers, or "reversed" for
   the explicit reversal r-1..0, "identity" for 0..r-1, "rotate" for
   1..r-1, 0, "empty" for no values); side_type (input_order's type);
   order_shape (a shape replacing the 1-D one, values cycled over it). */
#include <string.h>

#include "gen/gen_build.h"

/* input_order by name over the data's r axes. */
static bool named_order(const char *name, int rank, mc_int *out, int *count, char *err, size_t n) {
  *count = strcmp(name, "empty") == 0 ? 0 : rank;
  for (int i = 0; i < *count; i++) {
    if (strcmp(name, "reversed") == 0)
      out[i] = mc_int_from_i64(rank - 1 - i);
    else if (strcmp(name, "identity") == 0)
      out[i] = mc_int_from_i64(i);
    else if (strcmp(name, "rotate") == 0)
      out[i] = mc_int_from_i64((i + 1) % rank);
    else
      return mc_gen_fail(
          err, n, "input_order: '%s' is not a list, reversed, identity, rotate or empty", name);
  }
  return true;
}

static bool build(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err, size_t n) {
  if (!mc_gen_required_raw_data(c, p, case_seed, err, n))
    return false;
  const int rank = c->tensors[0].rank;
  mc_type type;
  if (!mc_gen_side_types(p, &type, 1, err, n))
    return false;
  const cJSON *order = mc_gen_param(p, "input_order");
  mc_int values[MC_GEN_MAX_SIDE];
  int count = 0;
  if (!order)
    return mc_gen_fail(err, n, "input_order: missing");
  if (cJSON_IsString(order)
          ? !named_order(order->valuestring, rank, values, &count, err, n)
          : !mc_gen_read_list(order, "input_order", values, MC_GEN_MAX_SIDE, &count, err, n))
    return false;
  int64_t shape[MC_TENSOR_MAX_RANK] = {count};
  int order_rank = 1;
  const cJSON *shapes = mc_gen_param(p, "order_shape");
  if (shapes &&
      !mc_gen_read_i64_list(shapes, "order_shape", shape, MC_TENSOR_MAX_RANK, &order_rank, err, n))
    return false;
  return mc_gen_side_tensor(&c->tensors[1], type, order_rank, shape, values, count, "input_order",
                            err, n);
}

static const char *const param_names[] = {"type",        "fill",      "fill_start",  "data_shape",
                                          "input_order", "side_type", "order_shape", NULL};

const mc_gen_op_desc mc_gen_transpose_1 = {param_names, build};
