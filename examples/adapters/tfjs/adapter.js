#!/usr/bin/env node
'use strict';
// movconf process adapter for the TensorFlow.js CPU backend
// (npm @tensorflow/tfjs-core + @tensorflow/tfjs-backend-cpu, pure JavaScript).
//
//   movconf run --impl exec:'exec node examples/adapters/tfjs/adapter.js'
//
// The adapter itself is common/tfjs_adapter.js (shared with tfjs-wasm);
// README.md has the mapping. Pure JavaScript: nothing outlives a request but
// what tf.tidy frees, so one backend serves every request.
require('../common/tfjs_adapter.js').runTfjsAdapter({
  backend: { name: 'cpu', package: '@tensorflow/tfjs-backend-cpu', fresh: false },
  folder: __dirname,
  name: 'tfjs',
});
