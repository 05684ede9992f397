/* Operations named the way people spell them (src/common/op_spelling.c). */
#ifndef MOVCONF_COMMON_OP_SPELLING_H
#define MOVCONF_COMMON_OP_SPELLING_H

#include <stddef.h>

/* The operation an --op option names, in any case and punctuation: its
   name with or without the version, its slug, its clause prefix
   (SpaceToDepth-1, SpaceToDepth, space_to_depth, s2d); -1 when none. */
int mc_op_from_option(const char *text);
/* The operation name closest to a spelling no operation has, or NULL. */
const char *mc_op_suggestion(const char *text);
/* Levenshtein distance (strings of at most 64 bytes; else SIZE_MAX). */
size_t mc_edit_distance(const char *a, const char *b);

#endif
