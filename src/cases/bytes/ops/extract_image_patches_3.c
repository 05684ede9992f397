/* ExtractImagePatches-3's part of the fuzz byte layout (fuzz/README.md):
   the data's dimensions. */
#include "cases/bytes/fuzz_bytes_ops.h"

static bool take_patches(mc_bytes_decoder *d) {
  for (int a = 0; a < d->rank; a++)
    mc_bytes_take_dim(d, a, 1, 1, a == 0 ? 2 : a == 1 ? 3 : 2 * d->span, 0, false);
  mc_bytes_settle_dims(d);
  return true;
}

static const char *const pad_natural[] = {"valid", "same_upper", "same_lower"};
static const char *const pad_edges[16] = {
    NULL,     NULL,          "",           "SAME_UPPER", "explicit",   "bad",   "same", "Valid",
    "notset", "same_upper ", "SAME_LOWER", "VALID",      "same-lower", "upper", "pad",  "valid\n"};
static const mc_bytes_attr attrs[] = {
    {MC_ATTR_SIZES, .list_span = 3},
    {MC_ATTR_STRIDES, .list_span = 3},
    {MC_ATTR_RATES, .list_span = 2},
    {MC_ATTR_AUTO_PAD, .spellings = pad_natural, .n_spellings = 3, .string_edges = pad_edges},
};

const mc_bytes_op mc_bytes_extract_image_patches_3 = {
    {4, 4, 4, 4, 4, 4, 4, 4}, take_patches, mc_bytes_put_data_dims, attrs, 4};
