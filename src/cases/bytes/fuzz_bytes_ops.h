/* Inside the fuzz byte layout (fuzz_bytes.c): what an operation's own part
   of it, src/cases/bytes/ops/<slug>.c, is written with. Each such file defines
   its descriptor mc_bytes_<slug> (the op_layouts table of fuzz_bytes.c
   reaches it through movconf/op_list.h): the natural ranks of its data and
   the decoder and encoder of its side inputs and dimensions, which walk
   them in the same order. The helpers below are the shared steps of those
   walks (fuzz/README.md, "Byte layout of the producer"). */
#ifndef MOVCONF_CASES_FUZZ_BYTES_OPS_H
#define MOVCONF_CASES_FUZZ_BYTES_OPS_H

#include "cases/bytes/fuzz_bytes.h"
#include "movconf/tensor.h"

#define MC_BYTES_P2(n) ((int64_t)1 << (n))

typedef struct mc_bytes_reader {
  const uint8_t *p;
  size_t n, pos;
} mc_bytes_reader;

/* A natural dimension is base + unit * k with k >= kmin, so that it can be
   made smaller, keeping what makes it valid, when a shape is too large. */
typedef struct mc_bytes_dim_plan {
  bool natural;
  int64_t base, unit, k, kmin;
} mc_bytes_dim_plan;

typedef struct mc_bytes_decoder {
  mc_bytes_reader r;
  mc_fuzz_input *in;
  mc_op op;
  /* Inputs the request has: the op's count, unless its take function
     leaves out trailing optional ones (Slice-8's axes). */
  int n_inputs;
  int rank;       /* of data */
  int64_t span;   /* natural dimensions reach 1 .. span */
  int64_t budget; /* natural shapes stay at or below this many elements */
  int64_t limit;  /* no data has more elements than this */
  mc_bytes_dim_plan plan[MC_TENSOR_MAX_RANK];
  bool oom;
} mc_bytes_decoder;

typedef struct mc_bytes_encoder mc_bytes_encoder;

/* The values the field of one attribute of an operation takes: an
   operation's own, so that two operations with a `mode` need not share
   spellings. */
typedef struct mc_bytes_attr {
  mc_attr id;
  const int64_t *natural; /* INT: the natural value by sel % 8 */
  const int64_t *edges;   /* INT: the 16 edge values */
  /* STRING: the valid spellings, natural by sel % n; the first is the one
     that changes nothing (the fuzz engine's neutral spelling). */
  const char *const *spellings;
  int n_spellings;
  const char *const *string_edges; /* STRING: 16 invalid spellings (NULL: absent) */
  int64_t list_span;               /* INT_LIST: natural values 1 + sel % list_span */
  bool list_from_zero;             /* INT_LIST: sel % list_span instead (bit masks) */
} mc_bytes_attr;

/* An operation's byte layout: its attributes', and its own part after the
   header and the attributes. */
typedef struct mc_bytes_op {
  int8_t natural_ranks[8]; /* by sel % 8 */
  bool (*take)(mc_bytes_decoder *d);
  bool (*put)(mc_bytes_encoder *e);
  /* One per attribute of its op_list.h row (NULL: it has none);
     unit/test_op_tables names an operation that lacks one. */
  const mc_bytes_attr *attrs;
  int n_attrs;
} mc_bytes_op;

/* Slice-8's and StridedSlice-1's bound (or, is_step, step) value i of side
   input t for an axis of extent elements: places on the axis and the edges
   where clamping happens (ops/slice_8.c). */
void mc_bytes_take_slice_value(mc_bytes_decoder *d, mc_tensor *t, int64_t i, int64_t extent,
                               bool is_step);

/* The 16 edge values most integer attributes share. */
extern const int64_t mc_bytes_int_edges[16];
/* SpaceToDepth-1 and DepthToSpace-1: block_size and mode. */
extern const mc_bytes_attr mc_bytes_depth_attrs[2];

/* One integer field: natural (the caller derives the value from sel and
   what it knows), a given value, or absent. */
typedef enum mc_bytes_pick_kind {
  MC_BYTES_PICK_NATURAL,
  MC_BYTES_PICK_VALUE,
  MC_BYTES_PICK_ABSENT
} mc_bytes_pick_kind;

typedef struct mc_bytes_pick {
  mc_bytes_pick_kind kind;
  uint8_t sel;
  int64_t value;
} mc_bytes_pick;

/* ---- decoding ---- */

/* The next byte (0 past the end). */
uint8_t mc_bytes_take_byte(mc_bytes_decoder *d);
/* An integer field: its selector, then an edge value (edges[sel - 0xE0]),
   a hostile, literal or absent value, or natural. */
mc_bytes_pick mc_bytes_take_pick(mc_bytes_decoder *d, const int64_t edges[16]);
/* The pick's value, or natural when the pick leaves it to the field. */
int64_t mc_bytes_pick_or(mc_bytes_pick p, int64_t natural);
/* a + b, held at the int64 limits instead of overflowing (edge values). */
int64_t mc_bytes_add_held(int64_t a, int64_t b);
/* A side input's form: its type, then its shape ([n] when natural). */
bool mc_bytes_take_side_form(mc_bytes_decoder *d, mc_tensor *t, int64_t n);
/* Elements of a side input, and element i set to value's bits. */
int64_t mc_bytes_side_count(const mc_tensor *t);
/* A scalar input of the data's type (MC_OP_DATA_SCALAR, Pad-12's
   pad_value): its form (natural: the data's type, rank 0), then its bits. */
bool mc_bytes_take_data_scalar(mc_bytes_decoder *d, mc_tensor *t);
void mc_bytes_store_side(mc_tensor *t, int64_t i, int64_t value);

/* Dimension a of data: natural ones are base + unit * k for
   k = kmin + sel % k_span (plus one when invalid_bump is allowed and the
   selector asks for it, so that some natural shapes break the rule). */
void mc_bytes_take_dim(mc_bytes_decoder *d, int a, int64_t unit, int64_t kmin, int64_t k_span,
                       int64_t base, bool invalid_bump);
/* Fixes the data shape from the dimensions taken, shrinking natural ones
   until it fits the budget. */
void mc_bytes_settle_dims(mc_bytes_decoder *d);
/* The value at index i of a side input as the operation will read it, when
   it can: an integer or boolean type (mc_side_value), 1-D, within int64. */
bool mc_bytes_side_value(const mc_tensor *t, int i, int64_t *v);
/* Sets *v only when the value is known and at least 1. */
bool mc_bytes_known_positive(const mc_tensor *t, int i, int64_t *v);
/* The value before index i, which edge values repeat or mirror: 0 for the
   first, or when it is not known. */
int64_t mc_bytes_previous_side_value(const mc_tensor *t, int64_t i);
/* BatchToSpace, SpaceToBatch: the type and shape of inputs 1 to 3, the
   block values, the crops (crops true) or pads. */
bool mc_bytes_take_side_forms(mc_bytes_decoder *d);
void mc_bytes_take_block_values(mc_bytes_decoder *d);
void mc_bytes_take_amounts(mc_bytes_decoder *d, bool crops);
/* SpaceToDepth (to_space false), DepthToSpace: the data's dimensions. */
void mc_bytes_take_depth_dims(mc_bytes_decoder *d, bool to_space);

/* ---- encoding ---- */

/* The request being written. */
const mc_request *mc_bytes_put_request(const mc_bytes_encoder *e);
/* An integer field holding exactly these bits; a raw byte. */
void mc_bytes_put_exact(mc_bytes_encoder *e, uint64_t bits);
void mc_bytes_put_raw_byte(mc_bytes_encoder *e, uint8_t v);
/* The type and shape of side input k. */
bool mc_bytes_put_side_form(mc_bytes_encoder *e, int k);

/* The type and shape of the side inputs (BatchToSpace, SpaceToBatch). */
bool mc_bytes_put_side_forms(mc_bytes_encoder *e);
/* Every value of side input k as its stored bits. */
void mc_bytes_put_side_values(mc_bytes_encoder *e, int k);
/* Input k, a scalar of the data's type, as mc_bytes_take_data_scalar reads it. */
bool mc_bytes_put_data_scalar(mc_bytes_encoder *e, int k);
/* The data's dimensions. */
void mc_bytes_put_dims(mc_bytes_encoder *e);
/* Operations of the data input alone: its dimensions (a put hook). */
bool mc_bytes_put_data_dims(mc_bytes_encoder *e);

#endif
