/* NumPy files (.npy, format version 1.0) of a case's tensors and its
   manifest desc.json (docs/export.md). NumPy has no dtype for bf16, the f8
   types or the packed ones: bf16 is stored as uint16 and f8 as uint8 of the
   tensor's shape, u1/u4/i4 as their packed bytes, uint8 of shape (bytes,);
   the manifest names the true type and shape. Integers in the manifest
   are plain JSON numbers, exact as Python reads them, also past 2^53. */
#include <stdio.h>
#include <string.h>

#include "cases/json.h"
#include "harness/export/export_internal.h"

/* The dtype a type is stored as (descr) and its name for the manifest. */
static const char *npy_descr(mc_type t) {
  switch (t) {
  case MC_BOOLEAN:
    return "|b1";
  case MC_U8:
  case MC_F8E4M3:
  case MC_F8E5M2:
  case MC_U1:
  case MC_U4:
  case MC_I4:
    return "|u1";
  case MC_I8:
    return "|i1";
  case MC_U16:
  case MC_BF16:
    return "<u2";
  case MC_I16:
    return "<i2";
  case MC_F16:
    return "<f2";
  case MC_U32:
    return "<u4";
  case MC_I32:
    return "<i4";
  case MC_F32:
    return "<f4";
  case MC_U64:
    return "<u8";
  case MC_I64:
    return "<i8";
  case MC_F64:
    return "<f8";
  default:
    return NULL;
  }
}

static const char *stored_as(mc_type t) {
  const char *d = npy_descr(t);
  if (!d)
    return "none";
  if (t == MC_BOOLEAN)
    return "bool";
  if (strcmp(d, "|u1") == 0)
    return "uint8";
  if (strcmp(d, "|i1") == 0)
    return "int8";
  static const struct {
    const char *descr, *name;
  } wide[] = {{"<u2", "uint16"}, {"<i2", "int16"}, {"<f2", "float16"},
              {"<u4", "uint32"}, {"<i4", "int32"}, {"<f4", "float32"},
              {"<u8", "uint64"}, {"<i8", "int64"}, {"<f8", "float64"}};
  for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
    if (strcmp(d, wide[i].descr) == 0)
      return wide[i].name;
  return "none";
}

static bool is_packed(mc_type t) {
  return mc_type_bits(t) < 8;
}

/* The header: magic, version 1.0, its length, then the dict padded with
   spaces and a newline to a multiple of 64 bytes in all. */
static void write_npy_header(mc_text *t, const mc_tensor *x) {
  mc_text dict = {0};
  mc_text_printf(&dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", npy_descr(x->type));
  if (is_packed(x->type))
    mc_text_printf(&dict, "%zu,", x->nbytes);
  for (int d = 0; !is_packed(x->type) && d < x->rank; d++)
    mc_text_printf(&dict, "%s%lld", d ? ", " : "", (long long)x->shape[d]);
  if (!is_packed(x->type) && x->rank == 1)
    mc_text_put(&dict, ",", 1);
  mc_text_put(&dict, "), }", 4);
  size_t total = 10 + dict.len + 1;
  while (total % 64) {
    mc_text_put(&dict, " ", 1);
    total++;
  }
  mc_text_put(&dict, "\n", 1);
  unsigned char head[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  head[8] = (unsigned char)(dict.len & 0xff);
  head[9] = (unsigned char)(dict.len >> 8);
  mc_text_put(t, (const char *)head, sizeof head);
  mc_text_put(t, dict.p, dict.len);
  mc_text_free(&dict);
}

static bool write_npy(const char *dir, const char *name, const mc_tensor *x) {
  mc_text t = {0};
  write_npy_header(&t, x);
  mc_text_put(&t, (const char *)x->data, x->nbytes);
  bool ok = !t.oom && mc_export_file(dir, name, t.p, t.len);
  mc_text_free(&t);
  return ok;
}

/* {"file": ..., "type": ..., "shape": [...], "stored_as": ...} */
static void write_tensor_entry(mc_text *j, const char *file, const mc_tensor *x) {
  mc_text_put(j, "{\"file\": ", 9);
  mc_json_write_string(j, file);
  mc_text_printf(j, ", \"type\": \"%s\", \"shape\": ", mc_type_name(x->type));
  mc_json_write_shape(j, MC_JSON_PROTOCOL, x->rank, x->shape);
  mc_text_printf(j, ", \"stored_as\": \"%s\"%s}", stored_as(x->type),
                 is_packed(x->type) ? ", \"packed\": true" : "");
}

static void write_manifest(mc_text *j, const mc_case *c, const mc_tensor *expected) {
  mc_text_put(j, "{\"id\": ", 7);
  mc_json_write_string(j, c->id);
  mc_text_printf(j, ",\n \"operation\": \"%s\",\n \"attributes\": ", mc_op_name(c->op));
  mc_request req = mc_request_of_case(c);
  mc_json_write_attrs(j, MC_JSON_PROTOCOL, &req);
  mc_text_put(j, ",\n \"inputs\": {", 14);
  for (int i = 0; i < c->n_inputs; i++) {
    const char *name = mc_op_input_name(c->op, i);
    char file[64];
    snprintf(file, sizeof file, "%s.npy", name);
    mc_text_printf(j, "%s\"%s\": ", i ? ",\n  " : "\n  ", name);
    write_tensor_entry(j, file, &c->inputs[i].tensor);
  }
  mc_text_put(j, "},\n \"expect\": ", 14);
  if (expected) {
    mc_text_put(j, "{\"output\": ", 11);
    write_tensor_entry(j, "output.npy", expected);
    mc_text_put(j, "}", 1);
  } else {
    mc_text_printf(j, "{\"error\": \"%s\"}", mc_status_name(c->expected_error));
  }
  mc_text_put(j, ",\n \"clauses\": [", 15);
  for (int i = 0; i < c->n_clauses; i++) {
    if (i)
      mc_text_put(j, ", ", 2);
    mc_json_write_string(j, c->clauses[i]);
  }
  mc_text_put(j, "],\n \"origin\": ", 14);
  mc_json_write_string(j, c->origin);
  mc_text_put(j, "}\n", 2);
}

int mc_export_npy_skip(const mc_case *c) {
  for (int i = 0; i < mc_op_attr_count(c->op); i++) {
    mc_attr a = mc_op_attr(c->op, i);
    if (mc_attr_kind_of(a) == MC_ATTR_KIND_INT_LIST &&
        mc_attrs_list(&c->attrs, a)->count > MC_MAX_ATTR_LEN)
      return MC_EXPORT_SKIP_LIST_TOO_LONG;
  }
  return -1;
}

bool mc_export_npy_write(const mc_case *c, const mc_tensor *expected, const char *dir) {
  for (int i = 0; i < c->n_inputs; i++) {
    char file[64];
    snprintf(file, sizeof file, "%s.npy", mc_op_input_name(c->op, i));
    if (!write_npy(dir, file, &c->inputs[i].tensor))
      return false;
  }
  if (expected && !write_npy(dir, "output.npy", expected))
    return false;
  mc_text j = {0};
  write_manifest(&j, c, expected);
  bool ok = !j.oom && mc_export_file(dir, "desc.json", j.p, j.len);
  mc_text_free(&j);
  return ok;
}
