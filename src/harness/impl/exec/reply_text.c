/* A process adapter's reply line, prepared for cJSON within a bounded
   amount of memory: see reply_text.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/impl/exec/reply_text.h"

static bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* End of the string whose content starts at begin: its closing quote. */
static size_t string_end(const char *line, size_t n, size_t begin) {
  size_t k = begin;
  while (k < n && line[k] != '"')
    k += line[k] == '\\' ? 2 : 1;
  return k < n ? k : n;
}

/* Whether the string that ends at the quote at end is a member name. */
static bool is_key(const char *line, size_t n, size_t end) {
  size_t k = end + 1;
  while (k < n && is_space(line[k]))
    k++;
  return k < n && line[k] == ':';
}

static bool high_surrogate_escape(const char *p) {
  return p[1] == 'u' && (p[2] == 'd' || p[2] == 'D') && strchr("89abAB", p[3]) != NULL;
}

/* Where to cut content [begin, end) to keep at most keep bytes: never
   inside an escape, between the two escapes of a surrogate pair, or inside
   a UTF-8 sequence. */
static size_t cut_point(const char *line, size_t begin, size_t end, size_t keep) {
  size_t limit = begin + keep, k = begin;
  while (k < limit) {
    if (line[k] != '\\') {
      k++;
      continue;
    }
    size_t len = line[k + 1] == 'u' ? (high_surrogate_escape(line + k) ? 12 : 6) : 2;
    if (k + len > limit || k + len > end)
      return k;
    k += len;
  }
  while (k > begin && ((unsigned char)line[k] & 0xC0) == 0x80)
    k--;
  return k;
}

static bool add_cut(mc_reply_text *t, size_t ordinal, size_t begin, size_t end) {
  if (t->n_cut == MC_REPLY_MAX_TOKENS)
    return false;
  t->cut[t->n_cut++] = (mc_reply_cut){ordinal, begin, end};
  return true;
}

/* Appends one string token (quotes included) to the skeleton. */
static bool put_string(mc_reply_text *t, const char *line, size_t n, size_t at, size_t *next) {
  size_t begin = at + 1, end = string_end(line, n, begin);
  bool key = is_key(line, n, end);
  size_t keep = end - begin;
  if (keep > MC_REPLY_STRING_KEEP) {
    keep = cut_point(line, begin, end, MC_REPLY_STRING_KEEP) - begin;
    if (!key && !add_cut(t, t->n_values, begin, end))
      return false;
  }
  if (!key)
    t->n_values++;
  t->text[t->len++] = '"';
  memcpy(t->text + t->len, line + begin, keep);
  t->len += keep;
  t->text[t->len++] = '"';
  *next = end + 1;
  return true;
}

bool mc_reply_text_init(mc_reply_text *t, const char *line, size_t n) {
  memset(t, 0, sizeof *t);
  size_t cap = n < MC_REPLY_SKELETON_MAX ? n : MC_REPLY_SKELETON_MAX;
  t->text = malloc(cap + 1);
  t->cut = malloc(MC_REPLY_MAX_TOKENS * sizeof *t->cut);
  if (!t->text || !t->cut) {
    mc_reply_text_free(t);
    return false;
  }
  size_t tokens = 0;
  for (size_t i = 0; i < n;) {
    /* Every token adds at most MC_REPLY_STRING_KEEP + 2 or a number's 63
       bytes and a space: the skeleton fits whatever the line holds. */
    if (++tokens > MC_REPLY_MAX_TOKENS) {
      t->too_many_tokens = true;
      return true;
    }
    if (line[i] == '"') {
      if (!put_string(t, line, n, i, &i))
        return t->too_many_tokens = true;
    } else if (is_space(line[i])) {
      while (i < n && is_space(line[i]))
        i++;
      t->text[t->len++] = ' ';
      tokens--;
    } else {
      size_t run = 1;
      while (i + run < n && !strchr(",:[]{}\" \t\r\n", line[i + run]) && !strchr(",:[]{}", line[i]))
        run++;
      if (run > 64) {
        t->too_many_tokens = true; /* a number is at most 63 characters */
        return true;
      }
      memcpy(t->text + t->len, line + i, run);
      t->len += run;
      i += run;
    }
  }
  t->text[t->len] = '\0';
  return true;
}

void mc_reply_text_free(mc_reply_text *t) {
  free(t->text);
  free(t->cut);
  memset(t, 0, sizeof *t);
}

static void number_strings(cJSON *item, size_t *next) {
  for (cJSON *c = item->child; c; c = c->next) {
    if (cJSON_IsString(c))
      c->valueint = (int)(*next)++;
    else if (cJSON_IsArray(c) || cJSON_IsObject(c))
      number_strings(c, next);
  }
}

void mc_reply_text_number_strings(cJSON *root) {
  size_t next = 0;
  number_strings(root, &next);
}

const mc_reply_cut *mc_reply_text_cut_of(const mc_reply_text *t, const cJSON *string) {
  for (int i = 0; i < t->n_cut; i++)
    if (string->valueint >= 0 && t->cut[i].ordinal == (size_t)string->valueint)
      return &t->cut[i];
  return NULL;
}

/* The value of hex digit c, or -1. */
static int hex_value(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

size_t mc_reply_unescape_ascii(char *s, size_t len) {
  size_t o = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] != '\\' || i + 1 >= len) {
      s[o++] = s[i];
      continue;
    }
    char e = s[++i];
    if (e == 'u' && i + 4 < len) {
      int v = 0;
      for (int k = 1; k <= 4; k++)
        v = hex_value(s[i + k]) < 0 || v < 0 ? -1 : v * 16 + hex_value(s[i + k]);
      s[o++] = v > 0 && v < 0x80 ? (char)v : '?'; /* never part of base64 */
      i += 4;
    } else {
      s[o++] = e == '/' || e == '\\' || e == '"' ? e : '?';
    }
  }
  return o;
}
