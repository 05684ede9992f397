/* Tensor storage: element counts, packed bit access and bounded allocation. */
#include "movconf/tensor.h"

#include "common/checked.h"

#include <stdlib.h>
#include <string.h>

/* The rule of mc_product_i64 (MC-L3): the non-zero dimensions must
   multiply without overflow in any order, then a zero dimension makes the
   count 0. So [0, 2^32, 2^32] is an overflow, not an empty tensor, and
   every partial product of a shape that passes (a stride, say) fits. */
bool mc_shape_elements(int rank, const int64_t *shape, int64_t *count) {
  if (rank < 0 || (rank > 0 && !shape) || !count) {
    return false;
  }
  return mc_product_i64(shape, rank, count);
}

bool mc_storage_bytes(mc_type t, int64_t count, size_t *bytes) {
  unsigned bits = mc_type_bits(t);
  if (bits == 0 || count < 0 || !bytes) {
    return false;
  }
  int64_t total;
  if (bits % 8 == 0) {
    if (!mc_mul_i64(count, (int64_t)(bits / 8), &total)) {
      return false;
    }
  } else {
    /* Sub-byte types: several elements share a byte; round the last one up. */
    int64_t per_byte = 8 / (int64_t)bits;
    total = count / per_byte + (count % per_byte != 0);
  }
  if ((uint64_t)total > (uint64_t)SIZE_MAX) {
    return false;
  }
  *bytes = (size_t)total;
  return true;
}

/* Bit position of a packed element inside its byte: u1 fills a byte from
   the most significant bit down, u4/i4 from the low nibble up (MC-S3). */
static unsigned packed_shift(unsigned bits, int64_t index) {
  if (bits == 1) {
    return 7u - (unsigned)(index % 8);
  }
  return (unsigned)(index % 2) * 4u;
}

uint64_t mc_load_bits(const uint8_t *buf, mc_type t, int64_t index) {
  unsigned bits = mc_type_bits(t);
  if (bits == 0) {
    return 0;
  }
  if (bits < 8) {
    uint8_t byte = buf[index / (8 / bits)];
    return (uint64_t)((byte >> packed_shift(bits, index)) & ((1u << bits) - 1u));
  }
  /* Assemble little-endian bytes one at a time: alignment- and host-endian-safe. */
  size_t width = bits / 8;
  const uint8_t *p = buf + (size_t)index * width;
  uint64_t value = 0;
  for (size_t k = 0; k < width; k++) {
    value |= (uint64_t)p[k] << (8 * k);
  }
  return value;
}

void mc_store_bits(uint8_t *buf, mc_type t, int64_t index, uint64_t value) {
  unsigned bits = mc_type_bits(t);
  if (bits == 0) {
    return;
  }
  if (bits < 8) {
    uint8_t *byte = &buf[index / (8 / bits)];
    unsigned shift = packed_shift(bits, index);
    unsigned mask = ((1u << bits) - 1u) << shift;
    unsigned field = ((unsigned)value << shift) & mask;
    *byte = (uint8_t)((*byte & ~mask) | field);
    return;
  }
  size_t width = bits / 8;
  uint8_t *p = buf + (size_t)index * width;
  for (size_t k = 0; k < width; k++) {
    p[k] = (uint8_t)(value >> (8 * k));
  }
}

void mc_copy_element(uint8_t *dst, int64_t dst_index, const uint8_t *src, int64_t src_index,
                     mc_type t) {
  unsigned bits = mc_type_bits(t);
  if (bits == 0) {
    return;
  }
  if (bits < 8) {
    mc_store_bits(dst, t, dst_index, mc_load_bits(src, t, src_index));
    return;
  }
  size_t width = bits / 8;
  memcpy(dst + (size_t)dst_index * width, src + (size_t)src_index * width, width);
}

mc_status mc_tensor_alloc(mc_tensor *t, mc_type type, int rank, const int64_t *shape,
                          size_t max_bytes) {
  if (!t) {
    return MC_E_INVALID_ARGUMENT;
  }
  memset(t, 0, sizeof *t);
  t->type = MC_TYPE_INVALID;
  if (!mc_type_get(type)) {
    return MC_E_UNSUPPORTED_TYPE;
  }
  if (rank < 0 || rank > MC_TENSOR_MAX_RANK) {
    return MC_E_RANK_LIMIT;
  }
  if (rank > 0 && !shape) {
    return MC_E_INVALID_ARGUMENT;
  }
  for (int i = 0; i < rank; i++) {
    if (shape[i] < 0) {
      return MC_E_INVALID_ARGUMENT;
    }
  }
  int64_t count;
  size_t bytes;
  if (!mc_shape_elements(rank, shape, &count) || !mc_storage_bytes(type, count, &bytes)) {
    return MC_E_SHAPE_OVERFLOW;
  }
  if (bytes > max_bytes) {
    return MC_E_OUTPUT_TOO_LARGE;
  }
  /* Data starts on a cache line, so that kernels can stream whole lines
     (src/optimized/stream.h); calloc keeps large blocks lazily zeroed. A
     zero-size tensor still gets a real pointer, never NULL on success. */
  if (bytes > SIZE_MAX - MC_TENSOR_ALIGN) {
    return MC_E_OUT_OF_MEMORY;
  }
  uint8_t *block = calloc(bytes + MC_TENSOR_ALIGN, 1);
  if (!block) {
    return MC_E_OUT_OF_MEMORY;
  }
  uint8_t *data = block + (-(uintptr_t)block & (MC_TENSOR_ALIGN - 1));
  t->type = type;
  t->rank = rank;
  for (int i = 0; i < rank; i++) {
    t->shape[i] = shape[i];
  }
  t->data = data;
  t->nbytes = bytes;
  t->allocation = block;
  return MC_OK;
}

void mc_tensor_free(mc_tensor *t) {
  if (!t) {
    return;
  }
  free(t->allocation ? t->allocation : t->data);
  memset(t, 0, sizeof *t);
}

int64_t mc_tensor_elements(const mc_tensor *t) {
  int64_t count;
  if (!t || t->rank > MC_TENSOR_MAX_RANK || !mc_shape_elements(t->rank, t->shape, &count)) {
    return -1;
  }
  return count;
}

/* Two's-complement sign extension written without implementation-defined
   conversions: a negative field maps to -(magnitude - 1) - 1. */
static int64_t sign_extend(uint64_t raw, unsigned bits) {
  uint64_t mask = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
  uint64_t sign = (uint64_t)1 << (bits - 1);
  raw &= mask;
  if (!(raw & sign)) {
    return (int64_t)raw;
  }
  return -(int64_t)(~raw & mask) - 1;
}

/* The types a side input's values can be read from: every integer type
   (packed ones too) and boolean. Which of them an operation accepts is
   its own rule (mc_type_is_side_integer for the operations so far). */
static bool side_readable(mc_type type) {
  const mc_type_info *info = mc_type_get(type);
  return info && (info->is_integer || type == MC_BOOLEAN);
}

/* The raw bits of element index of a readable tensor; false when t is
   not one or index lies outside its data. */
static bool side_raw(const mc_tensor *t, int64_t index, uint64_t *raw) {
  if (!t || !t->data || !side_readable(t->type)) {
    return false;
  }
  int64_t count = mc_tensor_elements(t);
  if (index < 0 || index >= count) {
    return false;
  }
  size_t needed;
  if (!mc_storage_bytes(t->type, index + 1, &needed) || needed > t->nbytes) {
    return false;
  }
  *raw = mc_load_bits(t->data, t->type, index);
  return true;
}

bool mc_side_value(const mc_tensor *t, int64_t index, int64_t *value) {
  uint64_t raw;
  if (!value || !side_raw(t, index, &raw)) {
    return false;
  }
  const mc_type_info *info = mc_type_get(t->type);
  if (t->type == MC_BOOLEAN) { /* any byte but 0 is true */
    *value = raw != 0;
    return true;
  }
  if (info->is_signed) {
    *value = sign_extend(raw, info->bits);
    return true;
  }
  if (raw > (uint64_t)INT64_MAX) {
    return false;
  }
  *value = (int64_t)raw;
  return true;
}

bool mc_side_value_saturating(const mc_tensor *t, int64_t index, int64_t *value) {
  uint64_t raw;
  if (!value || !side_raw(t, index, &raw)) {
    return false;
  }
  /* Only a u64 above INT64_MAX fails mc_side_value once side_raw succeeds. */
  if (!mc_side_value(t, index, value)) {
    *value = INT64_MAX;
  }
  return true;
}

bool mc_tensor_same(const mc_tensor *a, const mc_tensor *b) {
  if (a->type != b->type || a->rank != b->rank || a->nbytes != b->nbytes) {
    return false;
  }
  for (int d = 0; d < a->rank; d++) {
    if (a->shape[d] != b->shape[d]) {
      return false;
    }
  }
  return a->nbytes == 0 || memcmp(a->data, b->data, a->nbytes) == 0;
}
