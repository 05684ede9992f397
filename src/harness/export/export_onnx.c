/* ONNX node tests of the cases whose meaning an ONNX operator shares
   (docs/export.md): the mapping, case by case, and the protobuf files.
   Field numbers and type codes are those of onnx/onnx.proto. */
#include <stdio.h>
#include <string.h>

#include "harness/export/export_internal.h"
#include "movconf/tensor.h"
#include "movconf/version.h"

/* The opset and IR version every model declares: DepthToSpace,
   SpaceToDepth and Slice all have their last version at opset 13, whose
   IR version is 7 (ONNX 1.8), so every checker since reads the models. */
#define ONNX_OPSET 13
#define ONNX_IR_VERSION 7

/* TensorProto.DataType of each movconf type; 0: none. f8 (17 E4M3FN, 19
   E5M2) and 4-bit (21, 22) exist from opsets 19 and 21, but no operator
   mapped here takes them: they are left out of the type constraints below. */
static int onnx_type_code(mc_type t) {
  switch (t) {
  case MC_F32:
    return 1;
  case MC_U8:
    return 2;
  case MC_I8:
    return 3;
  case MC_U16:
    return 4;
  case MC_I16:
    return 5;
  case MC_I32:
    return 6;
  case MC_I64:
    return 7;
  case MC_BOOLEAN:
    return 9;
  case MC_F16:
    return 10;
  case MC_F64:
    return 11;
  case MC_U32:
    return 12;
  case MC_U64:
    return 13;
  case MC_BF16:
    return 16;
  case MC_F8E4M3:
    return 17;
  case MC_F8E5M2:
    return 19;
  case MC_U4:
    return 21;
  case MC_I4:
    return 22;
  default:
    return 0;
  }
}

/* The type constraint T of DepthToSpace-13, SpaceToDepth-13 and Slice-13:
   every numeric type of opset 13 with bool and bfloat16 (and string and
   complex, which movconf has not). */
static bool in_opset13_constraint(mc_type t) {
  return onnx_type_code(t) != 0 && t != MC_F8E4M3 && t != MC_F8E5M2 && t != MC_U4 && t != MC_I4;
}

static int type_skip(mc_type t) {
  if (onnx_type_code(t) == 0)
    return MC_EXPORT_SKIP_TYPE_NOT_IN_ONNX;
  return in_opset13_constraint(t) ? -1 : MC_EXPORT_SKIP_TYPE_NOT_IN_OPERATOR;
}

/* ---- Slice-8 and Slice-13: where their clamping agrees ---- */

/* The elements an axis keeps: the first index and how many. */
typedef struct axis_range {
  int64_t first, count;
} axis_range;

static int64_t clamp(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

static axis_range range_of(int64_t start, int64_t stop, int64_t step) {
  /* start and stop are within [-1, dim], so their difference fits. */
  int64_t span = step > 0 ? stop - start : start - stop;
  uint64_t magnitude = step > 0 ? (uint64_t)step : (uint64_t)(-(step + 1)) + 1;
  uint64_t count = span <= 0 ? 0 : ((uint64_t)span + magnitude - 1) / magnitude;
  return (axis_range){start, (int64_t)count};
}

/* Python's rule (SL-S2): with a negative step a bound below -dim is -1. */
static axis_range slice8_axis(int64_t start, int64_t stop, int64_t step, int64_t dim) {
  int64_t hi = step > 0 ? dim : dim - 1, below = step > 0 ? 0 : -1;
  int64_t s = start < 0 ? (start + dim < 0 ? below : start + dim) : (start > hi ? hi : start);
  int64_t e = stop < 0 ? (stop + dim < 0 ? below : stop + dim) : (stop > hi ? hi : stop);
  return range_of(s, e, step);
}

/* ONNX Slice-13: negative bounds plus dim, then starts into [0, dim]
   ([0, dim-1] for a negative step), ends into [0, dim] ([-1, dim-1]). */
static axis_range onnx_axis(int64_t start, int64_t stop, int64_t step, int64_t dim) {
  int64_t s = start < 0 ? start + dim : start, e = stop < 0 ? stop + dim : stop;
  if (step > 0)
    return range_of(clamp(s, 0, dim), clamp(e, 0, dim), step);
  return range_of(clamp(s, 0, dim - 1), clamp(e, -1, dim - 1), step);
}

static int slice_skip(const mc_case *c) {
  const mc_tensor *data = &c->inputs[0].tensor;
  if (data->rank == 0)
    return MC_EXPORT_SKIP_SLICE_SCALAR;
  const mc_tensor *start = &c->inputs[1].tensor, *stop = &c->inputs[2].tensor,
                  *step = &c->inputs[3].tensor;
  const mc_tensor *axes = c->n_inputs > 4 ? &c->inputs[4].tensor : NULL;
  int64_t n = mc_tensor_elements(start);
  if (n > MC_MAX_RANK)
    return MC_EXPORT_SKIP_NO_OPERATOR; /* not reached: a valid case slices at most its rank */
  for (int64_t i = 0; i < n; i++) {
    int64_t b, e, s, axis = i;
    if (!mc_side_value_saturating(start, i, &b) || !mc_side_value_saturating(stop, i, &e) ||
        !mc_side_value_saturating(step, i, &s) || (axes && !mc_side_value(axes, i, &axis)))
      return MC_EXPORT_SKIP_NO_OPERATOR; /* not reached: a valid case reads */
    int64_t dim = data->shape[axis < 0 ? axis + data->rank : axis];
    if (s < 0 && dim == 0)
      return MC_EXPORT_SKIP_SLICE_EMPTY_AXIS;
    axis_range ours = slice8_axis(b, e, s, dim), theirs = onnx_axis(b, e, s, dim);
    if (ours.count != theirs.count || (ours.count > 0 && ours.first != theirs.first))
      return MC_EXPORT_SKIP_SLICE_START_CLAMP;
  }
  return -1;
}

/* ---- Pad-12 and Pad-13: modes constant, reflect, edge, pads of 0 or more ---- */

/* The case's string attribute attr is value. */
static bool attr_is(const mc_case *c, mc_attr attr, const char *value) {
  const char *given = mc_attrs_string(&c->attrs, attr);
  return given && strcmp(given, value) == 0;
}

static bool any_negative(const mc_tensor *pads) {
  int64_t n = mc_tensor_elements(pads);
  for (int64_t i = 0; i < n; i++) {
    int64_t v = 0;
    if (!mc_side_value_saturating(pads, i, &v) || v < 0)
      return true;
  }
  return false;
}

static int pad_skip(const mc_case *c) {
  if (attr_is(c, MC_ATTR_PAD_MODE, "symmetric"))
    return MC_EXPORT_SKIP_PAD_SYMMETRIC;
  if (c->inputs[0].tensor.rank == 0)
    return MC_EXPORT_SKIP_PAD_SCALAR;
  if (any_negative(&c->inputs[1].tensor) || any_negative(&c->inputs[2].tensor))
    return MC_EXPORT_SKIP_PAD_NEGATIVE;
  return type_skip(c->inputs[0].tensor.type);
}

/* Gather-13 (data, indices, attribute axis) means Gather-8 with batch_dims
   0 when every index is within [-d, d-1] and of a type its Tind has. */
static int gather_skip(const mc_case *c) {
  const mc_tensor *data = &c->inputs[0].tensor, *indices = &c->inputs[1].tensor;
  const int64_t b = mc_attrs_int(&c->attrs, MC_ATTR_BATCH_DIMS);
  if (b != 0 && b != -(int64_t)indices->rank)
    return MC_EXPORT_SKIP_GATHER_BATCH_DIMS;
  if (indices->type != MC_I32 && indices->type != MC_I64)
    return MC_EXPORT_SKIP_GATHER_INDICES_TYPE;
  int64_t x = 0;
  mc_side_value(&c->inputs[2].tensor, 0, &x); /* a valid case: in [-r, r-1] */
  const int64_t d = data->shape[x < 0 ? x + data->rank : x];
  for (int64_t i = 0; i < mc_tensor_elements(indices); i++) {
    int64_t v = 0;
    if (!mc_side_value(indices, i, &v) || v < -d || v >= d)
      return MC_EXPORT_SKIP_GATHER_OUT_OF_RANGE;
  }
  return type_skip(data->type);
}

int mc_export_onnx_skip(const mc_case *c) {
  if (c->expect_error)
    return MC_EXPORT_SKIP_EXPECTED_ERROR;
  const mc_tensor *data = &c->inputs[0].tensor;
  switch (c->op) {
  case MC_OP_SPACE_TO_DEPTH:
    if (!attr_is(c, MC_ATTR_MODE, "blocks_first"))
      return MC_EXPORT_SKIP_S2D_DEPTH_FIRST;
    /* fall through */
  case MC_OP_DEPTH_TO_SPACE:
    if (!attr_is(c, MC_ATTR_MODE, "blocks_first") && !attr_is(c, MC_ATTR_MODE, "depth_first"))
      return MC_EXPORT_SKIP_NO_OPERATOR; /* not reached: a valid case has a mode */
    if (data->rank != 4)
      return MC_EXPORT_SKIP_RANK_NOT_4;
    return type_skip(data->type);
  case MC_OP_SLICE: {
    int skip = type_skip(data->type);
    return skip >= 0 ? skip : slice_skip(c);
  }
  case MC_OP_PAD:
    return pad_skip(c);
  case MC_OP_GATHER:
    return gather_skip(c);
  case MC_OP_TRANSPOSE:
    /* Transpose-13's perm is Transpose-1's valid input_order (a permutation
       of 0..r-1); an empty order and an absent perm both reverse the axes. */
    return type_skip(data->type);
  default:
    return MC_EXPORT_SKIP_NO_OPERATOR;
  }
}

/* ---- the protobuf messages ---- */

/* Slice's side inputs go as int64 unless all are int32 or all int64 (ONNX's
   Tind is one of the two): the same values, a u64 above INT64_MAX as
   INT64_MAX, which both rules clamp alike. */
static bool slice_sides_as_given(const mc_case *c) {
  mc_type t = c->inputs[1].tensor.type;
  if (t != MC_I32 && t != MC_I64)
    return false;
  for (int i = 2; i < c->n_inputs; i++)
    if (c->inputs[i].tensor.type != t)
      return false;
  return true;
}

/* One graph input or output: its ONNX name and tensor. */
typedef struct onnx_value {
  const char *name;
  mc_tensor tensor; /* a view, or int64 values owned by the plan */
} onnx_value;

typedef struct onnx_plan {
  const char *op_type;
  int n_inputs;
  onnx_value inputs[MC_MAX_INPUTS];
  const char *node_inputs[MC_MAX_INPUTS]; /* "" for an absent optional input */
  int n_node_inputs;
  int64_t side[MC_MAX_INPUTS][MC_MAX_RANK]; /* Slice's sides as int64 */
  int64_t pads[2 * MC_MAX_RANK];            /* Pad's pads_begin, then pads_end */
} onnx_plan;

static void add_input(onnx_plan *p, const char *name, mc_tensor t) {
  p->inputs[p->n_inputs++] = (onnx_value){name, t};
  p->node_inputs[p->n_node_inputs++] = name;
}

/* A side input as int64 values held by the plan. */
static mc_tensor side_as_int64(onnx_plan *p, int slot, const mc_tensor *t) {
  mc_tensor out = *t;
  int64_t n = mc_tensor_elements(t);
  for (int64_t i = 0; i < n && i < MC_MAX_RANK; i++)
    mc_side_value_saturating(t, i, &p->side[slot][i]);
  out.type = MC_I64;
  out.data = (uint8_t *)p->side[slot];
  out.nbytes = (size_t)n * sizeof(int64_t);
  out.allocation = NULL;
  return out;
}

static void plan_slice(const mc_case *c, onnx_plan *p) {
  /* Slice-8: data, start, stop, step[, axes]; Slice-13: data, starts,
     ends[, axes][, steps]. */
  static const char *const names[] = {"data", "starts", "ends", "steps", "axes"};
  bool as_given = slice_sides_as_given(c);
  mc_tensor t[MC_MAX_INPUTS];
  for (int i = 1; i < c->n_inputs; i++)
    t[i] = as_given ? c->inputs[i].tensor : side_as_int64(p, i, &c->inputs[i].tensor);
  add_input(p, names[0], c->inputs[0].tensor);
  add_input(p, names[1], t[1]);
  add_input(p, names[2], t[2]);
  if (c->n_inputs > 4)
    add_input(p, names[4], t[4]);
  else
    p->node_inputs[p->n_node_inputs++] = "";
  add_input(p, names[3], t[3]);
}

/* Pad-13: data, pads (int64: every begin, then every end), and
   constant_value in constant mode when the case has pad_value (absent: 0 in
   both, errata E54). */
static void plan_pad(const mc_case *c, onnx_plan *p) {
  p->op_type = "Pad";
  int rank = c->inputs[0].tensor.rank;
  for (int side = 0; side < 2; side++)
    for (int d = 0; d < rank; d++)
      mc_side_value_saturating(&c->inputs[1 + side].tensor, d, &p->pads[side * rank + d]);
  mc_tensor pads = {.type = MC_I64,
                    .rank = 1,
                    .data = (uint8_t *)p->pads,
                    .nbytes = (size_t)(2 * rank) * sizeof(int64_t)};
  pads.shape[0] = 2 * rank;
  add_input(p, "data", c->inputs[0].tensor);
  add_input(p, "pads", pads);
  if (c->n_inputs > 3 && attr_is(c, MC_ATTR_PAD_MODE, "constant"))
    add_input(p, "constant_value", c->inputs[3].tensor);
}

/* Fills the caller's plan in place: Slice's int64 sides point into it, so a
   plan returned by value would leave them pointing at a dead frame. */
static void plan_of(const mc_case *c, onnx_plan *p) {
  *p = (onnx_plan){0};
  if (c->op == MC_OP_SLICE) {
    p->op_type = "Slice";
    plan_slice(c, p);
    return;
  }
  if (c->op == MC_OP_PAD) {
    plan_pad(c, p);
    return;
  }
  if (c->op == MC_OP_GATHER) {
    p->op_type = "Gather"; /* axis goes as the axis attribute */
    add_input(p, "data", c->inputs[0].tensor);
    add_input(p, "indices", c->inputs[1].tensor);
    return;
  }
  if (c->op == MC_OP_TRANSPOSE) {
    p->op_type = "Transpose"; /* input_order goes as the perm attribute */
    add_input(p, "data", c->inputs[0].tensor);
    return;
  }
  p->op_type = c->op == MC_OP_DEPTH_TO_SPACE ? "DepthToSpace" : "SpaceToDepth";
  add_input(p, "data", c->inputs[0].tensor);
}

/* AttributeProto: name 1, i 3, s 4, type 20 (INT 2, STRING 3). */
static void int_attribute(mc_text *node, const char *name, int64_t v) {
  mc_text a = {0};
  mc_pb_string(&a, 1, name);
  mc_pb_varint(&a, 3, (uint64_t)v);
  mc_pb_varint(&a, 20, 2);
  mc_pb_message(node, 5, &a);
  mc_text_free(&a);
}

/* AttributeProto ints 8 (repeated, unpacked as in proto2's onnx.proto; each
   value as int64), type 20 (INTS 7). */
static void ints_attribute(mc_text *node, const char *name, const mc_tensor *values) {
  mc_text a = {0};
  mc_pb_string(&a, 1, name);
  int64_t n = mc_tensor_elements(values);
  for (int64_t i = 0; i < n; i++) {
    int64_t v = 0;
    mc_side_value_saturating(values, i, &v);
    mc_pb_varint(&a, 8, (uint64_t)v);
  }
  mc_pb_varint(&a, 20, 7);
  mc_pb_message(node, 5, &a);
  mc_text_free(&a);
}

static void string_attribute(mc_text *node, const char *name, const char *v) {
  mc_text a = {0};
  mc_pb_string(&a, 1, name);
  mc_pb_string(&a, 4, v);
  mc_pb_varint(&a, 20, 3);
  mc_pb_message(node, 5, &a);
  mc_text_free(&a);
}

/* NodeProto: input 1, output 2, name 3, op_type 4, attribute 5. */
static void write_node(mc_text *graph, const mc_case *c, const onnx_plan *p) {
  mc_text node = {0};
  for (int i = 0; i < p->n_node_inputs; i++)
    mc_pb_string(&node, 1, p->node_inputs[i]);
  mc_pb_string(&node, 2, "output");
  mc_pb_string(&node, 3, "node");
  mc_pb_string(&node, 4, p->op_type);
  if (c->op == MC_OP_PAD) {
    string_attribute(&node, "mode", mc_attrs_string(&c->attrs, MC_ATTR_PAD_MODE));
  } else if (c->op == MC_OP_TRANSPOSE) {
    if (mc_tensor_elements(&c->inputs[1].tensor) > 0)
      ints_attribute(&node, "perm", &c->inputs[1].tensor);
  } else if (c->op == MC_OP_GATHER) {
    int64_t axis = 0;
    mc_side_value(&c->inputs[2].tensor, 0, &axis);
    int_attribute(&node, "axis", axis);
  } else if (c->op != MC_OP_SLICE)
    int_attribute(&node, "blocksize", mc_attrs_int(&c->attrs, MC_ATTR_BLOCK_SIZE));
  if (c->op == MC_OP_DEPTH_TO_SPACE) {
    string_attribute(&node, "mode", attr_is(c, MC_ATTR_MODE, "blocks_first") ? "DCR" : "CRD");
  }
  mc_pb_message(graph, 1, &node);
  mc_text_free(&node);
}

/* ValueInfoProto (name 1, type 2) of a tensor of fixed shape: TypeProto
   tensor_type 1; Tensor elem_type 1, shape 2; TensorShapeProto dim 1;
   Dimension dim_value 1. */
static void write_value_info(mc_text *graph, unsigned field, const onnx_value *v) {
  mc_text shape = {0}, tensor_type = {0}, type = {0}, info = {0};
  for (int d = 0; d < v->tensor.rank; d++) {
    mc_text dim = {0};
    mc_pb_varint(&dim, 1, (uint64_t)v->tensor.shape[d]);
    mc_pb_message(&shape, 1, &dim);
    mc_text_free(&dim);
  }
  mc_pb_varint(&tensor_type, 1, (uint64_t)onnx_type_code(v->tensor.type));
  mc_pb_message(&tensor_type, 2, &shape);
  mc_pb_message(&type, 1, &tensor_type);
  mc_pb_string(&info, 1, v->name);
  mc_pb_message(&info, 2, &type);
  mc_pb_message(graph, field, &info);
  mc_text_free(&shape);
  mc_text_free(&tensor_type);
  mc_text_free(&type);
  mc_text_free(&info);
}

/* StringStringEntryProto: key 1, value 2 (ModelProto.metadata_props 14). */
static void write_metadata(mc_text *model, const char *key, const char *value) {
  mc_text entry = {0};
  mc_pb_string(&entry, 1, key);
  mc_pb_string(&entry, 2, value);
  mc_pb_message(model, 14, &entry);
  mc_text_free(&entry);
}

/* ModelProto: ir_version 1, producer_name 2, producer_version 3, graph 7,
   opset_import 8 (OperatorSetIdProto version 2), metadata_props 14.
   GraphProto: node 1, name 2, input 11, output 12. */
static void write_model(mc_text *model, const mc_case *c, const onnx_plan *p,
                        const onnx_value *output) {
  mc_text graph = {0}, opset = {0};
  write_node(&graph, c, p);
  mc_pb_string(&graph, 2, "movconf");
  for (int i = 0; i < p->n_inputs; i++)
    write_value_info(&graph, 11, &p->inputs[i]);
  write_value_info(&graph, 12, output);
  mc_pb_varint(model, 1, ONNX_IR_VERSION);
  mc_pb_string(model, 2, "movconf");
  mc_pb_string(model, 3, MOVCONF_VERSION);
  mc_pb_message(model, 7, &graph);
  mc_pb_varint(&opset, 2, ONNX_OPSET);
  mc_pb_message(model, 8, &opset);
  write_metadata(model, "movconf.case", c->id);
  write_metadata(model, "movconf.operation", mc_op_name(c->op));
  write_metadata(model, "movconf.origin", c->origin);
  mc_text_free(&graph);
  mc_text_free(&opset);
}

/* TensorProto: dims 1, data_type 2, name 8, raw_data 9 (little-endian,
   as movconf holds tensors). */
static void write_tensor(mc_text *t, const onnx_value *v) {
  for (int d = 0; d < v->tensor.rank; d++)
    mc_pb_varint(t, 1, (uint64_t)v->tensor.shape[d]);
  mc_pb_varint(t, 2, (uint64_t)onnx_type_code(v->tensor.type));
  mc_pb_string(t, 8, v->name);
  mc_pb_bytes(t, 9, v->tensor.data, v->tensor.nbytes);
}

static bool write_tensor_file(const char *dir, const char *name, const onnx_value *v) {
  mc_text t = {0};
  write_tensor(&t, v);
  bool ok = !t.oom && mc_export_file(dir, name, t.p, t.len);
  mc_text_free(&t);
  return ok;
}

bool mc_export_onnx_write(const mc_case *c, const mc_tensor *expected, const char *dir) {
  onnx_plan p;
  plan_of(c, &p);
  onnx_value output = {"output", *expected};
  mc_text model = {0};
  write_model(&model, c, &p, &output);
  bool ok = !model.oom && mc_export_file(dir, "model.onnx", model.p, model.len);
  mc_text_free(&model);
  char data_dir[4096];
  snprintf(data_dir, sizeof data_dir, "%s/test_data_set_0", dir);
  for (int i = 0; ok && i < p.n_inputs; i++) {
    char name[32];
    snprintf(name, sizeof name, "input_%d.pb", i);
    ok = write_tensor_file(data_dir, name, &p.inputs[i]);
  }
  return ok && write_tensor_file(data_dir, "output_0.pb", &output);
}
