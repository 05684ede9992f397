/* A process adapter's reply line within bounded memory. */
#ifndef MOVCONF_HARNESS_REPLY_TEXT_H
#define MOVCONF_HARNESS_REPLY_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

/* cJSON copies every string it parses, so a reply line of a gigabyte would
   cost a second gigabyte (and a line of tiny tokens, ~80 bytes each, far
   more). The line is handed to cJSON as a skeleton instead: the same JSON
   with every string cut to MC_REPLY_STRING_KEEP bytes and runs of blanks
   made one space, refused beyond MC_REPLY_MAX_TOKENS tokens; the full
   content of a cut value string (the output's base64) is then read from
   the line itself. */
#define MC_REPLY_STRING_KEEP 4096
#define MC_REPLY_MAX_TOKENS 1024
#define MC_REPLY_SKELETON_MAX ((size_t)MC_REPLY_MAX_TOKENS * (MC_REPLY_STRING_KEEP + 66))

typedef struct mc_reply_cut {
  size_t ordinal;    /* which value string, in document order */
  size_t begin, end; /* its content in the line, without the quotes */
} mc_reply_cut;

typedef struct mc_reply_text {
  char *text; /* the skeleton, NUL-terminated */
  size_t len;
  mc_reply_cut *cut;
  int n_cut;
  size_t n_values;
  bool too_many_tokens; /* more than MC_REPLY_MAX_TOKENS: not a reply */
} mc_reply_text;

/* Builds the skeleton of a line that passed mc_json_check_text; false when
   out of memory. */
bool mc_reply_text_init(mc_reply_text *t, const char *line, size_t n);
void mc_reply_text_free(mc_reply_text *t);
/* Numbers the string values under root in document order (in valueint),
   as the skeleton numbered them. */
void mc_reply_text_number_strings(cJSON *root);
/* Where the full content of a cut string value is, or NULL when it was not cut. */
const mc_reply_cut *mc_reply_text_cut_of(const mc_reply_text *t, const cJSON *string);
/* Undoes JSON escapes in place, for content that should be ASCII (base64):
   an escape that does not stand for an ASCII character becomes '?'.
   Returns the new length. */
size_t mc_reply_unescape_ascii(char *s, size_t len);

#endif
