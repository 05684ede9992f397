/* Inside the movconf fuzz engine: the descriptor of an operation (its
   large requests and its shrinking moves, in src/fuzz/ops/<slug>.c),
   the table of them (fuzz_ops.c) and the helpers they share. */
#ifndef MOVCONF_FUZZ_OPS_H
#define MOVCONF_FUZZ_OPS_H

#include "fuzz/fuzz_request.h"

/* Fills r (op, attrs none, output cap set) with a valid request of about
   target output elements of type, drawing from g. */
typedef bool mc_fuzz_large_fn(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target);

/* A shrinking move: makes cand from cur in its variant k (0 to
   variants - 1), or says it does not apply, copying nothing then (cur's
   data may be large). */
typedef bool mc_fuzz_move_fn(const mc_owned_request *cur, int k, mc_owned_request *cand);
typedef struct mc_fuzz_move {
  mc_fuzz_move_fn *make;
  int variants;
} mc_fuzz_move;

typedef struct mc_fuzz_op_desc {
  mc_fuzz_large_fn *large;
  int min_rank; /* shrinking drops axes down to this rank */
  /* Shrinking drops data axis k: cand made a copy of cur (mc_fuzz_clone)
     with the attributes and side inputs that name axes following; false
     when k cannot go (owning nothing then). NULL: a plain copy, and
     element k of every side input dropped (one element per axis). */
  mc_fuzz_move_fn *drop_axis;
  /* The operation's own moves, tried after the generic ones that drop
     axes and before those that shrink values; ends with {NULL}. NULL:
     none. */
  const mc_fuzz_move *moves;
  /* What the moves of its family read: BatchToSpace and SpaceToBatch, an
     mc_fuzz_batch_shape (ops/batch_space_common.c). NULL: none. */
  const void *family;
  /* Whether side input `input` of r changes nothing (a failure's key
     names the ones that do): BatchToSpace's and SpaceToBatch's block of 1,
     crop or pad of 0. NULL only for an operation of the data alone
     (unit/test_op_tables). */
  bool (*side_neutral)(const mc_owned_request *r, int input);
  /* Whether attribute id of r changes nothing. NULL: the generic rule,
     mc_fuzz_attribute_neutral. */
  bool (*attribute_neutral)(const mc_owned_request *r, mc_attr id);
} mc_fuzz_op_desc;

/* The generic rule: absent, an integer or every list element 1, a string
   the operation's neutral spelling (fuzz_cause.c). */
bool mc_fuzz_attribute_neutral(mc_op op, const mc_attrs *a, mc_attr id);

/* The descriptor of op, NULL for no operation. */
const mc_fuzz_op_desc *mc_fuzz_op_of(mc_op op);

/* ---- shrinking (fuzz_shrink.c) ---- */

/* Variants of mc_fuzz_shrunk_value tried per value. */
#define MC_FUZZ_VALUE_VARIANTS 63

/* A copy of r to change, keeping how its data was made. */
bool mc_fuzz_clone(const mc_owned_request *r, mc_owned_request *out);
/* New index-filled data of this type and shape (the fill's start kept). */
bool mc_fuzz_refill(mc_owned_request *r, mc_type type, int rank, const int64_t *shape);
/* Variant j of shrinking v toward floor_value. */
bool mc_fuzz_shrunk_value(int64_t v, int64_t floor_value, int j, int64_t *out);
/* Removes element k of a 1-D side input. */
bool mc_fuzz_drop_side_element(mc_tensor *t, int k);
/* Writes v as element i of side input `input` of r; false when its type
   does not hold v. */
bool mc_fuzz_store_side(mc_owned_request *r, int input, int64_t i, int64_t v);
/* Element k / MC_FUZZ_VALUE_VARIANTS of side input `input` toward 1 in
   magnitude, its sign kept (Slice's step, StridedSlice's stride). */
bool mc_fuzz_side_toward_unit(const mc_owned_request *cur, int input, int k,
                              mc_owned_request *cand);
/* The shape of t without axis k, in shape; returns its rank. */
int mc_fuzz_shape_without(const mc_tensor *t, int k, int64_t shape[MC_TENSOR_MAX_RANK]);

/* BatchToSpace-2 and SpaceToBatch-2 (ops/batch_space_common.c): value i of side
   input `input`, or the neutral one; the moves they share, given how the
   operation's data shape follows a block (block_into) or a margin
   (side_into) made neutral, in its descriptor's family. */
int64_t mc_fuzz_side_at(const mc_owned_request *r, int input, int i);
typedef struct mc_fuzz_batch_shape {
  bool (*block_into)(const mc_owned_request *cur, int k, int64_t b, int64_t *shape);
  bool (*side_into)(int64_t side, int64_t block, int64_t *extent);
} mc_fuzz_batch_shape;
extern const mc_fuzz_move mc_fuzz_batch_moves[];
/* SpaceToDepth-1's and DepthToSpace-1's: spatial axes merged (ops/space_depth_common.c). */
extern const mc_fuzz_move mc_fuzz_depth_moves[];
/* Every value of side input `input` the neutral one (mc_fuzz_side_at). */
bool mc_fuzz_batch_side_neutral(const mc_owned_request *r, int input);

/* ---- large requests (fuzz_large.c) ---- */

#define MC_FUZZ_LARGE_CAP ((size_t)1 << 30)

/* Extents at the kernels' boundaries, drawn by mc_fuzz_pick. */
typedef enum mc_fuzz_extent {
  MC_FUZZ_INNER,    /* innermost: vector widths and their tails */
  MC_FUZZ_CHANNELS, /* blocked-layout multiples and beside them */
  MC_FUZZ_OUTER,    /* prime, below a thread count */
  MC_FUZZ_BLOCK     /* block sizes */
} mc_fuzz_extent;
int64_t mc_fuzz_pick(mc_rng *g, mc_fuzz_extent which);

/* The rows needed for about target elements of n x c x rows x w. */
int64_t mc_fuzz_rows_for(int64_t target, int64_t n, int64_t c, int64_t w);

/* Side input index: 4 int64 values. */
bool mc_fuzz_side_input(mc_owned_request *r, int index, const int64_t *values);

/* The data input of shape [4], filled from a drawn seed. */
bool mc_fuzz_large_data(mc_rng *g, mc_owned_request *r, mc_type type, const int64_t shape[4]);

/* BatchToSpace-2 and SpaceToBatch-2 (ops/batch_space_common.c): block of
   the two inner axes drawn, the operation's margins (begin, end) and data
   shape from margins(). */
typedef void mc_fuzz_margins_fn(mc_rng *g, const int64_t block[4], const int64_t base[4],
                                int64_t begin[4], int64_t end[4], int64_t shape[4]);
bool mc_fuzz_large_batch(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target,
                         mc_fuzz_margins_fn *margins);

/* SpaceToDepth-1 and DepthToSpace-1 (ops/space_depth_common.c):
   block_size and mode drawn; *bs, the
   extents n, c, h, w of the output, for the operation's data shape. */
bool mc_fuzz_large_depth(mc_rng *g, mc_owned_request *r, int64_t target, int64_t *bs,
                         int64_t nchw[4]);

#endif
