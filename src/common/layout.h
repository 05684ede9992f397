/* The shared data-movement helpers the literal oracle composes: reshape is
   shape-only, so these are transpose, window (crop and zero-pad), reverse
   and strided crop. They
   work on every element type, packed sub-byte types included. Callers have
   validated shapes and sized buffers; the helpers do not allocate. An
   argument that breaks their contract (unknown type, invalid shape or
   permutation, mismatched ranks, a missing buffer for a non-empty tensor)
   is a bug in the caller: they print which invariant broke and abort(). */
#ifndef MOVCONF_COMMON_LAYOUT_H
#define MOVCONF_COMMON_LAYOUT_H

#include "movconf/types.h"

/* A shape of up to MC_MAX_WORK_RANK axes, for intermediates of the steps. */
typedef struct mc_shape {
  int rank;
  int64_t dim[MC_MAX_WORK_RANK];
} mc_shape;

mc_shape mc_shape_make(int rank, const int64_t *dims);
/* Element count; false on overflow or a negative dimension. */
bool mc_shape_count(const mc_shape *s, int64_t *count);
/* true when both shapes have the same element count (a legal reshape). */
bool mc_shape_same_count(const mc_shape *a, const mc_shape *b);

/* true when perm is a permutation of 0..rank-1. */
bool mc_perm_valid(const int *perm, int rank);
/* Shape of transpose(in, perm): out.dim[i] = in.dim[perm[i]]. */
mc_shape mc_transpose_shape(const mc_shape *in, const int *perm);
/* out = transpose(in, perm): output axis i walks input axis perm[i]. */
void mc_transpose(mc_type t, const mc_shape *in_shape, const uint8_t *in, const int *perm,
                  uint8_t *out);

/* out[i_0..i_r] = in[i_0 + offset_0, ..., i_r + offset_r] where that index
   lies inside in_shape, else zero. A crop is offset = +begin with a smaller
   out_shape; a zero-pad is offset = -begin with a larger one. */
void mc_window(mc_type t, const mc_shape *in_shape, const uint8_t *in, const int64_t *offset,
               const mc_shape *out_shape, uint8_t *out);

/* out = in with every axis a where reversed[a] is true read backwards:
   out[.., i_a, ..] = in[.., d_a - 1 - i_a, ..]. */
void mc_reverse(mc_type t, const mc_shape *shape, const uint8_t *in, const bool *reversed,
                uint8_t *out);

/* out[i_0..i_r] = in[begin_0 + i_0 * step_0, ..., begin_r + i_r * step_r]:
   a crop keeping every step-th element. Steps are magnitudes >= 1 (unsigned,
   so that 2^63 fits); every index read must lie inside in_shape. */
void mc_strided_crop(mc_type t, const mc_shape *in_shape, const uint8_t *in, const int64_t *begin,
                     const uint64_t *step, const mc_shape *out_shape, uint8_t *out);

#endif
