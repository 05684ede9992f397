/* Protobuf's wire format (varints and length-delimited fields), enough to
   write ONNX's ModelProto and TensorProto without a protobuf library. */
#include "harness/export/export_internal.h"

static void put_varint(mc_text *t, uint64_t v) {
  unsigned char bytes[10];
  size_t n = 0;
  do {
    unsigned char low = v & 0x7f;
    v >>= 7;
    bytes[n++] = v ? (unsigned char)(low | 0x80) : low;
  } while (v);
  mc_text_put(t, (const char *)bytes, n);
}

static void put_key(mc_text *t, unsigned field, unsigned wire_type) {
  put_varint(t, ((uint64_t)field << 3) | wire_type);
}

void mc_pb_varint(mc_text *t, unsigned field, uint64_t value) {
  put_key(t, field, 0);
  put_varint(t, value);
}

void mc_pb_bytes(mc_text *t, unsigned field, const void *data, size_t n) {
  put_key(t, field, 2);
  put_varint(t, n);
  if (n)
    mc_text_put(t, data, n);
}

void mc_pb_string(mc_text *t, unsigned field, const char *s) {
  size_t n = 0;
  while (s[n])
    n++;
  mc_pb_bytes(t, field, s, n);
}

void mc_pb_message(mc_text *t, unsigned field, const mc_text *sub) {
  mc_pb_bytes(t, field, sub->p, sub->len);
}
