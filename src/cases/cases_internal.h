/* The pieces the case-file loader is built from: the JSON tree reader and
   tensor reading. Only src/cases/ includes it; what other layers use of
   src/cases is public in cases.h, json.h and payload.h. */
#ifndef MOVCONF_CASES_INTERNAL_H
#define MOVCONF_CASES_INTERNAL_H

#include "cases/cases.h"
#include "cases/json.h"
#include "cases/payload.h"
#include "movconf/types.h"

#include <cjson/cJSON.h>

/* ---- reader.c: walking the JSON tree, with messages that say where ---- */

#if defined(__GNUC__)
#define MC_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define MC_PRINTF_LIKE(f, a)
#endif

/* The state of one parse: the text (numbers are read from it), where
   messages go, and what they name. */
typedef struct mc_reader {
  const char *text;
  size_t len;
  const char *name; /* file name for messages */
  char *err;
  size_t errlen;
  mc_op op;
  int case_index;      /* -1 outside the cases array */
  const char *case_id; /* set once the case's id is read */
  size_t tensor_bytes; /* materialized by this file so far */
  bool defer_fills;    /* mc_case_file_load_deferred */
} mc_reader;

/* A path of keys and indexes such as "inputs.data.values[7]". */
typedef char mc_path_buf[192];

/* Writes "NAME: case 'ID': PATH: what" (or "NAME: cases[N]: ..." before
   the id is known) and returns false, for `return mc_read_fail(...)`. */
bool mc_read_fail(mc_reader *rd, const char *path, const char *fmt, ...) MC_PRINTF_LIKE(3, 4);
void mc_path_key(mc_path_buf out, const char *parent, const char *key); /* parent.key */
void mc_path_index(mc_path_buf out, const char *parent, int64_t index); /* parent[index] */
char *mc_copy_string(const char *s);

/* "an object", "a number", ... */
const char *mc_json_kind(const cJSON *j);
/* The text of a number item (see mc_json_tag_numbers). */
bool mc_json_number_token(const mc_reader *rd, const cJSON *j, const char **token, size_t *n);
/* The value as written: a number's own text, a string quoted and cut. */
const char *mc_json_show(const mc_reader *rd, const cJSON *j, char *buf, size_t n);

bool mc_read_object(mc_reader *rd, const cJSON *j, const char *path);
/* Every member of obj is one of allowed and none appears twice. what names
   the members in messages: "key", "input", "attribute". */
bool mc_read_keys(mc_reader *rd, const cJSON *obj, const char *path, const char *const *allowed,
                  int n_allowed, const char *what);
const cJSON *mc_member(const cJSON *obj, const char *key);
bool mc_read_require(mc_reader *rd, const cJSON *obj, const char *path, const char *key,
                     const cJSON **out);
bool mc_read_string(mc_reader *rd, const cJSON *j, const char *path, const char **s);
/* An integer (spec/case-format.md section 5): a number with an integral
   value and |v| <= 2^53, or a decimal string. */
bool mc_read_integer(mc_reader *rd, const cJSON *j, const char *path, mc_int *v);
bool mc_read_int64(mc_reader *rd, const cJSON *j, const char *path, int64_t *out);

/* ---- tensor_read.c: tensors and their payload forms ---- */

/* Reads a tensor object into ct (data allocated unless sha256, which only
   an expected output, is_output, may use). */
bool mc_read_tensor(mc_reader *rd, const cJSON *j, const char *path, bool is_output,
                    mc_case_tensor *ct);

#endif
