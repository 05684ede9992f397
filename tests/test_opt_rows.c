/* The row weaves of src/optimized/rows.h against plain loops: every
   whole-byte element size, 1 to 5 ways, 0 to 20 groups (short rows and
   the general path on both sides of MC_SHORT_GROUPS), ordinary and
   streaming stores, rows given by index arrays or moved by `at`. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "optimized/rows.h"

enum { MAX_WAYS = 5, MAX_GROUPS = 20, MAX_ESIZE = 8, GAP = 3 };
enum { ROW = MAX_GROUPS + GAP, BYTES = (MAX_WAYS * ROW + 2 * MAX_GROUPS + 8) * MAX_ESIZE };

static void fill(uint8_t *b, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++)
    b[i] = (uint8_t)(i * 131 + seed * 17 + 5);
}

/* Element k of buffer b, esize bytes, copied byte by byte. */
static void move(uint8_t *dst, int64_t d, const uint8_t *src, int64_t s, int64_t esize) {
  for (int64_t i = 0; i < esize; i++)
    dst[d * esize + i] = src[s * esize + i];
}

/* The ways rows sit ROW elements apart, in reverse order (row o at
   (ways - 1 - o) * ROW), at `at` further on; the woven run starts at 2. */
static bool weaves_agree(mc_type type, bool stream, int64_t ways, int64_t groups, int64_t at) {
  const mc_rowio io = mc_rowio_make(type, stream);
  const int64_t esize = (int64_t)io.esize;
  int64_t row[MAX_WAYS];
  for (int64_t o = 0; o < ways; o++)
    row[o] = (ways - 1 - o) * ROW;
  uint8_t src[BYTES], got[BYTES], want[BYTES];
  fill(src, sizeof src, 1);
  /* Interleave: rows of src into one run of got. */
  fill(got, sizeof got, 2), fill(want, sizeof want, 2);
  for (int64_t g = 0; g < groups; g++)
    for (int64_t o = 0; o < ways; o++)
      move(want, 2 + g * ways + o, src, at + row[o] + g, esize);
  mc_rows_interleave_at(&io, got, 2, src, at, row, ways, groups);
  bool ok = memcmp(got, want, sizeof got) == 0;
  /* De-interleave: one run of src into rows of got. */
  fill(got, sizeof got, 3), fill(want, sizeof want, 3);
  for (int64_t g = 0; g < groups; g++)
    for (int64_t o = 0; o < ways; o++)
      move(want, at + row[o] + g, src, 2 + g * ways + o, esize);
  mc_rows_deinterleave_at(&io, got, at, row, src, 2, ways, groups);
  return ok && memcmp(got, want, sizeof got) == 0;
}

int main(void) {
  const mc_type types[] = {MC_U8, MC_U16, MC_F32, MC_F64};
  int failures = 0;
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
    for (int stream = 0; stream < 2; stream++)
      for (int64_t ways = 1; ways <= MAX_WAYS; ways++)
        for (int64_t groups = 0; groups <= MAX_GROUPS; groups++)
          for (int64_t at = 0; at <= 1; at++)
            if (!weaves_agree(types[t], stream, ways, groups, at)) {
              fprintf(stderr, "type %d, stream %d, %lld ways, %lld groups, at %lld: differ\n",
                      (int)types[t], stream, (long long)ways, (long long)groups, (long long)at);
              failures++;
            }
  CHECK_EQ_I64(failures, 0);
  return check_report();
}
