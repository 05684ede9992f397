#!/usr/bin/env node
'use strict';
// Which OpenVINO mode each ONNX operator of onnxruntime-web (wasm) computes, by
// experiment (common/onnx_mode_experiment.js). Exit 0 when the mapping is the
// one the adapter uses.
const ort = require('onnxruntime-web');

ort.env.wasm.numThreads = 1;
require('../common/onnx_mode_experiment.js').modeExperiment(ort, { executionProviders: ['wasm'] });
