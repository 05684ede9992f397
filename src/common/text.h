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

/* Where a streamed text goes: returns false when it cannot take more. */
typedef bool (*mc_text_sink)(void *ctx, const char *data, size_t n);

/* A growable text; oom is set (and the text left as it was) when memory
   runs out, and every later call is then a no-op. With a sink, the text is
   streamed: handed to the sink whenever MC_TEXT_SINK_CHUNK bytes are
   buffered and at mc_text_flush, so that a large text never sits whole in
   memory; a sink's failure also makes every later call a no-op. */
typedef struct mc_text {
  char *p;
  size_t len, cap;
  bool oom;
  mc_text_sink sink; /* NULL: the text stays in memory */
  void *sink_ctx;
  bool sink_failed;
} mc_text;

#define MC_TEXT_SINK_CHUNK ((size_t)1 << 16)

void mc_text_printf(mc_text *t, const char *fmt, ...) MC_PRINTF_FORMAT(2, 3);
void mc_text_put(mc_text *t, const char *data, size_t n);
/* Hands what is buffered to the sink; true when everything written so far
   got there (without a sink: when no memory ran out). */
bool mc_text_flush(mc_text *t);
void mc_text_free(mc_text *t);

/* realloc(p, size), or "movconf: out of memory" and abort(): for memory the
   suite cannot go on without (mc_strdupf uses it too). */
void *mc_realloc_or_abort(void *p, size_t size);
/* printf into a fresh heap string (never NULL: aborts on allocation failure). */
char *mc_strdupf(const char *fmt, ...) MC_PRINTF_FORMAT(1, 2);
/* The length of path without its trailing slashes ("/" itself kept):
   "out/" and "out" name one folder, and a file under it is "out/x". */
size_t mc_path_trimmed_len(const char *path);

/* Numbers in text (option values, environment variables): a byte or MiB
   count (digits only, up to SIZE_MAX); seconds from 0 to max; a whole
   number from min to max. False when the whole text is not one. */
bool mc_parse_size(const char *text, size_t *out);
bool mc_parse_seconds(const char *text, double max, double *out);
bool mc_parse_count(const char *text, int min, int max, int *out);

#endif
