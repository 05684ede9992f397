/* The output of a reply: type and shape checked against the cap, its
   bytes decoded from base64 (in the line's own buffer when large) or read
   from the request's shared memory file. */
#include "harness/impl/exec/adapter.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/payload.h"
#include "movconf/tensor.h"

static bool read_shape(const char *line, size_t n, const cJSON *shape, mc_tensor *t, char *why,
                       size_t whylen) {
  if (!cJSON_IsArray(shape))
    return mc_adapter_fail(why, whylen, "output.shape must be an array of integers");
  int rank = cJSON_GetArraySize(shape);
  if (rank > MC_TENSOR_MAX_RANK) {
    snprintf(why, whylen, "output.shape has %d dimensions; at most %d", rank, MC_TENSOR_MAX_RANK);
    return false;
  }
  t->rank = rank;
  int d = 0;
  for (const cJSON *dim = shape->child; dim; dim = dim->next, d++) {
    if (!mc_adapter_plain_integer(line, n, dim, &t->shape[d]) || t->shape[d] < 0) {
      snprintf(why, whylen, "output.shape[%d] is not an integer in 0..2^63-1", d);
      return false;
    }
  }
  return true;
}

/* Outputs up to this size are copied; larger ones take the line's buffer. */
#define OUTPUT_COPY_MAX_BYTES ((size_t)1 << 20)

/* Hands over a->buf (the current line and what follows it) and gives the
   adapter a fresh buffer with what followed the line. */
static char *take_line_buffer(mc_adapter *a, size_t line_len, bool *ok) {
  size_t rest = a->len - (line_len + 1);
  char *fresh = malloc(rest > FIRST_READ_BUFFER_BYTES ? rest : FIRST_READ_BUFFER_BYTES);
  *ok = fresh != NULL;
  if (!fresh)
    return NULL;
  memcpy(fresh, a->buf + line_len + 1, rest);
  char *old = a->buf;
  a->buf = fresh;
  a->cap = rest > FIRST_READ_BUFFER_BYTES ? rest : FIRST_READ_BUFFER_BYTES;
  a->len = rest;
  return old;
}

/* A zero-element shape whose other dimensions multiply past int64: the
   implementation accepted the input with an output no tensor can have. */
static bool read_unrepresentable(const mc_tensor *t, bool payload_empty, mc_impl_result *r,
                                 char *why, size_t whylen) {
  bool empty = false;
  for (int d = 0; d < t->rank; d++)
    empty = empty || t->shape[d] == 0;
  if (!empty)
    return mc_adapter_fail(why, whylen, "output.shape has more elements than int64 can count");
  if (!payload_empty)
    return mc_adapter_fail(why, whylen,
                           "a zero-element output has output.base64 \"\" or output.bytes 0");
  r->output = (mc_tensor){.type = t->type, .rank = t->rank};
  memcpy(r->output.shape, t->shape, sizeof t->shape);
  r->output_unrepresentable = true;
  r->outcome = MC_OUTCOME_OUTPUT;
  return true;
}

/* Decodes the base64 of a cut string in place and makes the line's buffer
   the output's storage. */
static bool decode_in_line(mc_reply_line *L, char *content, const mc_tensor *t, size_t nbytes,
                           mc_impl_result *r, char *why, size_t whylen) {
  if (!mc_base64_decode(content, (uint8_t *)content, nbytes, why, whylen))
    return false;
  size_t at = (size_t)(content - L->a->buf); /* before a->buf is replaced */
  bool ok;
  char *block = take_line_buffer(L->a, L->n, &ok);
  if (!ok)
    return mc_adapter_fail(why, whylen, "out of memory for the output");
  L->taken = true;
  size_t offset = (size_t)(-(uintptr_t)block & (MC_TENSOR_ALIGN - 1));
  memmove(block + offset, block + at, nbytes);
  r->output = *t;
  r->output.data = (uint8_t *)block + offset;
  r->output.nbytes = nbytes;
  r->output.allocation = block;
  return true;
}

/* Decodes output.base64 (whole in the skeleton, or cut and read from the
   line) into r->output. */
static bool decode_output(mc_reply_line *L, const cJSON *b64, const mc_reply_cut *cut,
                          const mc_tensor *t, size_t nbytes, size_t cap, mc_impl_result *r,
                          char *why, size_t whylen) {
  const char *text = b64->valuestring;
  char *content = NULL;
  if (cut) {
    content = L->a->buf + cut->begin;
    content[mc_reply_unescape_ascii(content, cut->end - cut->begin)] = '\0';
    text = content;
  }
  if (cut && nbytes > OUTPUT_COPY_MAX_BYTES)
    return decode_in_line(L, content, t, nbytes, r, why, whylen);
  if (mc_tensor_alloc(&r->output, t->type, t->rank, t->shape, cap) != MC_OK)
    return mc_adapter_fail(why, whylen, "out of memory for the output");
  if (!mc_base64_decode(text, r->output.data, nbytes, why, whylen)) {
    mc_tensor_free(&r->output);
    return false;
  }
  return true;
}

/* Copies the output the adapter wrote in the shared memory file, after
   checking what the reply says it wrote: exactly the bytes type and shape
   take (bytes beyond them are never read), and sealing the file against
   writes (a write after the reply is refused, never judged). */
static bool read_region_output(const mc_shm_region *region, int64_t written, const mc_tensor *t,
                               size_t nbytes, size_t cap, mc_impl_result *r, char *why,
                               size_t whylen) {
  if ((uint64_t)written != nbytes) {
    snprintf(why, whylen,
             "output.bytes says %" PRId64 " bytes were written; %s of this shape takes %zu",
             written, mc_type_name(t->type), nbytes);
    return false;
  }
  if (nbytes > region->output_room) {
    snprintf(why, whylen, "output of %zu bytes, more than the output region's %zu", nbytes,
             region->output_room);
    return false;
  }
  if (!mc_shm_region_freeze(region, why, whylen))
    return false;
  /* Up to the size this request's output must have, the copy costs what
     the right output would. Beyond it, a reply could name gigabytes of a
     sparse file it never wrote: those are checked before any allocation. */
  if (nbytes > region->expected_output &&
      !mc_shm_region_output_written(region, nbytes, why, whylen))
    return false;
  if (mc_tensor_alloc(&r->output, t->type, t->rank, t->shape, cap) != MC_OK)
    return mc_adapter_fail(why, whylen, "out of memory for the output");
  if (!mc_shm_region_read_output(region, r->output.data, nbytes, why, whylen)) {
    mc_tensor_free(&r->output);
    return false;
  }
  r->outcome = MC_OUTCOME_OUTPUT;
  return true;
}

/* output.bytes: a plain integer >= 0, only in reply to a request that had a
   shared memory file. */
static bool read_written(const mc_reply_line *L, const cJSON *written, int64_t *count, char *why,
                         size_t whylen) {
  if (L->a->region.fd < 0)
    return mc_adapter_fail(why, whylen,
                           "output.bytes in reply to a request without a shared memory file");
  if (!mc_adapter_plain_integer(L->text.text, L->text.len, written, count) || *count < 0)
    return mc_adapter_fail(why, whylen, "output.bytes must be an integer >= 0");
  return true;
}

/* Reads "output": {"type", "shape", "base64" or "bytes"} into r->output. */
bool mc_adapter_read_output(mc_reply_line *L, const cJSON *out, size_t max_output_bytes,
                            mc_impl_result *r, char *why, size_t whylen) {
  static const char *const keys[] = {"type", "shape", "base64", "bytes"};
  if (!cJSON_IsObject(out))
    return mc_adapter_fail(why, whylen, "\"output\" must be an object");
  if (!mc_adapter_check_keys(out, "output", keys, 4, why, whylen))
    return false;
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(out, "type");
  const cJSON *b64 = cJSON_GetObjectItemCaseSensitive(out, "base64");
  const cJSON *written = cJSON_GetObjectItemCaseSensitive(out, "bytes");
  mc_tensor t = {.type =
                     cJSON_IsString(type) ? mc_type_from_name(type->valuestring) : MC_TYPE_INVALID};
  if (t.type == MC_TYPE_INVALID)
    return mc_adapter_fail(why, whylen, "output.type is not an element type name");
  if (!read_shape(L->text.text, L->text.len, cJSON_GetObjectItemCaseSensitive(out, "shape"), &t,
                  why, whylen))
    return false;
  if ((b64 != NULL) == (written != NULL))
    return mc_adapter_fail(why, whylen, "output has exactly one of \"base64\" and \"bytes\"");
  int64_t written_count = 0;
  if (written && !read_written(L, written, &written_count, why, whylen))
    return false;
  if (b64 && !cJSON_IsString(b64))
    return mc_adapter_fail(why, whylen, "output.base64 must be a string");
  const mc_reply_cut *cut = b64 ? mc_reply_text_cut_of(&L->text, b64) : NULL;
  int64_t count;
  size_t nbytes;
  if (!mc_shape_elements(t.rank, t.shape, &count))
    return read_unrepresentable(&t, b64 ? !cut && b64->valuestring[0] == '\0' : written_count == 0,
                                r, why, whylen);
  if (!mc_storage_bytes(t.type, count, &nbytes))
    return mc_adapter_fail(why, whylen, "output.shape has more bytes than int64 can count");
  if (nbytes > max_output_bytes) {
    snprintf(why, whylen, "output of %zu bytes, above the output cap of %zu bytes", nbytes,
             max_output_bytes);
    return false;
  }
  if (written)
    return read_region_output(&L->a->region, written_count, &t, nbytes, max_output_bytes, r, why,
                              whylen);
  char b64_why[200];
  if (!decode_output(L, b64, cut, &t, nbytes, max_output_bytes, r, b64_why, sizeof b64_why)) {
    snprintf(why, whylen, "output.base64 (%s, shape of %" PRId64 " elements): %s",
             mc_type_name(t.type), count, b64_why);
    return false;
  }
  r->outcome = MC_OUTCOME_OUTPUT;
  return true;
}
