/* Transpose, window (crop / zero-pad), reverse and strided crop over any
   element type. All walk
   the output in row-major order with one odometer that keeps the matching
   input position up to date incrementally: no division per element. */
#include "common/layout.h"

#include "common/checked.h"
#include "movconf/tensor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The oracle is the reference: a broken internal invariant must stop it
   loudly, never leave a zeroed output that a comparison could accept. */
static void require(bool holds, const char *function, const char *invariant) {
  if (!holds) {
    fprintf(stderr, "movconf: %s: internal invariant violated: %s\n", function, invariant);
    abort();
  }
}

#define REQUIRE(invariant) require((invariant), __func__, #invariant)

mc_shape mc_shape_make(int rank, const int64_t *dims) {
  mc_shape s;
  memset(&s, 0, sizeof s);
  if (rank < 0 || rank > MC_MAX_WORK_RANK || (rank > 0 && !dims)) {
    s.rank = -1; /* an invalid shape: mc_shape_count rejects it */
    return s;
  }
  s.rank = rank;
  for (int i = 0; i < rank; i++) {
    s.dim[i] = dims[i];
  }
  return s;
}

bool mc_shape_count(const mc_shape *s, int64_t *count) {
  if (!s || s->rank < 0 || s->rank > MC_MAX_WORK_RANK) {
    return false;
  }
  return mc_shape_elements(s->rank, s->dim, count);
}

bool mc_shape_same_count(const mc_shape *a, const mc_shape *b) {
  int64_t count_a, count_b;
  return mc_shape_count(a, &count_a) && mc_shape_count(b, &count_b) && count_a == count_b;
}

bool mc_perm_valid(const int *perm, int rank) {
  if (rank < 0 || rank > MC_MAX_WORK_RANK || (rank > 0 && !perm)) {
    return false;
  }
  bool seen[MC_MAX_WORK_RANK] = {false};
  for (int i = 0; i < rank; i++) {
    if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]]) {
      return false;
    }
    seen[perm[i]] = true;
  }
  return true;
}

mc_shape mc_transpose_shape(const mc_shape *in, const int *perm) {
  if (!in || !mc_perm_valid(perm, in->rank)) {
    return mc_shape_make(-1, NULL);
  }
  mc_shape out = mc_shape_make(in->rank, in->dim);
  for (int i = 0; i < in->rank; i++) {
    out.dim[i] = in->dim[perm[i]];
  }
  return out;
}

/* Row-major strides in elements. Valid because mc_shape_count succeeded:
   every partial product of the non-zero dimensions fits in int64. */
static void row_major_strides(const mc_shape *s, int64_t *stride) {
  int64_t running = 1;
  for (int a = s->rank - 1; a >= 0; a--) {
    stride[a] = running;
    running *= s->dim[a] > 0 ? s->dim[a] : 1;
  }
}

/* Walks an output shape in row-major order. Per axis: step is the input
   position change for +1 on that axis, and [lo, hi) is the range of output
   indices whose input index lies inside the input. pos is unsigned so that
   it may wrap while outside the input; whenever every axis is inside, it
   equals the true input position. */
typedef struct odometer {
  int rank;
  int64_t dim[MC_MAX_WORK_RANK];
  int64_t idx[MC_MAX_WORK_RANK];
  uint64_t step[MC_MAX_WORK_RANK];
  int64_t lo[MC_MAX_WORK_RANK];
  int64_t hi[MC_MAX_WORK_RANK];
  uint64_t pos;
  int outside; /* axes whose index is outside [lo, hi) */
} odometer;

static bool axis_inside(const odometer *o, int a) {
  return o->idx[a] >= o->lo[a] && o->idx[a] < o->hi[a];
}

/* Call after filling rank, dim, step, lo, hi and pos (the position of the
   all-zero output index). */
static void odometer_start(odometer *o) {
  o->outside = 0;
  for (int a = 0; a < o->rank; a++) {
    o->idx[a] = 0;
    o->outside += !axis_inside(o, a);
  }
}

/* Moves to the next output index (the last axis fastest). */
static void odometer_next(odometer *o) {
  for (int a = o->rank - 1; a >= 0; a--) {
    bool was_inside = axis_inside(o, a);
    o->idx[a]++;
    o->pos += o->step[a];
    if (o->idx[a] < o->dim[a]) {
      o->outside += was_inside - axis_inside(o, a);
      return;
    }
    /* Carry: rewind this axis to 0 and advance the next one out. */
    o->pos -= o->step[a] * (uint64_t)o->dim[a];
    o->idx[a] = 0;
    o->outside += was_inside - axis_inside(o, a);
  }
}

/* An odometer over out whose every index lies inside the input (lo 0, hi
   the dimension), at input position 0: callers set each axis's step and
   add the position of the first element. */
static void odometer_inside(odometer *o, const mc_shape *out) {
  o->rank = out->rank;
  o->pos = 0;
  for (int a = 0; a < o->rank; a++) {
    o->dim[a] = out->dim[a];
    o->lo[a] = 0;
    o->hi[a] = out->dim[a];
  }
}

/* Packed outputs end on a whole byte; the bits after the last element must
   be zero (types.h), so clear them rather than trust the buffer. */
static void clear_tail_bits(mc_type t, uint8_t *out, int64_t count) {
  unsigned bits = mc_type_bits(t);
  if (bits == 0 || bits >= 8) {
    return;
  }
  int64_t per_byte = 8 / (int64_t)bits;
  for (int64_t i = count; i % per_byte != 0; i++) {
    mc_store_bits(out, t, i, 0);
  }
}

/* Fills out (count elements) from in along the odometer; zero where outside. */
static void odometer_copy(odometer *o, mc_type t, const uint8_t *in, int64_t count, uint8_t *out) {
  odometer_start(o);
  for (int64_t n = 0; n < count; n++) {
    if (o->outside == 0) {
      mc_copy_element(out, n, in, (int64_t)o->pos, t);
    } else {
      mc_store_bits(out, t, n, 0);
    }
    odometer_next(o);
  }
  clear_tail_bits(t, out, count);
}

/* A shape with a zero dimension and no negative one holds no element,
   whatever its other dimensions: their product need not even fit int64
   (batch 0 with huge blocks), so mc_shape_count may reject it. */
static bool shape_empty(const mc_shape *s) {
  bool zero = false;
  for (int a = 0; a < s->rank; a++) {
    if (s->dim[a] < 0) {
      return false;
    }
    zero = zero || s->dim[a] == 0;
  }
  return zero;
}

void mc_transpose(mc_type t, const mc_shape *in_shape, const uint8_t *in, const int *perm,
                  uint8_t *out) {
  int64_t count = 0;
  REQUIRE(in_shape != NULL);
  REQUIRE(mc_type_get(t) != NULL);
  REQUIRE(mc_perm_valid(perm, in_shape->rank));
  if (shape_empty(in_shape)) {
    return;
  }
  REQUIRE(mc_shape_count(in_shape, &count));
  REQUIRE(in != NULL && out != NULL);
  int64_t in_stride[MC_MAX_WORK_RANK];
  row_major_strides(in_shape, in_stride);
  mc_shape out_shape = mc_transpose_shape(in_shape, perm);
  odometer o;
  odometer_inside(&o, &out_shape);
  for (int a = 0; a < o.rank; a++) {
    o.step[a] = (uint64_t)in_stride[perm[a]];
  }
  odometer_copy(&o, t, in, count, out);
}

/* Output indices i on one axis with 0 <= i + offset < in_dim, clamped to [0, out_dim). */
static void window_range(int64_t in_dim, int64_t out_dim, int64_t offset, int64_t *lo,
                         int64_t *hi) {
  int64_t first = offset >= 0 ? 0 : (offset <= -out_dim ? out_dim : -offset);
  int64_t end; /* in_dim - offset, which can only overflow towards +infinity */
  if (offset >= in_dim) {
    end = first;
  } else if (!mc_sub_i64(in_dim, offset, &end) || end > out_dim) {
    end = out_dim;
  }
  *lo = first;
  *hi = end < first ? first : end;
}

void mc_window(mc_type t, const mc_shape *in_shape, const uint8_t *in, const int64_t *offset,
               const mc_shape *out_shape, uint8_t *out) {
  int64_t in_count = 0, out_count = 0;
  REQUIRE(in_shape != NULL && out_shape != NULL);
  REQUIRE(mc_type_get(t) != NULL);
  REQUIRE(in_shape->rank == out_shape->rank);
  REQUIRE(in_shape->rank == 0 || offset != NULL);
  if (shape_empty(out_shape)) {
    return;
  }
  REQUIRE(mc_shape_count(out_shape, &out_count));
  REQUIRE(out != NULL);
  if (shape_empty(in_shape)) { /* every output element lies outside the input */
    for (int64_t n = 0; n < out_count; n++) {
      mc_store_bits(out, t, n, 0);
    }
    clear_tail_bits(t, out, out_count);
    return;
  }
  REQUIRE(mc_shape_count(in_shape, &in_count));
  REQUIRE(in != NULL);
  int64_t in_stride[MC_MAX_WORK_RANK];
  row_major_strides(in_shape, in_stride);
  odometer o;
  o.rank = out_shape->rank;
  o.pos = 0;
  for (int a = 0; a < o.rank; a++) {
    o.dim[a] = out_shape->dim[a];
    o.step[a] = (uint64_t)in_stride[a];
    o.pos += (uint64_t)offset[a] * o.step[a];
    window_range(in_shape->dim[a], out_shape->dim[a], offset[a], &o.lo[a], &o.hi[a]);
  }
  odometer_copy(&o, t, in, out_count, out);
}

/* What reverse and strided crop share: output axis a walks input axis a
   from index first[a], mult[a] indices per step (unsigned: UINT64_MAX is
   one index backwards), every index read inside the input. */
static void strided_walk(mc_type t, const mc_shape *in_shape, const uint8_t *in,
                         const int64_t *first, const uint64_t *mult, const mc_shape *out_shape,
                         uint8_t *out) {
  int64_t in_count = 0, count = 0;
  if (shape_empty(out_shape)) {
    return;
  }
  REQUIRE(mc_shape_count(in_shape, &in_count));
  REQUIRE(mc_shape_count(out_shape, &count));
  REQUIRE(in != NULL && out != NULL);
  int64_t stride[MC_MAX_WORK_RANK];
  row_major_strides(in_shape, stride);
  odometer o;
  odometer_inside(&o, out_shape);
  for (int a = 0; a < o.rank; a++) {
    /* May wrap: backwards, or a huge step on a one-element axis (never taken). */
    o.step[a] = (uint64_t)stride[a] * mult[a];
    o.pos += (uint64_t)first[a] * (uint64_t)stride[a];
  }
  odometer_copy(&o, t, in, count, out);
}

void mc_reverse(mc_type t, const mc_shape *shape, const uint8_t *in, const bool *reversed,
                uint8_t *out) {
  REQUIRE(shape != NULL);
  REQUIRE(mc_type_get(t) != NULL);
  REQUIRE(shape->rank <= MC_MAX_WORK_RANK && (shape->rank <= 0 || reversed != NULL));
  int64_t first[MC_MAX_WORK_RANK];
  uint64_t mult[MC_MAX_WORK_RANK];
  for (int a = 0; a < shape->rank; a++) {
    first[a] = reversed[a] ? shape->dim[a] - 1 : 0;
    mult[a] = reversed[a] ? UINT64_MAX : 1;
  }
  strided_walk(t, shape, in, first, mult, shape, out);
}

/* true when every index the strided crop reads lies inside in (out holds
   an element), computed without overflow. */
static bool strided_reads_inside(const mc_shape *in, const int64_t *begin, const uint64_t *step,
                                 const mc_shape *out) {
  for (int a = 0; a < out->rank; a++) {
    if (step[a] < 1 || begin[a] < 0 || begin[a] >= in->dim[a] ||
        (uint64_t)(out->dim[a] - 1) > (uint64_t)(in->dim[a] - 1 - begin[a]) / step[a]) {
      return false;
    }
  }
  return true;
}

void mc_strided_crop(mc_type t, const mc_shape *in_shape, const uint8_t *in, const int64_t *begin,
                     const uint64_t *step, const mc_shape *out_shape, uint8_t *out) {
  REQUIRE(in_shape != NULL && out_shape != NULL);
  REQUIRE(mc_type_get(t) != NULL);
  REQUIRE(in_shape->rank == out_shape->rank);
  REQUIRE(in_shape->rank <= 0 || (begin != NULL && step != NULL));
  REQUIRE(shape_empty(out_shape) || strided_reads_inside(in_shape, begin, step, out_shape));
  strided_walk(t, in_shape, in, begin, step, out_shape, out);
}
