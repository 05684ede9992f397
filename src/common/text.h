/* Text built in memory: a growable buffer with printf, and fresh
   formatted strings. */
#ifndef MOVCONF_COMMON_TEXT_H
#define MOVCONF_COMMON_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#if defined(__GNUC__)
#define MC_PRINTF_FORMAT(f, a) __attribute__((format(printf, f, a)))
#else
#define MC_PRINTF_FORMAT(f, a)
#endif

/* A growable text; oom is set (and the text left as it was) when memory
   runs out, and every later call is then a no-op. */
typedef struct mc_text {
  char *p;
  size_t len, cap;
  bool oom;
} mc_text;

void mc_text_printf(mc_text *t, const char *fmt, ...) MC_PRINTF_FORMAT(2, 3);
void mc_text_free(mc_text *t);

/* printf into a fresh heap string (never NULL: aborts on allocation failure). */
char *mc_strdupf(const char *fmt, ...) MC_PRINTF_FORMAT(1, 2);

#endif
