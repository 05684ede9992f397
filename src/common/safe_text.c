/* Text an implementation supplied, made safe for every report: see
   mc_safe_text in safe_text.h; and every byte movconf writes to stdout and
   stderr (mc_safe_standard_streams). */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/safe_text.h"
#include "common/text.h"
#include "common/transfer.h"

enum { INCOMPLETE = (size_t)-1 };

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
   forms, no surrogates, nothing above U+10FFFF) of the n bytes there, with
   its code point in *cp; 0 when the bytes are not one; INCOMPLETE when the
   n bytes are the right start of a longer sequence. */
static size_t utf8_sequence(const unsigned char *s, size_t n, uint32_t *cp) {
  unsigned char c = s[0];
  size_t len = c < 0x80             ? 1
               : (c & 0xE0) == 0xC0 ? 2
               : (c & 0xF0) == 0xE0 ? 3
               : (c & 0xF8) == 0xF0 ? 4
                                    : 0;
  if (len == 0)
    return 0;
  uint32_t v = len == 1 ? c : c & (0x7Fu >> len);
  for (size_t i = 1; i < len; i++) {
    if (i == n)
      return INCOMPLETE;
    if ((s[i] & 0xC0) != 0x80)
      return 0;
    v = v << 6 | (s[i] & 0x3Fu);
  }
  static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (v < least[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
    return 0;
  *cp = v;
  return len;
}

/* What a text keeps as it is besides the characters shown as they are. */
typedef enum keep_mode {
  KEEP_NOTHING,   /* mc_safe_text */
  KEEP_LAYOUT,    /* the standard streams: newline, tab, carriage return and
                     backslash are movconf's own layout */
  KEEP_BACKSLASH, /* a report read back: its backslashes start the escapes
                     the run wrote */
} keep_mode;

/* Bidirectional formatting characters: raw, they reorder the text around
   them on a terminal or a page (an id that reads as another). */
static bool is_bidi_control(uint32_t cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

/* The escape that stands for code point cp, or NULL when the character is
   shown as it is. */
static const char *escape_for(uint32_t cp, keep_mode keep, char *buf, size_t n) {
  if (keep == KEEP_LAYOUT && (cp == '\\' || cp == '\n' || cp == '\t' || cp == '\r'))
    return NULL;
  if (keep == KEEP_BACKSLASH && cp == '\\')
    return NULL;
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
  /* C1 controls (a terminal may act on them), the noncharacters XML 1.0
     forbids and the bidirectional controls. */
  if ((cp >= 0x80 && cp <= 0x9F) || cp == 0xFFFE || cp == 0xFFFF || is_bidi_control(cp)) {
    snprintf(buf, n, "\\u%04x", (unsigned)cp);
    return buf;
  }
  return NULL;
}

/* The safe form of the n bytes at s into out (room for 6 bytes a byte:
   the longest escape, \u0085, is six bytes for two); returns its length.
   *used: the bytes taken, fewer than n when the last ones start a sequence
   that more_may_come may complete. */
static size_t escape_bytes(const unsigned char *s, size_t n, keep_mode keep, bool more_may_come,
                           char *out, size_t *used) {
  size_t i = 0, o = 0;
  while (i < n) {
    uint32_t cp = 0;
    size_t len = utf8_sequence(s + i, n - i, &cp);
    if (len == INCOMPLETE && more_may_come)
      break;
    char buf[16];
    const char *escape = len && len != INCOMPLETE ? escape_for(cp, keep, buf, sizeof buf) : NULL;
    if (len == 0 || len == INCOMPLETE) {
      o += (size_t)sprintf(out + o, "\\x%02x", s[i]); /* a byte that is not UTF-8 */
      len = 1;
    } else if (escape) {
      size_t e = strlen(escape);
      memcpy(out + o, escape, e);
      o += e;
    } else {
      memcpy(out + o, s + i, len);
      o += len;
    }
    i += len;
  }
  *used = i;
  return o;
}

static char *escaped_copy(const char *text, keep_mode keep) {
  const unsigned char *s = (const unsigned char *)(text ? text : "");
  size_t len = strlen((const char *)s), used;
  char *out = mc_realloc_or_abort(NULL, len * 6 + 1);
  out[escape_bytes(s, len, keep, false, out, &used)] = '\0';
  return out;
}

char *mc_safe_text(const char *text) {
  return escaped_copy(text, KEEP_NOTHING);
}

char *mc_safe_report_text(const char *text) {
  return escaped_copy(text, KEEP_BACKSLASH);
}

/* ---- standard streams ---- */

/* A standard stream's filter: the descriptor it writes to and the start of
   a UTF-8 sequence a write cut (completed by the next one). */
typedef struct safe_stream {
  int fd;
  unsigned char held[4];
  size_t n_held;
} safe_stream;

/* Escapes what is held and the n bytes at data, in chunks. */
static bool filter_write(safe_stream *s, const char *data, size_t n, bool more_may_come) {
  enum { CHUNK = 1024 };
  unsigned char in[CHUNK + sizeof s->held];
  char out[sizeof in * 6];
  do {
    size_t take = n < CHUNK ? n : CHUNK, used;
    memcpy(in, s->held, s->n_held);
    memcpy(in + s->n_held, data, take);
    size_t have = s->n_held + take;
    size_t o = escape_bytes(in, have, KEEP_LAYOUT, more_may_come || take < n, out, &used);
    s->n_held = have - used; /* at most 3: a sequence's start */
    memcpy(s->held, in + used, s->n_held);
    if (!mc_transfer_all(s->fd, out, o, MC_TRANSFER_WRITE, 0))
      return false;
    data += take;
    n -= take;
  } while (n > 0);
  return true;
}

static ssize_t safe_stream_write(void *cookie, const char *data, size_t n) {
  return filter_write(cookie, data, n, true) ? (ssize_t)n : -1;
}

static int safe_stream_close(void *cookie) {
  safe_stream *s = cookie;
  return s->n_held == 0 || filter_write(s, "", 0, false) ? 0 : -1;
}

/* The streams the filters replaced: a plugin's host process gives them
   back to the plugin (its text is relayed, and made safe, by the runner). */
static FILE *plain_stdout, *plain_stderr;

/* *f replaced by a filter over its descriptor (state s: static, as the
   stream lives as long as the process); *f kept when that fails. */
static void filter_stream(FILE **f, safe_stream *s, int buffering) {
  cookie_io_functions_t io = {.write = safe_stream_write, .close = safe_stream_close};
  *s = (safe_stream){.fd = fileno(*f)};
  FILE *filtered = s->fd >= 0 ? fopencookie(s, "w", io) : NULL;
  if (!filtered)
    return;
  setvbuf(filtered, NULL, buffering, BUFSIZ);
  fflush(*f);
  *f = filtered;
}

void mc_safe_standard_streams(void) {
  static safe_stream out, err;
  plain_stdout = stdout;
  plain_stderr = stderr;
  filter_stream(&stdout, &out, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF);
  filter_stream(&stderr, &err, _IONBF);
}

void mc_plain_standard_streams(void) {
  if (plain_stdout)
    stdout = plain_stdout;
  if (plain_stderr)
    stderr = plain_stderr;
}

static int hex_value(const char *s, int digits) {
  int v = 0;
  for (int i = 0; i < digits; i++) {
    char c = s[i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0)
      return -1;
    v = v * 16 + d;
  }
  return v;
}

/* The UTF-8 bytes of code point cp (below 0x10000) into out; their count. */
static size_t utf8_encode(uint32_t cp, char *out) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  out[0] = (char)(0xE0 | (cp >> 12));
  out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[2] = (char)(0x80 | (cp & 0x3F));
  return 3;
}

/* The escape at s (after its backslash) into out; the characters it took. */
static size_t unescape_one(const char *s, char *out, size_t *o) {
  static const char plain[] = "\\\\n\nr\rt\t";
  for (int i = 0; plain[i]; i += 2)
    if (*s == plain[i]) {
      out[(*o)++] = plain[i + 1];
      return 1;
    }
  int v = *s == 'x' ? hex_value(s + 1, 2) : *s == 'u' ? hex_value(s + 1, 4) : -1;
  if (v < 0) {
    out[(*o)++] = '\\'; /* not an escape of mc_safe_text: kept */
    return 0;
  }
  if (*s == 'x') {
    if (v) /* a NUL cannot have been in the text */
      out[(*o)++] = (char)v;
    return 3;
  }
  *o += utf8_encode((uint32_t)v, out + *o);
  return 5;
}

char *mc_unsafe_text(const char *safe) {
  size_t n = strlen(safe);
  char *out = mc_realloc_or_abort(NULL, n + 1);
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    if (safe[i] == '\\' && i + 1 < n)
      i += unescape_one(safe + i + 1, out, &o);
    else
      out[o++] = safe[i];
  }
  out[o] = '\0';
  return out;
}
