/* Tensor payloads: hex and base64 in both directions, and the generated
   fills (counter, prng) a case file or a fuzz input can name. */
#ifndef MOVCONF_CASES_PAYLOAD_H
#define MOVCONF_CASES_PAYLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/text.h"
#include "movconf/types.h"

/* ---- payload.c and base64.c ---- */

/* Decodes exactly 2*nbytes hex digits (either case) into out; with out
   NULL it only checks. */
bool mc_hex_decode(const char *s, uint8_t *out, size_t nbytes, char *why, size_t whylen);
/* Decodes strict RFC 4648 base64 (standard alphabet, '=' padding, no
   whitespace, zero padding bits) that must yield exactly nbytes bytes;
   with out NULL it only checks. */
bool mc_base64_decode(const char *s, uint8_t *out, size_t nbytes, char *why, size_t whylen);
/* Bits of the last storage byte that count packed elements of t leave
   unused (must be zero); 0 when the last byte is full or t is byte-sized. */
uint8_t mc_unused_tail_mask(mc_type t, int64_t count);
/* splitmix64 output number index (0-based) for seed. */
uint64_t mc_splitmix64(uint64_t seed, uint64_t index);
/* Raw bits of element i = (start + i) mod 2^bits. */
void mc_fill_counter(mc_tensor *t, int64_t count, int64_t start);
/* Raw bits of element i = low bits of mc_splitmix64(seed, i). */
void mc_fill_prng(mc_tensor *t, int64_t count, uint64_t seed);

/* Appends data as RFC 4648 base64 with padding. */
void mc_base64_write(mc_text *t, const uint8_t *data, size_t n);
/* "'x'" for a printable character, else "byte 0xNN": for messages. */
void mc_show_char(char c, char *buf, size_t n);

#endif
