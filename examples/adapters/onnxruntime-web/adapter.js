#!/usr/bin/env node
'use strict';
// movconf process adapter for ONNX Runtime Web's WebAssembly backend
// (npm onnxruntime-web, execution provider "wasm", one thread).
//
//   movconf run --impl exec:'exec node examples/adapters/onnxruntime-web/adapter.js'
//
// The adapter itself is common/onnxruntime_adapter.js, shared with the
// onnxruntime-node adapter: the same ONNX models, another package.

const { log } = require('../common/protocol.js');

let ort;
try {
  ort = require('onnxruntime-web');
} catch (e) {
  log('onnxruntime-web', `cannot load onnxruntime-web (run "npm ci --ignore-scripts" in ` +
      `${__dirname}):`, e.message);
  process.exit(2);
}
// The plain WebAssembly build without worker threads: one request at a time.
ort.env.wasm.numThreads = 1;
require('../common/onnxruntime_adapter.js').runOnnxRuntimeAdapter({
  ort, packageName: 'onnxruntime-web', folder: __dirname, name: 'onnxruntime-web',
  sessionOptions: { executionProviders: ['wasm'] },
});
