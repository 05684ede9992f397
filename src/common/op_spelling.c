/* Operations named the way people spell them (command-line values), and
   the nearest operation name to a misspelling. */
#include "common/op_spelling.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "movconf/ops.h"

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

/* Lower case, letters and digits only: "SpaceToDepth-1", "space_to_depth_1"
   and "spacetodepth1" all become "spacetodepth1". */
static void fold(const char *text, char *out, size_t n) {
  size_t used = 0;
  for (const char *c = text; *c && used + 1 < n; c++)
    if (isalnum((unsigned char)*c))
      out[used++] = (char)tolower((unsigned char)*c);
  out[used] = '\0';
}

/* Whether the folded spelling names op: its name with or without the
   version, or its clause prefix. */
static bool names_op(const char *folded, mc_op op) {
  char name[64], prefix[16];
  fold(mc_op_name(op), name, sizeof name);
  fold(mc_op_clause_prefix(op), prefix, sizeof prefix);
  size_t unversioned = strcspn(name, "0123456789");
  return strcmp(folded, name) == 0 || strcmp(folded, prefix) == 0 ||
         (strlen(folded) == unversioned && strncmp(folded, name, unversioned) == 0);
}

int mc_op_from_option(const char *text) {
  char folded[64];
  fold(text, folded, sizeof folded);
  for (int i = 0; folded[0] && i < MC_OP_COUNT; i++)
    if (names_op(folded, (mc_op)i))
      return i;
  return -1;
}

const char *mc_op_suggestion(const char *text) {
  char folded[64], name[64];
  fold(text, folded, sizeof folded);
  const char *best = NULL;
  size_t best_distance = 4; /* farther is no suggestion */
  for (int i = 0; i < MC_OP_COUNT; i++) {
    fold(mc_op_name((mc_op)i), name, sizeof name);
    name[strcspn(name, "0123456789")] = '\0';
    size_t d = mc_edit_distance(folded, name);
    if (d < best_distance) {
      best_distance = d;
      best = mc_op_name((mc_op)i);
    }
  }
  return best;
}
