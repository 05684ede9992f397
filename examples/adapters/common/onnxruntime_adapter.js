'use strict';
// The ONNX Runtime process adapter, shared by the adapters of its two npm
// packages: onnxruntime-node (native CPU kernels, examples/adapters/onnxruntime)
// and onnxruntime-web (its WebAssembly build, examples/adapters/onnxruntime-web).
// Each adapter's adapter.js loads its package and calls runOnnxRuntimeAdapter.
//
// Each request becomes a one-node ONNX model (onnx_model.js) run by an
// InferenceSession; sessions are cached by (op, attributes, type, rank), so a
// run of thousands of cases builds a few dozen. The mapping (the adapters'
// README.md):
//   SpaceToDepth-1 blocks_first, 4-D  -> ONNX SpaceToDepth
//   DepthToSpace-1 blocks_first, 4-D  -> ONNX DepthToSpace mode DCR
//   DepthToSpace-1 depth_first, 4-D   -> ONNX DepthToSpace mode CRD
//   ShuffleChannels-1                 -> ONNX Reshape, Transpose, Reshape: a
//                                        composite (shuffle_view.js)
//   Slice-8                           -> ONNX Slice (Slice-13), its starts,
//                                        ends, axes and steps as graph inputs
//   Transpose-1                       -> ONNX Transpose, input_order as perm
//                                        (none when empty: ONNX reverses too)
//   Pad-12 constant, edge, reflect    -> ONNX Pad (Pad-21) of the same mode,
//                                        pads_begin ++ pads_end as its pads
//   StridedSlice-1                    -> ONNX Slice, Squeeze, Unsqueeze: a
//                                        composite (strided_slice_plan.js)
//   Gather-8, batch_dims 0            -> ONNX Gather, axis's value as its
//                                        axis attribute
//   Gather-8, axis = batch_dims > 0   -> ONNX Unsqueeze, GatherND: a composite
// Everything else is unsupported. Element types: those the package has a
// kernel for, found by running each one at start-up.

const common = require('./protocol.js');
const { installedPackage } = require('./detect.js');
const { graphModel, oneNodeModel } = require('./onnx_model.js');
const { shuffleView } = require('./shuffle_view.js');
const { stridedSlicePlan } = require('./strided_slice_plan.js');

const { Rejected, Unsupported } = common;

// movconf type -> [onnxruntime-common tensor type, typed array holding its bytes].
// bf16, f8e4m3, f8e5m2 and u1 have no tensor type in the JavaScript API.
const ORT_TENSOR_TYPES = {
  f32: ['float32', Float32Array], f64: ['float64', Float64Array], f16: ['float16', Uint16Array],
  u8: ['uint8', Uint8Array], i8: ['int8', Int8Array], u16: ['uint16', Uint16Array],
  i16: ['int16', Int16Array], u32: ['uint32', Uint32Array], i32: ['int32', Int32Array],
  u64: ['uint64', BigUint64Array], i64: ['int64', BigInt64Array], boolean: ['bool', Uint8Array],
  u4: ['uint4', Uint8Array], i4: ['int4', Uint8Array],
};
const MOVCONF_TYPE_OF = Object.fromEntries(
  Object.entries(ORT_TENSOR_TYPES).map(([type, [ortType]]) => [ortType, type]));

const ONNX_MODES = { blocks_first: 'DCR', depth_first: 'CRD' };

const sessions = new Map();
// The package (set by runOnnxRuntimeAdapter) and its session options.
let ort;
let sessionOptions;
// Whether a session whose run failed is dropped (options.dropFailedSessions).
let dropFailedSessions = false;

async function session(opType, attributes, type, rank) {
  const key = JSON.stringify([opType, Object.entries(attributes).map(([k, v]) => [k, String(v)]),
                              type, rank]);
  let s = sessions.get(key);
  if (!s) {
    s = await ort.InferenceSession.create(oneNodeModel(opType, attributes, type, rank),
                                          sessionOptions);
    sessions.set(key, s);
  }
  return s;
}

function ortTensor(type, bytes, dims) {
  const [ortType, Constructor] = ORT_TENSOR_TYPES[type];
  const array = ortType === 'uint4' || ortType === 'int4' ? new Uint8Array(bytes)
                                                          : common.typedView(Constructor, bytes);
  return new ort.Tensor(ortType, array, dims);
}

// A session taken out of the cache, not released (a session that no longer
// answers may not answer its release either): the next request of its model
// creates a new one.
function forgetSession(s) {
  for (const [key, cached] of sessions) if (cached === s) sessions.delete(key);
}

// The output of a session on the request's data (and `feeds`, the graph's
// other inputs, already ONNX Runtime tensors).
async function runSession(what, s, data, dims, feeds = {}) {
  const bytes = common.tensorBytes(data, 'data');
  const x = ortTensor(data.type, bytes, dims);
  const result = await common.libraryCall(what, () => s.run({ x, ...feeds }).catch((e) => {
    if (dropFailedSessions) forgetSession(s);
    throw e;
  }));
  const y = result.y;
  const type = MOVCONF_TYPE_OF[y.type];
  if (!type) throw new Error(`ONNX Runtime returned a ${y.type} tensor`);
  return common.outputTensor(type, y.dims, y.data);
}

async function runNode(opType, attributes, data) {
  const dims = common.shapeNumbers(data.shape, 'data');
  const what = `ONNX ${opType}`;
  const s = await common.libraryCall(what, () => session(opType, attributes, data.type, dims.length));
  return runSession(what, s, data, dims);
}

// OpenVINO's block_size defaults to 1; ONNX's blocksize is required, so the
// default is written out. Other values (0, negative, huge) go to the library.
const blockSize = (attributes) => (attributes.block_size === undefined ? 1 : attributes.block_size);

function requireFourDims(data, op) {
  const rank = data.shape.length;
  if (rank >= 3 && rank !== 4)
    throw new Unsupported(`ONNX ${op} is 4-D only (data rank ${rank})`);
}

// ONNX SpaceToDepth has no mode: it computes blocks_first, so a request with
// any other mode, or none, cannot be expressed.
function spaceToDepth({ attributes, inputs }) {
  if (attributes.mode !== 'blocks_first')
    throw new Unsupported(`ONNX SpaceToDepth has no mode attribute: it computes blocks_first ` +
                          `only (request: ${attributes.mode === undefined ? 'no mode' :
                                                JSON.stringify(attributes.mode)})`);
  requireFourDims(inputs.data, 'SpaceToDepth');
  return runNode('SpaceToDepth', { blocksize: blockSize(attributes) }, inputs.data);
}

// blocks_first is DCR and depth_first CRD (README.md: established by
// mode_experiment.js). An absent mode stays absent (ONNX then defaults to
// DCR, where OpenVINO rejects it); any other string goes to the library.
function depthToSpace({ attributes, inputs }) {
  if (attributes.mode !== undefined && typeof attributes.mode !== 'string')
    throw new Error('mode is not a string');
  requireFourDims(inputs.data, 'DepthToSpace');
  const onnxAttributes = { blocksize: blockSize(attributes) };
  if (attributes.mode !== undefined)
    onnxAttributes.mode = ONNX_MODES[attributes.mode] || attributes.mode;
  return runNode('DepthToSpace', onnxAttributes, inputs.data);
}

// ShuffleChannels-1, which ONNX has no operator for: Reshape to the view
// [outer, group, C / group, inner], Transpose [0, 2, 1, 3], Reshape back to
// the input's shape (Shape of x). Both Reshapes with allowzero: a 0 in a
// shape is a size of 0 (a group of 0, an empty input), not "copy this axis".
// The views differ from request to request, so each gets its own session,
// released after it.
const SHUFFLE_NODES = [
  { opType: 'Reshape', inputs: ['x', 'view'], outputs: ['v'], attributes: { allowzero: 1 } },
  { opType: 'Transpose', inputs: ['v'], outputs: ['t'], attributes: { perm: [0, 2, 1, 3] } },
  { opType: 'Shape', inputs: ['x'], outputs: ['shape'] },
  { opType: 'Reshape', inputs: ['t', 'shape'], outputs: ['y'], attributes: { allowzero: 1 } },
];

async function runShuffle(view, data) {
  const dims = common.shapeNumbers(data.shape, 'data');
  const what = `ONNX Reshape [${view}], Transpose, Reshape`;
  const model = graphModel(SHUFFLE_NODES, { view }, data.type, dims.length);
  const s = await common.libraryCall(what, () => ort.InferenceSession.create(model, sessionOptions));
  try {
    return await runSession(what, s, data, dims);
  } finally {
    await s.release();
  }
}

function shuffleChannels({ attributes, inputs }) {
  return runShuffle(shuffleView(common.shapeNumbers(inputs.data.shape, 'data'), attributes),
                    inputs.data);
}

// Slice-8 as ONNX Slice: x, starts, ends, axes (omitted when the request
// has none: ONNX's default is 0 .. n-1 too) and steps, all graph inputs, so
// that ONNX Runtime's kernel reads the values (a constant could be folded
// before it runs) and one session serves every request of the same types
// and ranks. ONNX takes int32 or int64 values, one type for the four: every
// integer side input goes in as int64, each value unchanged; a u64 value
// above INT64_MAX has no int64 and is unsupported. A side input of another
// type goes in as it is, for the library's type check to judge. Clamping,
// negative values, axes and the checks are ONNX Runtime's own.
const SLICE_INPUTS = [['start', 'starts'], ['stop', 'ends'], ['axes', 'axes'], ['step', 'steps']];

function int64Feed(tensor, what, onnx) {
  const dims = common.shapeNumbers(tensor.shape, what);
  const values = common.sideInputValues(tensor, what);
  if (values === null) {
    if (!ORT_TENSOR_TYPES[tensor.type])
      throw new Unsupported(`${what}: ONNX Runtime has no ${tensor.type} tensor`);
    return { type: tensor.type, tensor: ortTensor(tensor.type, common.tensorBytes(tensor, what), dims) };
  }
  for (const v of values)
    if (v > common.INT64_MAX)
      throw new Unsupported(`${what}: ${onnx} takes int64 values; ${v} has none`);
  return { type: 'i64', tensor: new ort.Tensor('int64', BigInt64Array.from(values), dims) };
}

// The session of a graph, built by makeModel() on first use of its key.
async function cachedSession(key, what, makeModel) {
  let s = sessions.get(key);
  if (!s) {
    s = await common.libraryCall(what, () => ort.InferenceSession.create(makeModel(), sessionOptions));
    sessions.set(key, s);
  }
  return s;
}

async function slice({ inputs }) {
  const dims = common.shapeNumbers(inputs.data.shape, 'data');
  const feeds = {};
  const sideInputs = [];
  const nodeInputs = ['x'];
  for (const [ours, theirs] of SLICE_INPUTS) {
    if (inputs[ours] === undefined) {
      nodeInputs.push('');
      continue;
    }
    const { type, tensor } = int64Feed(inputs[ours], ours, 'ONNX Slice');
    feeds[theirs] = tensor;
    sideInputs.push({ name: theirs, type, rank: tensor.dims.length });
    nodeInputs.push(theirs);
  }
  const key = JSON.stringify(['Slice', inputs.data.type, dims.length, sideInputs]);
  const s = await cachedSession(key, 'ONNX Slice', () => graphModel(
    [{ opType: 'Slice', inputs: nodeInputs, outputs: ['y'] }], {}, inputs.data.type, dims.length, sideInputs));
  return runSession('ONNX Slice', s, inputs.data, dims, feeds);
}

// A side input's values as int64 numbers for ONNX, which takes int64 only:
// each value unchanged, a u64 above INT64_MAX unsupported, a non-integer
// type (which OpenVINO rejects) unsupported as having no int64 form.
function int64Values(tensor, what, onnx) {
  const values = common.sideInputValues(tensor, what);
  if (values === null)
    throw new Unsupported(`${what}: ${onnx} takes int64 values; a ${tensor.type} ${what} has none`);
  for (const v of values)
    if (v > common.INT64_MAX)
      throw new Unsupported(`${what}: ${onnx} takes int64 values; ${v} has none`);
  return values;
}

// Transpose-1 as ONNX Transpose: input_order's values as the perm attribute,
// left out when input_order is empty (ONNX then reverses the axes, as
// OpenVINO does). Negative, repeated and out-of-range values go to the
// library. An attribute is a list: an input_order of rank other than 1 has
// no form in it.
function transpose({ inputs }) {
  const order = inputs.input_order;
  if (order.shape.length !== 1)
    throw new Unsupported(`ONNX Transpose's perm is a list: input_order of rank ${order.shape.length} has no form in it`);
  const perm = int64Values(order, 'input_order', 'ONNX Transpose');
  return runNode('Transpose', perm.length ? { perm } : {}, inputs.data);
}

// Pad-12 as ONNX Pad (Pad-21): x, pads (pads_begin then pads_end, one int64
// input of 2r values, as ONNX orders them) and, in constant mode,
// constant_value (pad_value as it is: its type and rank for the library to
// judge). Negative pads crop in both. symmetric has no ONNX mode, and ONNX's
// mode defaults to constant where OpenVINO has no default: both unsupported.
// Other mode strings go to the library. One pads input cannot say where
// pads_begin ends when the two differ in length or are not 1-D.
const ONNX_PAD_MODES = { constant: 'constant', edge: 'edge', reflect: 'reflect' };

function padFeeds({ attributes, inputs }) {
  const mode = attributes.pad_mode;
  if (mode === undefined) throw new Unsupported('ONNX Pad defaults to constant; OpenVINO has no default mode');
  if (typeof mode !== 'string') throw new Error('pad_mode is not a string');
  if (mode === 'symmetric') throw new Unsupported('ONNX Pad has no symmetric mode');
  const begin = inputs.pads_begin;
  const end = inputs.pads_end;
  if (begin.shape.length !== 1 || end.shape.length !== 1 || begin.shape[0] !== end.shape[0])
    throw new Unsupported(`ONNX Pad's one pads input cannot carry pads_begin [${begin.shape}] ` +
                          `and pads_end [${end.shape}]`);
  const pads = [...int64Values(begin, 'pads_begin', 'ONNX Pad'), ...int64Values(end, 'pads_end', 'ONNX Pad')];
  const feeds = { pads: new ort.Tensor('int64', BigInt64Array.from(pads), [pads.length]) };
  const sideInputs = [{ name: 'pads', type: 'i64', rank: 1 }];
  const value = mode === 'constant' ? inputs.pad_value : undefined;
  if (value !== undefined) {
    if (!ORT_TENSOR_TYPES[value.type])
      throw new Unsupported(`pad_value: ONNX Runtime has no ${value.type} tensor`);
    const dims = common.shapeNumbers(value.shape, 'pad_value');
    feeds.constant_value = ortTensor(value.type, common.tensorBytes(value, 'pad_value'), dims);
    sideInputs.push({ name: 'constant_value', type: value.type, rank: dims.length });
  }
  return { mode: ONNX_PAD_MODES[mode] || mode, feeds, sideInputs };
}

async function pad(request) {
  const { data } = request.inputs;
  const dims = common.shapeNumbers(data.shape, 'data');
  const { mode, feeds, sideInputs } = padFeeds(request);
  const key = JSON.stringify(['Pad', mode, data.type, dims.length, sideInputs]);
  const nodeInputs = ['x', ...sideInputs.map((input) => input.name)];
  const s = await cachedSession(key, 'ONNX Pad', () => graphModel(
    [{ opType: 'Pad', inputs: nodeInputs, outputs: ['y'], attributes: { mode } }],
    {}, data.type, dims.length, sideInputs));
  return runSession(`ONNX Pad ${mode}`, s, data, dims, feeds);
}

// Gather-8's nodes: ONNX Gather (Gather-13) when there are no batch axes,
// axis's value as its axis attribute, unchanged (out of range included, for
// the library to judge). ONNX Gather has no batch_dims; with b batch axes
// and the gathered axis right after them (axis = b), Gather-8 is GatherND
// with batch_dims b of the indices with a last axis of 1 (Unsqueeze): a
// composite, exact in that case only. Other requests are unsupported.
function gatherNodes(batchDims, axisValue, dataRank, indicesRank) {
  const b = batchDims < 0 ? batchDims + indicesRank : batchDims;
  if (b === 0)
    return [{ opType: 'Gather', inputs: ['x', 'indices'], outputs: ['y'], attributes: { axis: axisValue } }];
  const a = axisValue < 0n ? axisValue + BigInt(dataRank) : axisValue;
  if (b < 0 || b > indicesRank || BigInt(b) !== a)
    throw new Unsupported(`ONNX Gather has no batch_dims; GatherND takes batch_dims ${batchDims} only ` +
                          `with axis ${batchDims} (request: axis ${axisValue})`);
  return [{ opType: 'Unsqueeze', inputs: ['indices', 'last'], outputs: ['index_rows'] },
          { opType: 'GatherND', inputs: ['x', 'index_rows'], outputs: ['y'], attributes: { batch_dims: b } }];
}

// Gather-8 through gatherNodes: axis, an input in OpenVINO, is read here
// (a scalar or one element); indices is a graph input, int64 as in
// int64Feed.
async function gather({ attributes, inputs }) {
  const { axis, data } = inputs;
  const batchDims = attributes.batch_dims === undefined ? 0 : attributes.batch_dims;
  if (typeof batchDims !== 'number')
    throw new Unsupported(`batch_dims ${batchDims} has no composite`);
  if (axis.shape.length > 1 || (axis.shape.length === 1 && axis.shape[0] !== 1))
    throw new Unsupported(`ONNX Gather's axis is one integer: axis of shape [${axis.shape}] has no form in it`);
  const [axisValue] = int64Values(axis, 'axis', 'ONNX Gather');
  const dims = common.shapeNumbers(data.shape, 'data');
  const { type, tensor } = int64Feed(inputs.indices, 'indices', 'ONNX Gather');
  const nodes = gatherNodes(batchDims, axisValue, dims.length, tensor.dims.length);
  const sideInputs = [{ name: 'indices', type, rank: tensor.dims.length }];
  const what = `ONNX ${nodes.map((node) => node.opType).join(', ')} axis ${axisValue}, batch_dims ${batchDims}`;
  const batch = nodes.length > 1 ? nodes[1].attributes.batch_dims : 0;
  const outputRank = Math.max(0, dims.length - 1 + tensor.dims.length - batch);
  const key = JSON.stringify(['Gather', String(axisValue), batch, data.type, dims.length, sideInputs]);
  const constants = batch ? { last: [-1] } : {};
  const s = await cachedSession(key, what, () => graphModel(nodes, constants, data.type, dims.length,
                                                            sideInputs, outputRank));
  return runSession(what, s, data, dims, { indices: tensor });
}

// begin, end and stride as int64 values (BigInt arrays; stride null when
// absent) for the composite: 1-D, each value unchanged.
function stridedSliceValues(inputs) {
  const values = (name) => {
    const tensor = inputs[name];
    if (tensor.shape.length !== 1)
      throw new Unsupported(`${name}: ONNX Slice takes 1-D values (rank ${tensor.shape.length})`);
    return int64Values(tensor, name, 'ONNX Slice');
  };
  return { begin: values('begin'), end: values('end'),
           stride: inputs.stride === undefined ? null : values('stride') };
}

// The composite's nodes for a plan, each present only when it has work
// (an empty Squeeze axes input would squeeze every axis of size 1), and
// their int64 graph inputs.
function stridedSliceGraph(plan) {
  const nodes = [];
  const feeds = {};
  let last = 'x';
  const add = (opType, names) => {
    const output = `t${nodes.length}`;
    nodes.push({ opType, inputs: [last, ...names], outputs: [output] });
    last = output;
  };
  const feed = (name, list) => {
    feeds[name] = new ort.Tensor('int64', BigInt64Array.from(list), [list.length]);
    return name;
  };
  if (plan.axes.length)
    add('Slice', [feed('starts', plan.starts), feed('ends', plan.ends), feed('axes', plan.axes), feed('steps', plan.steps)]);
  if (plan.squeeze.length) add('Squeeze', [feed('squeeze_axes', plan.squeeze)]);
  if (plan.unsqueeze.length) add('Unsqueeze', [feed('unsqueeze_axes', plan.unsqueeze)]);
  if (!nodes.length) add('Identity', []);
  nodes[nodes.length - 1].outputs = ['y'];
  return { nodes, feeds };
}

async function stridedSlice(request) {
  const { data } = request.inputs;
  const dims = common.shapeNumbers(data.shape, 'data');
  const plan = stridedSlicePlan(stridedSliceValues(request.inputs), request.attributes, dims.length);
  const { nodes, feeds } = stridedSliceGraph(plan);
  const sideInputs = Object.keys(feeds).map((name) => ({ name, type: 'i64', rank: 1 }));
  const opTypes = nodes.map((node) => node.opType).join(', ');
  const key = JSON.stringify(['StridedSlice', opTypes, data.type, dims.length, plan.outputRank]);
  const what = `ONNX ${opTypes}`;
  const s = await cachedSession(key, what, () => graphModel(nodes, {}, data.type, dims.length,
                                                            sideInputs, plan.outputRank));
  return runSession(what, s, data, dims, feeds);
}

const HANDLERS = { 'SpaceToDepth-1': spaceToDepth, 'DepthToSpace-1': depthToSpace,
                   'ShuffleChannels-1': shuffleChannels, 'Slice-8': slice,
                   'Transpose-1': transpose, 'Pad-12': pad,
                   'StridedSlice-1': stridedSlice, 'Gather-8': gather };

// The element types whose kernel runs: one small request per type and op.
// `without`: operations the caller leaves out of its handshake (not probed).
async function probeTypes(without = []) {
  const probes = [
    ['SpaceToDepth-1', 'SpaceToDepth', { blocksize: 2 }],
    ['DepthToSpace-1', 'DepthToSpace', { blocksize: 2, mode: 'DCR' }],
    ['DepthToSpace-1', 'DepthToSpace', { blocksize: 2, mode: 'CRD' }],
  ];
  const ops = {};
  for (const [op, opType, attributes] of probes) {
    const types = [];
    for (const type of Object.keys(ORT_TENSOR_TYPES)) {
      const bits = common.ELEMENT_BITS[type];
      const data = { type, shape: [1, 4, 2, 2],
                     base64: Buffer.alloc((16 * bits) / 8).toString('base64') };
      try {
        await runNode(opType, attributes, data);
        types.push(type);
      } catch (e) {
        if (!(e instanceof Rejected)) throw e;
      }
    }
    // A type counts when every mode of the op has a kernel for it.
    ops[op] = { types: ops[op] ? ops[op].types.filter((t) => types.includes(t)) : types };
  }
  ops['ShuffleChannels-1'] = { types: await probeShuffleTypes() };
  ops['Slice-8'] = { types: await probeSliceTypes() };
  if (!without.includes('Transpose-1'))
    ops['Transpose-1'] = { types: await probeHandlerTypes(transpose, [{ attributes: {}, inputs: { input_order: side([1n, 0n]) } }]) };
  if (!without.includes('Pad-12'))
    ops['Pad-12'] = { types: await probeHandlerTypes(pad, padProbeRequests()) };
  // No probe of their own, which would hold onnxruntime-web's start longer:
  // the composite's one typed kernel is Slice (Squeeze, Unsqueeze and
  // Gather are registered for every type), and a probe of each gave Slice's
  // list on onnxruntime-node 1.30.0.
  for (const op of ['StridedSlice-1', 'Gather-8'])
    if (!without.includes(op)) ops[op] = { types: ops['Slice-8'].types };
  sessions.clear();
  return ops;
}

// An i64 side input of the given values, for the probes.
const side = (values) => ({ type: 'i64', shape: [values.length],
                            base64: Buffer.from(new BigInt64Array(values).buffer).toString('base64') });

// The element types a handler runs for on a [2, 2] input of zeros: a type
// counts when every request runs.
async function probeHandlerTypes(handler, requests) {
  const types = [];
  for (const type of Object.keys(ORT_TENSOR_TYPES)) {
    const data = { type, shape: [2, 2], base64: Buffer.alloc((4 * common.ELEMENT_BITS[type]) / 8).toString('base64') };
    try {
      for (const { attributes, inputs } of requests)
        await handler({ attributes, inputs: { data, ...inputs } });
      types.push(type);
    } catch (e) {
      if (!(e instanceof Rejected)) throw e;
    }
  }
  return types;
}

// Pad-12's probe request: a constant pad of 1 before and after both axes.
// ONNX Runtime registers one Pad kernel per type for every mode, so one
// mode answers for all three (three sessions per type held the WebAssembly
// build's start past a case's timeout on a loaded machine).
function padProbeRequests() {
  return [{ attributes: { pad_mode: 'constant' },
            inputs: { pads_begin: side([1n, 1n]), pads_end: side([1n, 1n]) } }];
}

// The element types ONNX Slice runs for: [4] sliced [1:3:1].
async function probeSliceTypes() {
  const types = [];
  for (const type of Object.keys(ORT_TENSOR_TYPES)) {
    const bytes = Buffer.alloc((4 * common.ELEMENT_BITS[type]) / 8);
    try {
      await slice({ inputs: { data: { type, shape: [4], base64: bytes.toString('base64') },
                              start: side([1n]), stop: side([3n]), step: side([1n]) } });
      types.push(type);
    } catch (e) {
      if (!(e instanceof Rejected)) throw e;
    }
  }
  return types;
}

// The element types the composite's Reshape and Transpose run for.
async function probeShuffleTypes() {
  const types = [];
  for (const type of Object.keys(ORT_TENSOR_TYPES)) {
    const bytes = Buffer.alloc((16 * common.ELEMENT_BITS[type]) / 8);
    try {
      await runShuffle([1, 2, 2, 4], { type, shape: [1, 4, 4], base64: bytes.toString('base64') });
      types.push(type);
    } catch (e) {
      if (!(e instanceof Rejected)) throw e;
    }
  }
  return types;
}

// Loads nothing itself: `options.ort` is the package the adapter required
// (or an object with the same API: the browser adapter's, in a page),
// The package and session options the handlers use (options as below).
function useOnnxRuntime(options) {
  ort = options.ort;
  dropFailedSessions = Boolean(options.dropFailedSessions);
  sessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, logSeverityLevel: 4,
                     ...(options.sessionOptions || {}) };
  sessions.clear();
}

// `options.packageName` its npm name (for the version, unless
// `options.version` gives it), `options.folder` the adapter's folder (where
// node_modules is), `options.name` the log prefix. Returns when movconf
// ends the session. One thread: many tiny requests on a shared machine. Log
// level fatal: errors come back as exceptions, which the reply carries.
// `options.without` lists operations left out of the handshake.
// `options.dropFailedSessions`: a session whose run failed is not used
// again (the webgpu provider's next run of it never answers).
async function serveOnnxRuntime(options) {
  useOnnxRuntime(options);
  const version = options.version || installedPackage(options.folder, options.packageName).version;
  const ops = await probeTypes(options.without);
  common.log(options.name, `${options.packageName} ${version}; kernels for`,
             Object.entries(ops).map(([op, { types }]) => `${op}: ${types.join(' ')}`).join('; '));
  await common.serve({ name: options.packageName, version, ops, handlers: HANDLERS,
                       library: 'ONNX' });
}

function runOnnxRuntimeAdapter(options) {
  common.runAdapter(options.name, () => serveOnnxRuntime(options));
}

module.exports = { gatherNodes, HANDLERS, runOnnxRuntimeAdapter, serveOnnxRuntime, useOnnxRuntime };
