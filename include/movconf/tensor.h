/* Tensor storage: element access at bit granularity and bounded allocation. */
#ifndef MOVCONF_TENSOR_H
#define MOVCONF_TENSOR_H

#include "movconf/types.h"

/* Number of elements of a shape; false when the product overflows int64 or
   a dimension is negative. An empty shape (rank 0) has one element. */
bool mc_shape_elements(int rank, const int64_t *shape, int64_t *count);
/* Bytes that count packed elements of type t occupy; false on overflow. */
bool mc_storage_bytes(mc_type t, int64_t count, size_t *bytes);

/* Raw bits of element index (zero-extended to 64 bits). */
uint64_t mc_load_bits(const uint8_t *buf, mc_type t, int64_t index);
/* Stores the low bits of value as element index, leaving neighbours intact. */
void mc_store_bits(uint8_t *buf, mc_type t, int64_t index, uint64_t value);
/* Copies one element; works for every type, including packed ones. */
void mc_copy_element(uint8_t *dst, int64_t dst_index, const uint8_t *src, int64_t src_index,
                     mc_type t);

/* Data of allocated tensors starts on a multiple of this many bytes. */
#define MC_TENSOR_ALIGN 64

/* Allocates a zero-filled tensor whose data is MC_TENSOR_ALIGN-aligned.
   Fails with MC_E_SHAPE_OVERFLOW, MC_E_OUTPUT_TOO_LARGE (more than
   max_bytes) or MC_E_OUT_OF_MEMORY; on failure t->data is NULL. Zero-size
   tensors get a non-NULL pointer. Release with mc_tensor_free (not free). */
mc_status mc_tensor_alloc(mc_tensor *t, mc_type type, int rank, const int64_t *shape,
                          size_t max_bytes);
void mc_tensor_free(mc_tensor *t);
/* Element count of t (rank and shape already valid). */
int64_t mc_tensor_elements(const mc_tensor *t);

/* Same type, shape and bytes (bit for bit). */
bool mc_tensor_same(const mc_tensor *a, const mc_tensor *b);

/* Reads element index of a side input of any integer type (packed ones
   too) or boolean (0 or 1) as int64. Returns false (value untouched) for
   another type, an index outside its data, or a stored value that does
   not fit in int64, i.e. a u64 above INT64_MAX. Whether an operation
   accepts the type is its own check (mc_type_is_side_integer). */
bool mc_side_value(const mc_tensor *t, int64_t index, int64_t *value);
/* As mc_side_value, but a u64 above INT64_MAX reads as INT64_MAX instead of
   failing: Slice-8 clamps such values (errata E34), and INT64_MAX clamps the
   same way. False only where mc_side_value fails for another reason. */
bool mc_side_value_saturating(const mc_tensor *t, int64_t index, int64_t *value);

#endif
