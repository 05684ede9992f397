#!/usr/bin/env node
'use strict';
// Which OpenVINO mode each ONNX operator of onnxruntime-node computes, by
// experiment (common/onnx_mode_experiment.js). Exit 0 when the mapping is the
// one the adapter uses.
require('../common/onnx_mode_experiment.js').modeExperiment(require('onnxruntime-node'));
