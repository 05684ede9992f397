#!/usr/bin/env node
'use strict';
// Exit 0 when the TensorFlow.js WebAssembly backend is installed here;
// --version prints the versions.
require('../common/detect.js').detect(__dirname, ['@tensorflow/tfjs-core',
                                                  '@tensorflow/tfjs-backend-wasm']);
