/* Byte payloads (hex; base64 is base64.c) and the generated ones (counter, prng) of
   case-file tensors. Layout of packed types comes from mc_store_bits, the
   one place that defines it. */
#include "cases/cases_internal.h"
#include "movconf/tensor.h"

#include <stdio.h>
#include <string.h>

static int hex_value(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

void mc_show_char(char c, char *buf, size_t n) {
  if (c >= 0x20 && c < 0x7f)
    snprintf(buf, n, "'%c'", c);
  else
    snprintf(buf, n, "byte 0x%02x", (unsigned char)c);
}

bool mc_hex_decode(const char *s, uint8_t *out, size_t nbytes, char *why, size_t whylen) {
  size_t len = strlen(s);
  if (len % 2 != 0) {
    snprintf(why, whylen, "odd number of hex digits (%zu); each byte takes 2", len);
    return false;
  }
  if (len / 2 != nbytes) {
    snprintf(why, whylen, "%zu bytes of hex, the tensor needs %zu", len / 2, nbytes);
    return false;
  }
  for (size_t i = 0; i < len; i++) {
    if (hex_value(s[i]) < 0) {
      char shown[16];
      mc_show_char(s[i], shown, sizeof shown);
      snprintf(why, whylen, "%s at position %zu is not a hex digit", shown, i);
      return false;
    }
  }
  for (size_t i = 0; out && i < nbytes; i++)
    out[i] = (uint8_t)(hex_value(s[2 * i]) << 4 | hex_value(s[2 * i + 1]));
  return true;
}

uint8_t mc_unused_tail_mask(mc_type t, int64_t count) {
  unsigned bits = mc_type_bits(t);
  if (bits == 0 || bits >= 8)
    return 0;
  int64_t per_byte = 8 / bits;
  int64_t in_last = count % per_byte;
  if (in_last == 0)
    return 0;
  /* The layout repeats every byte, so mark the used bits in a lone byte. */
  uint8_t used = 0;
  for (int64_t j = 0; j < in_last; j++)
    mc_store_bits(&used, t, j, UINT64_MAX);
  return (uint8_t)~used;
}

uint64_t mc_splitmix64(uint64_t seed, uint64_t index) {
  uint64_t z = seed + (index + 1) * UINT64_C(0x9E3779B97F4A7C15);
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

typedef uint64_t (*element_bits_fn)(uint64_t param, uint64_t index);

static uint64_t counter_bits(uint64_t start, uint64_t index) {
  return start + index;
}

static uint64_t prng_bits(uint64_t seed, uint64_t index) {
  return mc_splitmix64(seed, index);
}

/* Writes count elements whose raw bits are bits_of(param, i). Packed types
   are assembled a byte at a time (a u1 tensor of 256 MiB has 2^31
   elements); the bit position of each element inside its byte is taken
   from mc_store_bits, so the layout stays defined in one place. */
static void generate(mc_tensor *t, int64_t count, element_bits_fn bits_of, uint64_t param) {
  unsigned bits = mc_type_bits(t->type);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* Whole-byte types on a little-endian host: an element's raw bits are its
     low bytes in memory order, as mc_store_bits stores them (the large
     tier fills hundreds of megabytes this way). */
  if (bits >= 8) {
    size_t width = bits / 8;
    for (int64_t i = 0; i < count; i++) {
      uint64_t v = bits_of(param, (uint64_t)i);
      memcpy(t->data + (size_t)i * width, &v, width);
    }
    return;
  }
#endif
  if (bits >= 8) {
    for (int64_t i = 0; i < count; i++)
      mc_store_bits(t->data, t->type, i, bits_of(param, (uint64_t)i));
    return;
  }
  unsigned per_byte = 8 / bits, shift[8];
  uint8_t mask = (uint8_t)((1u << bits) - 1);
  for (unsigned j = 0; j < per_byte; j++) {
    uint8_t probe = 0;
    mc_store_bits(&probe, t->type, j, mask);
    shift[j] = 0;
    while (!(probe & (1u << shift[j])))
      shift[j]++;
  }
  uint64_t i = 0, n = (uint64_t)count;
  for (size_t byte = 0; i < n; byte++) {
    unsigned packed = 0;
    for (unsigned j = 0; j < per_byte && i < n; j++, i++)
      packed |= (unsigned)(bits_of(param, i) & mask) << shift[j];
    t->data[byte] = (uint8_t)packed;
  }
}

void mc_fill_counter(mc_tensor *t, int64_t count, int64_t start) {
  generate(t, count, counter_bits, (uint64_t)start); /* modular from here on */
}

void mc_fill_prng(mc_tensor *t, int64_t count, uint64_t seed) {
  generate(t, count, prng_bits, seed);
}
