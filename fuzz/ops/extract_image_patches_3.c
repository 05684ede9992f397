/* Round trips of ExtractImagePatches-3: the identity only (no inverse). */
#include "roundtrip_ops.h"

static bool list_is(const mc_int_list *l, int64_t a, int64_t b) {
  return l->count == 2 && l->v[0] == a && l->v[1] == b;
}

/* 1x1 patches at stride 1: out = ceil(in / 1) = in and pad = 0 for every
   auto_pad, whatever the rates. */
static bool is_identity(const mc_request *req) {
  return list_is(mc_attrs_list(&req->attrs, MC_ATTR_SIZES), 1, 1) &&
         list_is(mc_attrs_list(&req->attrs, MC_ATTR_STRIDES), 1, 1);
}

const mc_roundtrip_op mc_roundtrip_extract_image_patches_3 = {is_identity, NULL};
