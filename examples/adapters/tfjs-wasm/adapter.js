#!/usr/bin/env node
'use strict';
// movconf process adapter for the TensorFlow.js WebAssembly backend
// (npm @tensorflow/tfjs-core + @tensorflow/tfjs-backend-wasm).
//
//   movconf run --impl exec:'exec node examples/adapters/tfjs-wasm/adapter.js'
//
// The adapter itself is common/tfjs_adapter.js, shared with the CPU backend's
// adapter; README.md has the mapping. A WebAssembly module's memory outlives
// a call, and a kernel that writes out of bounds or traps can corrupt it:
// every request gets a new module instance (README.md, "Isolation").
require('../common/tfjs_adapter.js').runTfjsAdapter({
  backend: { name: 'wasm', package: '@tensorflow/tfjs-backend-wasm', fresh: true },
  folder: __dirname,
  name: 'tfjs-wasm',
});
