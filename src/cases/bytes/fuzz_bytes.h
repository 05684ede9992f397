/* Fuzz bytes, one of the representations of a request (next to case JSON,
   adapter JSON and the plugin ABI): the structure-aware data producer of the
   fuzz targets decodes fuzzer bytes into a request (op, element type, shape,
   side inputs, attributes, data), a thread count and an output cap, and
   mc_fuzz_encode writes such a request back as bytes. The byte layout is
   documented in fuzz/README.md ("Byte layout"); the attributes are walked by
   the attribute table of movconf/ops.h in both directions.

   Every byte string decodes to something (bytes past the end read as 0), and
   most decode to valid requests: blocks, crops, pads and dimensions are
   chosen to divide and fit unless a selector byte asks for an edge value,
   a hostile value or an exact one. The encoder always writes exact values,
   so that seeds made from conformance cases decode to exactly their cases. */
#ifndef MOVCONF_CASES_FUZZ_BYTES_H
#define MOVCONF_CASES_FUZZ_BYTES_H

#include <stddef.h>
#include <stdint.h>

#include "movconf/ops.h"

/* Natural shapes of the two size classes stay at or below this many data
   elements (most inputs are small, for speed). */
#define MC_FUZZ_SMALL_ELEMENTS 4096
#define MC_FUZZ_LARGE_ELEMENTS 262144
/* Output cap of decoded requests unless the cap selector picks a tiny one:
   OUTPUT_FACTOR times the class's data elements, in bytes of the data type,
   at most MAX_OUTPUT_BYTES. The cap bounds the work of a request (padding
   can make an output far larger than its data), not only its memory. */
#define MC_FUZZ_OUTPUT_FACTOR 8
#define MC_FUZZ_MAX_OUTPUT_BYTES ((size_t)16 << 20)
/* Most data elements a decoded request carries, whatever its dimensions
   say (exact ones included): SMALL_LIMIT in the small class, LARGE_ELEMENTS
   in the large one. Larger data is refused: filling it alone would take
   longer than a whole typical run. */
#define MC_FUZZ_SMALL_LIMIT (4 * MC_FUZZ_SMALL_ELEMENTS)
/* Largest side input (elements); larger ones are refused. */
#define MC_FUZZ_MAX_SIDE_ELEMENTS 64
/* Longest mode or auto_pad string. */
#define MC_FUZZ_MAX_STRING 64
/* Longest integer-list attribute (the case format's limit). */
#define MC_FUZZ_MAX_LIST 64
#define MC_FUZZ_MAX_THREADS 8

/* How the data tensor's bytes were made; fuzz_to_case writes the fill
   forms of spec/case-format.md for the first two. */
typedef enum mc_fuzz_fill {
  MC_FUZZ_FILL_COUNTER, /* {"fill": {"counter": start}} */
  MC_FUZZ_FILL_PRNG,    /* {"fill": {"prng": {"seed": seed}}} */
  MC_FUZZ_FILL_BYTES    /* raw bytes from the input */
} mc_fuzz_fill;

typedef struct mc_fuzz_input {
  mc_request req;                   /* decoded: inputs point into tensors, strings into strings[] */
  mc_tensor tensors[MC_MAX_INPUTS]; /* decoded: owned; data never NULL, 64-byte aligned */
  char *strings[MC_ATTR_COUNT];     /* decoded: owned string attributes; NULL when absent */
  int threads;                      /* 1 .. MC_FUZZ_MAX_THREADS */
  size_t max_output_bytes;          /* the cap given to every implementation */
  bool large;                       /* the large size class (budget, limit, natural cap) */
  mc_fuzz_fill data_fill;
  uint64_t data_fill_param; /* counter start (two's complement) or prng seed */
} mc_fuzz_input;

/* Decodes size bytes into *out. False when the bytes describe a request the
   targets do not run (a data tensor above MC_FUZZ_SMALL_LIMIT or
   MC_FUZZ_LARGE_ELEMENTS elements, a side
   input above MC_FUZZ_MAX_SIDE_ELEMENTS, a negative dimension, an element
   count a case file could not hold) or memory runs out; *out then owns
   nothing. Deterministic: the same bytes give the same request. */
bool mc_fuzz_decode(const uint8_t *data, size_t size, mc_fuzz_input *out);
void mc_fuzz_input_free(mc_fuzz_input *in);

/* The output cap a decoded request of data type t gets unless the cap
   selector picks a tiny one: OUTPUT_FACTOR times the size class's element
   budget, in bytes of t, at most MC_FUZZ_MAX_OUTPUT_BYTES. */
size_t mc_fuzz_natural_cap(mc_type t, bool large);

/* Encoded fuzz bytes (malloc'ed). */
typedef struct mc_fuzz_bytes {
  uint8_t *data;
  size_t size, capacity;
  bool oom;
} mc_fuzz_bytes;

/* Writes the bytes that mc_fuzz_decode turns back into exactly in->req
   (same op, inputs of the same type, shape and bytes, same attributes), with
   in->threads, in->large, in->max_output_bytes and the data made by
   in->data_fill (the fill is written, not the bytes it makes, when it is
   not MC_FUZZ_FILL_BYTES). in->tensors and in->strings are not read: a
   request need not come from the decoder.

   What the layout cannot express, which the encoder refuses (false, the
   reason in why, *out empty):
   - an op outside mc_op, an input count other than the op's, an attribute
     the op does not have;
   - a data type code other than the 18 types and the four invalid codes
     18, -1, 64, 255; a side input of no valid type;
   - a tensor of more than MC_TENSOR_MAX_RANK axes, a negative dimension or
     an element count beyond int64 or storage; a data tensor above the size
     class's limit (MC_FUZZ_SMALL_LIMIT or MC_FUZZ_LARGE_ELEMENTS elements),
     a side input above MC_FUZZ_MAX_SIDE_ELEMENTS;
   - a string attribute longer than MC_FUZZ_MAX_STRING bytes or not
     well-formed UTF-8 (the decoder would replace its bytes by '?');
   - an integer list longer than MC_FUZZ_MAX_LIST (any negative count is
     absent, and decodes as -1);
   - a thread count outside 1 .. MC_FUZZ_MAX_THREADS; an output cap other
     than the natural one of the size class and the 16 tiny ones of the
     layout;
   - data that the named fill does not make, or (raw bytes) with unused
     bits of a packed last byte set.
   Out of memory also returns false. */
bool mc_fuzz_encode(const mc_fuzz_input *in, mc_fuzz_bytes *out, char *why, size_t whylen);
void mc_fuzz_bytes_free(mc_fuzz_bytes *b);

/* The spelling of string attribute a of op that changes nothing (the
   first of its layout's spellings: mode blocks_first, auto_pad valid);
   NULL when op has no such string attribute. */
const char *mc_bytes_neutral_spelling(mc_op op, mc_attr a);
/* Whether op's layout (src/cases/bytes/ops/<slug>.c) has the values of
   every attribute of its op_list.h row. */
bool mc_bytes_layout_complete(mc_op op);

/* Writes count elements of t (allocated, zeroed) as the fill of
   spec/case-format.md 7.4 (counter start or prng seed in param; not
   MC_FUZZ_FILL_BYTES): the bytes mc_fill_counter and mc_fill_prng of the
   loader give, faster for byte-sized types. */
void mc_fuzz_fill_data(mc_tensor *t, int64_t count, mc_fuzz_fill fill, uint64_t param);

#endif
