/* --expect FILE: a JSON array of {"case": GLOB, "verdict": VERDICT,
   "reason": TEXT}; a case's first matching entry is its expectation. */
#include "common/text.h"
#include "harness/harness.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads a whole file of at most MC_EXPECT_MAX_FILE_BYTES; only a regular
   file, as case discovery: a FIFO or a device would block the run. */
static char *read_file(const char *path, size_t *len, char *err, size_t errlen) {
  int error = 0;
  char *buf = mc_read_file_bounded(path, MC_EXPECT_MAX_FILE_BYTES, len, &error);
  if (!buf || *len > MC_EXPECT_MAX_FILE_BYTES) {
    snprintf(err, errlen, "%s: %s", path,
             buf               ? "larger than 16 MiB, the limit of an expectations file"
             : error == EINVAL ? "not a regular file"
                               : strerror(error));
    free(buf);
    return NULL;
  }
  return buf;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static bool
fail(char *err, size_t errlen, const char *path, const char *fmt, ...) {
  char what[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  snprintf(err, errlen, "%s: %s", path, what);
  return false;
}

/* The string member key of item, checked to be non-empty. */
static const char *string_member(const cJSON *item, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(item, key);
  return cJSON_IsString(v) && v->valuestring[0] ? v->valuestring : NULL;
}

static bool read_entry(const cJSON *item, int index, mc_expectation *x, const char *path, char *err,
                       size_t errlen) {
  if (!cJSON_IsObject(item))
    return fail(err, errlen, path, "entry %d is not an object", index);
  for (const cJSON *m = item->child; m; m = m->next) {
    if (strcmp(m->string, "case") != 0 && strcmp(m->string, "verdict") != 0 &&
        strcmp(m->string, "reason") != 0)
      return fail(err, errlen, path, "entry %d: unknown key '%s' (allowed: case, verdict, reason)",
                  index, m->string);
    if (cJSON_GetObjectItemCaseSensitive(item, m->string) != m)
      return fail(err, errlen, path, "entry %d: key '%s' appears twice", index, m->string);
  }
  const char *glob = string_member(item, "case"), *verdict = string_member(item, "verdict"),
             *reason = string_member(item, "reason");
  if (!glob || !verdict || !reason)
    return fail(err, errlen, path,
                "entry %d needs non-empty strings 'case', 'verdict' and 'reason'", index);
  int v = mc_verdict_from_name(verdict);
  if (v < 0 || !mc_verdict_is_failure((mc_verdict)v)) {
    char *failures = mc_verdicts_failure_names();
    fail(err, errlen, path, "entry %d: verdict '%s' is not a failure verdict (%s)", index, verdict,
         failures);
    free(failures);
    return false;
  }
  x->case_glob = mc_strdupf("%s", glob);
  x->reason = mc_strdupf("%s", reason);
  x->verdict = (mc_verdict)v;
  return true;
}

bool mc_expectations_load(const char *path, mc_expectations *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  size_t len;
  char *text = read_file(path, &len, err, errlen);
  if (!text)
    return false;
  cJSON *root = cJSON_ParseWithLength(text, len);
  free(text);
  bool ok = root != NULL;
  if (!ok)
    fail(err, errlen, path, "not valid JSON");
  else if (!(ok = cJSON_IsArray(root)))
    fail(err, errlen, path, "the top-level value must be an array of expectations");
  int n = ok ? cJSON_GetArraySize(root) : 0;
  if (ok && n > 0 && !(out->items = calloc((size_t)n, sizeof *out->items)))
    ok = fail(err, errlen, path, "out of memory");
  const cJSON *item = ok ? root->child : NULL;
  for (int i = 0; ok && item; i++, item = item->next) {
    ok = read_entry(item, i, &out->items[i], path, err, errlen);
    if (ok)
      out->count++;
  }
  cJSON_Delete(root);
  if (!ok)
    mc_expectations_free(out);
  return ok;
}

bool mc_expectation_unexplained(const mc_expectation *x) {
  return strncmp(x->reason, MC_EXPECT_PLACEHOLDER, strlen(MC_EXPECT_PLACEHOLDER)) == 0;
}

mc_expectation *mc_expectations_match(mc_expectations *e, const char *id) {
  for (int i = 0; i < e->count; i++)
    if (fnmatch(e->items[i].case_glob, id, 0) == 0)
      return &e->items[i];
  return NULL;
}

void mc_expectations_free(mc_expectations *e) {
  for (int i = 0; i < e->count; i++) {
    free(e->items[i].case_glob);
    free(e->items[i].reason);
  }
  free(e->items);
  memset(e, 0, sizeof *e);
}

void mc_expect_apply(mc_case_result *r, const mc_expectation *x) {
  if (!x) {
    r->expect = MC_EXPECT_NONE;
    return;
  }
  r->expected_verdict = x->verdict;
  r->expect_reason = mc_strdupf("%s", x->reason);
  if (r->verdict == x->verdict)
    r->expect = MC_EXPECT_MET;
  else if (r->verdict == MC_VERDICT_PASS)
    r->expect = MC_EXPECT_UNEXPECTED_PASS;
  else if (r->verdict == MC_VERDICT_UNSUPPORTED)
    r->expect = MC_EXPECT_NOT_RUN;
  else
    r->expect = MC_EXPECT_OTHER_FAILURE;
}
