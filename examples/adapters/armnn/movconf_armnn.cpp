// movconf plugin (spec/plugin-abi.md, ABI version 3) over Arm NN's reference
// backend (CpuRef): BatchToSpace-2, SpaceToBatch-2, SpaceToDepth-1,
// DepthToSpace-1, Slice-8, Transpose-1, Pad-12 (constant), Gather-8
// (batch_dims 0) and StridedSlice-1, each run as a one-layer network
// input -> BatchToSpaceNd /
// SpaceToBatchNd / SpaceToDepth / DepthToSpace / StridedSlice / Transpose /
// Pad / Gather -> output (Gather's indices a constant layer).
//
// The output shape is Arm NN's own (IConnectableLayer::InferOutputShapes;
// Gather's, which has none, is the one its Optimize checks),
// validation is Arm NN's (shape inference, Optimize, the workload); the plugin
// rejects by itself only what Arm NN's descriptors and shapes cannot carry
// (negative or 32-bit-overflowing values, a batch entry, Slice-8 axes it has
// no place for), and says so in the message. README.md has the mapping, the
// modes and the element types.
//
// C++, exporting the C entry of include/movconf/plugin.h.

#include <armnn/ArmNN.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "movconf/plugin.h"

#ifndef ARMNN_PACKAGE_VERSION
#define ARMNN_PACKAGE_VERSION "unknown"
#endif

namespace {

// What the plugin cannot hand to Arm NN; becomes a rejection whose text says
// that the plugin, not Arm NN, refused it.
struct NotCarried {
  std::string why;
};

// ---- element types ----

// movconf type -> Arm NN data type. The integer types travel as Arm NN's
// quantized types with scale 1 and offset 0, so that a quantized value
// equals the integer (README.md: "Element types").
struct TypeMapping {
  int32_t movconf;
  armnn::DataType armnn;
  bool quantized;
};

const TypeMapping kTypes[] = {
    {MOVCONF_PLUGIN_F32, armnn::DataType::Float32, false},
    {MOVCONF_PLUGIN_F16, armnn::DataType::Float16, false},
    {MOVCONF_PLUGIN_BF16, armnn::DataType::BFloat16, false},
    {MOVCONF_PLUGIN_U8, armnn::DataType::QAsymmU8, true},
    {MOVCONF_PLUGIN_I8, armnn::DataType::QAsymmS8, true},
    {MOVCONF_PLUGIN_I16, armnn::DataType::QSymmS16, true},
    {MOVCONF_PLUGIN_I32, armnn::DataType::Signed32, false},
    {MOVCONF_PLUGIN_BOOLEAN, armnn::DataType::Boolean, false},
};

const TypeMapping *typeMapping(int32_t type) {
  for (const TypeMapping &t : kTypes)
    if (t.movconf == type) return &t;
  return nullptr;
}

armnn::TensorInfo tensorInfo(const armnn::TensorShape &shape, const TypeMapping &type) {
  if (type.quantized) return armnn::TensorInfo(shape, type.armnn, 1.0f, 0);
  return armnn::TensorInfo(shape, type.armnn);
}

// ---- values from the request ----

// The integer attribute name, or fallback when it is absent (the case format
// gives these attributes as integers only).
int64_t intAttr(const movconf_plugin_request_v3 &r, const char *name, int64_t fallback) {
  const movconf_plugin_attr *a = movconf_plugin_find_attr(r.n_attrs, r.attrs, name);
  return a && a->kind == MOVCONF_PLUGIN_ATTR_INT ? a->value.i : fallback;
}

// The string attribute name, or nullptr when it is absent or not a string.
const char *stringAttr(int32_t n, const movconf_plugin_attr *attrs, const char *name) {
  const movconf_plugin_attr *a = movconf_plugin_find_attr(n, attrs, name);
  return a && a->kind == MOVCONF_PLUGIN_ATTR_STRING ? a->value.s : nullptr;
}

// Arm NN's shapes and descriptor values are unsigned int.
unsigned int toUnsigned(int64_t v, const char *what) {
  if (v < 0 || v > 0xffffffffLL)
    throw NotCarried{std::string(what) + " = " + std::to_string(v) +
                     " does not fit Arm NN's unsigned int"};
  return static_cast<unsigned int>(v);
}

armnn::TensorShape armnnShape(const movconf_plugin_tensor &t) {
  std::vector<unsigned int> dims;
  for (int32_t i = 0; i < t.rank; i++) dims.push_back(toUnsigned(t.shape[i], "a data dimension"));
  return armnn::TensorShape(static_cast<unsigned int>(dims.size()), dims.data());
}

// A side input's values (any integer type), little-endian.
std::vector<int64_t> sideValues(const movconf_plugin_tensor &t) {
  int64_t count = 1;
  for (int32_t i = 0; i < t.rank; i++) count *= t.shape[i];
  std::vector<int64_t> values;
  const unsigned char *p = static_cast<const unsigned char *>(t.data);
  size_t size = count ? t.nbytes / static_cast<size_t>(count) : 0;
  bool is_signed = t.type == MOVCONF_PLUGIN_I8 || t.type == MOVCONF_PLUGIN_I16 ||
                   t.type == MOVCONF_PLUGIN_I32 || t.type == MOVCONF_PLUGIN_I64;
  for (int64_t i = 0; i < count; i++) {
    uint64_t raw = 0;
    for (size_t b = 0; b < size; b++) raw |= static_cast<uint64_t>(p[i * size + b]) << (8 * b);
    if (is_signed && size < 8 && (raw >> (8 * size - 1)) & 1) raw |= ~0ULL << (8 * size);
    values.push_back(static_cast<int64_t>(raw));
  }
  return values;
}

// ---- the layer of a request ----

// BatchToSpace/SpaceToBatch: block_shape [1, b1, b2, b3] and the begin/end
// pairs. Arm NN blocks the two spatial axes of its layout: NCHW blocks axes 2
// and 3, NHWC axes 1 and 2. The layout is chosen so that the unblocked axis
// (block 1, no crops or pads) is Arm NN's channel axis; memory is not moved.
struct BlockParams {
  std::vector<unsigned int> block;
  std::vector<std::pair<unsigned int, unsigned int>> pairs;
  armnn::DataLayout layout;
};

BlockParams blockParams(const movconf_plugin_request_v3 &r, const char *begin_name,
                        const char *end_name) {
  std::vector<int64_t> block = sideValues(r.inputs[1]);
  std::vector<int64_t> begin = sideValues(r.inputs[2]);
  std::vector<int64_t> end = sideValues(r.inputs[3]);
  if (block.size() != 4 || begin.size() != 4 || end.size() != 4)
    throw NotCarried{"Arm NN's descriptor holds the two spatial axes of 4-D data: block_shape, " +
                     std::string(begin_name) + ", " + end_name + " need 4 entries"};
  if (block[0] != 1 || begin[0] != 0 || end[0] != 0)
    throw NotCarried{"Arm NN's descriptor has no batch entry: batch block " +
                     std::to_string(block[0]) + ", " + begin_name + "[0] " +
                     std::to_string(begin[0]) + ", " + end_name + "[0] " + std::to_string(end[0])};
  BlockParams p;
  size_t first;  // first of the two blocked axes of the OpenVINO shape
  if (block[1] == 1 && begin[1] == 0 && end[1] == 0) {
    p.layout = armnn::DataLayout::NCHW;
    first = 2;
  } else if (block[3] == 1 && begin[3] == 0 && end[3] == 0) {
    p.layout = armnn::DataLayout::NHWC;
    first = 1;
  } else {
    throw NotCarried{"Arm NN blocks two axes: axis 1 or axis 3 must have block 1 and no " +
                     std::string(begin_name) + "/" + end_name};
  }
  for (size_t i = first; i < first + 2; i++) {
    p.block.push_back(toUnsigned(block[i], "a block_shape value"));
    p.pairs.emplace_back(toUnsigned(begin[i], begin_name), toUnsigned(end[i], end_name));
  }
  return p;
}

// SpaceToDepth/DepthToSpace run in Arm NN's NCHW layout (no transposes); the
// mode this computes is README.md's experiment: blocks_first for both.
armnn::SpaceToDepthDescriptor depthDescriptor(const movconf_plugin_request_v3 &r) {
  int64_t block_size = intAttr(r, "block_size", 1);
  return armnn::SpaceToDepthDescriptor(toUnsigned(block_size, "block_size"),
                                       armnn::DataLayout::NCHW);
}

// Slice-8 as StridedSlice: begin, end and stride per axis as int (values
// outside int32 cannot be carried) for every axis of the data, and no axes:
// each value goes to its axis's position (the named axes, or 0 .. n-1 when
// the request has none), and the axes not named get their bit in the begin
// and end masks (the whole axis, stride 1). Axes it cannot place (out of
// range, repeated, a length other than start's) are the plugin's rejection.
// Clamping, negative values and negative strides are Arm NN's.
int toInt(int64_t v, const char *what) {
  if (v < INT32_MIN || v > INT32_MAX)
    throw NotCarried{std::string(what) + " value " + std::to_string(v) +
                     " does not fit the StridedSlice descriptor's int"};
  return static_cast<int>(v);
}

std::vector<int64_t> sliceValues(const movconf_plugin_tensor &t, const char *what) {
  std::vector<int64_t> values = sideValues(t);
  if (t.type == MOVCONF_PLUGIN_U64)
    for (int64_t v : values)
      if (v < 0)  // a u64 value above INT64_MAX, read as a negative int64
        throw NotCarried{std::string(what) + " holds a u64 value above INT64_MAX"};
  return values;
}

armnn::StridedSliceDescriptor sliceDescriptor(const movconf_plugin_request_v3 &r) {
  std::vector<int64_t> start = sliceValues(r.inputs[1], "start");
  std::vector<int64_t> stop = sliceValues(r.inputs[2], "stop");
  std::vector<int64_t> step = sliceValues(r.inputs[3], "step");
  std::vector<int64_t> axes;
  if (r.n_inputs == 5)
    axes = sliceValues(r.inputs[4], "axes");
  else
    for (size_t i = 0; i < start.size(); i++) axes.push_back(static_cast<int64_t>(i));
  if (start.size() != axes.size() || stop.size() != axes.size() || step.size() != axes.size())
    throw NotCarried{"StridedSlice has no axes: start, stop, step need one value per axis"};
  int32_t rank = r.inputs[0].rank;
  armnn::StridedSliceDescriptor d(std::vector<int>(rank, 0), std::vector<int>(rank, 0),
                                  std::vector<int>(rank, 1));
  std::vector<bool> named(rank, false);
  for (size_t i = 0; i < axes.size(); i++) {
    int64_t axis = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (axis < 0 || axis >= rank || named[axis])
      throw NotCarried{"StridedSlice has no axes: axis " + std::to_string(axes[i]) + " of rank " +
                       std::to_string(rank) + " cannot be placed"};
    named[axis] = true;
    d.m_Begin[axis] = toInt(start[i], "start");
    d.m_End[axis] = toInt(stop[i], "stop");
    d.m_Stride[axis] = toInt(step[i], "step");
  }
  for (int32_t axis = 0; axis < rank; axis++)
    if (!named[axis]) {
      d.m_BeginMask |= 1 << axis;
      d.m_EndMask |= 1 << axis;
    }
  return d;
}

// Transpose-1 as Transpose: input_order as the PermutationVector (output
// axis i reads input axis input_order[i]), the empty
// order as the reversal written out; Arm NN checks it is a permutation. (The
// direction is the suite's: tr/hand and tr/spec cases pass.)
armnn::TransposeDescriptor transposeDescriptor(const movconf_plugin_request_v3 &r) {
  std::vector<unsigned int> order;
  for (int64_t v : sideValues(r.inputs[1])) order.push_back(toUnsigned(v, "an input_order value"));
  if (order.empty())
    for (int32_t i = r.inputs[0].rank - 1; i >= 0; i--)
      order.push_back(static_cast<unsigned int>(i));
  if (order.size() > armnn::MaxNumOfTensorDimensions)
    throw NotCarried{"input_order has more values than a PermutationVector holds"};
  return armnn::TransposeDescriptor(
      armnn::PermutationVector(order.data(), static_cast<unsigned int>(order.size())));
}

// An IEEE half's value as a float (exact: every half is a float).
float halfToFloat(uint16_t h) {
  int exponent = (h >> 10) & 0x1f;
  float fraction = static_cast<float>(h & 0x3ff);
  float magnitude = exponent == 0    ? std::ldexp(fraction, -24)
                    : exponent == 31 ? ((h & 0x3ff) ? NAN : INFINITY)
                                     : std::ldexp(fraction + 1024.0f, exponent - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

// pad_value as the float PadDescriptor holds, when that float is exactly the
// element (no NaN, whose bits a float value does not keep; integers below
// 2^24). Absent: 0.
float padValue(const movconf_plugin_request_v3 &r) {
  if (r.n_inputs < 4) return 0.0f;
  const movconf_plugin_tensor &t = r.inputs[3];
  if (t.type != r.inputs[0].type || t.rank != 0)
    throw NotCarried{"pad_value is not a scalar of the data's type: the descriptor has one float"};
  uint32_t bits = 0;
  std::memcpy(&bits, t.data, t.nbytes < 4 ? t.nbytes : 4);
  float value;
  switch (t.type) {
    case MOVCONF_PLUGIN_F32:
      std::memcpy(&value, &bits, 4);
      break;
    case MOVCONF_PLUGIN_BF16:
      bits <<= 16;
      std::memcpy(&value, &bits, 4);
      break;
    case MOVCONF_PLUGIN_F16:
      value = halfToFloat(static_cast<uint16_t>(bits));
      break;
    default: {
      int64_t v = sideValues(t)[0];
      if (v < -(1 << 24) || v > (1 << 24))
        throw NotCarried{"pad_value does not fit a float exactly"};
      value = static_cast<float>(v);
    }
  }
  if (value != value) throw NotCarried{"a NaN pad_value: the descriptor's float keeps no NaN bits"};
  return value;
}

// Pad-12, constant mode only, as Pad: one (begin, end) pair per axis;
// negative pads (crops) do not fit the descriptor's unsigned int.
armnn::PadDescriptor padDescriptor(const movconf_plugin_request_v3 &r) {
  std::vector<int64_t> begin = sideValues(r.inputs[1]), end = sideValues(r.inputs[2]);
  if (begin.size() != end.size())
    throw NotCarried{"pads_begin and pads_end of different lengths make no pairs"};
  std::vector<std::pair<unsigned int, unsigned int>> pairs;
  for (size_t i = 0; i < begin.size(); i++)
    pairs.emplace_back(toUnsigned(begin[i], "pads_begin"), toUnsigned(end[i], "pads_end"));
  return armnn::PadDescriptor(pairs, padValue(r));
}

// A StridedSlice-1 mask as Arm NN's bit mask for entries 0 .. entries-1:
// bit i is element i. Elements past the entries mean nothing in OpenVINO
// (spec/strided_slice_1.md) and have no entry in Arm NN's descriptor, so
// they stay out; values other than 0 and 1, and bits past 30, do not fit.
int32_t maskBits(const movconf_plugin_request_v3 &r, const char *name, size_t entries) {
  const movconf_plugin_attr *a = movconf_plugin_find_attr(r.n_attrs, r.attrs, name);
  if (a == nullptr) return 0;
  if (a->kind != MOVCONF_PLUGIN_ATTR_INTS) throw NotCarried{std::string(name) + " is not a list"};
  int32_t bits = 0;
  for (int32_t i = 0; i < a->value.ints.count; i++) {
    int64_t v = a->value.ints.values[i];
    if (v != 0 && v != 1) throw NotCarried{std::string(name) + " has a value other than 0 and 1"};
    if (static_cast<size_t>(i) >= entries) continue;
    if (v && i >= 31) throw NotCarried{std::string(name) + " sets a bit past 30"};
    if (v) bits |= 1 << i;
  }
  return bits;
}

// StridedSlice-1 as StridedSlice: begin, end, stride (all ones when absent)
// as they are, and the five masks as Arm NN's bit masks (1 = ignore the
// bound, as OpenVINO's; the same five masks, TensorFlow's).
armnn::StridedSliceDescriptor stridedDescriptor(const movconf_plugin_request_v3 &r) {
  std::vector<int> begin, end, stride;
  for (int64_t v : sliceValues(r.inputs[1], "begin")) begin.push_back(toInt(v, "begin"));
  for (int64_t v : sliceValues(r.inputs[2], "end")) end.push_back(toInt(v, "end"));
  if (r.n_inputs > 3)
    for (int64_t v : sliceValues(r.inputs[3], "stride")) stride.push_back(toInt(v, "stride"));
  else
    stride.assign(begin.size(), 1);
  armnn::StridedSliceDescriptor d(begin, end, stride);
  d.m_BeginMask = maskBits(r, "begin_mask", begin.size());
  d.m_EndMask = maskBits(r, "end_mask", begin.size());
  d.m_NewAxisMask = maskBits(r, "new_axis_mask", begin.size());
  d.m_ShrinkAxisMask = maskBits(r, "shrink_axis_mask", begin.size());
  d.m_EllipsisMask = maskBits(r, "ellipsis_mask", begin.size());
  return d;
}

// Gather-8 as Gather with batch_dims 0 (supports() declines the others):
// the axis value as GatherDescriptor's m_Axis, the indices as a Signed32
// constant input (values outside int32 do not fit it).
int32_t gatherAxis(const movconf_plugin_request_v3 &r) {
  std::vector<int64_t> axis = sideValues(r.inputs[2]);
  if (axis.size() != 1) throw NotCarried{"axis has no one value"};
  return toInt(axis[0], "axis");
}

std::vector<int32_t> gatherIndices(const movconf_plugin_request_v3 &r) {
  std::vector<int32_t> indices;
  for (int64_t v : sliceValues(r.inputs[1], "indices")) indices.push_back(toInt(v, "indices"));
  return indices;
}

armnn::IConnectableLayer *addLayer(armnn::INetwork &net, const movconf_plugin_request_v3 &r) {
  switch (r.op) {
    case MOVCONF_PLUGIN_BATCH_TO_SPACE: {
      BlockParams p = blockParams(r, "crops_begin", "crops_end");
      armnn::BatchToSpaceNdDescriptor d(p.block, p.pairs);
      d.m_DataLayout = p.layout;
      return net.AddBatchToSpaceNdLayer(d, "op");
    }
    case MOVCONF_PLUGIN_SPACE_TO_BATCH: {
      BlockParams p = blockParams(r, "pads_begin", "pads_end");
      armnn::SpaceToBatchNdDescriptor d(p.block, p.pairs);
      d.m_DataLayout = p.layout;
      return net.AddSpaceToBatchNdLayer(d, "op");
    }
    case MOVCONF_PLUGIN_SPACE_TO_DEPTH:
      return net.AddSpaceToDepthLayer(depthDescriptor(r), "op");
    case MOVCONF_PLUGIN_SLICE:
      return net.AddStridedSliceLayer(sliceDescriptor(r), "op");
    case MOVCONF_PLUGIN_TRANSPOSE:
      return net.AddTransposeLayer(transposeDescriptor(r), "op");
    case MOVCONF_PLUGIN_PAD:
      return net.AddPadLayer(padDescriptor(r), "op");
    case MOVCONF_PLUGIN_STRIDED_SLICE:
      return net.AddStridedSliceLayer(stridedDescriptor(r), "op");
    case MOVCONF_PLUGIN_GATHER:
      return net.AddGatherLayer(armnn::GatherDescriptor(gatherAxis(r)), "op");
    default:
      return net.AddDepthToSpaceLayer(depthDescriptor(r), "op");
  }
}

// MOVCONF_ARMNN_ANY_MODE=1 claims every mode and runs it as Arm NN's one
// mode: the experiment of README.md that shows which mode that is.
bool anyMode() {
  static const char *value = std::getenv("MOVCONF_ARMNN_ANY_MODE");
  static const bool any = value != nullptr && std::strcmp(value, "1") == 0;
  return any;
}

// The mode: only blocks_first goes to Arm NN (supports() declines
// depth_first); any other string is rejected here, since Arm NN has no mode
// to pass it to.
void checkMode(const movconf_plugin_request_v3 &r) {
  bool has_mode = r.op == MOVCONF_PLUGIN_SPACE_TO_DEPTH || r.op == MOVCONF_PLUGIN_DEPTH_TO_SPACE;
  const char *mode = stringAttr(r.n_attrs, r.attrs, "mode");
  if (anyMode()) return;
  if (has_mode && (mode == nullptr || std::strcmp(mode, "blocks_first") != 0))
    throw NotCarried{std::string("Arm NN has no mode attribute; mode ") +
                     (mode ? mode : "(absent or not a string)") + " is not blocks_first"};
}

// ---- one network per request ----

// The network of the request output_shape() accepted last, kept for run():
// movconf calls run() right after, with the same request.
struct Prepared {
  armnn::INetworkPtr net{nullptr, nullptr};
  armnn::IConnectableLayer *op = nullptr;
  armnn::TensorInfo output_info;
  std::vector<int32_t> indices;  // Gather's constant input, alive until run()
};
Prepared prepared;

armnn::IRuntime &runtime() {
  static armnn::IRuntimePtr rt = armnn::IRuntime::Create(armnn::IRuntime::CreationOptions());
  return *rt;
}

// Gather's indices as a constant layer into the op's second input slot.
armnn::TensorShape connectIndices(const movconf_plugin_request_v3 &r) {
  prepared.indices = gatherIndices(r);
  const movconf_plugin_tensor &t = r.inputs[1];
  std::vector<unsigned int> dims;
  if (t.rank == 0) throw NotCarried{"scalar indices: an Arm NN tensor has rank 1 or more"};
  for (int32_t i = 0; i < t.rank; i++)
    dims.push_back(toUnsigned(t.shape[i], "an indices dimension"));
  armnn::TensorShape shape(static_cast<unsigned int>(dims.size()), dims.data());
  armnn::TensorInfo info(shape, armnn::DataType::Signed32);
  armnn::IConnectableLayer *c =
      prepared.net->AddConstantLayer(armnn::ConstTensor(info, prepared.indices.data()), "indices");
  c->GetOutputSlot(0).SetTensorInfo(info);
  c->GetOutputSlot(0).Connect(prepared.op->GetInputSlot(1));
  return shape;
}

// Arm NN 20.08's Gather layer has no InferOutputShapes: the shape its
// ValidateTensorShapesFromInputs checks in Optimize, params[:axis] +
// indices + params[axis+1:], is computed here for the output's TensorInfo.
armnn::TensorShape gatherShape(const armnn::TensorShape &params, const armnn::TensorShape &indices,
                               int32_t axis) {
  int rank = static_cast<int>(params.GetNumDimensions());
  int a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    throw NotCarried{"axis " + std::to_string(axis) + " of rank " + std::to_string(rank) +
                     ": no output shape to give Arm NN"};
  std::vector<unsigned int> dims;
  for (int i = 0; i < a; i++) dims.push_back(params[i]);
  for (unsigned int i = 0; i < indices.GetNumDimensions(); i++) dims.push_back(indices[i]);
  for (int i = a + 1; i < rank; i++) dims.push_back(params[i]);
  return armnn::TensorShape(static_cast<unsigned int>(dims.size()), dims.data());
}

// Builds input -> op -> output and lets Arm NN infer the output shape.
void prepare(const movconf_plugin_request_v3 &r) {
  const TypeMapping &type = *typeMapping(r.inputs[0].type);
  checkMode(r);
  armnn::TensorInfo input_info = tensorInfo(armnnShape(r.inputs[0]), type);
  prepared.net = armnn::INetwork::Create();
  armnn::IConnectableLayer *input = prepared.net->AddInputLayer(0, "x");
  prepared.op = addLayer(*prepared.net, r);
  armnn::IConnectableLayer *output = prepared.net->AddOutputLayer(0, "y");
  input->GetOutputSlot(0).SetTensorInfo(input_info);
  input->GetOutputSlot(0).Connect(prepared.op->GetInputSlot(0));
  prepared.op->GetOutputSlot(0).Connect(output->GetInputSlot(0));
  armnn::TensorShape output_shape;
  if (r.op == MOVCONF_PLUGIN_GATHER)
    output_shape = gatherShape(input_info.GetShape(), connectIndices(r), gatherAxis(r));
  else
    output_shape = prepared.op->InferOutputShapes({input_info.GetShape()}).at(0);
  prepared.output_info = tensorInfo(output_shape, type);
  prepared.op->GetOutputSlot(0).SetTensorInfo(prepared.output_info);
}

// Optimizes for CpuRef, loads and runs the prepared network on the buffers.
void execute(const movconf_plugin_request_v3 &r, const movconf_plugin_output &out) {
  std::vector<std::string> messages;
  armnn::IOptimizedNetworkPtr optimized =
      armnn::Optimize(*prepared.net, {armnn::Compute::CpuRef}, runtime().GetDeviceSpec(),
                      armnn::OptimizerOptions(), armnn::Optional<std::vector<std::string> &>(messages));
  if (!optimized)
    throw armnn::Exception(messages.empty() ? "Optimize failed" : messages.front());
  armnn::NetworkId id;
  std::string error;
  armnn::INetworkProperties properties;
  if (runtime().LoadNetwork(id, std::move(optimized), error, properties) != armnn::Status::Success)
    throw armnn::Exception("LoadNetwork: " + error);
  armnn::InputTensors inputs{{0, armnn::ConstTensor(runtime().GetInputTensorInfo(id, 0),
                                                    r.inputs[0].data)}};
  armnn::OutputTensors outputs{{0, armnn::Tensor(runtime().GetOutputTensorInfo(id, 0), out.data)}};
  armnn::Status status = runtime().EnqueueWorkload(id, inputs, outputs);
  runtime().UnloadNetwork(id);
  if (status != armnn::Status::Success) throw armnn::Exception("EnqueueWorkload failed");
}

void say(movconf_plugin_message *m, const std::string &text) {
  std::snprintf(m->text, sizeof m->text, "%s", text.c_str());
}

// Runs one step, turning exceptions into a rejection with the reason.
template <typename Step>
int guarded(movconf_plugin_message *m, Step step) {
  try {
    step();
    return MOVCONF_PLUGIN_OK;
  } catch (const NotCarried &e) {
    say(m, "movconf-armnn (not Arm NN): " + e.why);
  } catch (const armnn::Exception &e) {
    say(m, std::string("Arm NN: ") + e.what());
  } catch (const std::exception &e) {
    say(m, std::string("Arm NN (C++ exception): ") + e.what());
  }
  return MOVCONF_PLUGIN_REJECTED;
}

// ---- the ABI ----

// The side inputs of backendTakes()'s small valid request of each
// operation: values, shapes and count.
struct ProbeSides {
  int64_t values[3][4];
  int64_t shapes[3][1];
  int32_t ranks[3];
  int32_t count;
};

ProbeSides probeSides(int32_t op) {
  switch (op) {
    case MOVCONF_PLUGIN_SLICE:
    case MOVCONF_PLUGIN_STRIDED_SLICE:  // [0:4:1, 1:3:1, 0:2:2, 0:2:1]
      return {{{0, 1, 0, 0}, {4, 3, 2, 2}, {1, 1, 2, 1}}, {{4}, {4}, {4}}, {1, 1, 1}, 3};
    case MOVCONF_PLUGIN_TRANSPOSE:
      return {{{0, 2, 3, 1}}, {{4}}, {1}, 1};
    case MOVCONF_PLUGIN_PAD:
      return {{{0, 0, 1, 1}, {0, 1, 0, 1}}, {{4}, {4}}, {1, 1}, 2};
    case MOVCONF_PLUGIN_GATHER:  // indices [0, 0] on axis 0, CpuRef's only axis
      return {{{0, 0}, {0}}, {{2}, {1}}, {1, 0}, 2};
    case MOVCONF_PLUGIN_BATCH_TO_SPACE:
    case MOVCONF_PLUGIN_SPACE_TO_BATCH:  // block [1, 1, 2, 2], zero crops or pads
      return {{{1, 1, 2, 2}, {0, 0, 0, 0}, {0, 0, 0, 0}}, {{4}, {4}, {4}}, {1, 1, 1}, 3};
    default:
      return {{}, {}, {}, 0};
  }
}

// Whether CpuRef has a workload for op and type: a small valid network of
// each, optimized once (Optimize fails when no backend supports a layer).
bool backendTakes(int32_t op, int32_t type) {
  static int known[MOVCONF_PLUGIN_GATHER + 1][32];  // 0: not probed, 1: yes, 2: no
  int &k = known[op][type];
  if (k == 0) {
    int64_t shape[4] = {op == MOVCONF_PLUGIN_BATCH_TO_SPACE ? 4 : 1, 4, 2, 2};
    ProbeSides sides = probeSides(op);
    unsigned char data[64 * 8] = {0}, result[64 * 8];
    movconf_plugin_tensor inputs[4];
    movconf_plugin_request_v3 r{};
    r.op = op;
    r.n_inputs = 1 + sides.count;
    r.inputs = inputs;
    inputs[0] = {type, 4, shape, data, 0};
    for (int i = 0; i < sides.count; i++)
      inputs[1 + i] = {MOVCONF_PLUGIN_I64, sides.ranks[i], sides.shapes[i], sides.values[i],
                       static_cast<uint64_t>(8 * (sides.ranks[i] ? sides.shapes[i][0] : 1))};
    movconf_plugin_attr attrs[2] = {};
    attrs[0].name = "block_size";
    attrs[0].kind = MOVCONF_PLUGIN_ATTR_INT;
    attrs[0].value.i = 2;
    attrs[1].name = "mode";
    attrs[1].kind = MOVCONF_PLUGIN_ATTR_STRING;
    attrs[1].value.s = "blocks_first";
    bool depth = op == MOVCONF_PLUGIN_SPACE_TO_DEPTH || op == MOVCONF_PLUGIN_DEPTH_TO_SPACE;
    r.n_attrs = depth ? 2 : 0;
    r.attrs = depth ? attrs : nullptr;
    movconf_plugin_output out{};
    out.data = result;
    movconf_plugin_message m{};
    k = guarded(&m, [&] { prepare(r); execute(r, out); }) == MOVCONF_PLUGIN_OK ? 1 : 2;
  }
  return k == 1;
}

bool isIntegerType(int32_t t) {
  return t == MOVCONF_PLUGIN_I8 || t == MOVCONF_PLUGIN_U8 || t == MOVCONF_PLUGIN_I16 ||
         t == MOVCONF_PLUGIN_U16 || t == MOVCONF_PLUGIN_I32 || t == MOVCONF_PLUGIN_U32 ||
         t == MOVCONF_PLUGIN_I64 || t == MOVCONF_PLUGIN_U64;
}

// Side inputs the descriptors can take: integer tensors of rank 1, but
// Gather's indices (any rank from 1, output rank at most 5) and axis (rank 0
// or 1), and Pad's pad_value (left to padValue()). Pad: constant mode only
// (Arm NN 20.08 has no other); Gather: batch_dims 0 only.
bool sideInputsFit(const movconf_plugin_query_v3 *q) {
  for (int i = 1; i < q->n_inputs; i++) {
    int rank = q->input_ranks[i];
    bool pad_value = q->op == MOVCONF_PLUGIN_PAD && i == 3;
    if (pad_value) continue;
    if (!isIntegerType(q->input_types[i])) return 0;
    if (q->op == MOVCONF_PLUGIN_GATHER) {
      int max_rank = static_cast<int>(armnn::MaxNumOfTensorDimensions);
      if (i == 1 && (rank < 1 || q->input_ranks[0] - 1 + rank > max_rank)) return 0;
      if (i == 2 && rank > 1) return 0;
    } else if (rank != 1) {
      return 0;
    }
  }
  if (q->op == MOVCONF_PLUGIN_PAD) {
    const char *pad_mode = stringAttr(q->n_attrs, q->attrs, "pad_mode");
    if (pad_mode == nullptr || std::strcmp(pad_mode, "constant") != 0) return 0;
  }
  if (q->op == MOVCONF_PLUGIN_GATHER) {
    const movconf_plugin_attr *b = movconf_plugin_find_attr(q->n_attrs, q->attrs, "batch_dims");
    if (b != nullptr && (b->kind != MOVCONF_PLUGIN_ATTR_INT || b->value.i != 0)) return 0;
  }
  return 1;
}

// Claimed: the four first operations on 4-D data, Slice-8, Transpose-1,
// Pad-12, StridedSlice-1 and Gather-8 on data of rank 1 to 5 (Arm NN's
// MaxNumOfTensorDimensions), of a type CpuRef has a workload
// for; 1-D integer side inputs (the descriptors take values, not tensors);
// DepthToSpace/SpaceToDepth unless the mode is depth_first, which Arm NN does
// not compute (an unknown mode is claimed and rejected).
int supports(const movconf_plugin_query_v3 *q) {
  int max_rank = static_cast<int>(armnn::MaxNumOfTensorDimensions);
  bool new_op = q->op == MOVCONF_PLUGIN_TRANSPOSE || q->op == MOVCONF_PLUGIN_PAD ||
                q->op == MOVCONF_PLUGIN_STRIDED_SLICE || q->op == MOVCONF_PLUGIN_GATHER;
  if (q->op == MOVCONF_PLUGIN_SLICE || new_op) {
    if (q->input_ranks[0] < 1 || q->input_ranks[0] > max_rank) return 0;
  } else if (q->op > MOVCONF_PLUGIN_DEPTH_TO_SPACE || q->input_ranks[0] != 4) {
    return 0;
  }
  if (!sideInputsFit(q)) return 0;
  const char *mode = stringAttr(q->n_attrs, q->attrs, "mode");
  if (mode != nullptr && std::strcmp(mode, "depth_first") == 0 && !anyMode()) return 0;
  if (typeMapping(q->input_types[0]) == nullptr) return 0;
  return backendTakes(q->op, q->input_types[0]);
}

int outputShape(const movconf_plugin_request_v3 *r, movconf_plugin_output *out,
                movconf_plugin_message *m) {
  return guarded(m, [&] {
    prepare(*r);
    const armnn::TensorShape &shape = prepared.output_info.GetShape();
    out->type = r->inputs[0].type;
    out->rank = static_cast<int32_t>(shape.GetNumDimensions());
    for (unsigned int i = 0; i < shape.GetNumDimensions(); i++) out->shape[i] = shape[i];
  });
}

int run(const movconf_plugin_request_v3 *r, const movconf_plugin_output *out,
        movconf_plugin_message *m) {
  return guarded(m, [&] { execute(*r, *out); });
}

const movconf_plugin_v3 kTable = {
    MOVCONF_PLUGIN_ABI_V3, 0, "armnn-cpuref", ARMNN_PACKAGE_VERSION, supports, outputShape, run,
};

}  // namespace

extern "C" MOVCONF_PLUGIN_EXPORT const void *movconf_plugin_entry(uint32_t abi_version) {
  return abi_version == MOVCONF_PLUGIN_ABI_V3 ? &kTable : nullptr;
}
