/* The pieces of the fuzz seed corpora (case_seeds.h). */
#include "cases/bytes/case_seeds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/cases_internal.h" /* the strict JSON layer: exact number tokens */
#include "common/text.h"
#include "movconf/tensor.h"

/* ---- a case as a fuzz input ---- */

/* 1..8, spread over the seeds but fixed for each. */
static int threads_of_id(const char *id) {
  unsigned sum = 0;
  for (const unsigned char *p = (const unsigned char *)id; *p; p++)
    sum += *p;
  return 1 + (int)(sum % 8);
}

static int64_t elements_of(const mc_tensor *t) {
  int64_t count = 0;
  mc_shape_elements(t->rank, t->shape, &count);
  return count;
}

void mc_fuzz_input_of_case(const mc_case *c, mc_fuzz_input *in) {
  memset(in, 0, sizeof *in);
  in->req = mc_request_of_case(c);
  in->threads = threads_of_id(c->id);
  /* The natural cap is OUTPUT_FACTOR times the class's budget: the large
     class when the expected output needs more, or the data is above the
     small class's limit. */
  const mc_case_tensor *data = &c->inputs[0];
  in->large = elements_of(&data->tensor) > MC_FUZZ_SMALL_LIMIT ||
              (!c->expect_error && elements_of(&c->expected.tensor) >
                                       (int64_t)MC_FUZZ_OUTPUT_FACTOR * MC_FUZZ_SMALL_ELEMENTS);
  in->max_output_bytes =
      c->has_cap ? c->max_output_bytes : mc_fuzz_natural_cap(data->tensor.type, in->large);
  in->data_fill = data->kind == MC_PAYLOAD_FILL_COUNTER ? MC_FUZZ_FILL_COUNTER
                  : data->kind == MC_PAYLOAD_FILL_PRNG  ? MC_FUZZ_FILL_PRNG
                                                        : MC_FUZZ_FILL_BYTES;
  in->data_fill_param = (uint64_t)data->fill_start;
}

/* ---- each case alone, spaced as Python's json.dumps ---- */

/* A string as json.dumps(ensure_ascii=False) writes it: quote, backslash
   and control characters escaped, everything else as it is. */
static void put_json_string(mc_text *out, const char *s) {
  mc_text_printf(out, "\"");
  while (*s) {
    size_t plain = 0; /* a run written as it is */
    while (s[plain] && (unsigned char)s[plain] >= 0x20 && s[plain] != '"' && s[plain] != '\\')
      plain++;
    mc_text_printf(out, "%.*s", (int)plain, s);
    s += plain;
    if (!*s)
      break;
    /* pairs: a character, then the letter of its short escape */
    static const char shorts[] = "\"\"\\\\\nn\rr\tt\bb\ff";
    const char *e = strchr(shorts, *s);
    if (e && (e - shorts) % 2 == 0)
      mc_text_printf(out, "\\%c", e[1]);
    else
      mc_text_printf(out, "\\u%04x", (unsigned char)*s);
    s++;
  }
  mc_text_printf(out, "\"");
}

/* Python's repr of a float: the shortest digits that read back as d, in
   positional notation when the decimal point falls from 4 places before
   to 16 after the first digit (with ".0" when there is no fraction), else
   as D.DDDe+XX. */
static void put_python_float(mc_text *out, double d) {
  if (isinf(d)) {
    mc_text_printf(out, "%sInfinity", d < 0 ? "-" : "");
    return;
  }
  char sci[40];
  for (int p = 1; p <= 17; p++) {
    snprintf(sci, sizeof sci, "%.*e", p - 1, d);
    if (strtod(sci, NULL) == d)
      break;
  }
  /* sci is [-]D[.DDD]e[+-]XX: its digits, and how many precede the point */
  bool negative = sci[0] == '-';
  char digits[24];
  size_t n = 0;
  const char *c = negative ? sci + 1 : sci;
  for (; *c != 'e'; c++)
    if (*c != '.')
      digits[n++] = *c;
  while (n > 1 && digits[n - 1] == '0')
    n--;
  int decpt = atoi(c + 1) + 1;
  char text[64];
  size_t k = 0;
  if (negative)
    text[k++] = '-';
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) {
      text[k++] = '0';
      text[k++] = '.';
      for (int i = 0; i < -decpt; i++)
        text[k++] = '0';
      for (size_t i = 0; i < n; i++)
        text[k++] = digits[i];
    } else {
      for (int i = 0; i < decpt; i++)
        text[k++] = (size_t)i < n ? digits[i] : '0';
      text[k++] = '.';
      for (size_t i = (size_t)decpt; i < n; i++)
        text[k++] = digits[i];
      if ((size_t)decpt >= n)
        text[k++] = '0';
    }
    text[k] = '\0';
    mc_text_printf(out, "%s", text);
    return;
  }
  text[k++] = digits[0];
  if (n > 1)
    text[k++] = '.';
  for (size_t i = 1; i < n; i++)
    text[k++] = digits[i];
  text[k] = '\0';
  mc_text_printf(out, "%se%c%02d", text, decpt - 1 < 0 ? '-' : '+', abs(decpt - 1));
}

/* A number as Python reads and writes it: an integer token as it is
   (Python's int is exact; only -0 becomes 0), any other as a float. */
static void put_number(mc_text *out, const char *text, size_t len, const cJSON *j) {
  if (j->valueint < 0) { /* mc_json_tag_numbers found no token: never for checked text */
    put_python_float(out, j->valuedouble);
    return;
  }
  size_t offset = (size_t)j->valueint; /* mc_json_tag_numbers put it there */
  size_t n = mc_json_number_length(text, len, offset);
  const char *token = text + offset;
  bool integer = n > 0;
  for (size_t i = token[0] == '-'; i < n; i++)
    integer = integer && token[i] >= '0' && token[i] <= '9';
  if (integer && n == 2 && token[0] == '-' && token[1] == '0')
    mc_text_printf(out, "0");
  else if (integer)
    mc_text_printf(out, "%.*s", (int)n, token);
  else
    put_python_float(out, strtod(token, NULL));
}

static void put_json(mc_text *out, const char *text, size_t len, const cJSON *j) {
  if (cJSON_IsObject(j) || cJSON_IsArray(j)) {
    bool object = cJSON_IsObject(j);
    mc_text_printf(out, object ? "{" : "[");
    for (const cJSON *c = j->child; c; c = c->next) {
      if (c != j->child)
        mc_text_printf(out, ", ");
      if (object) {
        put_json_string(out, c->string);
        mc_text_printf(out, ": ");
      }
      put_json(out, text, len, c);
    }
    mc_text_printf(out, object ? "}" : "]");
  } else if (cJSON_IsString(j)) {
    put_json_string(out, j->valuestring);
  } else if (cJSON_IsNumber(j)) {
    put_number(out, text, len, j);
  } else {
    mc_text_printf(out, cJSON_IsTrue(j) ? "true" : cJSON_IsFalse(j) ? "false" : "null");
  }
}

static char *case_alone(const char *text, size_t len, const cJSON *root, const cJSON *c) {
  mc_text out = {0};
  mc_text_printf(&out, "{\"format\": ");
  put_json(&out, text, len, cJSON_GetObjectItemCaseSensitive(root, "format"));
  mc_text_printf(&out, ", \"op\": ");
  put_json(&out, text, len, cJSON_GetObjectItemCaseSensitive(root, "op"));
  mc_text_printf(&out, ", \"cases\": [");
  put_json(&out, text, len, c);
  mc_text_printf(&out, "]}\n");
  if (out.oom) {
    mc_text_free(&out);
    return NULL;
  }
  return out.p;
}

char **mc_cases_alone(const char *text, size_t len, int *count, char *err, size_t errlen) {
  *count = 0;
  char why[256];
  if (!mc_json_check_text(text, len, why, sizeof why)) {
    snprintf(err, errlen, "%s", why);
    return NULL;
  }
  cJSON *root = cJSON_ParseWithLength(text, len);
  const cJSON *cases = cJSON_GetObjectItemCaseSensitive(root, "cases");
  if (!root || !cJSON_IsArray(cases)) {
    snprintf(err, errlen, "not a case file");
    cJSON_Delete(root);
    return NULL;
  }
  mc_json_tag_numbers(root, text, len);
  int n = cJSON_GetArraySize(cases);
  char **out = calloc((size_t)n + 1, sizeof *out);
  bool ok = out != NULL;
  int i = 0;
  for (const cJSON *c = cases->child; ok && c; c = c->next, i++)
    ok = (out[i] = case_alone(text, len, root, c)) != NULL;
  cJSON_Delete(root);
  if (!ok) {
    for (int k = 0; out && k < n; k++)
      free(out[k]);
    free(out);
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  *count = n;
  return out;
}
