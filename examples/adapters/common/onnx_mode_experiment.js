'use strict';
// Which OpenVINO mode each ONNX operator computes, by experiment: runs ONNX
// Runtime's (onnxruntime-node's or onnxruntime-web's, whichever package the
// caller passes) SpaceToDepth and DepthToSpace (DCR, CRD) on the worked examples of
// spec/space_to_depth_1.md and spec/depth_to_space_1.md (values typed in from
// those pages) and prints the OpenVINO mode whose result each one matches.
// Exit 0 when the mapping is the one onnxruntime_adapter.js uses, 1 otherwise.

const { oneNodeModel } = require('./onnx_model.js');

let ort;
let sessionOptions;

const IOTA16 = Array.from({ length: 16 }, (_, i) => i);
// spec/space_to_depth_1.md, worked example: data [1,2,2,4] holding 0..15, block 2.
const S2D_EXPECTED = {
  blocks_first: [0, 2, 8, 10, 1, 3, 9, 11, 4, 6, 12, 14, 5, 7, 13, 15],
  depth_first: [0, 2, 1, 3, 4, 6, 5, 7, 8, 10, 9, 11, 12, 14, 13, 15],
};
// spec/depth_to_space_1.md: SpaceToDepth's example read backwards, so each
// mode's S2D output, through DepthToSpace of the same mode, gives back 0..15.
const D2S_INPUTS = S2D_EXPECTED;

async function run(opType, attributes, values, dims) {
  const session = await ort.InferenceSession.create(oneNodeModel(opType, attributes, 'f32', 4),
                                                 sessionOptions);
  const result = await session.run({ x: new ort.Tensor('float32', Float32Array.from(values), dims) });
  return Array.from(result.y.data);
}

const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

async function matchingModes(opType, attributes) {
  const modes = [];
  for (const mode of ['blocks_first', 'depth_first']) {
    const got = opType === 'SpaceToDepth'
      ? await run(opType, attributes, IOTA16, [1, 2, 2, 4])
      : await run(opType, attributes, D2S_INPUTS[mode], [1, 8, 1, 2]);
    if (same(got, opType === 'SpaceToDepth' ? S2D_EXPECTED[mode] : IOTA16)) modes.push(mode);
  }
  return modes;
}

async function main() {
  const expected = [
    ['SpaceToDepth', {}, 'blocks_first'],
    ['DepthToSpace', { mode: 'DCR' }, 'blocks_first'],
    ['DepthToSpace', { mode: 'CRD' }, 'depth_first'],
  ];
  let ok = true;
  for (const [opType, extra, mode] of expected) {
    const modes = await matchingModes(opType, { blocksize: 2, ...extra });
    const label = `ONNX ${opType}${extra.mode ? ` mode ${extra.mode}` : ''}`;
    console.log(`${label}: matches OpenVINO ${modes.length ? modes.join(', ') : 'no mode'}`);
    if (modes.length !== 1 || modes[0] !== mode) {
      console.log(`  expected ${mode} only`);
      ok = false;
    }
  }
  process.exit(ok ? 0 : 1);
}

// Runs the experiment on the package `ortPackage` and exits with its status.
function modeExperiment(ortPackage, options = {}) {
  ort = ortPackage;
  sessionOptions = options;
  main().catch((e) => {
    console.error(e && e.stack ? e.stack : String(e));
    process.exit(2);
  });
}

module.exports = { modeExperiment };
