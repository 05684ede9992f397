#!/usr/bin/env node
'use strict';
// movconf process adapter for ONNX Runtime's CPU kernels (npm onnxruntime-node).
//
//   movconf run --impl exec:'exec node examples/adapters/onnxruntime/adapter.js'
//
// The adapter itself is common/onnxruntime_adapter.js (shared with
// onnxruntime-web); README.md has the mapping.

const { log } = require('../common/protocol.js');

let ort;
try {
  ort = require('onnxruntime-node');
} catch (e) {
  log('onnxruntime', `cannot load onnxruntime-node (run "npm ci --ignore-scripts" in ${__dirname}):`,
      e.message);
  process.exit(2);
}
require('../common/onnxruntime_adapter.js').runOnnxRuntimeAdapter({
  ort, packageName: 'onnxruntime-node', folder: __dirname, name: 'onnxruntime',
});
