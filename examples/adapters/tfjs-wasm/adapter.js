#!/usr/bin/env node
'use strict';
// movconf process adapter for the TensorFlow.js WebAssembly backend
// (npm @tensorflow/tfjs-core + @tensorflow/tfjs-backend-wasm).
//
//   movconf run --impl exec:'exec node examples/adapters/tfjs-wasm/adapter.js'
//
// The adapter itself is common/tfjs_adapter.js, shared with the CPU backend's
// adapter; README.md has the mapping and how cases are isolated.

const { log } = require('../common/protocol.js');

const warn = console.warn;
console.warn = (...parts) => {
  if (!String(parts[0]).includes('install our node backend')) warn(...parts);
};

let tf;
try {
  tf = require('@tensorflow/tfjs-core');
  require('@tensorflow/tfjs-backend-wasm');
} catch (e) {
  log('tfjs-wasm', `cannot load TensorFlow.js (run "npm ci --ignore-scripts" in ${__dirname}):`,
      e.message);
  process.exit(2);
}
// A WebAssembly module's memory outlives a call, and a kernel that writes
// out of bounds or traps can corrupt it: every request gets a new module
// instance (README.md, "Isolation").
require('../common/tfjs_adapter.js').runTfjsAdapter({
  tf, backend: { name: 'wasm', package: '@tensorflow/tfjs-backend-wasm', fresh: true },
  folder: __dirname, name: 'tfjs-wasm',
});
