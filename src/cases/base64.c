/* RFC 4648 base64, both directions: strict decoding of case-file and
   adapter payloads, encoding of adapter requests. */
#include "cases/cases_internal.h"

#include <stdio.h>
#include <string.h>

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int base64_value(char c) {
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '+')
    return 62;
  if (c == '/')
    return 63;
  return -1;
}

/* Checks every character: alphabet only, '=' only as the final padding. */
static bool base64_check_chars(const char *s, size_t len, size_t padding, char *why,
                               size_t whylen) {
  for (size_t i = 0; i < len; i++) {
    bool is_pad_position = i >= len - padding;
    if (is_pad_position ? s[i] == '=' : base64_value(s[i]) >= 0)
      continue;
    char shown[16];
    mc_show_char(s[i], shown, sizeof shown);
    if (is_pad_position)
      snprintf(why, whylen, "%s at position %zu: expected '=' padding", shown, i);
    else
      snprintf(why, whylen, "%s at position %zu is not in the base64 alphabet", shown, i);
    return false;
  }
  return true;
}

bool mc_base64_decode(const char *s, uint8_t *out, size_t nbytes, char *why, size_t whylen) {
  size_t len = strlen(s);
  size_t expected = (nbytes / 3 + (nbytes % 3 != 0)) * 4;
  if (len != expected) {
    snprintf(why, whylen, "%zu base64 characters; %zu bytes take exactly %zu", len, nbytes,
             expected);
    return false;
  }
  size_t padding = (3 - nbytes % 3) % 3;
  if (!base64_check_chars(s, len, padding, why, whylen))
    return false;
  size_t o = 0;
  for (size_t i = 0; i < len; i += 4) {
    uint32_t group = 0;
    for (size_t k = 0; k < 4; k++) {
      int v = s[i + k] == '=' ? 0 : base64_value(s[i + k]);
      group = group << 6 | (uint32_t)v;
    }
    size_t take = nbytes - o < 3 ? nbytes - o : 3;
    /* Strict: the bits after the last byte must be zero (RFC 4648, 3.5). */
    uint32_t spare = take == 3 ? 0 : (take == 2 ? group & 0xFF : group & 0xFFFF);
    if (spare != 0) {
      snprintf(why, whylen, "nonzero padding bits in the final group (non-canonical base64)");
      return false;
    }
    for (size_t k = 0; k < take; k++, o++)
      if (out)
        out[o] = (uint8_t)(group >> (16 - 8 * k));
  }
  return true;
}

void mc_base64_write(mc_text *t, const uint8_t *data, size_t n) {
  char out[4 * 1024];
  size_t used = 0;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t group = (uint32_t)data[i] << 16;
    if (i + 1 < n)
      group |= (uint32_t)data[i + 1] << 8;
    if (i + 2 < n)
      group |= data[i + 2];
    out[used++] = alphabet[group >> 18 & 63];
    out[used++] = alphabet[group >> 12 & 63];
    out[used++] = i + 1 < n ? alphabet[group >> 6 & 63] : '=';
    out[used++] = i + 2 < n ? alphabet[group & 63] : '=';
    if (used == sizeof out) {
      mc_text_put(t, out, used);
      used = 0;
    }
  }
  mc_text_put(t, out, used);
}
