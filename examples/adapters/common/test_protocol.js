'use strict';
// Unit tests of the shared protocol module, of the ONNX model encoder's
// varints, of the ShuffleChannels composite's view and of the StridedSlice
// composite's plan (node:test; run `node
// examples/adapters/common/test_protocol.js`). Expected values come from the
// protocol page (spec/adapter-protocol.md), from protobuf's documented
// encodings, from spec/shuffle_channels_1.md and from spec/strided_slice_1.md
// (its walk, SS-S2, and ONNX Slice's clamping) and spec/gather_8.md (GA-S2
// against ONNX Gather's and GatherND's definitions), worked out by hand.

const test = require('node:test');
const assert = require('node:assert/strict');
const p = require('./protocol.js');
const { varint } = require('./onnx_model.js');
const { shuffleView } = require('./shuffle_view.js');
const { stridedSlicePlan } = require('./strided_slice_plan.js');
const { gatherNodes, HANDLERS: ORT_HANDLERS, useOnnxRuntime } = require('./onnxruntime_adapter.js');
const { applyCalls, toWire } = require('./tfjs_calls.js');

const b64 = (bytes) => Buffer.from(bytes).toString('base64');

test('parseJson keeps int64 values exact and small integers as numbers', () => {
  const v = p.parseJson('{"a":9223372036854775807,"b":-9223372036854775808,"c":12,' +
                        '"d":9007199254740993,"e":[],"f":{},"g":[true,false,null],"h":-0.5e1}');
  assert.equal(v.a, 9223372036854775807n);
  assert.equal(v.b, -9223372036854775808n);
  assert.equal(v.c, 12);
  assert.equal(v.d, 9007199254740993n);
  assert.deepEqual(v.e, []);
  assert.deepEqual(v.f, {});
  assert.deepEqual(v.g, [true, false, null]);
  assert.equal(v.h, -5);
});

test('parseJson reads escapes wherever they are', () => {
  const v = p.parseJson(' {"x":"plain","y":"a\\"b\\\\c\\u00e9\\n","z":"after"} ');
  assert.equal(v.x, 'plain');
  assert.equal(v.y, 'a"b\\c\u00e9\n');
  assert.equal(v.z, 'after');
});

test('parseJson rejects broken lines', () => {
  for (const text of ['{"a":1', '{"a":1} x', '{"a" 1}', '[1,]', '"open'])
    assert.throws(() => p.parseJson(text), SyntaxError, text);
});

test('storageBytes packs sub-byte types (section 6)', () => {
  assert.equal(p.storageBytes('u1', 9), 2n);
  assert.equal(p.storageBytes('u4', 3), 2n);
  assert.equal(p.storageBytes('i4', 4), 2n);
  assert.equal(p.storageBytes('f32', 0), 0n);
  assert.equal(p.storageBytes('i64', 3), 24n);
});

test('sideInputValues reads every integer type little-endian', () => {
  assert.deepEqual(p.sideInputValues({ type: 'i8', shape: [2], base64: b64([0xff, 0x7f]) }),
                   [-1n, 127n]);
  assert.deepEqual(p.sideInputValues({ type: 'u16', shape: [1], base64: b64([0x34, 0x12]) }),
                   [0x1234n]);
  assert.deepEqual(p.sideInputValues({ type: 'i32', shape: [2],
                                       base64: b64([1, 0, 0, 0, 2, 0, 0, 0]) }), [1n, 2n]);
  assert.deepEqual(p.sideInputValues({ type: 'u64', shape: [1], base64: b64(Array(8).fill(0xff)) }),
                   [(1n << 64n) - 1n]);
  assert.deepEqual(p.sideInputValues({ type: 'i64', shape: [1],
                                       base64: b64([0, 0, 0, 0, 0, 0, 0, 0x80]) }), [-(1n << 63n)]);
  assert.equal(p.sideInputValues({ type: 'f32', shape: [1], base64: b64([0, 0, 0x80, 0x3f]) }),
               null);
});

test('tensorBytes checks the byte count against type and shape', () => {
  assert.throws(() => p.tensorBytes({ type: 'f32', shape: [2], base64: b64([0, 0, 0, 0]) }, 'd'));
  assert.equal(p.tensorBytes({ type: 'u1', shape: [9], base64: 'sIA=' }, 'd').length, 2);
});

test('sideInputNumbers refuses values a JavaScript number would change', () => {
  assert.deepEqual(p.sideInputNumbers([1n, -2n], 'x'), [1, -2]);
  assert.throws(() => p.sideInputNumbers([(1n << 53n) + 1n], 'x'), p.Unsupported);
});

test('outputTensor keeps exactly the bytes of a typed-array view, answer encodes them', async () => {
  const whole = new Float32Array([5, 1, -2]);
  const out = p.outputTensor('f32', [2], whole.subarray(1));
  assert.equal(out.bytes.toString('base64'), 'AACAPwAAAMA='); // 1.0 and -2.0, section 6's table
  assert.deepEqual(out.shape, [2]);
  const line = '{"id":3,"op":"DepthToSpace-1","attributes":{},"inputs":{},"max_output_bytes":8}';
  assert.deepEqual(await p.answer(line, () => out, 't'),
                   { id: 3, output: { type: 'f32', shape: [2], base64: 'AACAPwAAAMA=' } });
});

test('answer checks max_output_bytes before encoding (a 1 GiB output)', async () => {
  const line = '{"id":4,"op":"DepthToSpace-1","attributes":{},"inputs":{},"max_output_bytes":1073741823}';
  const huge = p.outputTensor('u8', [1 << 30], Buffer.allocUnsafe(1 << 30)); // pages untouched
  const reply = await p.answer(line, () => huge, 't');
  assert.match(reply.unsupported, /1073741824 bytes, more than max_output_bytes/);
});

test('a request with a shared memory file: inputs read and the output written there (section 16)',
     async () => {
  const fs = require('fs');
  const path = require('path');
  const file = path.join(fs.mkdtempSync(path.join(require('os').tmpdir(), 'movconf-')), 'shm');
  const region = Buffer.alloc(4096 + 8);
  Buffer.from([0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0]).copy(region, 0); // f32 1.0 and -2.0 at 0
  fs.writeFileSync(file, region);
  const line = (room) => `{"id":5,"op":"DepthToSpace-1","attributes":{},"inputs":{"data":` +
    `{"type":"f32","shape":[2],"offset":0}},"max_output_bytes":8,"shared_memory":{"path":` +
    `${JSON.stringify(file)},"size":4104,"output_offset":4096,"output_bytes":${room}}}`;
  // The handler swaps the two elements.
  const swap = (request) => {
    const bytes = p.tensorBytes(request.inputs.data, 'data');
    return p.outputTensor('f32', [2], Buffer.concat([bytes.subarray(4), bytes.subarray(0, 4)]));
  };
  assert.deepEqual(await p.answer(line(8), swap, 't'),
                   { id: 5, output: { type: 'f32', shape: [2], bytes: 8 } });
  assert.equal(fs.readFileSync(file).subarray(4096).toString('base64'), 'AAAAwAAAgD8=');
  // An output the region cannot hold goes as base64.
  assert.deepEqual(await p.answer(line(4), swap, 't'),
                   { id: 5, output: { type: 'f32', shape: [2], base64: 'AAAAwAAAgD8=' } });
  fs.rmSync(path.dirname(file), { recursive: true });
});

test('typedView copies to an aligned buffer', () => {
  const bytes = Buffer.from([9, 0, 0, 0x80, 0x3f]).subarray(1);
  assert.equal(p.typedView(Float32Array, bytes)[0], 1);
});

test('answer turns handler outcomes into replies', async () => {
  const line = '{"id":7,"op":"DepthToSpace-1","attributes":{},"inputs":{},"max_output_bytes":4}';
  const output = { type: 'f32', shape: [1], base64: 'AACAPw==' };
  assert.deepEqual(await p.answer(line, () => output, 't'), { id: 7, output });
  assert.deepEqual(await p.answer(line, () => { throw new p.Unsupported('no'); }, 't'),
                   { id: 7, unsupported: 'no' });
  assert.deepEqual(await p.answer(line, () => { throw new p.Rejected('bad'); }, 't'),
                   { id: 7, error: 'bad' });
  const big = await p.answer(line, () => ({ type: 'f32', shape: [2], base64: '' }), 't');
  assert.match(big.unsupported, /more than max_output_bytes/);
  const huge = await p.answer(line, () => ({ type: 'f32', shape: [0, 2 ** 32, 2 ** 32],
                                             base64: '' }), 't');
  assert.match(huge.unsupported, /beyond int64/);
});

test('libraryCall maps library exceptions to Rejected', async () => {
  await assert.rejects(p.libraryCall('op', () => { throw new Error('nope'); }), p.Rejected);
  await assert.rejects(p.libraryCall('op', () => { throw new RangeError('Array buffer allocation failed'); }),
                       p.Unsupported);
  assert.equal(await p.libraryCall('op', () => 3), 3);
});

test('protobuf varints (protobuf encoding guide)', () => {
  assert.deepEqual([...varint(1)], [0x01]);
  assert.deepEqual([...varint(150)], [0x96, 0x01]);
  assert.deepEqual([...varint(300)], [0xac, 0x02]);
  assert.deepEqual([...varint(-1)], [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
  assert.deepEqual([...varint(1n << 62n)], [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40]);
});

test('timeRequest times only the library calls (section 15)', async () => {
  let calls = 0;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  // 200 ms outside the library per call, about 20 ms inside it (a timer may
  // fire a millisecond early): a time that counted the outside would be at
  // least 0.2 s, far from any load's delay.
  const handle = async () => {
    calls++;
    await sleep(200);
    return p.libraryCall('op', () => sleep(20));
  };
  const t = await p.timeRequest({ timing: { runs: 3, min_run_seconds: 0.005 } }, handle);
  assert.equal(t.seconds.length, 3);
  assert.ok(t.calls_per_run >= 1 && calls === 1 + 3 * t.calls_per_run);
  for (const s of t.seconds) assert.ok(s >= 0.015 && s < 0.2, `per call ${s} s`);
  await assert.rejects(p.timeRequest({ timing: { runs: 0, min_run_seconds: 0 } }, handle));
});

test('ShuffleChannels view [outer, group, C / group, inner] (SC-S1)', () => {
  assert.deepEqual(shuffleView([1, 6, 2], { axis: 1, group: 2 }), [1, 2, 3, 2]); // worked example
  assert.deepEqual(shuffleView([1, 6, 2], { axis: -2, group: 2 }), [1, 2, 3, 2]);
  assert.deepEqual(shuffleView([5, 12, 200, 400], { group: 3 }), [5, 3, 4, 80000]); // axis 1 by default
  assert.deepEqual(shuffleView([2, 3, 4, 6], { axis: -1, group: 3 }), [24, 3, 2, 1]);
  assert.deepEqual(shuffleView([6], { axis: 0, group: 6 }), [1, 6, 1, 1]);
  assert.deepEqual(shuffleView([5, 12, 7], {}), [5, 1, 12, 7]); // group 1 by default
  assert.deepEqual(shuffleView([1, 0, 2], { group: 2 }), [1, 2, 0, 2]);
  // A group below 1 or not dividing C goes in as it is, -1 for the library to refuse.
  assert.deepEqual(shuffleView([1, 6, 2], { group: 4 }), [1, 4, -1, 2]);
  assert.deepEqual(shuffleView([1, 6, 2], { group: 0 }), [1, 0, -1, 2]);
  assert.deepEqual(shuffleView([1, 6, 2], { group: -3 }), [1, -3, -1, 2]);
  // No library op takes the axis: out of range (the default on rank 1 too) is unsupported.
  assert.throws(() => shuffleView([6], {}), p.Unsupported);
  assert.throws(() => shuffleView([1, 6], { axis: -3 }), p.Unsupported);
  assert.throws(() => shuffleView([1, 6], { axis: 2 }), p.Unsupported);
  assert.throws(() => shuffleView([], {}), p.Unsupported);
  assert.throws(() => shuffleView([1, 6], { axis: -9223372036854775808n }), p.Unsupported);
  assert.throws(() => shuffleView([1, 6], { group: 1n << 60n }), p.Unsupported);
});

const INT64_MAX = 2n ** 63n - 1n;
const big = (values) => values.map(BigInt);
const plan = (begin, end, stride, attributes, rank) =>
  stridedSlicePlan({ begin: big(begin), end: big(end), stride: stride && big(stride) }, attributes, rank);

test('StridedSlice plan: new axes are Unsqueezed at their output positions (the page\'s example 5)', () => {
  // [newaxis, 0:2, newaxis, 0:4] on [2, 4]: output [1, 2, 1, 4].
  assert.deepEqual(plan([0, 0, 0, 0], [0, 2, 0, 4], null, { new_axis_mask: [1, 0, 1, 0] }, 2), {
    axes: [0n, 1n], starts: [0n, 0n], ends: [2n, 4n], steps: [1n, 1n], squeeze: [], unsqueeze: [0n, 2n],
    outputRank: 4 });
});

test('StridedSlice plan: a shrink entry is b..b+1 step 1 and a Squeeze of its axis', () => {
  // [0:1, 0, 0:384, 0:640, 0:8] on rank 5 (the page's example 6), stride and end of the shrink ignored.
  assert.deepEqual(plan([0, 0, 0, 0, 0], [1, 7, 384, 640, 8], [1, -3, 1, 1, 1], { shrink_axis_mask: [0, 1] }, 5), {
    axes: [0n, 1n, 2n, 3n, 4n], starts: [0n, 0n, 0n, 0n, 0n], ends: [1n, 1n, 384n, 640n, 8n],
    steps: [1n, 1n, 1n, 1n, 1n], squeeze: [1n], unsqueeze: [], outputRank: 4 });
  // x[-1]: -1 .. the end, not -1 .. 0.
  assert.deepEqual(plan([-1], [0], null, { shrink_axis_mask: [1] }, 2).ends, [INT64_MAX]);
});

test('StridedSlice plan: the ellipsis covers the axes the other entries leave, masks by stride sign', () => {
  // [..., ::-1] on rank 3: axis 2 reversed whole, axes 0 and 1 untouched.
  assert.deepEqual(plan([0, 0], [0, 0], [1, -1], { ellipsis_mask: [1], begin_mask: [0, 1], end_mask: [0, 1] }, 3), {
    axes: [2n], starts: [INT64_MAX], ends: [-(2n ** 63n)], steps: [-1n], squeeze: [], unsqueeze: [],
    outputRank: 3 });
  // [0, ..., 1:2, ::2] on rank 3: the ellipsis stands for no axis.
  assert.deepEqual(plan([0, 0, 1, 0], [1, 0, 2, 0], [1, 1, 1, 2],
                        { shrink_axis_mask: [1], ellipsis_mask: [0, 1], begin_mask: [0, 0, 0, 1], end_mask: [0, 0, 0, 1] }, 3), {
    axes: [0n, 1n, 2n], starts: [0n, 1n, 0n], ends: [1n, 2n, INT64_MAX], steps: [1n, 1n, 2n], squeeze: [0n],
    unsqueeze: [], outputRank: 2 });
});

test('StridedSlice plan: what the walk rejects has no composite', () => {
  const cases = [
    [[0, 0], [1, 1], null, { ellipsis_mask: [1, 1] }, 2],
    [[0], [1], null, { begin_mask: [2] }, 1],
    [[0], [1], null, { end_mask: [0, -1] }, 1],
    [[0, 0], [1, 1], [0, 1], { new_axis_mask: [1] }, 1],
    [[0, 0, 0], [1, 1, 1], null, {}, 2],
    [[0], [1, 1], null, {}, 2],
  ];
  for (const [begin, end, stride, attributes, rank] of cases)
    assert.throws(() => plan(begin, end, stride, attributes, rank), p.Unsupported, JSON.stringify(attributes));
});

test('Gather-8 nodes: Gather without batch axes, Unsqueeze and GatherND when axis is batch_dims', () => {
  const gather = (axis) => [{ opType: 'Gather', inputs: ['x', 'indices'], outputs: ['y'], attributes: { axis } }];
  const gatherNd = (b) => [{ opType: 'Unsqueeze', inputs: ['indices', 'last'], outputs: ['index_rows'] },
                           { opType: 'GatherND', inputs: ['x', 'index_rows'], outputs: ['y'], attributes: { batch_dims: b } }];
  assert.deepEqual(gatherNodes(0, 1n, 3, 2), gather(1n));
  assert.deepEqual(gatherNodes(-2, -1n, 3, 2), gather(-1n)); // -q: no batch axes
  assert.deepEqual(gatherNodes(1, 1n, 2, 2), gatherNd(1)); // the page's example 2
  assert.deepEqual(gatherNodes(-1, -1n, 3, 3), gatherNd(2)); // batch_dims 2, axis 2
  for (const [b, axis] of [[1, 2n], [1, 0n], [3, 3n]])
    assert.throws(() => gatherNodes(b, axis, 4, 2), p.Unsupported, `batch_dims ${b}, axis ${axis}`);
});

// The browser adapter's calls reach the page as JSON (the DevTools protocol's
// arguments), which turns NaN and the infinities into null and -0 into 0.
test('tfjs calls keep NaN bits, the infinities and -0 across JSON to the page', () => {
  const nanPayload1 = new Float32Array(new Uint32Array([0x7fc00001]).buffer)[0];
  const calls = [['pad', [[0, 1]], nanPayload1], ['f', -0, [Infinity, -Infinity, 2.5], 'reflect', null],
                 ['gather', { tensor: { values: [NaN, -0, 1], shape: [3], dtype: 'float32' } }]];
  const seen = [];
  const record = (y, ...args) => (seen.push(args), y);
  const tf = { pad: record, f: record, gather: record,
               tensor: (values, shape, dtype) => ({ values, shape, dtype }) };
  const page = JSON.parse(JSON.stringify(toWire(calls)));
  assert.equal(applyCalls(tf, 'x', page), 'x');
  assert.deepEqual(seen, [[[[0, 1]], NaN], [-0, [Infinity, -Infinity, 2.5], 'reflect', null],
                          [{ values: [NaN, -0, 1], shape: [3], dtype: 'float32' }]]);
  assert.ok(Object.is(seen[1][0], -0) && Object.is(seen[2][0].values[1], -0));
  assert.equal(new Uint32Array(Float32Array.of(seen[0][1]).buffer)[0], 0x7fc00001);
  assert.throws(() => applyCalls(tf, 'x', [['pad', [], { float64: 'nan' }]]), /no float64 bits nan/);
});

// The webgpu provider's session whose run failed never answers its next run:
// with dropFailedSessions the next request of the same model gets a new one.
test('ONNX Runtime: a session whose run failed is not used again when asked', async () => {
  const request = { attributes: {}, inputs: {
    data: { type: 'f32', shape: [2], base64: b64(new Uint8Array(new Float32Array([1, 2]).buffer)) },
    input_order: { type: 'i64', shape: [1], base64: b64(new Uint8Array(8)) } } };
  const created = [];
  const ort = {
    Tensor: class { constructor(type, data, dims) { Object.assign(this, { type, data, dims }); } },
    InferenceSession: { create: async () => {
      const failing = created.length === 0;
      created.push(failing);
      return { run: async ({ x }) => {
        if (failing) throw new Error('failed inside the provider');
        return { y: { type: 'float32', dims: x.dims, data: x.data } };
      } };
    } },
  };
  for (const [drop, sessionsMade] of [[true, 2], [false, 1]]) {
    created.length = 0;
    useOnnxRuntime({ ort, dropFailedSessions: drop });
    await assert.rejects(ORT_HANDLERS['Transpose-1'](request), /failed inside the provider/);
    await ORT_HANDLERS['Transpose-1'](request).then(() => {}, () => {});
    assert.equal(created.length, sessionsMade, `dropFailedSessions ${drop}`);
  }
});
