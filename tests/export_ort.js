'use strict';
// Runs the ONNX node tests `movconf export --format onnx` wrote with ONNX
// Runtime (onnxruntime-node, the package of examples/adapters/onnxruntime/),
// a consumer movconf does not contain: each model.onnx on its
// test_data_set_0/input_N.pb, the output compared byte for byte with
// output_0.pb. Every disagreement must be a failure that
// docs/conformance-explanations.json explains for the onnxruntime adapter
// (printed with the explanation's title); types the JavaScript API has no
// tensor for, and kernels ONNX Runtime does not have, are counted apart.
// usage: node export_ort.js DIR NODE_MODULES EXPLANATIONS_JSON
// Exit status 0 when every disagreement is explained, 1 otherwise, 77 when
// onnxruntime-node is not installed.
const fs = require('fs');
const path = require('path');

const [dir, nodeModules, explanationsPath] = process.argv.slice(2);
let ort;
try {
  ort = require(path.resolve(nodeModules, 'onnxruntime-node'));
} catch (err) {
  console.log(`skipped: onnxruntime-node is not installed in ${nodeModules}`);
  process.exit(77);
}

// ---- protobuf's wire format, read: the fields of one message
function readVarint(buf, at) {
  let value = 0n;
  let shift = 0n;
  for (;;) {
    const byte = buf[at.pos++];
    value |= BigInt(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return value;
    shift += 7n;
  }
}

function fields(buf) {
  const out = [];
  const at = { pos: 0 };
  while (at.pos < buf.length) {
    const key = Number(readVarint(buf, at));
    const field = key >> 3;
    const wire = key & 7;
    if (wire === 0) {
      out.push({ field, value: readVarint(buf, at) });
    } else if (wire === 2) {
      const n = Number(readVarint(buf, at));
      out.push({ field, bytes: buf.subarray(at.pos, at.pos + n) });
      at.pos += n;
    } else {
      throw new Error(`wire type ${wire} is not one movconf writes`);
    }
  }
  return out;
}

// TensorProto: dims 1, data_type 2, name 8, raw_data 9.
function readTensor(file) {
  const t = { dims: [], raw: Buffer.alloc(0) };
  for (const f of fields(fs.readFileSync(file))) {
    if (f.field === 1) t.dims.push(Number(BigInt.asIntN(64, f.value)));
    else if (f.field === 2) t.type = Number(f.value);
    else if (f.field === 8) t.name = f.bytes.toString();
    else if (f.field === 9) t.raw = Buffer.from(f.bytes);
  }
  return t;
}

// ModelProto.graph (7) -> GraphProto.node (1) -> NodeProto.op_type (4).
function modelOpType(model) {
  const graph = fields(model).find((f) => f.field === 7);
  const node = graph && fields(graph.bytes).find((f) => f.field === 1);
  const opType = node && fields(node.bytes).find((f) => f.field === 4);
  return opType ? opType.bytes.toString() : '';
}

// ModelProto.metadata_props (14): StringStringEntryProto key 1, value 2.
function modelCase(model) {
  for (const f of fields(model)) {
    if (f.field !== 14) continue;
    const entry = Object.fromEntries(fields(f.bytes).map((e) => [e.field, e.bytes.toString()]));
    if (entry[1] === 'movconf.case') return entry[2];
  }
  return null;
}

// ONNX type code -> [onnxruntime-common type, typed array]; bfloat16 (16)
// has no tensor type in the JavaScript API.
const ORT_TYPES = {
  1: ['float32', Float32Array], 2: ['uint8', Uint8Array], 3: ['int8', Int8Array],
  4: ['uint16', Uint16Array], 5: ['int16', Int16Array], 6: ['int32', Int32Array],
  7: ['int64', BigInt64Array], 9: ['bool', Uint8Array], 10: ['float16', Uint16Array],
  11: ['float64', Float64Array], 12: ['uint32', Uint32Array], 13: ['uint64', BigUint64Array],
};

function ortTensor(t) {
  const [type, Constructor] = ORT_TYPES[t.type];
  const copy = new Uint8Array(t.raw); // aligned for the typed array
  return new ort.Tensor(type, new Constructor(copy.buffer, 0, copy.length / Constructor.BYTES_PER_ELEMENT),
                        t.dims);
}

function bytesOf(data) {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

// The int64 values of a Slice side input.
function int64Values(t) {
  const copy = new Uint8Array(t.raw);
  return Array.from(new BigInt64Array(copy.buffer, 0, copy.length / 8));
}

const isF16NaN = (bits) => (bits & 0x7c00) === 0x7c00 && (bits & 0x3ff) !== 0;

// A float16 output that differs from the expected one only where both are
// NaNs (another NaN's bits).
function onlyF16NaNsDiffer(r) {
  if (r.expected.type !== 10 || !r.output || r.output.length !== r.expected.raw.length) return false;
  const got = new Uint16Array(new Uint8Array(r.output).buffer);
  const want = new Uint16Array(new Uint8Array(r.expected.raw).buffer);
  return got.every((g, i) => g === want[i] || (isF16NaN(g) && isF16NaN(want[i])));
}

// A disagreement whose case the explanations do not list, recognized by the
// condition of an explained cause (its title, as in the explanations), so
// that a case movconf export makes from another (a u64 bound written as
// INT64_MAX) is held to the same causes and nothing else: the title, or null.
const CONDITIONS = [
  ['Slice reads an ends of INT32_MAX or INT64_MAX with a negative step', (r) => {
    if (r.opType !== 'Slice') return false;
    const ends = int64Values(r.inputs.find((t) => t.name === 'ends'));
    const steps = int64Values(r.inputs.find((t) => t.name === 'steps'));
    return ends.some((e, i) => steps[i] < 0n && (e === 2147483647n || e === 9223372036854775807n));
  }],
  ['float16 SpaceToDepth/DepthToSpace change NaN bits', (r) =>
    ['SpaceToDepth', 'DepthToSpace'].includes(r.opType) && onlyF16NaNsDiffer(r)],
  ['float16 Pad changes NaN bits', (r) => r.opType === 'Pad' && onlyF16NaNsDiffer(r)],
  ['output dimensions above 2^53 cannot reach JavaScript', (r) =>
    [...r.inputs, r.expected].some((t) => t.dims.some((d) => !Number.isSafeInteger(d)))],
  ['input dimensions of 2^32 and above are refused by the JavaScript binding', (r) =>
    r.refused && r.inputs.some((t) => t.dims.some((d) => d >= 2 ** 32))],
];

// The explanations of docs/conformance-explanations.json for onnxruntime
// that are ONNX Runtime's bugs and limitations: [{title, patterns: [RegExp]}]
// from the shell patterns of their cases. Its semantic differences (where
// ONNX means something else, as Slice's start clamp) are left out: a node
// test showing one is a case the export should have skipped.
function explanations() {
  const all = JSON.parse(fs.readFileSync(explanationsPath, 'utf8')).explanations;
  const glob = (p) => new RegExp(`^${p.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*')
    .replace(/\?/g, '.')}$`);
  const ours = (e) => e.adapters.includes('onnxruntime') && e.class !== 'semantic-difference';
  return all.filter(ours).map((e) => ({
    title: e.title, patterns: Object.values(e.cases).flat().map(glob),
  }));
}

async function runTest(folder) {
  const model = fs.readFileSync(path.join(folder, 'model.onnx'));
  const dataDir = path.join(folder, 'test_data_set_0');
  const inputs = fs.readdirSync(dataDir).filter((n) => n.startsWith('input_')).sort(
    (a, b) => parseInt(a.slice(6), 10) - parseInt(b.slice(6), 10)).map((n) => readTensor(path.join(dataDir, n)));
  const expected = readTensor(path.join(dataDir, 'output_0.pb'));
  const id = modelCase(model);
  const found = { id, opType: modelOpType(model), inputs, expected };
  if ([...inputs, expected].some((t) => !ORT_TYPES[t.type])) return { ...found, kind: 'no-js-type' };
  let output;
  try {
    const session = await ort.InferenceSession.create(model, { logSeverityLevel: 3 });
    const feeds = Object.fromEntries(inputs.map((t) => [t.name, ortTensor(t)]));
    output = (await session.run(feeds))[session.outputNames[0]];
  } catch (err) {
    const text = String(err.message || err);
    if (/NOT_IMPLEMENTED|Could not find an implementation/.test(text)) return { ...found, kind: 'no-kernel' };
    return { ...found, kind: 'disagrees', refused: true, why: `refused: ${text.split('\n')[0].slice(0, 160)}` };
  }
  found.output = Buffer.from(bytesOf(output.data));
  if (JSON.stringify(output.dims.map(Number)) !== JSON.stringify(expected.dims)) {
    return { ...found, kind: 'disagrees', why: `shape [${output.dims}], expected [${expected.dims}]` };
  }
  if (!found.output.equals(expected.raw)) return { ...found, kind: 'disagrees', why: 'bytes differ' };
  return { ...found, kind: 'agrees' };
}

async function main() {
  const known = explanations();
  for (const [title] of CONDITIONS) {
    if (!known.some((x) => x.title.startsWith(title))) throw new Error(`no explanation '${title}'`);
  }
  const counts = { agrees: 0, 'no-js-type': 0, 'no-kernel': 0, disagrees: 0 };
  const byExplanation = new Map();
  let unexplained = 0;
  const folders = fs.readdirSync(dir).filter((n) => n.startsWith('test_')).sort();
  for (const name of folders) {
    const r = await runTest(path.join(dir, name));
    counts[r.kind]++;
    if (r.kind !== 'disagrees') continue;
    const listed = known.find((x) => x.patterns.some((p) => p.test(r.id)));
    const condition = CONDITIONS.find(([, holds]) => holds(r));
    const title = listed ? listed.title : condition && known.find((x) => x.title.startsWith(condition[0])).title;
    if (title) {
      const key = `${title}${listed ? '' : ' (not listed there: by its condition)'}`;
      byExplanation.set(key, (byExplanation.get(key) || 0) + 1);
    } else {
      unexplained++;
      console.log(`UNEXPLAINED ${r.id}: ${r.why}`);
    }
  }
  console.log(`onnxruntime-node: ${folders.length} node tests: ${counts.agrees} agree byte for byte, ` +
              `${counts.disagrees} disagree, ${counts['no-kernel']} without a kernel for the type, ` +
              `${counts['no-js-type']} of a type the JavaScript API lacks (bfloat16)`);
  for (const [title, n] of byExplanation) console.log(`  explained (${n}): ${title}`);
  console.log(`  unexplained: ${unexplained}`);
  process.exit(unexplained === 0 && counts.agrees > 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
