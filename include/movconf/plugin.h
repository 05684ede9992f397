/* The movconf plugin ABI, version 3: how a shared library offers its own
   implementation of movconf's operations to `movconf run --impl plugin:PATH`.

   This header is self-contained (it needs only <stdint.h>), so a plugin
   author can copy it into their own tree. spec/plugin-abi.md is the complete
   contract, with a minimal plugin; the comments here are a summary.

   In short: the library exports movconf_plugin_entry(). movconf calls it once
   with MOVCONF_PLUGIN_ABI_VERSION (3) and gets a table of functions; a plugin
   that answers NULL is asked again for version 2, then for version 1, the
   ABIs before this one, whose types are kept below so that v2 and v1
   plugins keep working. For each
   case, movconf asks supports(); then output_shape() validates the request
   and reports the output's type and shape (or rejects the input); movconf
   allocates the output buffer of exactly that size and calls run() to fill it.
   The plugin never allocates memory that movconf frees, nor the reverse. */
#ifndef MOVCONF_PLUGIN_H
#define MOVCONF_PLUGIN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of this ABI (the newest); a change of any struct or function gets
   a new number and a new table type. Version 1 (movconf_plugin_v1) is the
   ABI of the five first operations, with one field per attribute; version
   2 (movconf_plugin_v2) has attributes as a list but room for 4 inputs
   only; version 3 has the inputs as a list too. */
#define MOVCONF_PLUGIN_ABI_VERSION 3u
#define MOVCONF_PLUGIN_ABI_V1 1u
#define MOVCONF_PLUGIN_ABI_V2 2u
#define MOVCONF_PLUGIN_ABI_V3 3u

/* Name of the one symbol movconf looks up with dlsym. */
#define MOVCONF_PLUGIN_ENTRY_NAME "movconf_plugin_entry"

/* Largest rank of any tensor in a request or output. Requests can carry
   ranks above the operations' limit of 16 so that an implementation can be
   seen to reject them (rank_limit). */
#define MOVCONF_PLUGIN_MAX_RANK 32
/* The inputs arrays of versions 1 and 2 (fixed by them: never changes). */
#define MOVCONF_PLUGIN_MAX_INPUTS 4
/* The most inputs any operation of this header takes (Slice-8: 5). In
   version 3 a request's inputs are a list of n_inputs entries, so a later
   operation may take more without a new ABI: do not size storage by it. */
#define MOVCONF_PLUGIN_V3_MAX_INPUTS 5

/* Operations (field op). The list grows: a new operation gets the next
   number, and a plugin declines numbers it does not know (supports()
   returns 0 for them; spec/plugin-abi.md section 3). Version 1 plugins are
   only ever asked for the first five, version 2 plugins for the first six. */
enum movconf_plugin_op {
  MOVCONF_PLUGIN_BATCH_TO_SPACE = 0,        /* BatchToSpace-2 */
  MOVCONF_PLUGIN_SPACE_TO_BATCH = 1,        /* SpaceToBatch-2 */
  MOVCONF_PLUGIN_SPACE_TO_DEPTH = 2,        /* SpaceToDepth-1 */
  MOVCONF_PLUGIN_DEPTH_TO_SPACE = 3,        /* DepthToSpace-1 */
  MOVCONF_PLUGIN_EXTRACT_IMAGE_PATCHES = 4, /* ExtractImagePatches-3 */
  MOVCONF_PLUGIN_SHUFFLE_CHANNELS = 5,      /* ShuffleChannels-1 (version 2 only) */
  MOVCONF_PLUGIN_SLICE = 6,                 /* Slice-8 (version 3 only) */
  MOVCONF_PLUGIN_TRANSPOSE = 7,             /* Transpose-1 (version 3 only) */
  MOVCONF_PLUGIN_PAD = 8,                   /* Pad-12 (version 3 only) */
  MOVCONF_PLUGIN_STRIDED_SLICE = 9,         /* StridedSlice-1 (version 3 only) */
  MOVCONF_PLUGIN_GATHER = 10                /* Gather-8 (version 3 only) */
};

/* Element types (fields type). Storage is spec/element-types.md: raw
   little-endian bytes, u1 packed 8 per byte (element 0 in bit 7), u4/i4
   packed 2 per byte (element 0 in the low nibble). */
enum movconf_plugin_type {
  MOVCONF_PLUGIN_BOOLEAN = 0,
  MOVCONF_PLUGIN_U8 = 1,
  MOVCONF_PLUGIN_I8 = 2,
  MOVCONF_PLUGIN_U16 = 3,
  MOVCONF_PLUGIN_I16 = 4,
  MOVCONF_PLUGIN_F16 = 5,
  MOVCONF_PLUGIN_BF16 = 6,
  MOVCONF_PLUGIN_U32 = 7,
  MOVCONF_PLUGIN_I32 = 8,
  MOVCONF_PLUGIN_F32 = 9,
  MOVCONF_PLUGIN_U64 = 10,
  MOVCONF_PLUGIN_I64 = 11,
  MOVCONF_PLUGIN_F64 = 12,
  MOVCONF_PLUGIN_F8E4M3 = 13,
  MOVCONF_PLUGIN_F8E5M2 = 14,
  MOVCONF_PLUGIN_U1 = 15,
  MOVCONF_PLUGIN_U4 = 16,
  MOVCONF_PLUGIN_I4 = 17
};

/* Return values of output_shape() and run(). */
#define MOVCONF_PLUGIN_OK 0
#define MOVCONF_PLUGIN_REJECTED 1

/* An input tensor. Read-only: movconf maps it read-only, a write faults. */
typedef struct movconf_plugin_tensor {
  int32_t type;         /* enum movconf_plugin_type */
  int32_t rank;         /* 0 .. MOVCONF_PLUGIN_MAX_RANK */
  const int64_t *shape; /* rank dimensions, each >= 0; never NULL */
  /* nbytes raw bytes, never NULL, even when empty. Followed by an
     inaccessible page (a read past the end faults): inputs[0] (data) is
     64-byte aligned, ending up to 63 bytes before that page (poisoned
     for AddressSanitizer under --sanitize); the side inputs end right at
     it, aligned only as far as their size allows. */
  const void *data;
  uint64_t nbytes; /* ceil(elements * bits / 8) */
} movconf_plugin_tensor;

/* An integer-list attribute (in v1 also absent: count -1). */
typedef struct movconf_plugin_ints {
  int32_t count;         /* -1: the attribute is absent; else the list's length */
  const int64_t *values; /* count values; NULL when count <= 0 */
} movconf_plugin_ints;

/* ---- version 2 (its attribute list is version 3's too) ---- */

/* Kinds of attribute values (field kind). */
enum movconf_plugin_attr_kind {
  MOVCONF_PLUGIN_ATTR_INT = 0,    /* value.i */
  MOVCONF_PLUGIN_ATTR_STRING = 1, /* value.s */
  MOVCONF_PLUGIN_ATTR_INTS = 2    /* value.ints */
};

/* One attribute exactly as the case gives it, valid or not: validating it
   is the implementation's job. The names are spec/<operation>.md's
   ("block_size", "mode", "sizes", "auto_pad", ...). */
typedef struct movconf_plugin_attr {
  const char *name; /* NUL-terminated; never NULL */
  int32_t kind;     /* enum movconf_plugin_attr_kind */
  union {
    int64_t i;                /* MOVCONF_PLUGIN_ATTR_INT */
    const char *s;            /* MOVCONF_PLUGIN_ATTR_STRING: NUL-terminated, never NULL */
    movconf_plugin_ints ints; /* MOVCONF_PLUGIN_ATTR_INTS: count >= 0 */
  } value;
} movconf_plugin_attr;

/* One call of an operation, version 2. inputs are in the order
   spec/<op>.md lists them. attrs lists the attributes the case gives, in
   the order spec/<op>.md lists them; an absent attribute is not in the
   list. Find one with movconf_plugin_find_attr(). */
typedef struct movconf_plugin_request_v2 {
  int32_t op;          /* enum movconf_plugin_op */
  const char *op_name; /* "BatchToSpace-2", ...: the same operation by name */
  int32_t n_inputs;
  movconf_plugin_tensor inputs[MOVCONF_PLUGIN_MAX_INPUTS];
  int32_t n_attrs;
  const movconf_plugin_attr *attrs; /* n_attrs entries; NULL when n_attrs is 0 */
  uint64_t max_output_bytes;        /* as in version 1 (clause MC-L4) */
} movconf_plugin_request_v2;

/* What supports() is asked, version 2: the static features of a request
   (types, ranks) and its attributes, the same list as the request's. */
typedef struct movconf_plugin_query_v2 {
  int32_t op;          /* enum movconf_plugin_op */
  const char *op_name; /* as in the request */
  int32_t n_inputs;
  int32_t input_types[MOVCONF_PLUGIN_MAX_INPUTS];
  int32_t input_ranks[MOVCONF_PLUGIN_MAX_INPUTS];
  int32_t n_attrs;
  const movconf_plugin_attr *attrs;
} movconf_plugin_query_v2;

/* The attribute called name in attrs[0..n-1], or NULL when it is absent. */
static inline const movconf_plugin_attr *
movconf_plugin_find_attr(int32_t n, const movconf_plugin_attr *attrs, const char *name) {
  for (int32_t k = 0; k < n; k++) {
    const char *a = attrs[k].name, *b = name;
    while (*a && *a == *b)
      a++, b++;
    if (*a == *b)
      return &attrs[k];
  }
  return (const movconf_plugin_attr *)0;
}

/* ---- version 3 ---- */

/* One call of an operation, version 3: version 2's request with the
   inputs as a list. inputs[0 .. n_inputs-1] are in the order spec/<op>.md
   lists them; an operation's trailing optional inputs (Slice-8's axes) may
   be absent, and then n_inputs is smaller: inputs present are always a
   prefix of the operation's list. */
typedef struct movconf_plugin_request_v3 {
  int32_t op;          /* enum movconf_plugin_op */
  const char *op_name; /* "BatchToSpace-2", ...: the same operation by name */
  int32_t n_inputs;
  const movconf_plugin_tensor *inputs; /* n_inputs entries; never NULL */
  int32_t n_attrs;
  const movconf_plugin_attr *attrs; /* n_attrs entries; NULL when n_attrs is 0 */
  uint64_t max_output_bytes;        /* as in version 1 (clause MC-L4) */
} movconf_plugin_request_v3;

/* What supports() is asked, version 3: the request's input types and
   ranks (n_inputs entries each, in the request's order) and attributes. */
typedef struct movconf_plugin_query_v3 {
  int32_t op;          /* enum movconf_plugin_op */
  const char *op_name; /* as in the request */
  int32_t n_inputs;
  const int32_t *input_types; /* [0]: data; then the side inputs; never NULL */
  const int32_t *input_ranks; /* never NULL */
  int32_t n_attrs;
  const movconf_plugin_attr *attrs;
} movconf_plugin_query_v3;

/* ---- version 1: the request and query of the first ABI ---- */

/* Attributes exactly as the case gives them, valid or not: validating them
   is the implementation's job. Strings are NUL-terminated; NULL: absent. */
typedef struct movconf_plugin_attrs {
  int32_t has_block_size; /* SpaceToDepth, DepthToSpace; 0: absent (default 1) */
  int64_t block_size;
  const char *mode;                          /* "blocks_first", "depth_first", or anything */
  movconf_plugin_ints sizes, strides, rates; /* ExtractImagePatches */
  const char *auto_pad;                      /* "valid", "same_upper", "same_lower", or anything */
} movconf_plugin_attrs;

/* One call of an operation. inputs are in the order spec/<op>.md lists them:
   BatchToSpace: data, block_shape, crops_begin, crops_end; SpaceToBatch:
   data, block_shape, pads_begin, pads_end; the others: data. */
typedef struct movconf_plugin_request {
  int32_t op; /* enum movconf_plugin_op */
  int32_t n_inputs;
  movconf_plugin_tensor inputs[MOVCONF_PLUGIN_MAX_INPUTS];
  movconf_plugin_attrs attrs;
  /* The suite's cap on one output (clause MC-L4, default 1 GiB). An
     implementation may reject a larger output as output_too_large itself;
     if it does not, movconf does it on its behalf (spec/plugin-abi.md). */
  uint64_t max_output_bytes;
} movconf_plugin_request;

/* What supports() is asked: the static features of a request, no values. */
typedef struct movconf_plugin_query {
  int32_t op; /* enum movconf_plugin_op */
  int32_t n_inputs;
  int32_t input_types[MOVCONF_PLUGIN_MAX_INPUTS]; /* [0]: data; then the side inputs */
  int32_t input_ranks[MOVCONF_PLUGIN_MAX_INPUTS];
  const char *mode;     /* as in movconf_plugin_attrs; NULL: absent */
  const char *auto_pad; /* as in movconf_plugin_attrs; NULL: absent */
} movconf_plugin_query;

/* The output, zeroed by movconf before output_shape(). output_shape() fills
   type, rank and shape[0..rank-1]; movconf then sets data and nbytes and
   passes it, read-only, to run(), which writes every one of the nbytes bytes
   data points to (for u1/u4/i4 the unused bits of the last byte are zero).
   spec/plugin-abi.md section 5 has the field-by-field table. */
typedef struct movconf_plugin_output {
  int32_t type; /* enum movconf_plugin_type */
  int32_t rank; /* 0 .. MOVCONF_PLUGIN_MAX_RANK */
  int64_t shape[MOVCONF_PLUGIN_MAX_RANK];
  void *data;      /* set by movconf for run(): nbytes writable bytes of arbitrary content */
  uint64_t nbytes; /* set by movconf: ceil(elements * bits / 8) */
} movconf_plugin_output;

/* Why an input was rejected. movconf zeroes it before every call. */
typedef struct movconf_plugin_message {
  /* Optional: one of movconf's error names ("batch_not_divisible", ...,
     spec/common.md). When set, movconf compares it with the expected error
     (a name that is none of movconf's is reported as unknown); leave it
     empty if your implementation has no such names. */
  char error[64];
  /* For people. Both arrays: UTF-8, NUL-terminated (read no further than
     the array's end); other bytes are shown escaped in reports. */
  char text[448];
} movconf_plugin_message;

/* The function table, version 3. Every pointer stays valid until the
   process ends. Calls never overlap: movconf calls one function at a time
   from one thread, so a plugin need not be thread-safe; it may use threads
   internally but must have finished writing the output when run() returns. */
typedef struct movconf_plugin_v3 {
  uint32_t abi_version; /* MOVCONF_PLUGIN_ABI_V3 */
  uint32_t reserved;    /* 0 */
  const char *name;     /* the implementation's name, e.g. "acme-kernels"; not NULL */
  const char *version;  /* its version, e.g. "2.1.0"; not NULL */

  /* Non-zero when the implementation claims requests with these features,
     0 when it does not: the case is then counted "unsupported", never as a
     failure. Claim whatever you compute or reject: declining an input you
     would reject hides a missed rejection. Decline operations you do not
     know. NULL: everything is claimed. */
  int (*supports)(const movconf_plugin_query_v3 *query);

  /* Validates the request. MOVCONF_PLUGIN_OK: fills output->type, rank and
     shape (data and nbytes are not set yet). MOVCONF_PLUGIN_REJECTED: the
     input is invalid; fill *message. Required. */
  int (*output_shape)(const movconf_plugin_request_v3 *request, movconf_plugin_output *output,
                      movconf_plugin_message *message);

  /* Computes the output of the request output_shape() just accepted, with
     the same request, into output->data (output->nbytes bytes, owned by
     movconf; do not keep the pointer). MOVCONF_PLUGIN_OK, or
     MOVCONF_PLUGIN_REJECTED with *message (counted as a rejection). Required. */
  int (*run)(const movconf_plugin_request_v3 *request, const movconf_plugin_output *output,
             movconf_plugin_message *message);
} movconf_plugin_v3;

/* The function table, version 2: the fields of version 3, with the
   request and query of version 2. */
typedef struct movconf_plugin_v2 {
  uint32_t abi_version; /* MOVCONF_PLUGIN_ABI_V2 */
  uint32_t reserved;
  const char *name;
  const char *version;
  int (*supports)(const movconf_plugin_query_v2 *query);
  int (*output_shape)(const movconf_plugin_request_v2 *request, movconf_plugin_output *output,
                      movconf_plugin_message *message);
  int (*run)(const movconf_plugin_request_v2 *request, const movconf_plugin_output *output,
             movconf_plugin_message *message);
} movconf_plugin_v2;

/* The function table, version 1: the fields of version 3, with the
   request and query of version 1. */
typedef struct movconf_plugin_v1 {
  uint32_t abi_version; /* MOVCONF_PLUGIN_ABI_V1 */
  uint32_t reserved;
  const char *name;
  const char *version;
  int (*supports)(const movconf_plugin_query *query);
  int (*output_shape)(const movconf_plugin_request *request, movconf_plugin_output *output,
                      movconf_plugin_message *message);
  int (*run)(const movconf_plugin_request *request, const movconf_plugin_output *output,
             movconf_plugin_message *message);
} movconf_plugin_v1;

#if defined(_WIN32)
#define MOVCONF_PLUGIN_EXPORT __declspec(dllexport)
#else
#define MOVCONF_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* The entry point. Returns the table for abi_version (a movconf_plugin_v3
   for 3, a movconf_plugin_v2 for 2, a movconf_plugin_v1 for 1), or NULL
   when the plugin does not speak that version. movconf asks for 3, then,
   on NULL, for 2, then for 1. (A source written for version 1, whose entry
   returns const movconf_plugin_v1 *, does not compile against this header:
   build it with the version 1 header it was written for, or move it to
   version 3 - spec/plugin-abi.md section 14.) */
typedef const void *(*movconf_plugin_entry_fn)(uint32_t abi_version);
MOVCONF_PLUGIN_EXPORT const void *movconf_plugin_entry(uint32_t abi_version);

#ifdef __cplusplus
}
#endif

#endif
