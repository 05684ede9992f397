/* Text an implementation supplied, made safe for every report: see
   mc_safe_text in harness.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "harness/harness.h"

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
   forms, no surrogates, nothing above U+10FFFF) with its code point in *cp;
   0 when the bytes there are not one. */
static size_t utf8_sequence(const unsigned char *s, uint32_t *cp) {
  unsigned char c = s[0];
  size_t n = c < 0x80             ? 1
             : (c & 0xE0) == 0xC0 ? 2
             : (c & 0xF0) == 0xE0 ? 3
             : (c & 0xF8) == 0xF0 ? 4
                                  : 0;
  if (n == 0)
    return 0;
  uint32_t v = n == 1 ? c : c & (0x7Fu >> n);
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80)
      return 0; /* also stops at the terminating NUL */
    v = v << 6 | (s[i] & 0x3Fu);
  }
  static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (v < least[n] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
    return 0;
  *cp = v;
  return n;
}

/* The escape that stands for code point cp in a report, or NULL when the
   character is shown as it is. */
static const char *escape_for(uint32_t cp, char *buf, size_t n) {
  if (cp == '\\')
    return "\\\\";
  if (cp == '\n')
    return "\\n";
  if (cp == '\r')
    return "\\r";
  if (cp == '\t')
    return "\\t";
  if (cp < 0x20 || cp == 0x7F) {
    snprintf(buf, n, "\\x%02x", (unsigned)cp);
    return buf;
  }
  /* C1 controls (a terminal may act on them) and the noncharacters XML 1.0 forbids. */
  if ((cp >= 0x80 && cp <= 0x9F) || cp == 0xFFFE || cp == 0xFFFF) {
    snprintf(buf, n, "\\u%04x", (unsigned)cp);
    return buf;
  }
  return NULL;
}

char *mc_safe_text(const char *text) {
  const unsigned char *s = (const unsigned char *)(text ? text : "");
  size_t len = strlen((const char *)s);
  /* the longest escape, \u0085, is six bytes for two */
  char *out = mc_realloc_or_abort(NULL, len * 6 + 1);
  size_t o = 0;
  while (*s) {
    uint32_t cp = 0;
    size_t n = utf8_sequence(s, &cp);
    char buf[16];
    const char *escape = n ? escape_for(cp, buf, sizeof buf) : NULL;
    if (n == 0) {
      o += (size_t)sprintf(out + o, "\\x%02x", *s); /* a byte that is not UTF-8 */
      n = 1;
    } else if (escape) {
      size_t e = strlen(escape);
      memcpy(out + o, escape, e);
      o += e;
    } else {
      memcpy(out + o, s, n);
      o += n;
    }
    s += n;
  }
  out[o] = '\0';
  return out;
}
