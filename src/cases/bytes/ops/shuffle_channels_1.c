/* ShuffleChannels-1's part of the fuzz byte layout (fuzz/README.md): the
   data's dimensions. */
#include "cases/bytes/fuzz_bytes_ops.h"

/* The channel axis (when axis names one) a multiple of group, group = C
   included; the other axes 1 + s % span. */
static bool take_shuffle(mc_bytes_decoder *d) {
  const mc_attrs *at = &d->in->req.attrs;
  const int64_t axis = mc_attrs_int(at, MC_ATTR_AXIS), group = mc_attrs_int(at, MC_ATTR_GROUP);
  const bool in_range = axis >= -(int64_t)d->rank && axis < (int64_t)d->rank;
  const int channel = in_range ? (int)(axis < 0 ? axis + d->rank : axis) : -1;
  const bool sane = group >= 1 && group <= d->budget;
  for (int a = 0; a < d->rank; a++) {
    if (a == channel && sane)
      mc_bytes_take_dim(d, a, group, 1, 3, 0, true);
    else
      mc_bytes_take_dim(d, a, 1, 1, d->span, 0, false);
  }
  mc_bytes_settle_dims(d);
  return true;
}

static const int64_t axis_natural[8] = {1, 1, 0, -1, 1, 2, -2, 1};
static const int64_t group_natural[8] = {1, 2, 3, 1, 2, 4, 1, 2};
static const mc_bytes_attr attrs[] = {
    {MC_ATTR_AXIS, .natural = axis_natural, .edges = mc_bytes_int_edges},
    {MC_ATTR_GROUP, .natural = group_natural, .edges = mc_bytes_int_edges},
};

const mc_bytes_op mc_bytes_shuffle_channels_1 = {
    {4, 3, 1, 2, 4, 5, 3, 6}, take_shuffle, mc_bytes_put_data_dims, attrs, 2};
