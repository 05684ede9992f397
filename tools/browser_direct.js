#!/usr/bin/env node
'use strict';
// Confirms a browser finding outside movconf: one direct TensorFlow.js call
// in a headless Chromium page (the browser adapter's browser.js and
// packages, none of its mapping), its result printed.
//   node tools/browser_direct.js webgl|webgpu|ort-webgpu
// On 256 int32 elements starting 16777217, 5, 2147483647, 7 (the rest 0;
// above the 128 elements the webgl backend hands to its CPU kernels), calls
// tf.stridedSlice(x, [0], [256], [2]) and tf.spaceToBatchND of x as
// [1, 256, 1] with block [2], no padding: both outputs must start 16777217,
// 2147483647, int32 values above 2^24, which a float32 cannot hold exactly.
// Then tf.spaceToBatchND of an empty float32 [2, 0] padded by 3 at the end of
// axis 1, block [3]: a [6, 1] of zeros (the padding). Then the bits of a
// float32 [2, 2] transposed whose first element is the signaling NaN
// 0x7f800001 (a copy keeps it), of tf.pad of float32 [1, 2] by one NaN
// (0x7fc00000) at the end, tf.pad of int32 [1, 2] by one 2147483647, and
// tf.gather of int32 [1 .. 5] at [0, -2, -1] (Gather-8: [1, 4, 5]).
// Prints the first input and output elements.
//
// ort-webgpu: ONNX Runtime Web (ort.webgpu.min.js) in the page, one-node
// models (bytes from the adapters' ONNX encoder,
// examples/adapters/common/onnx_model.js), each run on the webgpu execution
// provider (no CPU fallback) and on the wasm one. DepthToSpace of a float32
// [1, 3, 2, 2] of 0 .. 11 with blocksize 2 (its 4 does not divide the 3
// channels), blocksize 1 and mode "dcr" (ONNX has DCR and CRD only), and
// blocksize 2^32 (its square wraps to 0): both providers must refuse them.
// Slice of float32 0 .. 6 with starts [0], ends [-8], steps [-1]
// (constants): both must answer [0]; Slice of a float32 scalar on axis 0,
// which has none, and Slice with ends a scalar graph input (ONNX wants
// 1-D): both must refuse them. Slice of 0 .. 6 by [3:0:-1] and of 0 .. 4
// by [4:INT32_MAX:-1], starts, ends and steps fed as graph inputs: [3, 2, 1]
// and [] (ONNX clamps ends to dim-1 for a negative step); by [5:0:0], a
// zero step, which both must refuse. Pad of 0 .. 2 in
// reflect mode by 3 at the start, pads fed as a graph input: ONNX wants
// reflect pads below the axis' size, so both must refuse it. Gather of
// [[0, 1], [2, 3]] at index 2 of axis 1 (of size 2), indices fed as a graph
// input: ONNX wants indices in range, so both must refuse it; the same for
// [2, 2, 2, 2] of 0 .. 15 at index 2 of axis 0, past the whole buffer. Prints each
// provider's output or error (or that it did not answer within 120 s).
// `node tools/browser_direct.js ort-webgpu NAME` runs only the models whose
// name contains NAME (each model's name is printed with its answers).
const path = require('path');

const folder = path.join(__dirname, '..', 'examples', 'adapters', 'browser');
const backend = process.argv[2];
const dist = (pkg, file) => path.join(folder, 'node_modules', ...pkg.split('/'), 'dist', file);
const script = `tf-backend-${backend}.min.js`;

const ORT_FILES = ['ort.webgpu.min.js', 'ort-wasm-simd-threaded.asyncify.mjs',
                   'ort-wasm-simd-threaded.asyncify.wasm'];

async function ortDirect(puppeteer) {
  const browser = require(path.join(folder, 'browser.js'));
  const session = await browser.openPage(puppeteer, {
    files: Object.fromEntries(ORT_FILES.map((f) => [f, dist('onnxruntime-web', f)])),
    scripts: ['ort.webgpu.min.js'],
    log: (text) => process.stderr.write(`${text}\n`),
    onFailure: (message) => { throw new Error(message); },
  });
  const { graphModel, oneNodeModel } = require(path.join(folder, '..', 'common', 'onnx_model.js'));
  const d2s = (attributes) => ({ model: oneNodeModel('DepthToSpace', attributes, 'f32', 4),
                                 shape: [1, 3, 2, 2] });
  const slice = { starts: [0], ends: [-8], axes: [0], steps: [-1] };
  // Slice of 0 .. n-1 with starts, ends and steps fed as int64 graph inputs.
  const sliceInputs = (n, starts, ends, steps) => ({
    model: graphModel([{ opType: 'Slice', inputs: ['x', 'starts', 'ends', '', 'steps'], outputs: ['y'] }],
                      {}, 'f32', 1, ['starts', 'ends', 'steps'].map((name) => ({ name, type: 'i64', rank: 1 }))),
    shape: [n], feeds: { starts: [starts, [1]], ends: [ends, [1]], steps: [steps, [1]] } });
  const models = {
    'blocksize 2, 3 channels': d2s({ blocksize: 2, mode: 'DCR' }),
    'mode "dcr"': d2s({ blocksize: 1, mode: 'dcr' }),
    'Slice [0:-8:-1] of 0 .. 6': {
      model: graphModel([{ opType: 'Slice', inputs: ['x', ...Object.keys(slice)], outputs: ['y'] }],
                        slice, 'f32', 1),
      shape: [7] },
    // ends as a scalar graph input (ONNX wants 1-D): both must refuse it.
    'Slice with a scalar ends': {
      model: graphModel([{ opType: 'Slice', inputs: ['x', 'starts', 'ends'], outputs: ['y'] }], {},
                        'f32', 1, [{ name: 'starts', type: 'i64', rank: 1 },
                                   { name: 'ends', type: 'i64', rank: 0 }]),
      shape: [7], feeds: { starts: [[0], [1]], ends: [[1], []] } },
    // starts, ends and steps as graph inputs, as the adapter feeds them.
    'Slice [3:0:-1] of 0 .. 6': sliceInputs(7, [3], [0], [-1]),
    'Slice [4:INT32_MAX:-1] of 0 .. 4': sliceInputs(5, [4], [2147483647], [-1]),
    // A zero step: ONNX refuses it (the CPU provider does, 'step' value cannot be 0).
    'Slice [5:0:0] of 0 .. 6 (step 0)': sliceInputs(7, [5], [0], [0]),
    // Reflect Pad of 0 .. 2 by 3 at the start: ONNX requires reflect pads
    // below the axis' size (the CPU provider refuses it).
    'Pad reflect of 0 .. 2 by 3': {
      model: graphModel([{ opType: 'Pad', inputs: ['x', 'pads'], outputs: ['y'], attributes: { mode: 'reflect' } }],
                        {}, 'f32', 1, [{ name: 'pads', type: 'i64', rank: 1 }]),
      shape: [3], feeds: { pads: [[3, 0], [2]] } },
    // Gather of [[0, 1], [2, 3]] at index 2 of axis 1, which has 2: ONNX
    // wants indices in [-2, 1] (the CPU provider refuses it).
    'Gather at 2 on an axis of 2': {
      model: graphModel([{ opType: 'Gather', inputs: ['x', 'indices'], outputs: ['y'], attributes: { axis: 1 } }],
                        {}, 'f32', 2, [{ name: 'indices', type: 'i64', rank: 1 }]),
      shape: [2, 2], feeds: { indices: [[2], [1]] } },
    // The same past the whole buffer: [2, 2, 2, 2] at index 2 of axis 0.
    'Gather at 2 on axis 0 of [2, 2, 2, 2]': {
      model: graphModel([{ opType: 'Gather', inputs: ['x', 'indices'], outputs: ['y'], attributes: { axis: 0 } }],
                        {}, 'f32', 4, [{ name: 'indices', type: 'i64', rank: 1 }]),
      shape: [2, 2, 2, 2], feeds: { indices: [[2], [1]] } },
    // Last: these may never answer (each is given 120 s).
    'Slice of a scalar on axis 0': {
      model: graphModel([{ opType: 'Slice', inputs: ['x', 'starts', 'ends', 'axes', 'steps'],
                           outputs: ['y'] }], { starts: [0], ends: [1], axes: [0], steps: [1] },
                        'f32', 0),
      shape: [] },
    'blocksize 2^32': d2s({ blocksize: 2 ** 32, mode: 'DCR' }),
  };
  const result = {};
  const only = process.argv[3] || '';
  for (const [name, { model, shape, feeds = {} }] of Object.entries(models).filter(([n]) => n.includes(only)))
    result[name] = await session.page.evaluate(async (bytes, shape, feeds, prefix) => {
      ort.env.wasm.numThreads = 1;
      ort.env.wasm.wasmPaths = prefix;
      const answers = {};
      for (const ep of ['webgpu', 'wasm']) {
        try {
          const s = await ort.InferenceSession.create(Uint8Array.from(bytes), {
            executionProviders: [ep],
            extra: ep === 'webgpu' ? { session: { disable_cpu_ep_fallback: '1' } } : {} });
          const size = shape.reduce((a, b) => a * b, 1);
          const x = new ort.Tensor('float32', Float32Array.from({ length: size }, (_, i) => i), shape);
          const late = new Promise((resolve) => setTimeout(resolve, 120000, 'no answer in 120 s'));
          const more = {};
          for (const [k, [values, dims]] of Object.entries(feeds))
            more[k] = new ort.Tensor('int64', BigInt64Array.from(values.map(BigInt)), dims);
          const ran = await Promise.race([s.run({ x, ...more }), late]);
          if (typeof ran === 'string') throw new Error(ran);
          const y = ran.y;
          answers[ep] = { dims: y.dims, values: Array.from(y.data) };
        } catch (e) {
          answers[ep] = { error: String(e && e.message || e).slice(0, 200) };
        }
      }
      return answers;
    }, Array.from(model), shape, feeds, browser.ORIGIN);
  process.stdout.write(`${JSON.stringify({ 'onnxruntime-web': require(dist('onnxruntime-web', '../package.json')).version, result })}\n`);
  await session.shutdown();
  process.exit(0);
}

async function main() {
  if (backend === 'ort-webgpu')
    return ortDirect(require(require.resolve('puppeteer-core', { paths: [folder] })));
  const puppeteer = require(require.resolve('puppeteer-core', { paths: [folder] }));
  const session = await require(path.join(folder, 'browser.js')).openPage(puppeteer, {
    files: { 'tf-core.js': dist('@tensorflow/tfjs-core', 'tf-core.min.js'),
             [script]: dist(`@tensorflow/tfjs-backend-${backend}`, script) },
    scripts: ['tf-core.js', script],
    log: (text) => process.stderr.write(`${text}\n`),
    onFailure: (message) => { throw new Error(message); },
  });
  const result = await session.page.evaluate(async (b) => {
    await tf.setBackend(b);
    const values = new Int32Array(256);
    values.set([16777217, 5, 2147483647, 7]);
    const x = tf.tensor1d(values, 'int32');
    const sliced = tf.stridedSlice(x, [0], [256], [2]);
    const batched = tf.spaceToBatchND(tf.reshape(x, [1, 256, 1]), [2], [[0, 0]]);
    const first = async (t, n) => Array.from((await t.data()).slice(0, n));
    const result = { backend: tf.getBackend(), input: await first(x, 4),
                     stridedSlice: await first(sliced, 2), spaceToBatchND: await first(batched, 2) };
    // Bits of float32 results: a signaling NaN through a small transpose,
    // and the padding of tf.pad with the constant NaN; INT32_MAX as an int32
    // padding constant.
    const bits = async (t) => Array.from(new Uint32Array((await t.data()).buffer))
      .map((b) => `0x${b.toString(16)}`);
    const nan = tf.tensor2d(new Float32Array(new Uint32Array([0x7f800001, 1, 2, 3]).buffer), [2, 2]);
    result.transposeSignalingNan = await bits(tf.transpose(nan, [1, 0]));
    result.padNan = await bits(tf.pad(tf.tensor1d([1, 2]), [[0, 1]], NaN));
    result.padInt32Max = await first(tf.pad(tf.tensor1d([1, 2], 'int32'), [[0, 1]], 2147483647), 3);
    // Indices outside [0, d-1]: the CPU backend refuses them.
    result.gatherNegative = await first(tf.gather(tf.tensor1d([1, 2, 3, 4, 5], 'int32'),
                                                  tf.tensor1d([0, -2, -1], 'int32')), 3);
    // Last: on webgpu its zero-size binding invalidates the command buffer
    // it is in, and with it whatever else that buffer computes.
    const padded = tf.spaceToBatchND(tf.zeros([2, 0]), [3], [[0, 3]]);
    result.emptyPadded = { shape: padded.shape, values: await first(padded, 6) };
    return result;
  }, backend);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await session.shutdown();
  process.exit(0);
}
main();
