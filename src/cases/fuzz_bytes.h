/* The structure-aware data producer of the fuzz targets: it turns fuzzer
   bytes into a request (op, element type, shape, side inputs, attributes,
   data), a thread count and an output cap. The byte layout is documented in
   fuzz/README.md; tools/make_corpus.py writes it, so that conformance cases
   become seed inputs and a seed decodes to exactly its case's request.

   Every byte string decodes to something (bytes past the end read as 0), and
   most decode to valid requests: blocks, crops, pads and dimensions are
   chosen to divide and fit unless a selector byte asks for an edge value,
   a hostile value or an exact one. */
#ifndef MOVCONF_FUZZ_PRODUCER_H
#define MOVCONF_FUZZ_PRODUCER_H

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
  mc_request req;                   /* inputs point into tensors, strings into mode/auto_pad */
  mc_tensor tensors[MC_MAX_INPUTS]; /* owned; data never NULL, 64-byte aligned */
  char *mode, *auto_pad;            /* owned; NULL when absent */
  int threads;                      /* 1 .. MC_FUZZ_MAX_THREADS */
  size_t max_output_bytes;          /* the cap given to every implementation */
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

/* Writes count elements of t (allocated, zeroed) as the fill of
   spec/case-format.md 7.4 (counter start or prng seed in param; not
   MC_FUZZ_FILL_BYTES): the bytes mc_fill_counter and mc_fill_prng of the
   loader give, faster for byte-sized types. */
void mc_fuzz_fill_data(mc_tensor *t, int64_t count, mc_fuzz_fill fill, uint64_t param);

#endif
