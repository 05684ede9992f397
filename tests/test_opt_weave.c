/* The AVX2 weaves of src/optimized/weave_avx2.h against plain loops, on
   every group count from 0 to 70 (whole vectors and every tail) for 1- and
   2-byte elements, and 4-byte ones for the whole-row weaves; the 4-way
   de-interleave of 4-byte elements on its one 8-group step, with both kinds
   of store. Runs where the CPU has AVX2; elsewhere it says so and checks
   nothing (the kernels then never call these). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WEAVE_TESTS 1
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
#include "optimized/weave_avx2.h"

enum { MAX_GROUPS = 70, ESIZE_MAX = 2, ROW_BYTES = MAX_GROUPS * 4 };

static uint8_t pattern(int64_t i) {
  return (uint8_t)(i * 37 + 11);
}

/* r0 and r1 from the even and odd elements of in, by the AVX2 shuffles for
   the whole vectors and element by element for the rest, as rows.h does. */
static bool unweave2_agrees(int64_t esize, int64_t groups) {
  uint8_t in[2 * MAX_GROUPS * ESIZE_MAX], want[2][MAX_GROUPS * ESIZE_MAX];
  uint8_t got[2][MAX_GROUPS * ESIZE_MAX + 1];
  for (int64_t i = 0; i < (int64_t)sizeof in; i++)
    in[i] = pattern(i);
  for (int64_t g = 0; g < groups; g++)
    for (int o = 0; o < 2; o++)
      memcpy(want[o] + g * esize, in + (2 * g + o) * esize, (size_t)esize);
  memset(got, 0xEE, sizeof got);
  int64_t done = mc_avx2_unweave2(esize, got[0], got[1], in, groups);
  if (done > groups || done % (16 / esize) != 0)
    return false;
  for (int64_t g = done; g < groups; g++)
    for (int o = 0; o < 2; o++)
      memcpy(got[o] + g * esize, in + (2 * g + o) * esize, (size_t)esize);
  /* Nothing written past the row: the byte after it keeps its fill. */
  return memcmp(got[0], want[0], (size_t)(groups * esize)) == 0 &&
         memcmp(got[1], want[1], (size_t)(groups * esize)) == 0 && got[0][groups * esize] == 0xEE &&
         got[1][groups * esize] == 0xEE;
}

/* Four rows of a pattern and their weave, out[4g + o] = row[o][g]. */
static void weave4_inputs(int64_t esize, int64_t groups, uint8_t rows[4][ROW_BYTES],
                          uint8_t *want) {
  for (int o = 0; o < 4; o++)
    for (int64_t i = 0; i < ROW_BYTES; i++)
      rows[o][i] = pattern(1000 * o + i);
  for (int64_t g = 0; g < groups; g++)
    for (int o = 0; o < 4; o++)
      memcpy(want + (4 * g + o) * esize, rows[o] + g * esize, (size_t)esize);
}

/* The AVX2 weave for the whole vectors, element by element for the rest. */
static bool weave4_agrees(int64_t esize, int64_t groups) {
  uint8_t rows[4][ROW_BYTES], want[4 * ROW_BYTES], got[4 * ROW_BYTES + 1];
  weave4_inputs(esize, groups, rows, want);
  memset(got, 0xEE, sizeof got);
  const uint8_t *const from[4] = {rows[0], rows[1], rows[2], rows[3]};
  int64_t done = mc_avx2_weave4(esize, got, from, groups);
  if (done > groups || done % (16 / esize) != 0)
    return false;
  for (int64_t g = done; g < groups; g++)
    for (int o = 0; o < 4; o++)
      memcpy(got + (4 * g + o) * esize, rows[o] + g * esize, (size_t)esize);
  return memcmp(got, want, (size_t)(4 * groups * esize)) == 0 && got[4 * groups * esize] == 0xEE;
}

/* The whole-row weave of 1-, 2- and 4-byte elements: every group from one
   vector on (the last one overlapping), none below; its streaming form for
   4-byte elements, whole lines into a line-aligned output, all but a lone
   line. What they leave undone stays untouched. */
static bool weave4_whole_agrees(int64_t esize, int64_t groups, bool stream) {
  uint8_t rows[4][ROW_BYTES], want[4 * ROW_BYTES];
  _Alignas(64) uint8_t got[4 * ROW_BYTES + 1];
  weave4_inputs(esize, groups, rows, want);
  memset(got, 0xEE, sizeof got);
  const uint8_t *const from[4] = {rows[0], rows[1], rows[2], rows[3]};
  int64_t done, expected;
  if (stream) {
    done = mc_avx2_weave4_32_stream(got, from, groups);
    expected = groups == 4 ? 0 : groups;
  } else {
    done = mc_avx2_weave4_whole(esize, got, from, groups);
    expected = groups >= mc_avx2_weave4_vector(esize) ? groups : 0;
  }
  return done == expected && memcmp(got, want, (size_t)(4 * done * esize)) == 0 &&
         got[4 * done * esize] == 0xEE;
}

/* The 4-way de-interleave of 4-byte elements, one 8-group step: way o's 8
   elements, row[o][g] = in[4g + o], into four 32-byte aligned rows with
   ordinary or streaming stores; the bytes after each row keep their fill. */
static bool unweave4_32_agrees(bool stream) {
  uint8_t in[128], want[4][32];
  _Alignas(32) uint8_t got[4][64];
  for (int64_t i = 0; i < (int64_t)sizeof in; i++)
    in[i] = pattern(i);
  for (int64_t g = 0; g < 8; g++)
    for (int o = 0; o < 4; o++)
      memcpy(want[o] + 4 * g, in + 4 * (4 * g + o), 4);
  memset(got, 0xEE, sizeof got);
  __m256i v[4];
  mc_avx2_unweave4_32_step(in, v);
  for (int o = 0; o < 4; o++)
    mc_avx2_put_32(got[o], v[o], stream);
  _mm_sfence();
  bool same = true;
  for (int o = 0; o < 4; o++)
    same = same && memcmp(got[o], want[o], 32) == 0 && got[o][32] == 0xEE;
  return same;
}

static int run_whole_weave_tests(void) {
  int failures = 0;
  for (int64_t groups = 0; groups <= MAX_GROUPS; groups++) {
    for (int64_t esize = 1; esize <= 4; esize *= 2)
      failures += !weave4_whole_agrees(esize, groups, false);
    if (groups % 4 == 0)
      failures += !weave4_whole_agrees(4, groups, true);
  }
  failures += !unweave4_32_agrees(false) + !unweave4_32_agrees(true);
  return failures;
}

static int run_weave_tests(void) {
  int failures = 0;
  for (int64_t esize = 1; esize <= ESIZE_MAX; esize++)
    for (int64_t groups = 0; groups <= MAX_GROUPS; groups++) {
      bool ok = unweave2_agrees(esize, groups) && weave4_agrees(esize, groups);
      if (!ok)
        fprintf(stderr, "esize %lld, %lld groups: the AVX2 weaves differ\n", (long long)esize,
                (long long)groups);
      failures += !ok;
    }
  return failures + run_whole_weave_tests();
}

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#else
#define WEAVE_TESTS 0
#endif

int main(void) {
#if WEAVE_TESTS
  if (!__builtin_cpu_supports("avx2")) {
    printf("nothing to check: this CPU has no AVX2 (the weaves are never called on it)\n");
    return 0;
  }
  CHECK_EQ_I64(run_weave_tests(), 0);
#else
  printf("nothing to check: not x86-64 (there are no AVX2 weaves)\n");
  return 0;
#endif
  return check_report();
}
