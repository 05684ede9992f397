'use strict';
// A small ONNX model (ModelProto: one node, or a chain of nodes with int64
// constants) written in protobuf's wire format by hand: the few fields ONNX
// Runtime needs, no protobuf library (shared by the onnxruntime and
// onnxruntime-web adapters). Field numbers
// are those of onnx/onnx.proto.

// ONNX TensorProto.DataType codes.
const ONNX_TYPES = {
  f32: 1, u8: 2, i8: 3, u16: 4, i16: 5, i32: 6, i64: 7, boolean: 9,
  f16: 10, f64: 11, u32: 12, u64: 13, bf16: 16, f8e4m3: 17, f8e5m2: 19,
  u4: 21, i4: 22,
};

const IR_VERSION = 10; // ONNX 1.16, the first with 4-bit types
const OPSET = 21;

// A varint of an integer in 0 .. 2^64-1; negative int64 values are written
// as their two's complement, as protobuf does.
function varint(value) {
  let v = BigInt.asUintN(64, BigInt(value));
  const bytes = [];
  do {
    const low = Number(v & 0x7fn);
    v >>= 7n;
    bytes.push(v === 0n ? low : low | 0x80);
  } while (v !== 0n);
  return Buffer.from(bytes);
}

const key = (field, wireType) => varint((field << 3) | wireType);
const intField = (field, value) => Buffer.concat([key(field, 0), varint(value)]);
function bytesField(field, content) {
  const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return Buffer.concat([key(field, 2), varint(body.length), body]);
}

// AttributeProto: name = 1, i = 3, s = 4, ints = 8, type = 20 (INT 2,
// STRING 3, INTS 7).
function intAttribute(name, value) {
  return Buffer.concat([bytesField(1, name), intField(3, value), intField(20, 2)]);
}
function stringAttribute(name, value) {
  return Buffer.concat([bytesField(1, name), bytesField(4, value), intField(20, 3)]);
}
function intsAttribute(name, values) {
  return Buffer.concat([bytesField(1, name), ...values.map((v) => intField(8, v)),
                        intField(20, 7)]);
}
function attribute(name, value) {
  if (Array.isArray(value)) return intsAttribute(name, value);
  return typeof value === 'string' ? stringAttribute(name, value) : intAttribute(name, value);
}

// TensorProto of a 1-D int64 constant: dims = 1, data_type = 2 (INT64 7),
// int64_data = 7, name = 8.
function int64Initializer(name, values) {
  return Buffer.concat([intField(1, values.length), intField(2, 7),
                        ...values.map((v) => intField(7, v)), bytesField(8, name)]);
}

// ValueInfoProto of a tensor whose dimensions are symbolic (dim_param), so one
// model serves every shape of its rank.
function tensorValueInfo(name, elemType, rank, prefix) {
  const dims = [];
  for (let i = 0; i < rank; i++) dims.push(bytesField(1, bytesField(2, `${prefix}${i}`)));
  const shape = Buffer.concat(dims); // TensorShapeProto.dim = 1
  const tensorType = Buffer.concat([intField(1, elemType), bytesField(2, shape)]);
  const typeProto = bytesField(1, tensorType); // TypeProto.tensor_type = 1
  return Buffer.concat([bytesField(1, name), bytesField(2, typeProto)]);
}

// NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5.
function nodeProto({ opType, inputs, outputs, attributes = {} }, index) {
  return Buffer.concat([...inputs.map((name) => bytesField(1, name)),
                        ...outputs.map((name) => bytesField(2, name)),
                        bytesField(3, `node${index}`), bytesField(4, opType),
                        ...Object.entries(attributes).map(([name, value]) =>
                          bytesField(5, attribute(name, value)))]);
}

// The ONNX type code of a movconf element type name.
function onnxType(type) {
  const elemType = ONNX_TYPES[type];
  if (elemType === undefined) throw new Error(`no ONNX type for ${type}`);
  return elemType;
}

// The model: a graph x -> y of the given nodes ([{opType, inputs, outputs,
// attributes: {name: bigint|number|string|number[]}}], in order) and 1-D
// int64 constants ({name: values}); `type` is a movconf element type name.
// `sideInputs` ([{name, type, rank}]) are graph inputs after x, of symbolic
// dimensions like x's. y has x's rank unless `outputRank` says otherwise.
function graphModel(nodes, constants, type, rank, sideInputs = [], outputRank = rank) {
  const elemType = onnxType(type);
  // GraphProto: node = 1, name = 2, initializer = 5, input = 11, output = 12.
  const graph = Buffer.concat([...nodes.map((node, i) => bytesField(1, nodeProto(node, i))),
                               bytesField(2, 'movconf'),
                               ...Object.entries(constants).map(([name, values]) =>
                                 bytesField(5, int64Initializer(name, values))),
                               bytesField(11, tensorValueInfo('x', elemType, rank, 'in')),
                               ...sideInputs.map((input) => bytesField(11, tensorValueInfo(
                                 input.name, onnxType(input.type), input.rank, `${input.name}_`))),
                               bytesField(12, tensorValueInfo('y', elemType, outputRank, 'out'))]);
  // OperatorSetIdProto: domain = 1 (default ""), version = 2.
  const opset = intField(2, OPSET);
  // ModelProto: ir_version = 1, producer_name = 2, graph = 7, opset_import = 8.
  return new Uint8Array(Buffer.concat([intField(1, IR_VERSION), bytesField(2, 'movconf'),
                                       bytesField(7, graph), bytesField(8, opset)]));
}

// The model of one node `opType(x) -> y` with the given attributes.
function oneNodeModel(opType, attributes, type, rank) {
  return graphModel([{ opType, inputs: ['x'], outputs: ['y'], attributes }], {}, type, rank);
}

module.exports = { ONNX_TYPES, graphModel, oneNodeModel, varint };
