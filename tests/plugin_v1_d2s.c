/* A plugin of ABI version 1, kept as it was written (spec/plugin-abi.md
   section 12 before version 2) and built with the version 1 header
   (tests/plugin_v1): movconf must keep loading and running it. */
/* d2s_plugin.c: a minimal movconf plugin, DepthToSpace-1 for the element
   types of 8 bits and more. */
#include <stdint.h>
#include <string.h>

#include "movconf/plugin.h"

/* Bytes per element; 0 for the packed types, which this plugin declines. */
static int element_bytes(int32_t type) {
  switch (type) {
  case MOVCONF_PLUGIN_BOOLEAN: case MOVCONF_PLUGIN_U8: case MOVCONF_PLUGIN_I8:
  case MOVCONF_PLUGIN_F8E4M3: case MOVCONF_PLUGIN_F8E5M2:
    return 1;
  case MOVCONF_PLUGIN_U16: case MOVCONF_PLUGIN_I16: case MOVCONF_PLUGIN_F16:
  case MOVCONF_PLUGIN_BF16:
    return 2;
  case MOVCONF_PLUGIN_U32: case MOVCONF_PLUGIN_I32: case MOVCONF_PLUGIN_F32:
    return 4;
  case MOVCONF_PLUGIN_U64: case MOVCONF_PLUGIN_I64: case MOVCONF_PLUGIN_F64:
    return 8;
  default:
    return 0;
  }
}

static int supports(const movconf_plugin_query *q) {
  return q->op == MOVCONF_PLUGIN_DEPTH_TO_SPACE && element_bytes(q->input_types[0]) > 0;
}

static int reject(movconf_plugin_message *m, const char *why) {
  strncpy(m->text, why, sizeof m->text - 1);
  return MOVCONF_PLUGIN_REJECTED;
}

/* a * b into *r; 0 when the product leaves int64. */
static int mul(int64_t a, int64_t b, int64_t *r) {
  if (a < 0 || b < 0 || (b != 0 && a > INT64_MAX / b))
    return 0;
  *r = a * b;
  return 1;
}

/* Checks the request and works out the output shape; bs^K into *blocks. */
static int validate(const movconf_plugin_request *r, movconf_plugin_output *o,
                    int64_t *blocks, movconf_plugin_message *m) {
  const movconf_plugin_tensor *d = &r->inputs[0];
  const char *mode = r->attrs.mode;
  int64_t bs = r->attrs.has_block_size ? r->attrs.block_size : 1;
  if (d->rank < 3 || d->rank > 16)
    return reject(m, "data rank must be 3 to 16");
  if (!mode || (strcmp(mode, "blocks_first") != 0 && strcmp(mode, "depth_first") != 0))
    return reject(m, "mode must be blocks_first or depth_first");
  if (bs < 1)
    return reject(m, "block_size must be at least 1");
  *blocks = 1;
  for (int i = 2; i < d->rank; i++)
    if (!mul(*blocks, bs, blocks))
      return reject(m, "block_size^K overflows");
  if (d->shape[1] % *blocks != 0)
    return reject(m, "the depth is not divisible by block_size^K");
  o->type = d->type;
  o->rank = d->rank;
  o->shape[0] = d->shape[0];
  o->shape[1] = d->shape[1] / *blocks;
  for (int i = 2; i < d->rank; i++)
    if (!mul(d->shape[i], bs, &o->shape[i]))
      return reject(m, "a spatial dimension times block_size overflows");
  return MOVCONF_PLUGIN_OK;
}

static int output_shape(const movconf_plugin_request *r, movconf_plugin_output *o,
                        movconf_plugin_message *m) {
  int64_t blocks;
  return validate(r, o, &blocks, m);
}

/* y[n, c', d_i * bs + k_i] = x[n, c, d_i], walking the input in order. */
static int run(const movconf_plugin_request *r, const movconf_plugin_output *o,
               movconf_plugin_message *m) {
  const movconf_plugin_tensor *d = &r->inputs[0];
  movconf_plugin_output again;
  int64_t blocks;
  if (validate(r, &again, &blocks, m) != MOVCONF_PLUGIN_OK)
    return MOVCONF_PLUGIN_REJECTED;
  int64_t bs = r->attrs.has_block_size ? r->attrs.block_size : 1;
  int size = element_bytes(d->type), k = d->rank - 2;
  int blocks_first = strcmp(r->attrs.mode, "blocks_first") == 0;
  int64_t depth = o->shape[1], idx[16] = {0}, count = 1;
  for (int i = 0; i < d->rank; i++)
    count *= d->shape[i];
  for (int64_t flat = 0; flat < count; flat++) {
    int64_t c = idx[1];
    int64_t c_out = blocks_first ? c % depth : c / blocks;
    int64_t block = blocks_first ? c / depth : c % blocks; /* row-major over [bs]*K */
    int64_t out = idx[0] * depth + c_out, pos[16];
    for (int i = k - 1; i >= 0; i--, block /= bs)
      pos[i] = idx[2 + i] * bs + block % bs;
    for (int i = 0; i < k; i++)
      out = out * o->shape[2 + i] + pos[i];
    memcpy((char *)o->data + out * size, (const char *)d->data + flat * size, (size_t)size);
    for (int i = d->rank - 1; i >= 0 && ++idx[i] == d->shape[i]; i--)
      idx[i] = 0; /* next input index, row-major */
  }
  return MOVCONF_PLUGIN_OK;
}

static const movconf_plugin_v1 table = {
    .abi_version = MOVCONF_PLUGIN_ABI_VERSION,
    .name = "d2s-example",
    .version = "1.0",
    .supports = supports,
    .output_shape = output_shape,
    .run = run,
};

const movconf_plugin_v1 *movconf_plugin_entry(uint32_t abi_version) {
  return abi_version == MOVCONF_PLUGIN_ABI_VERSION ? &table : NULL;
}
