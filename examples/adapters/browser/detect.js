#!/usr/bin/env node
'use strict';
// Exit 0 when Chromium and the packages of the backend named by the first
// argument (webgl, webgpu, ort-webgpu) are installed here; --version prints their
// versions.
const fs = require('fs');

const PACKAGES = { webgl: ['@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-webgl'],
                   webgpu: ['@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-webgpu'],
                   'ort-webgpu': ['onnxruntime-web'] };
const chromium = process.env.MOVCONF_CHROMIUM || '/usr/bin/chromium';
const backend = PACKAGES[process.argv[2]];
if (!backend) {
  process.stderr.write(`usage: detect.js ${Object.keys(PACKAGES).join('|')} [--version]\n`);
  process.exit(2);
}
try {
  fs.accessSync(chromium, fs.constants.X_OK);
} catch (e) {
  process.stderr.write(`${chromium} is not installed (tools/install-adapters.sh installs it)\n`);
  process.exit(1);
}
require('../common/detect.js').detect(__dirname, ['puppeteer-core', ...backend]);
