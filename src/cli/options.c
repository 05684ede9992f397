/* What the commands' option parsing shares: option values, and what to say
   when getopt_long rejects an option. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

bool mc_parse_count(const char *text, int min, int max, int *out) {
  char *end;
  errno = 0;
  long n = strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || errno == ERANGE || n < min || n > max)
    return false;
  *out = (int)n;
  return true;
}

int mc_check_threads_environment(const char *command, int threads_option) {
  const char *env = getenv("MOVCONF_THREADS");
  int threads;
  if (!env || !*env || threads_option > 0 || mc_parse_threads(env, &threads)) /* empty: unset */
    return -1;
  fprintf(stderr, "movconf %s: MOVCONF_THREADS takes a number from 1 to 1024, not '%s'\n", command,
          env);
  return 2;
}

bool mc_parse_threads(const char *text, int *out) {
  return mc_parse_count(text, 1, 1024, out);
}

size_t mc_edit_distance(const char *a, const char *b) {
  size_t n = strlen(b), row[65];
  if (n > 64 || strlen(a) > 64)
    return (size_t)-1;
  for (size_t j = 0; j <= n; j++)
    row[j] = j;
  for (size_t i = 1; a[i - 1]; i++) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= n; j++) {
      size_t up = row[j];
      size_t cost = diagonal + (a[i - 1] != b[j - 1]);
      size_t best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
      row[j] = cost < best ? cost : best;
      diagonal = up;
    }
  }
  return row[n];
}

int mc_option_error(const char *command, const char *arg, const struct option *options) {
  if (arg && strncmp(arg, "--", 2) == 0) {
    char name[64];
    snprintf(name, sizeof name, "%s", arg + 2);
    name[strcspn(name, "=")] = '\0';
    const char *best = NULL;
    size_t best_distance = 3; /* farther is no suggestion */
    for (const struct option *o = options; o->name; o++) {
      size_t d = mc_edit_distance(name, o->name);
      if (d < best_distance) {
        best_distance = d;
        best = o->name;
      }
    }
    if (best && best_distance > 0) /* 0: the option is right, its value missing */
      fprintf(stderr, "did you mean --%s?\n", best);
  }
  return mc_usage_error(command);
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
