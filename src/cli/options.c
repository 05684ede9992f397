/* What the commands' option parsing shares: option values, and what to say
   when getopt_long rejects an option. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"

bool mc_parse_size(const char *text, size_t *out) {
  char *end;
  if (*text < '0' || *text > '9')
    return false;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (*end != '\0' || errno == ERANGE || v > SIZE_MAX) /* strtoull saturates silently */
    return false;
  *out = (size_t)v;
  return true;
}

bool mc_parse_seconds(const char *text, double max, double *out) {
  char *end;
  double v = strtod(text, &end);
  if (*text == '\0' || *end != '\0' || !(v >= 0) || v > max)
    return false;
  *out = v;
  return true;
}

bool mc_parse_threads(const char *text, int *out) {
  char *end;
  long n = strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || n < 1 || n > 1024)
    return false;
  *out = (int)n;
  return true;
}

int mc_usage_error(const char *command) {
  fprintf(stderr, "(see movconf %s --help)\n", command);
  return 2;
}

const char *mc_option_name(const struct option *options, int value) {
  for (const struct option *o = options; o->name; o++)
    if (o->val == value)
      return o->name;
  return "?";
}
