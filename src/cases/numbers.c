/* Exact numbers for case files: integers read from their decimal text
   (never through a double), floats checked bit by bit for exact
   representability in each element type. */
#include "cases/cases_internal.h"

#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TWO_POW_53 ((uint64_t)1 << 53)

static bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

/* A number token as significant digits times a power of ten. */
typedef struct decimal {
  bool negative;
  char digits[MC_JSON_MAX_NUMBER_CHARS + 1]; /* no leading or trailing zeros */
  size_t ndigits;                            /* 0: the value is zero */
  long exponent;                             /* value = digits * 10^exponent */
} decimal;

/* Reads an exponent, saturating far beyond any value that matters. */
static long read_exponent(const char *p, size_t n) {
  long e = 0;
  for (size_t i = 0; i < n && is_digit(p[i]); i++)
    if (e < 1000000)
      e = e * 10 + (p[i] - '0');
  return e;
}

/* token has passed the RFC 8259 syntax check and is at most
   MC_JSON_MAX_NUMBER_CHARS long. */
static void decimal_parse(const char *token, size_t n, decimal *d) {
  memset(d, 0, sizeof *d);
  size_t i = 0;
  if (i < n && token[i] == '-') {
    d->negative = true;
    i++;
  }
  long fraction_digits = 0;
  bool in_fraction = false;
  for (; i < n && token[i] != 'e' && token[i] != 'E'; i++) {
    if (token[i] == '.') {
      in_fraction = true;
      continue;
    }
    if (in_fraction)
      fraction_digits++;
    if (d->ndigits == 0 && token[i] == '0')
      continue; /* leading zero */
    d->digits[d->ndigits++] = token[i];
  }
  long exponent = 0;
  if (i < n) {
    i++; /* 'e' */
    bool negative_exponent = token[i] == '-';
    if (token[i] == '+' || token[i] == '-')
      i++;
    exponent = read_exponent(token + i, n - i);
    if (negative_exponent)
      exponent = -exponent;
  }
  d->exponent = exponent - fraction_digits;
  while (d->ndigits > 0 && d->digits[d->ndigits - 1] == '0') {
    d->ndigits--;
    d->exponent++;
  }
  d->digits[d->ndigits] = '\0';
}

mc_num_status mc_number_token_integer(const char *token, size_t n, mc_int *v) {
  decimal d;
  decimal_parse(token, n, &d);
  v->negative = false;
  v->magnitude = 0;
  if (d.ndigits == 0)
    return MC_NUM_OK;
  if (d.exponent < 0)
    return MC_NUM_NOT_INTEGER;
  /* 2^53 has 16 digits; more digits than that is too large. */
  if ((long)d.ndigits + d.exponent > 16)
    return MC_NUM_TOO_LARGE;
  uint64_t m = 0;
  for (size_t i = 0; i < d.ndigits; i++)
    m = m * 10 + (uint64_t)(d.digits[i] - '0');
  for (long i = 0; i < d.exponent; i++)
    m *= 10;
  if (m > TWO_POW_53)
    return MC_NUM_TOO_LARGE;
  v->negative = d.negative;
  v->magnitude = m;
  return MC_NUM_OK;
}

mc_num_status mc_decimal_string_integer(const char *s, mc_int *v) {
  v->negative = false;
  v->magnitude = 0;
  size_t i = 0;
  bool negative = false;
  if (s[i] == '-') {
    negative = true;
    i++;
  }
  if (!is_digit(s[i]) || (s[i] == '0' && s[i + 1] != '\0'))
    return MC_NUM_SYNTAX;
  uint64_t m = 0;
  for (; s[i]; i++) {
    if (!is_digit(s[i]))
      return MC_NUM_SYNTAX;
    unsigned digit = (unsigned)(s[i] - '0');
    if (m > (UINT64_MAX - digit) / 10)
      return MC_NUM_TOO_LARGE;
    m = m * 10 + digit;
  }
  v->negative = negative && m != 0;
  v->magnitude = m;
  return MC_NUM_OK;
}

mc_num_status mc_number_token_double(const char *token, size_t n, double *d) {
  /* strtod honours the locale's decimal point, as cJSON works around too. */
  char buf[MC_JSON_MAX_NUMBER_CHARS + 1];
  if (n > MC_JSON_MAX_NUMBER_CHARS)
    n = MC_JSON_MAX_NUMBER_CHARS;
  memcpy(buf, token, n);
  buf[n] = '\0';
  const struct lconv *lc = localeconv();
  char point = lc && lc->decimal_point && lc->decimal_point[0] ? lc->decimal_point[0] : '.';
  for (size_t i = 0; i < n; i++)
    if (buf[i] == '.')
      buf[i] = point;
  double value = strtod(buf, NULL);
  if (isinf(value))
    return MC_NUM_OVERFLOW;
  if (value == 0) {
    decimal dec;
    decimal_parse(token, n, &dec);
    if (dec.ndigits != 0)
      return MC_NUM_UNDERFLOW;
  }
  *d = value;
  return MC_NUM_OK;
}

mc_int mc_int_from_i64(int64_t v) {
  mc_int r;
  r.negative = v < 0;
  r.magnitude = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  return r;
}

bool mc_int_to_i64(mc_int v, int64_t *out) {
  if (!v.negative) {
    if (v.magnitude > (uint64_t)INT64_MAX)
      return false;
    *out = (int64_t)v.magnitude;
    return true;
  }
  if (v.magnitude > (uint64_t)INT64_MAX + 1)
    return false;
  *out = v.magnitude == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v.magnitude;
  return true;
}

bool mc_int_to_double(mc_int v, double *d) {
  uint64_t m = v.magnitude;
  int shift = 0;
  while (m != 0 && (m & 1) == 0) {
    m >>= 1;
    shift++;
  }
  if (m >= TWO_POW_53)
    return false;
  double r = ldexp((double)m, shift);
  *d = v.negative ? -r : r;
  return true;
}

void mc_int_format(mc_int v, char *buf, size_t n) {
  snprintf(buf, n, "%s%" PRIu64, v.negative ? "-" : "", v.magnitude);
}

static uint64_t low_mask(unsigned bits) {
  return bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

bool mc_int_type_bits(mc_type t, mc_int v, uint64_t *bits) {
  const mc_type_info *info = mc_type_get(t);
  if (!info || !info->is_integer)
    return false;
  uint64_t mask = low_mask(info->bits);
  if (!info->is_signed) {
    if (v.negative || v.magnitude > mask)
      return false;
    *bits = v.magnitude;
    return true;
  }
  uint64_t half = (uint64_t)1 << (info->bits - 1); /* |min| */
  if (v.negative ? v.magnitude > half : v.magnitude >= half)
    return false;
  *bits = (v.negative ? (uint64_t)0 - v.magnitude : v.magnitude) & mask;
  return true;
}

void mc_int_type_range(mc_type t, char *buf, size_t n) {
  const mc_type_info *info = mc_type_get(t);
  if (!info || !info->is_integer) {
    snprintf(buf, n, "?");
  } else if (info->is_signed) {
    uint64_t half = (uint64_t)1 << (info->bits - 1);
    snprintf(buf, n, "-%" PRIu64 "..%" PRIu64, half, half - 1);
  } else {
    snprintf(buf, n, "0..%" PRIu64, low_mask(info->bits));
  }
}

/* Layout of a binary floating-point format. */
typedef struct float_format {
  unsigned exponent_bits;
  unsigned mantissa_bits; /* stored fraction bits */
  int bias;
  bool has_infinity; /* false: OFP8 E4M3FN, whose all-ones exponent holds numbers */
} float_format;

static const float_format *float_format_of(mc_type t) {
  static const float_format f16 = {5, 10, 15, true};
  static const float_format bf16 = {8, 7, 127, true};
  static const float_format f32 = {8, 23, 127, true};
  static const float_format f64 = {11, 52, 1023, true};
  static const float_format e4m3 = {4, 3, 7, false};
  static const float_format e5m2 = {5, 2, 15, true};
  switch (t) {
  case MC_F16:
    return &f16;
  case MC_BF16:
    return &bf16;
  case MC_F32:
    return &f32;
  case MC_F64:
    return &f64;
  case MC_F8E4M3:
    return &e4m3;
  case MC_F8E5M2:
    return &e5m2;
  default:
    return NULL;
  }
}

static int bit_length(uint64_t v) {
  int n = 0;
  while (v) {
    v >>= 1;
    n++;
  }
  return n;
}

/* Largest biased exponent of a finite number. E4M3FN uses the all-ones
   exponent for numbers, except mantissa all ones which is NaN. */
static int max_finite_biased(const float_format *f) {
  int all_ones = (1 << f->exponent_bits) - 1;
  return f->has_infinity ? all_ones - 1 : all_ones;
}

/* Normal numbers of f: sig (odd) * 2^exp2 with top = its leading bit. */
static bool encode_normal(const float_format *f, uint64_t sig, int exp2, uint64_t *out) {
  int precision = (int)f->mantissa_bits + 1;
  int len = bit_length(sig);
  int top = exp2 + len - 1;
  if (len > precision)
    return false;
  int biased = top + f->bias;
  if (biased > max_finite_biased(f))
    return false;
  uint64_t fraction_mask = low_mask(f->mantissa_bits);
  uint64_t fraction = (sig << (precision - len)) & fraction_mask;
  if (!f->has_infinity && biased == max_finite_biased(f) && fraction == fraction_mask)
    return false; /* that pattern is E4M3FN's NaN */
  *out = (uint64_t)biased << f->mantissa_bits | fraction;
  return true;
}

bool mc_float_type_bits(mc_type t, double d, uint64_t *bits) {
  const float_format *f = float_format_of(t);
  if (!f || isnan(d) || isinf(d))
    return false;
  uint64_t raw;
  memcpy(&raw, &d, sizeof raw);
  uint64_t sign = (raw >> 63) << (f->exponent_bits + f->mantissa_bits);
  int exponent_field = (int)((raw >> 52) & 0x7ff);
  uint64_t fraction = raw & low_mask(52);
  if (exponent_field == 0 && fraction == 0) {
    *bits = sign; /* +0 or -0 */
    return true;
  }
  /* |d| = sig * 2^exp2 with sig odd. */
  uint64_t sig = exponent_field ? fraction | ((uint64_t)1 << 52) : fraction;
  int exp2 = exponent_field ? exponent_field - 1075 : -1074;
  while ((sig & 1) == 0) {
    sig >>= 1;
    exp2++;
  }
  int min_normal_exp = 1 - f->bias;
  int top = exp2 + bit_length(sig) - 1;
  if (top >= min_normal_exp) {
    uint64_t magnitude;
    if (!encode_normal(f, sig, exp2, &magnitude))
      return false;
    *bits = sign | magnitude;
    return true;
  }
  /* Subnormal: fraction * 2^(min_normal_exp - mantissa_bits). */
  int shift = exp2 - (min_normal_exp - (int)f->mantissa_bits);
  if (shift < 0)
    return false;
  *bits = sign | (sig << shift);
  return true;
}

/* The value of a finite bit pattern: fraction and exponent as stored. */
static double finite_value(const float_format *f, uint64_t exponent, uint64_t fraction) {
  double significand = (double)fraction / (double)((uint64_t)1 << f->mantissa_bits);
  int e = exponent ? (int)exponent - f->bias : 1 - f->bias;
  return ldexp(exponent ? 1.0 + significand : significand, e);
}

bool mc_float_bits_text(mc_type t, uint64_t bits, char *buf, size_t n) {
  const float_format *f = float_format_of(t);
  if (!f)
    return false;
  unsigned width = f->exponent_bits + f->mantissa_bits;
  bool negative = (bits >> width) & 1;
  uint64_t exponent = (bits >> f->mantissa_bits) & low_mask(f->exponent_bits);
  uint64_t fraction = bits & low_mask(f->mantissa_bits);
  bool top = exponent == low_mask(f->exponent_bits);
  bool is_nan = f->has_infinity ? top && fraction : top && fraction == low_mask(f->mantissa_bits);
  if (is_nan)
    snprintf(buf, n, "%snan(0x%llx)", negative ? "-" : "", (unsigned long long)bits);
  else if (top && f->has_infinity)
    snprintf(buf, n, "%sinf", negative ? "-" : "");
  else
    snprintf(buf, n, "%.9g", (negative ? -1.0 : 1.0) * finite_value(f, exponent, fraction));
  return true;
}

bool mc_float_type_has_infinity(mc_type t) {
  const float_format *f = float_format_of(t);
  return f && f->has_infinity;
}

bool mc_float_special_bits(mc_type t, const char *s, uint64_t *bits) {
  const float_format *f = float_format_of(t);
  if (!f)
    return false;
  bool negative = s[0] == '-';
  const char *name = negative ? s + 1 : s;
  uint64_t sign = negative ? (uint64_t)1 << (f->exponent_bits + f->mantissa_bits) : 0;
  uint64_t all_ones_exponent = low_mask(f->exponent_bits) << f->mantissa_bits;
  if (strcmp(name, "inf") == 0) {
    if (!f->has_infinity)
      return false;
    *bits = sign | all_ones_exponent;
    return true;
  }
  if (strcmp(name, "nan") == 0) {
    /* Canonical quiet NaN: top fraction bit set; E4M3FN's only NaN is all ones. */
    uint64_t fraction =
        f->has_infinity ? (uint64_t)1 << (f->mantissa_bits - 1) : low_mask(f->mantissa_bits);
    *bits = sign | all_ones_exponent | fraction;
    return true;
  }
  return false;
}
