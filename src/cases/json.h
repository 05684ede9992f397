/* JSON text, read and written as movconf needs it: the strict checks
   around cJSON that case files and adapter replies share, exact integers
   read from their token text, and the one JSON writer (strings escaped,
   exact integers, shapes, the attributes of a request by the attribute
   table) behind case files and adapter requests. */
#ifndef MOVCONF_CASES_JSON_H
#define MOVCONF_CASES_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "common/text.h"
#include "movconf/ops.h"

/* ---- json_text.c: the strict JSON layer around cJSON ---- */

/* Deepest nesting of arrays and objects a case file may use. */
#define MC_JSON_MAX_DEPTH 32
/* Values and member names in one file: cJSON spends about 80 bytes on
   each, so this bounds its memory near 650 MB whatever the file holds. */
#define MC_JSON_MAX_TOKENS 8000000
/* Longest number token: cJSON reads at most 63 characters of a number. */
#define MC_JSON_MAX_NUMBER_CHARS 63

/* Checks, token by token, what cJSON would let through: UTF-8 only, no NUL
   bytes, no control characters or \u0000 in strings, no byte order mark,
   RFC 8259 number syntax, at most MC_JSON_MAX_DEPTH levels. On failure
   writes "line L, column C: problem" to why and returns false. */
bool mc_json_check_text(const char *text, size_t len, char *why, size_t whylen);
/* Stores in valueint of every number item under root the byte offset of
   its token in text, so that numbers are read from their exact text and
   never through cJSON's double. text must have passed mc_json_check_text
   and be the text root was parsed from. */
void mc_json_tag_numbers(cJSON *root, const char *text, size_t len);
/* Length of the number token that starts at offset. */
size_t mc_json_number_length(const char *text, size_t len, size_t offset);
/* Items a report's text (a run, shard or bench report, which may come from
   anywhere) may make cJSON hold: a run of 10^6 cases takes about 11
   million. About 80 bytes each, this bounds cJSON's memory near 2.7 GB. */
#define MC_REPORT_MAX_VALUES ((size_t)1 << 25)
/* An upper bound of the items cJSON would make of text (values, each an
   item; member names live in their value's item), counted from its
   commas and brackets outside strings without allocating anything. */
size_t mc_json_count_values(const char *text, size_t len);
/* The member key of obj when it is a string, else absent: for reading back
   movconf's own reports, whose members are trusted to be what they say. */
const char *mc_json_member_string(const cJSON *obj, const char *key, const char *absent);
/* The member key of obj when it is a number, else 0. */
double mc_json_member_number(const cJSON *obj, const char *key);

/* ---- numbers.c: exact numbers and element encodings ---- */

/* An integer of up to 64 bits of magnitude; zero is never negative. */
typedef struct mc_int {
  bool negative;
  uint64_t magnitude;
} mc_int;

typedef enum mc_num_status {
  MC_NUM_OK,
  MC_NUM_SYNTAX,      /* not a decimal integer string */
  MC_NUM_NOT_INTEGER, /* a number with a fractional part */
  MC_NUM_TOO_LARGE,   /* beyond 2^53 (numbers) or 2^64-1 (strings) */
  MC_NUM_OVERFLOW,    /* nearest binary64 is infinite */
  MC_NUM_UNDERFLOW    /* nonzero, but the nearest binary64 is zero */
} mc_num_status;

/* The exact integer a number token denotes; |v| <= 2^53. */
mc_num_status mc_number_token_integer(const char *token, size_t n, mc_int *v);
/* A decimal string: -?(0|[1-9][0-9]*), magnitude at most 2^64-1. */
mc_num_status mc_decimal_string_integer(const char *s, mc_int *v);
/* The binary64 value nearest to a number token (ties to even). */
mc_num_status mc_number_token_double(const char *token, size_t n, double *d);

mc_int mc_int_from_i64(int64_t v);
bool mc_int_to_i64(mc_int v, int64_t *out);
/* The double equal to v; false when v needs more than 53 bits. */
bool mc_int_to_double(mc_int v, double *d);
/* Writes v in decimal. */
void mc_int_format(mc_int v, char *buf, size_t n);

/* Raw bits of v in integer type t (two's complement for signed types);
   false when v is outside the type's range or t is not an integer type. */
bool mc_int_type_bits(mc_type t, mc_int v, uint64_t *bits);
/* Writes the range of integer type t, e.g. "-8..7". */
void mc_int_type_range(mc_type t, char *buf, size_t n);
/* Raw bits of d in float type t; false unless d is a finite value of t
   exactly (no rounding). -0.0 keeps its sign. */
bool mc_float_type_bits(mc_type t, double d, uint64_t *bits);
bool mc_float_type_has_infinity(mc_type t);
/* The value bits stand for in float type t, for people: "-0", "1.5",
   "inf", "nan(0x7e01)" (a NaN with its whole bit pattern, so payloads show).
   False when t is not a float type. */
bool mc_float_bits_text(mc_type t, uint64_t bits, char *buf, size_t n);
/* Bits for "inf", "-inf", "nan", "-nan" (canonical quiet NaN); false for
   any other string or an infinity t does not have. */
bool mc_float_special_bits(mc_type t, const char *s, uint64_t *bits);

/* ---- json_write.c: writing ---- */

/* How the text is laid out: case files are read by people (", " and ": "
   between items, integers beyond 2^53 as decimal strings, spec/case-format.md
   section 5); adapter requests are one compact line with plain int64
   numbers (spec/adapter-protocol.md). */
typedef enum mc_json_dialect { MC_JSON_CASE_FILE, MC_JSON_PROTOCOL } mc_json_dialect;

/* A string: quotes, backslashes and control characters escaped (\n, \t,
   else \u00XX; DEL too), every other byte as it is. */
void mc_json_write_string(mc_text *t, const char *s);
void mc_json_write_int(mc_text *t, mc_json_dialect d, int64_t v);
void mc_json_write_uint(mc_text *t, mc_json_dialect d, uint64_t v);
/* "[2, 3]" */
void mc_json_write_shape(mc_text *t, mc_json_dialect d, int rank, const int64_t *shape);
/* The object of the attributes req's operation has and req sets, in the
   table's order. A list is written at its true length; values past the
   MC_MAX_ATTR_LEN movconf keeps are written as 0 (a longer list breaks a
   length rule before any value is read). */
void mc_json_write_attrs(mc_text *t, mc_json_dialect d, const mc_request *req);
/* The list of operations (include/movconf/op_list.h), for scripts (movconf
   help operations --json; spec/operations.json is its output):
   {"operations": [{"name", "slug", "prefix", "inputs": [{"name",
   "optional"}], "attributes": [{"name", "kind"}]}]}, one operation a line. */
void mc_json_write_op_list(mc_text *t);

#endif
