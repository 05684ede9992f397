/* What the exporters share inside src/harness/export/. */
#ifndef MOVCONF_HARNESS_EXPORT_INTERNAL_H
#define MOVCONF_HARNESS_EXPORT_INTERNAL_H

#include <stdint.h>

#include "common/text.h"
#include "harness/export/export.h"

/* ---- protobuf.c: protobuf's wire format, the few forms ONNX needs ---- */

/* A varint field (wire type 0): integers, enums; negative int64 values as
   their two's complement, as protobuf writes them. */
void mc_pb_varint(mc_text *t, unsigned field, uint64_t value);
/* A length-delimited field (wire type 2): bytes, strings, messages. */
void mc_pb_bytes(mc_text *t, unsigned field, const void *data, size_t n);
void mc_pb_string(mc_text *t, unsigned field, const char *s);
/* A message built in sub as a field of t. */
void mc_pb_message(mc_text *t, unsigned field, const mc_text *sub);

/* ---- export_onnx.c ---- */

/* -1 when an ONNX node test of c has the same meaning, else the reason
   (mc_export_skip) it has not. */
int mc_export_onnx_skip(const mc_case *c);
/* Writes model.onnx and test_data_set_0/ of c (expected: its output) in dir. */
bool mc_export_onnx_write(const mc_case *c, const mc_tensor *expected, const char *dir);

/* ---- export_npy.c ---- */

/* -1 when the manifest can say all of c, else the reason it cannot. */
int mc_export_npy_skip(const mc_case *c);
/* Writes each input and the expected output (NULL: an expected error) of c
   as .npy files, with desc.json, in dir. */
bool mc_export_npy_write(const mc_case *c, const mc_tensor *expected, const char *dir);

/* ---- export.c ---- */

/* dir/name, written whole (mc_write_file_atomic); false said on stderr. */
bool mc_export_file(const char *dir, const char *name, const void *data, size_t n);

#endif
