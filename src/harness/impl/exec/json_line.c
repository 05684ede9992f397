/* Reading the adapter's JSON lines strictly, as the loader reads case
   files: the text check, known keys, exact integer tokens. */
#include "harness/impl/exec/adapter.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cases/json.h"

bool mc_adapter_fail(char *why, size_t whylen, const char *what) {
  snprintf(why, whylen, "%s", what);
  return false;
}

/* One line parsed strictly; numbers carry their text offset in valueint. */
cJSON *mc_adapter_parse_line(const char *line, size_t n, char *why, size_t whylen) {
  char lex_why[200];
  if (!mc_json_check_text(line, n, lex_why, sizeof lex_why)) {
    snprintf(why, whylen, "not JSON: %s", lex_why);
    return NULL;
  }
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(line, n, &end, false);
  if (!root) {
    snprintf(why, whylen, "not JSON (near byte %zu)", end ? (size_t)(end - line) : (size_t)0);
    return NULL;
  }
  for (size_t at = (size_t)(end - line); at < n; at++) {
    if (!strchr(" \t\r", line[at]) || line[at] == '\0') {
      snprintf(why, whylen, "text after the JSON object at byte %zu", at);
      cJSON_Delete(root);
      return NULL;
    }
  }
  if (!cJSON_IsObject(root)) {
    snprintf(why, whylen, "the line is not a JSON object");
    cJSON_Delete(root);
    return NULL;
  }
  mc_json_tag_numbers(root, line, n);
  return root;
}

/* Every member of obj is one of allowed, none twice. */
bool mc_adapter_check_keys(const cJSON *obj, const char *where, const char *const *allowed, int n,
                           char *why, size_t whylen) {
  for (const cJSON *m = obj->child; m; m = m->next) {
    bool known = false;
    for (int i = 0; i < n && !known; i++)
      known = strcmp(m->string, allowed[i]) == 0;
    if (!known) {
      snprintf(why, whylen, "unknown key \"%.60s\" in %s", m->string, where);
      return false;
    }
    for (const cJSON *o = obj->child; o != m; o = o->next) {
      if (strcmp(o->string, m->string) == 0) {
        snprintf(why, whylen, "key \"%.60s\" appears twice in %s", m->string, where);
        return false;
      }
    }
  }
  return true;
}

/* A number written as a plain decimal integer ([-]digits) within int64. */
bool mc_adapter_plain_integer(const char *line, size_t n, const cJSON *item, int64_t *out) {
  if (!cJSON_IsNumber(item) || item->valueint < 0)
    return false;
  size_t at = (size_t)item->valueint;
  size_t len = mc_json_number_length(line, n, at);
  bool negative = len > 0 && line[at] == '-';
  size_t i = negative ? 1 : 0;
  if (i == len)
    return false;
  uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  uint64_t v = 0;
  for (; i < len; i++) {
    char c = line[at + i];
    if (c < '0' || c > '9')
      return false;
    unsigned digit = (unsigned)(c - '0');
    if (v > (limit - digit) / 10)
      return false;
    v = v * 10 + digit;
  }
  *out = negative ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
  return true;
}
