/* Element types, tensors and status codes shared by every layer of movconf. */
#ifndef MOVCONF_TYPES_H
#define MOVCONF_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Suite limit on the rank of any tensor an operation accepts (clause MC-L1). */
#define MC_MAX_RANK 16
/* The literal steps build intermediates of up to 2*rank axes. */
#define MC_MAX_WORK_RANK (2 * MC_MAX_RANK)
/* A tensor can carry more axes than MC_MAX_RANK so that a case can pass one
   in and see it rejected by MC-L1. */
#define MC_TENSOR_MAX_RANK MC_MAX_WORK_RANK

typedef enum mc_type {
  MC_TYPE_INVALID = -1,
  MC_BOOLEAN = 0,
  MC_U8,
  MC_I8,
  MC_U16,
  MC_I16,
  MC_F16,
  MC_BF16,
  MC_U32,
  MC_I32,
  MC_F32,
  MC_U64,
  MC_I64,
  MC_F64,
  MC_F8E4M3,
  MC_F8E5M2,
  MC_U1,
  MC_U4,
  MC_I4,
  MC_TYPE_COUNT
} mc_type;

typedef struct mc_type_info {
  const char *name; /* "f32", "u4", ... as in OpenVINO */
  unsigned bits;    /* storage bits of one element: 1, 4, 8, 16, 32, 64 */
  bool is_integer;  /* integer types (boolean is not one) */
  bool is_signed;
  bool is_float;
} mc_type_info;

/* NULL when t is not a valid type. */
const mc_type_info *mc_type_get(mc_type t);
const char *mc_type_name(mc_type t); /* "invalid" for bad values */
mc_type mc_type_from_name(const char *name);
unsigned mc_type_bits(mc_type t);
/* The integer types accepted for side inputs: i8..i64 and u8..u64. */
bool mc_type_is_side_integer(mc_type t);

/* A dense row-major tensor. data holds the raw little-endian bytes; sub-byte
   types are packed as spec/element-types.md says (u1: element 0 in bit 7;
   u4/i4: element 0 in the low nibble); unused trailing bits are zero. */
typedef struct mc_tensor {
  mc_type type;
  int rank;
  int64_t shape[MC_TENSOR_MAX_RANK];
  uint8_t *data;
  size_t nbytes;
  void *allocation; /* what mc_tensor_free releases when data is not itself a malloc block */
} mc_tensor;

typedef enum mc_status {
  MC_OK = 0,
  MC_E_INVALID_ARGUMENT,      /* API misuse: NULL pointers, wrong input count */
  MC_E_UNSUPPORTED_TYPE,      /* MC-T1 */
  MC_E_RANK_LIMIT,            /* MC-L1 */
  MC_E_VALUE_OUT_OF_RANGE,    /* MC-L2: side-input value above INT64_MAX */
  MC_E_SHAPE_OVERFLOW,        /* MC-L3 */
  MC_E_OUTPUT_TOO_LARGE,      /* MC-L4 */
  MC_E_OUT_OF_MEMORY,         /* allocation failed below the limit */
  MC_E_DATA_RANK,             /* *-V1 */
  MC_E_SIDE_INPUT_TYPE,       /* B2S-V2, S2B-V2 */
  MC_E_SIDE_INPUT_RANK,       /* B2S-V3, S2B-V3 */
  MC_E_SIDE_INPUT_LENGTH,     /* B2S-V4, S2B-V4 */
  MC_E_BLOCK_BELOW_ONE,       /* B2S-V5, S2B-V5 */
  MC_E_BLOCK_FIRST_NOT_ONE,   /* B2S-V6, S2B-V6 */
  MC_E_CROP_NEGATIVE,         /* B2S-V7 */
  MC_E_CROP_FIRST_NOT_ZERO,   /* B2S-V8 */
  MC_E_BATCH_NOT_DIVISIBLE,   /* B2S-V9 */
  MC_E_CROP_EXCEEDS,          /* B2S-V10 */
  MC_E_PAD_NEGATIVE,          /* S2B-V7 */
  MC_E_PAD_FIRST_NOT_ZERO,    /* S2B-V8 */
  MC_E_PADDED_NOT_DIVISIBLE,  /* S2B-V9 */
  MC_E_MODE_MISSING,          /* S2D-V2, D2S-V2 */
  MC_E_MODE_INVALID,          /* S2D-V3, D2S-V3 */
  MC_E_BLOCK_SIZE_BELOW_ONE,  /* S2D-V4, D2S-V4 */
  MC_E_SPATIAL_NOT_DIVISIBLE, /* S2D-V5 */
  MC_E_DEPTH_NOT_DIVISIBLE,   /* D2S-V5 */
  MC_E_ATTRIBUTE_MISSING,     /* EIP-V2 */
  MC_E_ATTRIBUTE_LENGTH,      /* EIP-V3 */
  MC_E_SIZES_BELOW_ONE,       /* EIP-V4 */
  MC_E_STRIDES_BELOW_ONE,     /* EIP-V5 */
  MC_E_RATES_BELOW_ONE,       /* EIP-V6 */
  MC_E_AUTO_PAD_INVALID,      /* EIP-V7 */
  MC_E_AXIS_OUT_OF_RANGE,     /* SC-V2 */
  MC_E_GROUP_BELOW_ONE,       /* SC-V3 */
  MC_E_CHANNEL_NOT_DIVISIBLE, /* SC-V4 */
  MC_E_STEP_ZERO,             /* SL-V5 */
  MC_E_AXES_NOT_UNIQUE,       /* SL-V7 */
  MC_E_PAD_TOO_LARGE,         /* PAD-V9 */
  MC_E_MASK_INVALID,          /* SS-V4, SS-V5 */
  MC_E_TOO_MANY_INDICES,      /* SS-V7 */
  MC_E_INDEX_OUT_OF_RANGE,    /* SS-V8 */
  MC_E_BATCH_MISMATCH,        /* GA-V8 */
  MC_STATUS_COUNT
} mc_status;

/* Stable snake_case name used as "error" in case files, e.g. "batch_not_divisible". */
const char *mc_status_name(mc_status s);
/* -1 when the name is unknown. */
int mc_status_from_name(const char *name);

typedef struct mc_error {
  mc_status status;
  const char *clause; /* clause id such as "B2S-V9", or NULL */
  char message[256];
} mc_error;

#endif
