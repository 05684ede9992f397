#!/usr/bin/env node
'use strict';
// movconf process adapter for the TensorFlow.js CPU backend
// (npm @tensorflow/tfjs-core + @tensorflow/tfjs-backend-cpu, pure JavaScript).
//
//   movconf run --impl exec:'exec node examples/adapters/tfjs/adapter.js'
//
// The mapping (README.md):
//   BatchToSpace-2  -> tf.batchToSpaceND(x, block_shape[1:], [[crops_begin[i], crops_end[i]]]_i>=1)
//   SpaceToBatch-2  -> tf.spaceToBatchND(x, block_shape[1:], [[pads_begin[i], pads_end[i]]]_i>=1)
//   DepthToSpace-1 blocks_first, 4-D -> tf.transpose to NHWC, tf.depthToSpace (NHWC), tf.transpose
//                   back: a composite of three library ops (see README.md)
// Element types: float32, int32 and bool, TensorFlow.js's own data types.

const common = require('../common/protocol.js');
const { installedPackage } = require('../common/detect.js');

const NAME = 'tfjs';
const { Unsupported } = common;

// TensorFlow.js greets every Node.js process with an advertisement for its
// native backend; the CPU backend is the point here, so it is left out.
const warn = console.warn;
console.warn = (...parts) => {
  if (!String(parts[0]).includes('install our node backend')) warn(...parts);
};

let tf;
try {
  tf = require('@tensorflow/tfjs-core');
  require('@tensorflow/tfjs-backend-cpu');
} catch (e) {
  common.log(NAME, `cannot load TensorFlow.js (run "npm ci --ignore-scripts" in ${__dirname}):`,
             e.message);
  process.exit(2);
}

// movconf type -> [TensorFlow.js dtype, typed array TensorFlow.js stores it in].
const TF_TYPES = {
  f32: ['float32', Float32Array],
  i32: ['int32', Int32Array],
  boolean: ['bool', Uint8Array],
};

function tfTensor(data) {
  const [dtype, Constructor] = TF_TYPES[data.type];
  const values = common.typedView(Constructor, common.tensorBytes(data, 'data'));
  return tf.tensor(values, common.shapeNumbers(data.shape, 'data'), dtype);
}

// The result's values in the typed array of its dtype. Should a kernel store
// them in another typed array, they are converted by value, as TensorFlow.js
// itself would read them.
function resultOutput(type, result) {
  const [dtype, Constructor] = TF_TYPES[type];
  if (result.dtype !== dtype) throw new Error(`TensorFlow.js returned a ${result.dtype} tensor`);
  const values = result.dataSync();
  const typed = values instanceof Constructor ? values : Constructor.from(values);
  return common.outputTensor(type, result.shape, typed);
}

// Runs an op under tf.tidy, so that no tensor outlives the request.
function runOp(what, data, op) {
  return common.libraryCall(what, () => tf.tidy(() => resultOutput(data.type, op(tfTensor(data)))));
}

// block_shape and the begin/end pair of a BatchToSpace/SpaceToBatch request as
// TensorFlow.js takes them: number arrays without the batch entry. Side-input
// types, ranks and batch entries it has no way to express are unsupported;
// every value it can take goes to the library unchanged.
function spatialBlocks(inputs, beginName, endName) {
  const what = (name) => `${name} (${inputs[name].type}, rank ${inputs[name].shape.length})`;
  const values = {};
  for (const name of ['block_shape', beginName, endName]) {
    const tensor = inputs[name];
    if (tensor.shape.length !== 1)
      throw new Unsupported(`TensorFlow.js takes ${name} as a flat number array: ${what(name)}`);
    const raw = common.sideInputValues(tensor, name);
    if (raw === null)
      throw new Unsupported(`TensorFlow.js takes ${name} as numbers, not typed: ${what(name)}`);
    values[name] = common.sideInputNumbers(raw, name);
  }
  const block = values.block_shape;
  const begin = values[beginName];
  const end = values[endName];
  if (begin.length !== block.length || end.length !== block.length)
    throw new Unsupported(`TensorFlow.js takes ${beginName}/${endName} as one pair per ` +
                          `block_shape entry: lengths ${block.length}, ${begin.length}, ${end.length}`);
  if (block.length === 0)
    throw new Unsupported('TensorFlow.js has no batch entry to drop from an empty block_shape');
  if (block[0] !== 1 || begin[0] !== 0 || end[0] !== 0)
    throw new Unsupported(`TensorFlow.js has no batch entry in block_shape/${beginName}/` +
                          `${endName}: batch entries ${block[0]}, ${begin[0]}, ${end[0]}`);
  const pairs = begin.slice(1).map((b, i) => [b, end[i + 1]]);
  return { blockShape: block.slice(1), pairs };
}

function batchToSpace({ inputs }) {
  const { blockShape, pairs } = spatialBlocks(inputs, 'crops_begin', 'crops_end');
  return runOp('tf.batchToSpaceND', inputs.data, (x) => tf.batchToSpaceND(x, blockShape, pairs));
}

function spaceToBatch({ inputs }) {
  const { blockShape, pairs } = spatialBlocks(inputs, 'pads_begin', 'pads_end');
  return runOp('tf.spaceToBatchND', inputs.data, (x) => tf.spaceToBatchND(x, blockShape, pairs));
}

// tf.depthToSpace is NHWC and computes blocks_first (the channel index is
// (block row * bs + block column) * C' + c'). A block_size that is not a safe
// integer cannot be passed as a JavaScript number.
function depthToSpace({ attributes, inputs }) {
  if (attributes.mode !== 'blocks_first')
    throw new Unsupported(`tf.depthToSpace has no mode: it computes blocks_first only ` +
                          `(request: ${attributes.mode === undefined ? 'no mode' :
                                          JSON.stringify(attributes.mode)})`);
  const rank = inputs.data.shape.length;
  if (rank >= 3 && rank !== 4) throw new Unsupported(`tf.depthToSpace is 4-D only (rank ${rank})`);
  const blockSize = attributes.block_size === undefined ? 1 : attributes.block_size;
  if (typeof blockSize !== 'number')
    throw new Unsupported(`block_size ${blockSize} is not exact as a JavaScript number`);
  return runOp('tf.depthToSpace', inputs.data, (x) =>
    tf.transpose(tf.depthToSpace(tf.transpose(x, [0, 2, 3, 1]), blockSize, 'NHWC'), [0, 3, 1, 2]));
}

const HANDLERS = {
  'BatchToSpace-2': batchToSpace,
  'SpaceToBatch-2': spaceToBatch,
  'DepthToSpace-1': depthToSpace,
};

async function main() {
  await tf.setBackend('cpu');
  await tf.ready();
  const { version } = installedPackage(__dirname, '@tensorflow/tfjs-backend-cpu');
  const types = Object.keys(TF_TYPES);
  const ops = Object.fromEntries(Object.keys(HANDLERS).map((op) => [op, { types }]));
  // tf.depthToSpace takes float32 tensors only (it rejects int32 and bool).
  ops['DepthToSpace-1'] = { types: ['f32'] };
  await common.serve({
    name: 'tfjs-backend-cpu',
    version,
    ops,
    handlers: HANDLERS,
    library: 'TensorFlow.js',
  });
}

common.runAdapter(NAME, main);
