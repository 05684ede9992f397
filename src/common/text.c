/* Text built in memory: see text.h. */
#include "common/text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool stopped(const mc_text *t) {
  return t->oom || t->sink_failed;
}

bool mc_text_flush(mc_text *t) {
  if (t->sink && !stopped(t) && t->len > 0 && !t->sink(t->sink_ctx, t->p, t->len))
    t->sink_failed = true;
  if (t->sink)
    t->len = 0;
  return !stopped(t);
}

static void flush_when_full(mc_text *t) {
  if (t->sink && t->len >= MC_TEXT_SINK_CHUNK)
    mc_text_flush(t);
}

/* Room for n more bytes and a NUL. */
static bool reserve(mc_text *t, size_t n) {
  if (t->cap - t->len > n)
    return true;
  size_t cap = t->cap ? t->cap : 1024;
  while (cap - t->len <= n) {
    if (cap > SIZE_MAX / 2) {
      t->oom = true;
      return false;
    }
    cap *= 2;
  }
  char *p = realloc(t->p, cap);
  if (!p) {
    t->oom = true;
    return false;
  }
  t->p = p;
  t->cap = cap;
  return true;
}

void mc_text_put(mc_text *t, const char *data, size_t n) {
  while (n > 0 && !stopped(t)) {
    size_t take = t->sink && n > MC_TEXT_SINK_CHUNK ? MC_TEXT_SINK_CHUNK : n;
    if (!reserve(t, take))
      return;
    memcpy(t->p + t->len, data, take);
    t->len += take;
    t->p[t->len] = '\0';
    data += take;
    n -= take;
    flush_when_full(t);
  }
}

void mc_text_printf(mc_text *t, const char *fmt, ...) {
  if (stopped(t))
    return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = t->cap - t->len;
    int n = vsnprintf(t->p ? t->p + t->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n < 0) {
      t->oom = true;
      return;
    }
    if ((size_t)n < room) {
      t->len += (size_t)n;
      flush_when_full(t);
      return;
    }
    if (!reserve(t, (size_t)n))
      return;
  }
}

void mc_text_free(mc_text *t) {
  free(t->p);
  memset(t, 0, sizeof *t);
}

void *mc_realloc_or_abort(void *p, size_t size) {
  void *grown = realloc(p, size ? size : 1);
  if (!grown) {
    fputs("movconf: out of memory\n", stderr);
    abort();
  }
  return grown;
}

char *mc_strdupf(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int n = vsnprintf(NULL, 0, fmt, args);
  va_end(args);
  char *s = mc_realloc_or_abort(NULL, (size_t)(n < 0 ? 0 : n) + 1);
  va_start(args, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, args);
  va_end(args);
  return s;
}

size_t mc_path_trimmed_len(const char *path) {
  size_t len = strlen(path);
  while (len > 1 && path[len - 1] == '/')
    len--;
  return len;
}

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
