/* The operations, their attributes and the request shape every
   implementation (oracle, optimized, plugins) is called with. */
#ifndef MOVCONF_OPS_H
#define MOVCONF_OPS_H

#include "movconf/types.h"

typedef enum mc_op {
  MC_OP_INVALID = -1,
#define MC_OP(NAME, slug) MC_OP_##NAME,
#include "movconf/op_list.h"
#undef MC_OP
  MC_OP_COUNT
} mc_op;

const char *mc_op_name(mc_op op);          /* "BatchToSpace-2" */
const char *mc_op_slug(mc_op op);          /* "batch_to_space_2": conformance/ folder */
const char *mc_op_clause_prefix(mc_op op); /* "B2S" */
/* "b2s": the clause prefix in lower case, which starts the op's case and
   bench workload ids; into buf of n bytes (truncated to fit). */
void mc_op_case_prefix(mc_op op, char *buf, size_t n);
mc_op mc_op_from_name(const char *name); /* accepts name or slug */
/* Inputs op takes: the trailing ones past the required count are optional
   (Slice-8's axes), so a request has required..count of them. */
int mc_op_input_count(mc_op op);
int mc_op_required_input_count(mc_op op);
/* n is a number of inputs a request of op may have: required..count (the
   absent ones are the trailing optional ones). */
bool mc_op_input_count_ok(mc_op op, int n);
const char *mc_op_input_name(mc_op op, int index); /* "data", "block_shape", ... */

/* The traits column of an op_list.h row. */
#define MC_OP_PADS_ZEROS 1u /* output elements may come from no data element: zeros */
/* Input k is a scalar of the data's element type (Pad-12's pad_value): its
   type follows the data's, not the side-input integer types. */
#define MC_OP_DATA_SCALAR(k) (2u << (k))
/* Whether op writes zeros that no data element holds (padding). */
bool mc_op_pads_zeros(mc_op op);
/* Whether input k of op is a scalar of the data's element type. */
bool mc_op_input_is_data_scalar(mc_op op, int k);

#define MC_MAX_INPUTS 5
#define MC_MAX_ATTR_LEN 40

/* An integer-list attribute. count < 0: absent. count may exceed
   MC_MAX_ATTR_LEN (then only the first MC_MAX_ATTR_LEN values are kept). */
typedef struct mc_int_list {
  int count;
  int64_t v[MC_MAX_ATTR_LEN];
} mc_int_list;

/* The attributes by name and kind: the one table (src/common/names.c) that
   every encoder and decoder of a request walks - case files, the adapter
   protocol, the plugin ABI and its wire, fuzz bytes - so that a new
   attribute is added in one place. */
typedef enum mc_attr {
  MC_ATTR_BLOCK_SIZE,
  MC_ATTR_MODE,
  MC_ATTR_SIZES,
  MC_ATTR_STRIDES,
  MC_ATTR_RATES,
  MC_ATTR_AUTO_PAD,
  MC_ATTR_AXIS,             /* ShuffleChannels-1 */
  MC_ATTR_GROUP,            /* ShuffleChannels-1 */
  MC_ATTR_PAD_MODE,         /* Pad-12 */
  MC_ATTR_BEGIN_MASK,       /* StridedSlice-1 */
  MC_ATTR_END_MASK,         /* StridedSlice-1 */
  MC_ATTR_NEW_AXIS_MASK,    /* StridedSlice-1 */
  MC_ATTR_SHRINK_AXIS_MASK, /* StridedSlice-1 */
  MC_ATTR_ELLIPSIS_MASK,    /* StridedSlice-1 */
  MC_ATTR_BATCH_DIMS,       /* Gather-8 */
  MC_ATTR_COUNT
} mc_attr;

/* One attribute's value, held by its kind (mc_attr_kind_of). */
typedef struct mc_attr_value {
  bool present;     /* INT; a STRING is present when s is not NULL, a list when count >= 0 */
  int64_t i;        /* INT, when present */
  const char *s;    /* STRING: NUL-terminated; NULL: absent */
  mc_int_list list; /* INT_LIST */
} mc_attr_value;

/* Attributes as given, unvalidated (the operation decides what is valid),
   one value per attribute of the table: read and set them with the
   accessors below, by id. */
typedef struct mc_attrs {
  mc_attr_value by_id[MC_ATTR_COUNT];
} mc_attrs;

/* Attributes with every one absent. */
mc_attrs mc_attrs_none(void);

typedef enum mc_attr_kind {
  MC_ATTR_KIND_INT,     /* one int64_t */
  MC_ATTR_KIND_STRING,  /* a NUL-terminated string */
  MC_ATTR_KIND_INT_LIST /* an mc_int_list */
} mc_attr_kind;

const char *mc_attr_name(mc_attr a); /* "block_size", ... */
mc_attr_kind mc_attr_kind_of(mc_attr a);
/* The value an absent integer attribute takes (block_size: 1). */
int64_t mc_attr_default_int(mc_attr a);
/* The attributes op has, in the order files and messages list them. */
int mc_op_attr_count(mc_op op);
mc_attr mc_op_attr(mc_op op, int index);
/* The attribute of op with this name, or -1. */
int mc_op_attr_from_name(mc_op op, const char *name);

/* One attribute of a set: present or absent, and its value by kind. */
bool mc_attrs_present(const mc_attrs *a, mc_attr id);
/* An absent integer reads as its default (mc_attr_default_int). */
int64_t mc_attrs_int(const mc_attrs *a, mc_attr id);
const char *mc_attrs_string(const mc_attrs *a, mc_attr id);
const mc_int_list *mc_attrs_list(const mc_attrs *a, mc_attr id);
/* Setting an attribute makes it present (a NULL string or a list of
   negative count: absent). A string is referenced, not copied. */
void mc_attrs_set_int(mc_attrs *a, mc_attr id, int64_t v);
void mc_attrs_set_string(mc_attrs *a, mc_attr id, const char *s);
void mc_attrs_set_list(mc_attrs *a, mc_attr id, const mc_int_list *l);
/* The list itself, for filling in place (count < 0: absent). */
mc_int_list *mc_attrs_list_slot(mc_attrs *a, mc_attr id);

typedef struct mc_request {
  mc_op op;
  int n_inputs;
  const mc_tensor *inputs[MC_MAX_INPUTS];
  mc_attrs attrs;
} mc_request;

/* Default cap on the bytes of one output (clause MC-L4). */
#define MC_DEFAULT_MAX_OUTPUT_BYTES ((size_t)1 << 30)

#endif
