/* Text built in memory: see text.h. */
#include "common/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mc_text_printf(mc_text *t, const char *fmt, ...) {
  if (t->oom)
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
      return;
    }
    size_t cap = t->cap ? t->cap : 1024;
    while (cap - t->len <= (size_t)n)
      cap *= 2;
    char *p = realloc(t->p, cap);
    if (!p) {
      t->oom = true;
      return;
    }
    t->p = p;
    t->cap = cap;
  }
}

void mc_text_free(mc_text *t) {
  free(t->p);
  memset(t, 0, sizeof *t);
}

char *mc_strdupf(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int n = vsnprintf(NULL, 0, fmt, args);
  va_end(args);
  char *s = malloc((size_t)(n < 0 ? 0 : n) + 1);
  if (!s) {
    fputs("movconf: out of memory\n", stderr);
    abort();
  }
  va_start(args, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, args);
  va_end(args);
  return s;
}

