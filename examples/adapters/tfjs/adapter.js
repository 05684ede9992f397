#!/usr/bin/env node
'use strict';
// movconf process adapter for the TensorFlow.js CPU backend
// (npm @tensorflow/tfjs-core + @tensorflow/tfjs-backend-cpu, pure JavaScript).
//
//   movconf run --impl exec:'exec node examples/adapters/tfjs/adapter.js'
//
// The adapter itself is common/tfjs_adapter.js (shared with tfjs-wasm);
// README.md has the mapping.

const { log } = require('../common/protocol.js');

// TensorFlow.js greets every Node.js process with an advertisement for its
// native backend; the CPU backend is the point here, so it is left out.
const warn = console.warn;
console.warn = (...parts) => {
  if (!String(parts[0]).includes('install our node backend')) warn(...parts);
};

let tf;
try {
  tf = require('@tensorflow/tfjs-core');
  require('@tensorflow/tfjs-backend-cpu');
} catch (e) {
  log('tfjs', `cannot load TensorFlow.js (run "npm ci --ignore-scripts" in ${__dirname}):`,
      e.message);
  process.exit(2);
}
// Pure JavaScript: nothing outlives a request but what tf.tidy frees.
require('../common/tfjs_adapter.js').runTfjsAdapter({
  tf, backend: { name: 'cpu', package: '@tensorflow/tfjs-backend-cpu', fresh: false },
  folder: __dirname, name: 'tfjs',
});
