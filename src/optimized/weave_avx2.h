/* Byte and half-word weaves with AVX2 shuffles, for the AVX2 kernels only
   (kernels_avx2.c): 2-way de-interleave (block 2, SpaceToDepth and
   SpaceToBatch) and 4-way interleave (block 4, BatchToSpace and
   DepthToSpace), the cases where the compiler's own vectorization of
   MC_INTERLEAVE/MC_DEINTERLEAVE spends most instructions per byte. Each
   handles the groups of whole vectors and returns how many it did; the
   generic loops do the rest. Shuffles and unpacks move bits unchanged. */
#ifndef MOVCONF_OPTIMIZED_WEAVE_AVX2_H
#define MOVCONF_OPTIMIZED_WEAVE_AVX2_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

/* r0[g] = in[2g], r1[g] = in[2g + 1] for elements of esize 1 or 2 bytes. */
static inline int64_t mc_avx2_unweave2(int64_t esize, uint8_t *r0, uint8_t *r1, const uint8_t *in,
                                       int64_t groups) {
  /* Per 128-bit lane: the even elements' bytes, then the odd ones'. */
  const __m256i bytes = _mm256_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15, 0, 2,
                                         4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
  const __m256i halves = _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15, 0,
                                          1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
  const __m256i split = esize == 1 ? bytes : halves;
  const int64_t per = 16 / esize; /* groups per step: 32 input bytes */
  int64_t g = 0;
  for (; g + per <= groups; g += per) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(in + 2 * g * esize));
    v = _mm256_shuffle_epi8(v, split);
    /* 64-bit quarters: even, odd, even, odd -> evens in the low half. */
    v = _mm256_permute4x64_epi64(v, _MM_SHUFFLE(3, 1, 2, 0));
    _mm_storeu_si128((__m128i *)(void *)(r0 + g * esize), _mm256_castsi256_si128(v));
    _mm_storeu_si128((__m128i *)(void *)(r1 + g * esize), _mm256_extracti128_si256(v, 1));
  }
  return g;
}

/* out[4g + o] = row[o][g] for elements of esize 1 or 2 bytes. */
static inline int64_t mc_avx2_weave4(int64_t esize, uint8_t *out, const uint8_t *const *row,
                                     int64_t groups) {
  const int64_t per = 16 / esize; /* groups per step: 16 bytes of each row */
  int64_t g = 0;
  for (; g + per <= groups; g += per) {
    const int64_t at = g * esize;
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(row[0] + at));
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(row[1] + at));
    __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(row[2] + at));
    __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(row[3] + at));
    __m128i ab_lo, ab_hi, cd_lo, cd_hi, v[4];
    if (esize == 1) {
      ab_lo = _mm_unpacklo_epi8(a, b), ab_hi = _mm_unpackhi_epi8(a, b);
      cd_lo = _mm_unpacklo_epi8(c, d), cd_hi = _mm_unpackhi_epi8(c, d);
      v[0] = _mm_unpacklo_epi16(ab_lo, cd_lo), v[1] = _mm_unpackhi_epi16(ab_lo, cd_lo);
      v[2] = _mm_unpacklo_epi16(ab_hi, cd_hi), v[3] = _mm_unpackhi_epi16(ab_hi, cd_hi);
    } else {
      ab_lo = _mm_unpacklo_epi16(a, b), ab_hi = _mm_unpackhi_epi16(a, b);
      cd_lo = _mm_unpacklo_epi16(c, d), cd_hi = _mm_unpackhi_epi16(c, d);
      v[0] = _mm_unpacklo_epi32(ab_lo, cd_lo), v[1] = _mm_unpackhi_epi32(ab_lo, cd_lo);
      v[2] = _mm_unpacklo_epi32(ab_hi, cd_hi), v[3] = _mm_unpackhi_epi32(ab_hi, cd_hi);
    }
    uint8_t *o = out + 4 * at;
    for (int k = 0; k < 4; k++)
      _mm_storeu_si128((__m128i *)(void *)(o + 16 * k), v[k]);
  }
  return g;
}

/* Groups g..g+7 of out[4g + o] = row[o][g] for 4-byte elements: a 4 x 4
   transpose in each 128-bit lane (unpacks of 32-, then 64-bit halves), the
   lanes' results then put in order. v[k] is groups g+2k and g+2k+1. */
static inline void mc_avx2_weave4_32_step(const uint8_t *const *row, int64_t g, __m256i *v) {
  const int64_t at = 4 * g;
  __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(row[0] + at));
  __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(row[1] + at));
  __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)(row[2] + at));
  __m256i d = _mm256_loadu_si256((const __m256i *)(const void *)(row[3] + at));
  __m256i ab_lo = _mm256_unpacklo_epi32(a, b), ab_hi = _mm256_unpackhi_epi32(a, b);
  __m256i cd_lo = _mm256_unpacklo_epi32(c, d), cd_hi = _mm256_unpackhi_epi32(c, d);
  /* Lane by lane: groups 0 and 4, 1 and 5, 2 and 6, 3 and 7. */
  __m256i g04 = _mm256_unpacklo_epi64(ab_lo, cd_lo), g15 = _mm256_unpackhi_epi64(ab_lo, cd_lo);
  __m256i g26 = _mm256_unpacklo_epi64(ab_hi, cd_hi), g37 = _mm256_unpackhi_epi64(ab_hi, cd_hi);
  v[0] = _mm256_permute2x128_si256(g04, g15, 0x20);
  v[1] = _mm256_permute2x128_si256(g26, g37, 0x20);
  v[2] = _mm256_permute2x128_si256(g04, g15, 0x31);
  v[3] = _mm256_permute2x128_si256(g26, g37, 0x31);
}

/* out[4g + o] = row[o][g] for 4-byte elements, 8 groups per step. From 8
   groups on, all of them: the last step overlaps the one before and writes
   the same values again (out must not overlap the rows). Returns how many
   groups it did: 0 or groups. */
static inline int64_t mc_avx2_weave4_32(uint8_t *out, const uint8_t *const *row, int64_t groups) {
  if (groups < 8)
    return 0;
  __m256i v[4];
  for (int64_t g = 0; g < groups; g += 8) {
    const int64_t at = g + 8 <= groups ? g : groups - 8; /* the last step may overlap */
    mc_avx2_weave4_32_step(row, at, v);
    for (int k = 0; k < 4; k++)
      _mm256_storeu_si256((__m256i *)(void *)(out + 16 * at + 32 * k), v[k]);
  }
  return groups;
}

/* The same with streaming stores for a multiple of 4 groups (whole 64-byte
   lines) into a line-aligned out, 8 groups per step; a last 4 take the
   upper half of a step 4 groups back. Returns how many groups it did: all
   but 4 groups alone. */
static inline int64_t mc_avx2_weave4_32_stream(uint8_t *out, const uint8_t *const *row,
                                               int64_t groups) {
  __m256i v[4];
  int64_t g = 0;
  for (; g + 8 <= groups; g += 8) {
    mc_avx2_weave4_32_step(row, g, v);
    for (int k = 0; k < 4; k++)
      _mm256_stream_si256((__m256i *)(void *)(out + 16 * g + 32 * k), v[k]);
  }
  if (g < groups && g >= 8) {
    mc_avx2_weave4_32_step(row, g - 4, v);
    _mm256_stream_si256((__m256i *)(void *)(out + 16 * g), v[2]);
    _mm256_stream_si256((__m256i *)(void *)(out + 16 * g + 32), v[3]);
    g += 4;
  }
  return g;
}

/* The inverse of mc_avx2_weave4_32_step: from groups g..g+7 at in (4
   4-byte elements each, a group per 128-bit lane of each load), way o's 8
   elements in v[o]. The in-lane 4 x 4 transposes leave each way's even
   groups in its low lane and the odd ones in its high lane; one permute
   puts them in order. */
static inline void mc_avx2_unweave4_32_step(const uint8_t *in, __m256i *v) {
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)in);
  __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(in + 32));
  __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)(in + 64));
  __m256i d = _mm256_loadu_si256((const __m256i *)(const void *)(in + 96));
  __m256i ab_lo = _mm256_unpacklo_epi32(a, b), ab_hi = _mm256_unpackhi_epi32(a, b);
  __m256i cd_lo = _mm256_unpacklo_epi32(c, d), cd_hi = _mm256_unpackhi_epi32(c, d);
  v[0] = _mm256_permutevar8x32_epi32(_mm256_unpacklo_epi64(ab_lo, cd_lo), order);
  v[1] = _mm256_permutevar8x32_epi32(_mm256_unpackhi_epi64(ab_lo, cd_lo), order);
  v[2] = _mm256_permutevar8x32_epi32(_mm256_unpacklo_epi64(ab_hi, cd_hi), order);
  v[3] = _mm256_permutevar8x32_epi32(_mm256_unpackhi_epi64(ab_hi, cd_hi), order);
}

/* 32 bytes at at: a streaming store (at 32-byte aligned) or an ordinary
   one. */
static inline void mc_avx2_put_32(uint8_t *at, __m256i v, bool stream) {
  if (stream)
    _mm256_stream_si256((__m256i *)(void *)at, v);
  else
    _mm256_storeu_si256((__m256i *)(void *)at, v);
}

/* The groups of one vector of mc_avx2_weave4_whole. */
static inline int64_t mc_avx2_weave4_vector(int64_t esize) {
  return esize == 4 ? 8 : 16 / esize;
}

/* out[4g + o] = row[o][g] for elements of esize 1, 2 or 4 bytes: all the
   groups when there is a vector of them at least (the last vector may
   overlap the one before: out must not overlap the rows), else none.
   Returns groups or 0. */
static inline int64_t mc_avx2_weave4_whole(int64_t esize, uint8_t *out, const uint8_t *const *row,
                                           int64_t groups) {
  if (esize == 4)
    return mc_avx2_weave4_32(out, row, groups);
  const int64_t per = mc_avx2_weave4_vector(esize), back = groups - per;
  if (back < 0)
    return 0;
  if (mc_avx2_weave4(esize, out, row, groups) < groups) {
    const uint8_t *const last[4] = {row[0] + back * esize, row[1] + back * esize,
                                    row[2] + back * esize, row[3] + back * esize};
    mc_avx2_weave4(esize, out + back * 4 * esize, last, per);
  }
  return groups;
}

#endif
