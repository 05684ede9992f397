/* movconf gen: ExtractImagePatches-3 (generators/extract_image_patches_3.json). */
#include <stdio.h>
#include <string.h>

#include "gen/gen_build.h"

static bool build(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err, size_t n) {
  mc_attrs *a = &c->req.attrs;
  if (!mc_gen_list_attr(c, p, "sizes", MC_ATTR_SIZES, err, n) ||
      !mc_gen_list_attr(c, p, "strides", MC_ATTR_STRIDES, err, n) ||
      !mc_gen_list_attr(c, p, "rates", MC_ATTR_RATES, err, n))
    return false;
  const cJSON *pad = mc_gen_param(p, "auto_pad");
  if (pad && !cJSON_IsNull(pad)) {
    if (!cJSON_IsString(pad) || strlen(pad->valuestring) >= sizeof c->auto_pad)
      return mc_gen_fail(err, n, "auto_pad: a string of at most %d bytes, or null",
                         MC_GEN_MAX_STRING - 1);
    snprintf(c->auto_pad, sizeof c->auto_pad, "%s", pad->valuestring);
    mc_attrs_set_string(a, MC_ATTR_AUTO_PAD, c->auto_pad);
  }
  const cJSON *raw = mc_gen_param(p, "data_shape"), *image = mc_gen_param(p, "image");
  if (raw)
    return mc_gen_raw_data(c, p, raw, case_seed, err, n);
  int64_t shape[4];
  int count;
  if (!image)
    return mc_gen_fail(err, n, "image: missing (or give data_shape)");
  if (!mc_gen_read_i64_list(image, "image", shape + 2, 2, &count, err, n) || count != 2)
    return count == 2 ? false : mc_gen_fail(err, n, "image: [rows, cols]");
  if (!mc_gen_get_i64(p, "batch", 1, &shape[0], err, n) ||
      !mc_gen_get_i64(p, "depth", 1, &shape[1], err, n))
    return false;
  return mc_gen_make_data(c, p, 4, shape, case_seed, err, n);
}

static const char *const param_names[] = {"type",    "fill",  "fill_start", "batch",
                                          "depth",   "image", "data_shape", "sizes",
                                          "strides", "rates", "auto_pad",   NULL};

const mc_gen_op_desc mc_gen_extract_image_patches_3 = {param_names, build};
