'use strict';
// The TensorFlow.js process adapter, shared by the adapters of two of its
// backends: the pure-JavaScript CPU backend (examples/adapters/tfjs) and the
// WebAssembly backend (examples/adapters/tfjs-wasm). Each adapter's
// adapter.js names its backend and calls runTfjsAdapter, which loads
// tfjs-core and the backend package from that adapter's node_modules.
//
// The mapping (the adapters' README.md):
//   BatchToSpace-2  -> tf.batchToSpaceND(x, block_shape[1:], [[crops_begin[i], crops_end[i]]]_i>=1)
//   SpaceToBatch-2  -> tf.spaceToBatchND(x, block_shape[1:], [[pads_begin[i], pads_end[i]]]_i>=1)
//   DepthToSpace-1 blocks_first, 4-D -> tf.transpose to NHWC, tf.depthToSpace (NHWC), tf.transpose
//                   back: a composite of three library ops
//   ShuffleChannels-1 -> tf.reshape to [outer, group, C / group, inner],
//                   tf.transpose [0, 2, 1, 3], tf.reshape back: a composite
//                   (shuffle_view.js)
//   Slice-8         -> tf.stridedSlice(x, start, stop, step, masks): one library op, the
//                   values as they are (see slice() below)
//   Transpose-1     -> tf.transpose(x, input_order), no perm when it is empty
//   Pad-12 constant -> tf.pad(x, [[pads_begin[i], pads_end[i]]]_i, pad_value)
//   Pad-12 reflect, symmetric -> tf.mirrorPad(x, the same pairs, mode)
//   StridedSlice-1  -> tf.stridedSlice(x, begin, end, stride, the five masks as bitmasks)
//   Gather-8        -> tf.gather(x, indices as an int32 tensor, axis's value, batch_dims)
// Element types: float32, int32 and bool, TensorFlow.js's own data types.
//
// Isolation (freshBackend): with `fresh` set, every request runs on a backend
// instance created for it, so that nothing a case leaves in the WebAssembly
// module's memory reaches the next case; a trap ends the process
// (common/protocol.js, libraryCall), so movconf reports that case a crash.

const { createRequire } = require('module');
const path = require('path');
const common = require('./protocol.js');
const { installedPackage } = require('./detect.js');
const { shuffleView } = require('./shuffle_view.js');
const { applyCalls } = require('./tfjs_calls.js');

const { Unsupported } = common;

// The tfjs-core module and the backend (set by runTfjsAdapter).
let tf;
let backend;

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

// The result as an output of the type its dtype is: a dtype other than the
// input's is the library's answer, for movconf to judge (a wrong-output), not
// a rejection. Should a kernel store the values in another typed array, they
// are converted by value, as TensorFlow.js itself would read them.
const TYPE_OF_DTYPE = Object.fromEntries(
  Object.entries(TF_TYPES).map(([type, [dtype]]) => [dtype, type]));

function resultOutput({ dtype, shape, values }) {
  const type = TYPE_OF_DTYPE[dtype];
  if (!type) throw new Error(`TensorFlow.js returned a ${dtype} tensor`);
  const Constructor = TF_TYPES[type][1];
  const typed = values instanceof Constructor ? values : Constructor.from(values);
  return common.outputTensor(type, shape, typed);
}

// A new instance of the backend: its factory runs again, so a WebAssembly
// backend gets a new module instance with fresh memory (about 9 ms here).
async function freshBackend() {
  const factory = tf.findBackendFactory(backend.name);
  tf.removeBackend(backend.name);
  tf.registerBackend(backend.name, factory);
  await tf.setBackend(backend.name);
}

// Runs a mapping's calls (tfjs_calls.js) under tf.tidy, so that no tensor
// outlives the request; on a fresh backend instance when the adapter asks
// for one. The result is read outside libraryCall: a result the protocol
// cannot carry is an adapter failure (a crash of the case), not the library
// rejecting the input.
async function runInProcess(what, data, calls) {
  if (backend.fresh) await freshBackend();
  const result = await common.libraryCall(what, () => tf.tidy(() => {
    const y = applyCalls(tf, tfTensor(data), calls);
    return { dtype: y.dtype, shape: y.shape, values: y.dataSync() };
  }));
  return resultOutput(result);
}

// Where the calls run: in this process (runInProcess) unless the adapter
// passes its own runner (the browser adapter runs them in a page).
let runOp = runInProcess;

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
  return runOp('tf.batchToSpaceND', inputs.data, [['batchToSpaceND', blockShape, pairs]]);
}

function spaceToBatch({ inputs }) {
  const { blockShape, pairs } = spatialBlocks(inputs, 'pads_begin', 'pads_end');
  return runOp('tf.spaceToBatchND', inputs.data, [['spaceToBatchND', blockShape, pairs]]);
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
  return runOp('tf.depthToSpace', inputs.data, [['transpose', [0, 2, 3, 1]],
    ['depthToSpace', blockSize, 'NHWC'], ['transpose', [0, 3, 1, 2]]]);
}

// TensorFlow.js has no channel shuffle: a composite of its reshape and
// transpose, which take every dtype.
function shuffleChannels({ attributes, inputs }) {
  const shape = common.shapeNumbers(inputs.data.shape, 'data');
  const view = shuffleView(shape, attributes);
  return runOp(`tf.reshape [${view}], tf.transpose, tf.reshape`, inputs.data,
               [['reshape', view], ['transpose', [0, 2, 1, 3]], ['reshape', shape]]);
}

// A side input's values as JavaScript numbers: each must be exact as a
// double (so INT64_MIN, -2^63, is; INT64_MAX is not), or the request is
// unsupported: TensorFlow.js takes number arrays.
function exactNumbers(tensor, name) {
  const what = `${name} (${tensor.type}, rank ${tensor.shape.length})`;
  if (tensor.shape.length !== 1)
    throw new Unsupported(`TensorFlow.js takes ${name} as a flat number array: ${what}`);
  const values = common.sideInputValues(tensor, name);
  if (values === null)
    throw new Unsupported(`TensorFlow.js takes ${name} as numbers, not typed: ${what}`);
  return values.map((v) => {
    if (BigInt(Number(v)) !== v)
      throw new Unsupported(`${name}: value ${v} is not exact as a JavaScript number`);
    return Number(v);
  });
}

// Slice-8 as tf.stridedSlice, which clamps, counts negative values from the
// end and reads negative steps backwards itself. tf.slice is not used: it
// takes begin and size, which only the adapter's own clamping could compute.
// Without axes the three arrays go as they are (TensorFlow's begin/end/strides
// cover the first axes, the rest whole: Slice-8's default axes). With axes,
// TensorFlow has no axes argument: each value goes to its axis's position,
// the axes not named get their mask bit (the whole axis, step 1); axes that
// cannot be placed (out of range, repeated, a length other than start's) are
// unsupported.
function slice({ inputs }) {
  const rank = inputs.data.shape.length;
  let begin = exactNumbers(inputs.start, 'start');
  let end = exactNumbers(inputs.stop, 'stop');
  let strides = exactNumbers(inputs.step, 'step');
  let masks = 0;
  if (inputs.axes !== undefined) {
    const axes = exactNumbers(inputs.axes, 'axes');
    const unplaceable = () => new Unsupported(
      `tf.stridedSlice has no axes: axes [${axes}] of rank ${rank} with ${begin.length}, ` +
      `${end.length}, ${strides.length} values cannot be placed`);
    if ([begin, end, strides].some((values) => values.length !== axes.length)) throw unplaceable();
    const placed = new Map();
    for (const [i, a] of axes.entries()) {
      const axis = a < 0 ? a + rank : a;
      if (axis < 0 || axis >= rank || placed.has(axis)) throw unplaceable();
      placed.set(axis, i);
    }
    const at = (values, fallback) => Array.from({ length: rank }, (_, axis) =>
      (placed.has(axis) ? values[placed.get(axis)] : fallback));
    [begin, end, strides] = [at(begin, 0), at(end, 0), at(strides, 1)];
    for (let axis = 0; axis < rank; axis++) if (!placed.has(axis)) masks |= 1 << axis;
  }
  return runOp('tf.stridedSlice', inputs.data,
               [['stridedSlice', begin, end, strides, masks, masks]]);
}

// Transpose-1 as tf.transpose: input_order's values as perm, none when it
// is empty (TensorFlow.js then reverses the axes, as OpenVINO does). Values
// out of range or repeated go to the library.
function transpose({ inputs }) {
  const perm = exactNumbers(inputs.input_order, 'input_order');
  return runOp('tf.transpose', inputs.data, [['transpose', perm.length ? perm : null]]);
}

// pad_value as the number tf.pad takes: a scalar of the data's type whose
// bits survive a JavaScript number (a signaling NaN would not); anything
// else has no form in a number. Absent: zero, as in OpenVINO.
function padConstant(value, dataType) {
  if (value === undefined) return 0;
  if (value.type !== dataType || value.shape.length !== 0)
    throw new Unsupported(`tf.pad takes its constant as a number: pad_value (${value.type}, ` +
                          `rank ${value.shape.length}) has no form in it`);
  const [, Constructor] = TF_TYPES[dataType];
  const bytes = common.tensorBytes(value, 'pad_value');
  const number = common.typedView(Constructor, bytes)[0];
  if (!Buffer.from(Constructor.of(number).buffer).equals(Buffer.from(bytes)))
    throw new Unsupported('pad_value: its bits do not survive a JavaScript number');
  return number;
}

// Pad-12 as tf.pad (constant) or tf.mirrorPad (reflect, symmetric), the pads
// as [begin, end] pairs, negative ones included, as they are. TensorFlow.js
// has no edge mode and no default (it picks the op by mode); another mode
// string goes to tf.mirrorPad, the op with a mode argument, to judge.
function pad({ attributes, inputs }) {
  const mode = attributes.pad_mode;
  if (mode === undefined) throw new Unsupported('TensorFlow.js has no default pad mode');
  if (typeof mode !== 'string') throw new Error('pad_mode is not a string');
  if (mode === 'edge') throw new Unsupported('TensorFlow.js has no edge pad mode');
  const begin = exactNumbers(inputs.pads_begin, 'pads_begin');
  const end = exactNumbers(inputs.pads_end, 'pads_end');
  if (begin.length !== end.length)
    throw new Unsupported(`TensorFlow.js takes the pads as [begin, end] pairs: lengths ` +
                          `${begin.length} and ${end.length}`);
  const pairs = begin.map((b, i) => [b, end[i]]);
  if (mode === 'constant')
    return runOp('tf.pad', inputs.data, [['pad', pairs, padConstant(inputs.pad_value, inputs.data.type)]]);
  return runOp('tf.mirrorPad', inputs.data, [['mirrorPad', pairs, mode]]);
}

// A mask attribute as the bitmask tf.stridedSlice takes: bit i is element
// i of the list, elements past begin's length included (OpenVINO ignores
// them; what TensorFlow makes of those bits is its answer to judge). An
// element other than 0 and 1, or a 1 past bit 30 (a JavaScript bitmask is an
// int32), has no bit.
function bitmask(list, name) {
  if (list === undefined) return 0;
  if (!Array.isArray(list)) throw new Error(`${name} is not a list`);
  return list.reduce((mask, v, i) => {
    if (v === 0) return mask;
    if (v !== 1)
      throw new Unsupported(`tf.stridedSlice takes ${name} as a bitmask: element ${i} (${v}) is no bit`);
    if (i > 30) throw new Unsupported(`tf.stridedSlice's ${name} has no bit ${i}`);
    return mask | (1 << i);
  }, 0);
}

const SS_MASKS = ['begin_mask', 'end_mask', 'ellipsis_mask', 'new_axis_mask', 'shrink_axis_mask'];

// StridedSlice-1 as tf.stridedSlice, TensorFlow's StridedSlice, whose masks
// mean what OpenVINO's do: begin, end and stride as they are (no stride:
// none, TensorFlow's ones), the masks in TensorFlow's argument order.
function stridedSlice({ attributes, inputs }) {
  const begin = exactNumbers(inputs.begin, 'begin');
  const end = exactNumbers(inputs.end, 'end');
  const stride = inputs.stride === undefined ? null : exactNumbers(inputs.stride, 'stride');
  const masks = SS_MASKS.map((name) => bitmask(attributes[name], name));
  return runOp('tf.stridedSlice', inputs.data, [['stridedSlice', begin, end, stride, ...masks]]);
}

// Gather-8's indices as the tensor argument tf.gather takes: int32, each
// value unchanged (one outside int32 has no form in it). indices of a type
// TensorFlow.js has but not an integer (float32, bool) go as they are, for
// its dtype check to judge; other types have no TensorFlow.js tensor.
function gatherIndices(indices) {
  const shape = common.shapeNumbers(indices.shape, 'indices');
  const values = common.sideInputValues(indices, 'indices');
  if (values === null) {
    if (!TF_TYPES[indices.type])
      throw new Unsupported(`indices: TensorFlow.js has no ${indices.type} tensor`);
    const [dtype, Constructor] = TF_TYPES[indices.type];
    const typed = common.typedView(Constructor, common.tensorBytes(indices, 'indices'));
    return { tensor: { values: Array.from(typed), shape, dtype } };
  }
  for (const v of values)
    if (v < -(2n ** 31n) || v >= 2n ** 31n)
      throw new Unsupported(`indices: tf.gather takes int32 indices; ${v} has none`);
  return { tensor: { values: values.map(Number), shape, dtype: 'int32' } };
}

// Gather-8 as tf.gather: axis, an input here, is the number argument (a
// scalar or one element; any other shape has no form in a number), and
// batch_dims is batchDims (0 when absent, as in OpenVINO). Negative and
// out-of-range values go to the library.
function gather({ attributes, inputs }) {
  const { axis } = inputs;
  if (axis.shape.length > 1 || (axis.shape.length === 1 && axis.shape[0] !== 1))
    throw new Unsupported(`tf.gather takes axis as one number: axis of shape [${axis.shape}] has no form in it`);
  const axisValues = common.sideInputValues(axis, 'axis');
  if (axisValues === null) throw new Unsupported(`tf.gather takes axis as a number, not ${axis.type}`);
  const [axisNumber] = common.sideInputNumbers(axisValues, 'axis');
  const batchDims = attributes.batch_dims === undefined ? 0 : attributes.batch_dims;
  if (typeof batchDims !== 'number')
    throw new Unsupported(`batch_dims ${batchDims} is not exact as a JavaScript number`);
  return runOp('tf.gather', inputs.data,
               [['gather', gatherIndices(inputs.indices), axisNumber, batchDims]]);
}

const HANDLERS = {
  'Slice-8': slice,
  'BatchToSpace-2': batchToSpace,
  'SpaceToBatch-2': spaceToBatch,
  'DepthToSpace-1': depthToSpace,
  'ShuffleChannels-1': shuffleChannels,
  'Transpose-1': transpose,
  'Pad-12': pad,
  'StridedSlice-1': stridedSlice,
  'Gather-8': gather,
};

// tfjs-core and the backend package, from the adapter's own node_modules.
function loadTfjs(options) {
  // TensorFlow.js greets every Node.js process with an advertisement for its
  // native backend, which is not what these adapters test: it is left out.
  const warn = console.warn;
  console.warn = (...parts) => {
    if (!String(parts[0]).includes('install our node backend')) warn(...parts);
  };
  const load = createRequire(path.join(options.folder, 'adapter.js'));
  try {
    tf = load('@tensorflow/tfjs-core');
    load(options.backend.package);
  } catch (e) {
    common.log(options.name, 'cannot load TensorFlow.js (run "npm ci --ignore-scripts" in ' +
      `${options.folder}):`, e.message);
    process.exit(2);
  }
}

// What a TensorFlow.js adapter claims in its handshake, whichever backend;
// `without` names operations left out (the browser adapter's, whose rows
// for them have not been run and explained yet).
function tfjsOps(without = []) {
  const types = Object.keys(TF_TYPES);
  const ops = Object.fromEntries(Object.keys(HANDLERS).filter((op) => !without.includes(op))
    .map((op) => [op, { types }]));
  // tf.depthToSpace takes float32 tensors only (it rejects int32 and bool).
  ops['DepthToSpace-1'] = { types: ['f32'] };
  return ops;
}

// options: backend {name: 'cpu' | 'wasm', package: its npm name, fresh: a new
// backend instance per request}, folder (the adapter's, where node_modules
// is), name (the log prefix).
function runTfjsAdapter(options) {
  loadTfjs(options);
  backend = options.backend;
  common.runAdapter(options.name, async () => {
    await tf.setBackend(backend.name);
    await tf.ready();
    const { version } = installedPackage(options.folder, backend.package);
    await common.serve({
      name: backend.package.replace('@tensorflow/', ''),
      version,
      ops: tfjsOps(),
      handlers: HANDLERS,
      library: 'TensorFlow.js',
    });
  });
}

// The mapping for an adapter that runs the calls elsewhere: runner(what,
// data, calls) returns the output (resultOutput of what the library gave).
function tfjsHandlers(runner) {
  runOp = runner;
  return HANDLERS;
}

module.exports = { resultOutput, runTfjsAdapter, tfjsHandlers, tfjsOps, TF_TYPES };
