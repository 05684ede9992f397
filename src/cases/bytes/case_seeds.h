/* What the seed corpora of the fuzz targets are made of (fuzz/README.md,
   "Seed corpus"; fuzz/fuzz_corpus.c writes them): a conformance case as a
   fuzz input for mc_fuzz_encode, and each case of a case file alone in a
   case file of its own for the parser target. */
#ifndef MOVCONF_CASES_BYTES_CASE_SEEDS_H
#define MOVCONF_CASES_BYTES_CASE_SEEDS_H

#include "cases/bytes/fuzz_bytes.h"
#include "cases/cases.h"

/* The fuzz input of case c, for mc_fuzz_encode: its request (pointers into
   c), a thread count of 1 to 8 fixed by its id (spread over the seeds), the
   large size class when its data or expected output needs it, the class's
   natural output cap, and the data's counter or prng fill when the case
   gives one (else its bytes). Nothing is allocated; in->tensors and
   in->strings stay empty. */
void mc_fuzz_input_of_case(const mc_case *c, mc_fuzz_input *in);

/* Each case of a case file alone in a case file:
   {"format": F, "op": O, "cases": [CASE]} and a newline, with the format,
   op and case exactly as text has them (members in their order, numbers as
   written), spaced as Python's json.dumps(..., ensure_ascii=False) spaces
   them: the committed parser corpus was first written that way. text must
   be a case file that mc_case_file_parse accepts. Returns an array of
   *count malloc'ed strings (free each, then the array), or NULL with a
   message in err. */
char **mc_cases_alone(const char *text, size_t len, int *count, char *err, size_t errlen);

#endif
