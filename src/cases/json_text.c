/* The strict JSON layer around cJSON. cJSON is lenient (it skips control
   bytes as whitespace, accepts "+1" and "01", turns bad \u escapes and
   \u0000 into NUL, reads numbers through a double), so case files are first
   checked token by token here, and numbers are later read from their own
   text. */
#include "cases/cases_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct lexer {
  const unsigned char *s;
  size_t len;
  size_t pos;
  int depth;
  size_t tokens; /* values and member names, each a cJSON item or key */
  char *why;
  size_t whylen;
} lexer;

static bool is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}

static bool is_hex_digit(unsigned char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The characters cJSON copies into a number before calling strtod. */
static bool is_number_char(unsigned char c) {
  return is_digit(c) || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E';
}

static bool is_json_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool lex_fail(lexer *lx, size_t at, const char *fmt, ...) {
  if (!lx->why || lx->whylen == 0)
    return false;
  size_t line = 1, column = 1;
  for (size_t i = 0; i < at && i < lx->len; i++) {
    if (lx->s[i] == '\n') {
      line++;
      column = 1;
    } else {
      column++;
    }
  }
  char what[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  snprintf(lx->why, lx->whylen, "line %zu, column %zu: %s", line, column, what);
  return false;
}

/* Length of the well-formed UTF-8 sequence at p (at most avail bytes), or
   0 when it is malformed, overlong, a surrogate or above U+10FFFF. */
static size_t utf8_sequence_length(const unsigned char *p, size_t avail) {
  unsigned char c = p[0];
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0)
      lo = 0xA0; /* overlong */
    if (c == 0xED)
      hi = 0x9F; /* surrogates */
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0)
      lo = 0x90; /* overlong */
    if (c == 0xF4)
      hi = 0x8F; /* above U+10FFFF */
  } else {
    return 0;
  }
  if (avail < n || p[1] < lo || p[1] > hi)
    return 0;
  for (size_t i = 2; i < n; i++)
    if (p[i] < 0x80 || p[i] > 0xBF)
      return 0;
  return n;
}

static bool lex_escape(lexer *lx) {
  size_t at = lx->pos;
  if (at + 1 >= lx->len)
    return lex_fail(lx, at, "string ends inside an escape sequence");
  unsigned char e = lx->s[at + 1];
  if (strchr("\"\\/bfnrt", e) && e != '\0') {
    lx->pos += 2;
    return true;
  }
  if (e != 'u')
    return lex_fail(lx, at, "invalid escape sequence '\\%c' in a string",
                    e >= 0x20 && e < 0x7f ? e : '?');
  unsigned value = 0;
  for (size_t i = 0; i < 4; i++) {
    size_t k = at + 2 + i;
    if (k >= lx->len || !is_hex_digit(lx->s[k]))
      return lex_fail(lx, at, "'\\u' must be followed by 4 hex digits");
    unsigned char c = lx->s[k];
    value = value * 16 + (unsigned)(is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  if (value == 0)
    return lex_fail(lx, at, "'\\u0000' is not allowed in strings");
  lx->pos += 6;
  return true;
}

static bool lex_string(lexer *lx) {
  size_t start = lx->pos;
  lx->pos++;
  while (lx->pos < lx->len) {
    unsigned char c = lx->s[lx->pos];
    if (c == '"') {
      lx->pos++;
      return true;
    }
    if (c == '\\') {
      if (!lex_escape(lx))
        return false;
    } else if (c == 0) {
      return lex_fail(lx, lx->pos, "NUL byte inside a string");
    } else if (c < 0x20) {
      return lex_fail(lx, lx->pos, "control character 0x%02x inside a string (escape it)", c);
    } else if (c < 0x80) {
      lx->pos++;
    } else {
      size_t n = utf8_sequence_length(lx->s + lx->pos, lx->len - lx->pos);
      if (n == 0)
        return lex_fail(lx, lx->pos, "invalid UTF-8 byte 0x%02x in a string", c);
      lx->pos += n;
    }
  }
  return lex_fail(lx, start, "unterminated string");
}

/* RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static bool number_syntax_ok(const unsigned char *p, size_t n) {
  size_t i = 0;
  if (i < n && p[i] == '-')
    i++;
  if (i < n && p[i] == '0') {
    i++;
  } else if (i < n && p[i] >= '1' && p[i] <= '9') {
    while (i < n && is_digit(p[i]))
      i++;
  } else {
    return false;
  }
  if (i < n && p[i] == '.') {
    i++;
    if (i >= n || !is_digit(p[i]))
      return false;
    while (i < n && is_digit(p[i]))
      i++;
  }
  if (i < n && (p[i] == 'e' || p[i] == 'E')) {
    i++;
    if (i < n && (p[i] == '+' || p[i] == '-'))
      i++;
    if (i >= n || !is_digit(p[i]))
      return false;
    while (i < n && is_digit(p[i]))
      i++;
  }
  return i == n;
}

static bool lex_number(lexer *lx) {
  size_t start = lx->pos, end = start;
  while (end < lx->len && is_number_char(lx->s[end]))
    end++;
  size_t n = end - start;
  int shown = n > 40 ? 40 : (int)n;
  if (!number_syntax_ok(lx->s + start, n))
    return lex_fail(lx, start, "malformed number '%.*s%s'", shown, (const char *)lx->s + start,
                    n > 40 ? "..." : "");
  if (n > MC_JSON_MAX_NUMBER_CHARS)
    return lex_fail(lx, start, "number '%.*s...' is longer than %d characters", shown,
                    (const char *)lx->s + start, MC_JSON_MAX_NUMBER_CHARS);
  lx->pos = end;
  return true;
}

static bool lex_literal(lexer *lx) {
  static const char *const literals[] = {"true", "false", "null"};
  for (size_t i = 0; i < 3; i++) {
    size_t n = strlen(literals[i]);
    if (lx->len - lx->pos >= n && memcmp(lx->s + lx->pos, literals[i], n) == 0) {
      lx->pos += n;
      return true;
    }
  }
  return lex_fail(lx, lx->pos, "unexpected character '%c'", lx->s[lx->pos]);
}

static bool lex_unexpected(lexer *lx, unsigned char c) {
  if (c == 0)
    return lex_fail(lx, lx->pos, "NUL byte in the file");
  if (lx->pos == 0 && lx->len >= 3 && memcmp(lx->s, "\xEF\xBB\xBF", 3) == 0)
    return lex_fail(lx, 0, "byte order mark at the start of the file (not allowed)");
  if (c >= 0x20 && c < 0x7f)
    return lex_fail(lx, lx->pos, "unexpected character '%c'", c);
  return lex_fail(lx, lx->pos, "unexpected byte 0x%02x outside a string", c);
}

static bool lex_structural(lexer *lx, unsigned char c) {
  if (c == '{' || c == '[') {
    if (++lx->depth > MC_JSON_MAX_DEPTH)
      return lex_fail(lx, lx->pos, "nesting deeper than %d levels", MC_JSON_MAX_DEPTH);
  } else if ((c == '}' || c == ']') && lx->depth > 0) {
    lx->depth--; /* an unbalanced bracket is left for cJSON to reject */
  }
  lx->pos++;
  return true;
}

bool mc_json_check_text(const char *text, size_t len, char *why, size_t whylen) {
  lexer lx = {(const unsigned char *)text, len, 0, 0, 0, why, whylen};
  while (lx.pos < lx.len) {
    unsigned char c = lx.s[lx.pos];
    bool ok;
    if (is_json_space(c)) {
      lx.pos++;
      continue;
    }
    if (!strchr("}]:,", c) && ++lx.tokens > MC_JSON_MAX_TOKENS)
      return lex_fail(&lx, lx.pos, "more than %d values and member names in one file",
                      MC_JSON_MAX_TOKENS);
    if (strchr("{}[]:,", c) && c != '\0')
      ok = lex_structural(&lx, c);
    else if (c == '"')
      ok = lex_string(&lx);
    else if (c == '-' || is_digit(c))
      ok = lex_number(&lx);
    else if (c == 't' || c == 'f' || c == 'n')
      ok = lex_literal(&lx);
    else
      ok = lex_unexpected(&lx, c);
    if (!ok)
      return false;
  }
  return true;
}

/* Offset of the next number token at or after *pos, skipping strings; the
   text has been checked, so every '-' or digit outside a string starts one. */
static size_t next_number(const unsigned char *s, size_t len, size_t *pos) {
  while (*pos < len) {
    unsigned char c = s[*pos];
    if (c == '"') {
      (*pos)++;
      while (*pos < len && s[*pos] != '"')
        *pos += s[*pos] == '\\' ? 2 : 1;
      (*pos)++;
    } else if (c == '-' || is_digit(c)) {
      size_t start = *pos;
      while (*pos < len && is_number_char(s[*pos]))
        (*pos)++;
      return start;
    } else {
      (*pos)++;
    }
  }
  return len;
}

/* cJSON keeps members and elements in text order, so a pre-order walk
   meets the numbers in the order the text holds them. Depth is bounded by
   MC_JSON_MAX_DEPTH. */
static void tag_items(cJSON *item, const unsigned char *s, size_t len, size_t *pos) {
  for (; item; item = item->next) {
    if (cJSON_IsNumber(item)) {
      size_t at = next_number(s, len, pos);
      item->valueint = at < len ? (int)at : -1;
    }
    if (item->child)
      tag_items(item->child, s, len, pos);
  }
}

void mc_json_tag_numbers(cJSON *root, const char *text, size_t len) {
  size_t pos = 0;
  tag_items(root, (const unsigned char *)text, len, &pos);
}

size_t mc_json_number_length(const char *text, size_t len, size_t offset) {
  size_t end = offset;
  while (end < len && is_number_char((unsigned char)text[end]))
    end++;
  return end - offset;
}

const char *mc_json_member_string(const cJSON *obj, const char *key, const char *absent) {
  const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(obj, key));
  return s ? s : absent;
}

double mc_json_member_number(const cJSON *obj, const char *key) {
  const cJSON *n = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsNumber(n) ? n->valuedouble : 0;
}

size_t mc_json_count_values(const char *text, size_t len) {
  size_t values = 1;
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    if (c == '"') { /* skip the string, escapes included */
      for (i++; i < len && text[i] != '"'; i++)
        i += text[i] == '\\';
    } else if (c == ',' || c == '[' || c == '{') {
      values++;
    }
  }
  return values;
}
