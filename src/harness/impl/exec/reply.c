/* One reply line judged: its id, exactly one of output, error and
   unsupported, and for a timing request the adapter's own times. */
#include "harness/impl/exec/adapter.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/json.h"

/* Room in a reply line for everything but the output's base64. */
#define LINE_SLACK_BYTES ((size_t)1 << 16)
/* Number tokens are located by int offsets (mc_json_tag_numbers). */
#define LINE_HARD_MAX_BYTES ((size_t)INT_MAX)

/* Copies an optional error name the runner compares with the expected one. */
static bool short_error_name(const cJSON *j, char *buf, size_t n) {
  if (!cJSON_IsString(j) || j->valuestring[0] == '\0' || strlen(j->valuestring) >= n)
    return false;
  memcpy(buf, j->valuestring, strlen(j->valuestring) + 1);
  return true;
}

/* The line, strictly checked, as cJSON items over its skeleton. */
static cJSON *parse_reply(mc_reply_line *L, char *why, size_t whylen) {
  char lex_why[200];
  if (!mc_json_check_text(L->a->buf, L->n, lex_why, sizeof lex_why)) {
    snprintf(why, whylen, "not JSON: %s", lex_why);
    return NULL;
  }
  if (!mc_reply_text_init(&L->text, L->a->buf, L->n)) {
    mc_adapter_fail(why, whylen, "out of memory reading the reply");
    return NULL;
  }
  if (L->text.too_many_tokens) {
    snprintf(why, whylen, "more than %d JSON tokens in a reply", MC_REPLY_MAX_TOKENS);
    return NULL;
  }
  cJSON *root = mc_adapter_parse_line(L->text.text, L->text.len, why, whylen);
  if (root)
    mc_reply_text_number_strings(root);
  return root;
}

/* The reply's id is the previous request's: a second reply to it. */
static bool second_reply(const mc_adapter *a, int64_t got_id, uint64_t id) {
  return got_id >= 1 && (uint64_t)got_id + 1 == id && a->served >= 2 && a->previous_call > 0;
}

static int compare_seconds(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* The "timing" member of a reply to a timing request: "seconds", one
   positive per-call time per run, and "calls_per_run" of at least 1. */
static bool read_timing(const cJSON *timing, const mc_timing_request *asked, mc_self_timing *own,
                        char *why, size_t whylen) {
  const cJSON *seconds = cJSON_GetObjectItemCaseSensitive(timing, "seconds");
  const cJSON *calls = cJSON_GetObjectItemCaseSensitive(timing, "calls_per_run");
  double values[MC_TIMING_MAX_RUNS];
  int n = 0;
  bool ok = cJSON_IsArray(seconds) && cJSON_GetArraySize(seconds) == asked->runs &&
            cJSON_IsNumber(calls) && calls->valuedouble >= 1 && calls->valuedouble <= 1e12;
  for (const cJSON *s = ok ? seconds->child : NULL; s && ok && n < MC_TIMING_MAX_RUNS; s = s->next)
    ok = cJSON_IsNumber(s) && s->valuedouble > 0 && (values[n++] = s->valuedouble) < 1e6;
  if (!ok) {
    snprintf(why, whylen,
             "a timing reply has \"timing\": {\"seconds\": %d positive per-call times, "
             "\"calls_per_run\": a count of at least 1}",
             asked->runs);
    return false;
  }
  qsort(values, (size_t)n, sizeof *values, compare_seconds);
  own->median_seconds = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  own->runs = n;
  own->calls_per_run = (long)calls->valuedouble;
  return true;
}

/* Judges one reply line; false with why on a protocol violation. */
bool mc_adapter_read_reply(mc_reply_line *L, uint64_t id, size_t max_output_bytes,
                           mc_impl_result *r, char *why, size_t whylen) {
  static const char *const keys[] = {"id",         "output",      "error",
                                     "error_name", "unsupported", "timing"};
  cJSON *root = parse_reply(L, why, whylen);
  if (!root)
    return false;
  const char *line = L->text.text;
  size_t n = L->text.len;
  const cJSON *timing = cJSON_GetObjectItemCaseSensitive(root, "timing");
  bool ok = mc_adapter_check_keys(root, "the reply", keys, L->a->timing ? 6 : 5, why, whylen);
  const cJSON *jid = cJSON_GetObjectItemCaseSensitive(root, "id");
  const cJSON *out = cJSON_GetObjectItemCaseSensitive(root, "output");
  const cJSON *error = cJSON_GetObjectItemCaseSensitive(root, "error");
  const cJSON *unsupported = cJSON_GetObjectItemCaseSensitive(root, "unsupported");
  const cJSON *error_name = cJSON_GetObjectItemCaseSensitive(root, "error_name");
  int64_t got_id = -1;
  if (ok && !mc_adapter_plain_integer(line, n, jid, &got_id)) {
    ok = mc_adapter_fail(why, whylen, "the reply has no integer \"id\"");
  } else if (ok && second_reply(L->a, got_id, id)) {
    snprintf(why, whylen,
             "a second reply to request %" PRId64 ", which had its reply already; sent after "
             "that reply, it arrived while request %" PRIu64 " was waiting",
             got_id, id);
    r->blame_call = L->a->previous_call;
    ok = false;
  } else if (ok && (uint64_t)got_id != id) {
    snprintf(why, whylen, "reply for id %" PRId64 ", expected id %" PRIu64, got_id, id);
    ok = false;
  } else if (ok && (out != NULL) + (error != NULL) + (unsupported != NULL) != 1) {
    ok = mc_adapter_fail(why, whylen,
                         "a reply has exactly one of \"output\", \"error\", "
                         "\"unsupported\"");
  } else if (ok && error_name && !error) {
    ok = mc_adapter_fail(why, whylen, "\"error_name\" belongs with \"error\"");
  } else if (ok && error_name &&
             !short_error_name(error_name, r->error_name, sizeof r->error_name)) {
    snprintf(why, whylen, "\"error_name\" must be a string of 1 to %zu characters",
             sizeof r->error_name - 1);
    ok = false;
  } else if (ok && out && L->a->timing && !timing) {
    ok = mc_adapter_fail(why, whylen, "the reply to a timing request has no \"timing\"");
  } else if (ok && out) {
    ok = (!timing || read_timing(timing, L->a->timing, L->a->own, why, whylen)) &&
         mc_adapter_read_output(L, out, max_output_bytes, r, why, whylen);
  } else if (ok) {
    const cJSON *text = error ? error : unsupported;
    if (!cJSON_IsString(text)) {
      ok = mc_adapter_fail(why, whylen, "\"error\" and \"unsupported\" take a string");
    } else {
      r->outcome = error ? MC_OUTCOME_REJECTED : MC_OUTCOME_UNSUPPORTED;
      snprintf(r->message, sizeof r->message, "%s", text->valuestring);
    }
  }
  cJSON_Delete(root);
  return ok;
}

/* The longest reply line an output within the cap can need. */
size_t mc_adapter_reply_limit(size_t max_output_bytes) {
  size_t groups = max_output_bytes / 3 + (max_output_bytes % 3 != 0);
  if (groups > (LINE_HARD_MAX_BYTES - LINE_SLACK_BYTES) / 4)
    return LINE_HARD_MAX_BYTES;
  return groups * 4 + LINE_SLACK_BYTES;
}
