/* movconf gen: what SpaceToDepth-1 and DepthToSpace-1 share (their
   attributes, and data by rules); each has its file in src/gen/ops/. */
#include <stdio.h>
#include <string.h>

#include "common/checked.h"
#include "gen/gen_build.h"

/* ---- SpaceToDepth-1, DepthToSpace-1 ---- */

/* block_size (an integer, or null / absent: the attribute is absent) and
   mode (a string, or null / absent). Returns the block size rules use. */
bool mc_gen_depth_attrs(mc_gen_case *c, const mc_gen_params *p, int64_t *bs, char *err, size_t n) {
  const cJSON *b = mc_gen_param(p, "block_size"), *m = mc_gen_param(p, "mode");
  *bs = 1;
  if (b && !cJSON_IsNull(b)) {
    if (!mc_gen_read_i64(b, "block_size", bs, err, n))
      return false;
    mc_attrs_set_int(&c->req.attrs, MC_ATTR_BLOCK_SIZE, *bs);
  }
  if (m && !cJSON_IsNull(m)) {
    if (!cJSON_IsString(m) || strlen(m->valuestring) >= sizeof c->mode)
      return mc_gen_fail(err, n, "mode: a string of at most %d bytes, or null",
                         MC_GEN_MAX_STRING - 1);
    snprintf(c->mode, sizeof c->mode, "%s", m->valuestring);
    mc_attrs_set_string(&c->req.attrs, MC_ATTR_MODE, c->mode);
  }
  return true;
}

/* data_shape as given, or [batch, channels, spatial...] with
   spatial_scale multiplying the spatial sizes and channel_scale the
   channels (the rules of SpaceToDepth and DepthToSpace). */
bool mc_gen_depth_data(mc_gen_case *c, const mc_gen_params *p, const char *spatial_name,
                       int64_t spatial_scale, int64_t bs, bool scale_channels, uint64_t case_seed,
                       char *err, size_t n) {
  const cJSON *raw = mc_gen_param(p, "data_shape");
  if (raw)
    return mc_gen_raw_data(c, p, raw, case_seed, err, n);
  int64_t shape[MC_TENSOR_MAX_RANK];
  const cJSON *sp = mc_gen_param(p, spatial_name);
  int k;
  if (!sp)
    return mc_gen_fail(err, n, "%s: missing (or give data_shape)", spatial_name);
  if (!mc_gen_read_i64_list(sp, spatial_name, shape + 2, MC_MAX_RANK - 2, &k, err, n) ||
      !mc_gen_get_i64(p, "batch", 1, &shape[0], err, n) ||
      !mc_gen_get_i64(p, "channels", 1, &shape[1], err, n))
    return false;
  if (bs < 1)
    return mc_gen_fail(err, n, "block_size: rules need a block size of at least 1");
  for (int i = 0; i < k; i++)
    if (!mc_mul_i64(shape[2 + i], spatial_scale, &shape[2 + i]))
      return mc_gen_fail(err, n, "%s: the size overflows int64", spatial_name);
  if (scale_channels) {
    int64_t volume;
    if (!mc_pow_i64(bs, k, &volume) || !mc_mul_i64(shape[1], volume, &shape[1]))
      return mc_gen_fail(err, n, "channels: channels * block_size^K overflows int64");
  }
  return mc_gen_make_data(c, p, k + 2, shape, case_seed, err, n);
}
