#!/usr/bin/env node
'use strict';
// Exit 0 when onnxruntime-web is installed here; --version prints its version.
require('../common/detect.js').detect(__dirname, ['onnxruntime-web']);
