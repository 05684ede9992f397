/* movconf gen: StridedSlice-1 (generators/strided_slice_1.json). The
   inputs as given: data_shape; begin, end, stride (lists; stride absent or
   null: no stride input); side_type (one type, or three: begin, end,
   stride); the five masks as lists (absent or null: absent). */
#include "gen/gen_build.h"

enum { SIDE_INPUTS = 3 };
static const char *const side_names[SIDE_INPUTS] = {"begin", "end", "stride"};
static const char *const mask_names[] = {"begin_mask", "end_mask", "new_axis_mask",
                                         "shrink_axis_mask", "ellipsis_mask"};

static bool build(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err, size_t n) {
  if (!mc_gen_required_raw_data(c, p, case_seed, err, n))
    return false;
  for (int a = 0; a < mc_op_attr_count(c->req.op); a++)
    if (!mc_gen_list_attr(c, p, mask_names[a], mc_op_attr(c->req.op, a), err, n))
      return false;
  mc_type types[SIDE_INPUTS];
  if (!mc_gen_side_types(p, types, SIDE_INPUTS, err, n))
    return false;
  const cJSON *stride = mc_gen_param(p, "stride");
  c->req.n_inputs = stride && !cJSON_IsNull(stride) ? 1 + SIDE_INPUTS : SIDE_INPUTS;
  for (int s = 0; s < c->req.n_inputs - 1; s++) {
    mc_int values[MC_GEN_MAX_SIDE];
    int count = 0;
    const cJSON *v = mc_gen_param(p, side_names[s]);
    if (!v)
      return mc_gen_fail(err, n, "%s: missing", side_names[s]);
    int64_t shape[1];
    if (!mc_gen_read_list(v, side_names[s], values, MC_GEN_MAX_SIDE, &count, err, n))
      return false;
    shape[0] = count;
    if (!mc_gen_side_tensor(&c->tensors[1 + s], types[s], 1, shape, values, count, side_names[s],
                            err, n))
      return false;
  }
  return true;
}

static const char *const param_names[] = {
    "type",          "fill",      "fill_start", "data_shape", "begin",         "end",
    "stride",        "side_type", "begin_mask", "end_mask",   "new_axis_mask", "shrink_axis_mask",
    "ellipsis_mask", NULL};

const mc_gen_op_desc mc_gen_strided_slice_1 = {param_names, build};
