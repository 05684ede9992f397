#!/usr/bin/env node
'use strict';
// movconf process adapter for shader kernels in headless Chromium: the
// TensorFlow.js webgl and webgpu backends and ONNX Runtime Web's webgpu
// execution provider, in a page driven through the DevTools protocol
// (puppeteer-core against Debian's /usr/bin/chromium).
//
//   movconf run --impl exec:'exec node examples/adapters/browser/adapter.js webgl'
//   movconf run --impl exec:'exec node examples/adapters/browser/adapter.js webgpu'
//   movconf run --impl exec:'exec node examples/adapters/browser/adapter.js ort-webgpu'
//
// Chromium starts once per adapter process (browser.js); each request runs
// in the page. The mapping is TensorFlow.js's adapter's own
// (common/tfjs_adapter.js): its calls, built as data, are applied in the page
// by the same common/tfjs_calls.js. ONNX Runtime Web's is the onnxruntime
// adapters' own (common/onnxruntime_adapter.js), its sessions in the page
// (ort_page.js). A page or browser that crashes or whose
// DevTools connection breaks ends this process (status 3): movconf reports
// the case a crash, and the next case starts a new adapter and a new
// browser; a hung page is movconf's timeout, with the same restart.

const path = require('path');
const common = require('../common/protocol.js');
const { installedPackage } = require('../common/detect.js');
// The calls cross the DevTools protocol as JSON: NaN, the infinities and -0
// written so that they survive it (the page's applyCalls reads them back).
const { toWire } = require('../common/tfjs_calls.js');

const NAME = 'browser';
const PAGE_FAILURE_STATUS = 3;
const VERSION_LIMIT = 100;
// Operations the library modules map whose browser rows have not been run
// and explained yet: left out of those rows' handshakes.
const UNRUN_IN_TFJS = [];
const UNRUN_IN_ORT = [];

const dist = (pkg, file) => path.join(__dirname, 'node_modules', ...pkg.split('/'), 'dist', file);
const TFJS_FILES = { 'tf-core.js': dist('@tensorflow/tfjs-core', 'tf-core.min.js'),
                     'tfjs_calls.js': path.join(__dirname, '..', 'common', 'tfjs_calls.js'),
                     'page.js': path.join(__dirname, 'page.js') };

const ORT_PACKAGE = 'onnxruntime-web';
// The webgpu bundle loads its WebAssembly module (the asyncify build) from
// the page's origin.
const ORT_FILES = Object.fromEntries(
  ['ort.webgpu.min.js', 'ort-wasm-simd-threaded.asyncify.mjs', 'ort-wasm-simd-threaded.asyncify.wasm']
    .map((file) => [file, dist(ORT_PACKAGE, file)]));

const BACKENDS = {
  webgl: { package: '@tensorflow/tfjs-backend-webgl', script: 'tf-backend-webgl.min.js',
           serve: serveTfjs },
  webgpu: { package: '@tensorflow/tfjs-backend-webgpu', script: 'tf-backend-webgpu.min.js',
            serve: serveTfjs },
  'ort-webgpu': { package: ORT_PACKAGE, serve: serveOrt },
};

function loadPuppeteer() {
  try {
    return require('puppeteer-core');
  } catch (e) {
    common.log(NAME, `cannot load puppeteer-core (run "npm ci --ignore-scripts" in ${__dirname}):`,
               e.message);
    return process.exit(2);
  }
}

// A DevTools call that must not fail: its failure (a crashed page, a
// closed browser) ends the process, so that movconf reports the case a
// crash rather than the library rejecting the input.
let browserSession;
function pageFailed(message) {
  common.log(NAME, `the page failed: ${message}; exiting with status ${PAGE_FAILURE_STATUS}`);
  if (browserSession) browserSession.close();
  process.exit(PAGE_FAILURE_STATUS);
}

async function pageCall(what, fn) {
  try {
    return await fn(browserSession.page);
  } catch (e) {
    return pageFailed(`${what}: ${e.message}`);
  }
}

// Faults for tests/browser_adapter.sh: MOVCONF_BROWSER_FAULT=crash@S,hang@T
// crashes the page's renderer (DevTools Page.crash) on a request whose data
// has shape S (dimensions joined by x: 7, 2x3), or hangs the page in a loop
// on one of shape T: by case, so that movconf's rerun of a crashed case in
// a fresh process crashes again.
const FAULTS = new Map((process.env.MOVCONF_BROWSER_FAULT || '').split(',').filter(Boolean)
  .map((f) => f.split('@')).map(([kind, at]) => [at, kind]));
async function injectFault(page, data) {
  const fault = FAULTS.get(data.shape.join('x'));
  if (fault === 'crash') await (await page.createCDPSession()).send('Page.crash');
  if (fault === 'hang') await page.evaluate(() => { for (;;); });
}

// The typed arrays a page may answer with; anything else is refused.
const ARRAYS = { Float32Array, Int32Array, Uint8Array };

// The page's answer, untrusted: checked before it becomes an output.
function pageResult(result, resultOutput) {
  const Constructor = result && ARRAYS[result.array];
  const shape = result && result.shape;
  if (!Constructor || typeof result.base64 !== 'string' || !Array.isArray(shape) ||
      !shape.every(Number.isInteger))
    throw new Error(`the page answered ${JSON.stringify(result).slice(0, 200)}`);
  // As common/protocol.js does for a shape beyond int64 (MC-L3).
  if (shape.some((d) => d < 0))
    throw new common.Unsupported(`the library accepted the input with output shape [${shape}], ` +
                                 'which the protocol cannot carry: a negative dimension');
  // Values that do not fill the shape are the library's answer too, judged
  // as the in-process adapters' are (common/protocol.js, answer; movconf).
  const bytes = Buffer.from(result.base64, 'base64');
  if (bytes.length % Constructor.BYTES_PER_ELEMENT !== 0)
    throw new Error(`the page answered ${bytes.length} bytes of ${result.array}`);
  return resultOutput({ dtype: result.dtype, shape,
                        values: common.typedView(Constructor, bytes) });
}

// The runner of common/tfjs_adapter.js's calls: in the page.
function tfjsPageRunner(tfjs) {
  return async (what, data, calls) => {
    const [dtype, Constructor] = tfjs.TF_TYPES[data.type];
    const input = { dtype, shape: common.shapeNumbers(data.shape, 'data'), array: Constructor.name,
                    base64: common.tensorBytes(data, 'data').toString('base64') };
    const result = await common.libraryCall(what, async () => {
      const answer = await pageCall(what, async (page) => {
        await injectFault(page, data);
        return page.evaluate((i, c) => window.movconf.tfjsRun(i, c), input, toWire(calls));
      });
      if (answer && answer.error !== undefined) throw new Error(String(answer.error));
      return answer;
    });
    return pageResult(result, tfjs.resultOutput);
  };
}

// The handshake's version: the package's, then the renderer, within the
// protocol's 100 bytes (the whole renderer goes to stderr).
function versionWithRenderer(version, renderer) {
  return Buffer.from(`${version} on ${renderer}`).subarray(0, VERSION_LIMIT).toString()
    .replace(/\uFFFD$/, '');
}

async function openPage(puppeteer, files, scripts) {
  browserSession = await require('./browser.js').openPage(puppeteer, {
    files, scripts, log: (text) => common.log(NAME, text), onFailure: pageFailed,
  });
}

async function serveTfjs(puppeteer, backendName) {
  const backend = BACKENDS[backendName];
  const tfjs = require('../common/tfjs_adapter.js');
  const files = { ...TFJS_FILES, [backend.script]: dist(backend.package, backend.script) };
  await openPage(puppeteer, files, ['tf-core.js', backend.script, 'tfjs_calls.js', 'page.js']);
  const renderer = await pageCall('setting the backend', (page) =>
    page.evaluate((b) => window.movconf.tfjsInit(b), backendName));
  common.log(NAME, `${backend.package} on ${renderer}`);
  const { version } = installedPackage(__dirname, backend.package);
  await common.serve({
    name: backend.package.replace('@tensorflow/', ''),
    version: versionWithRenderer(version, renderer),
    ops: tfjs.tfjsOps(UNRUN_IN_TFJS),
    handlers: tfjs.tfjsHandlers(tfjsPageRunner(tfjs)),
    library: `TensorFlow.js (${backendName})`,
  });
  await browserSession.shutdown();
}

// ONNX Runtime Web on the webgpu execution provider, nothing on its CPU
// one: with session.disable_cpu_ep_fallback a model with a node the webgpu
// provider has no kernel for (int64 data, for one) fails to load, and the
// start-up probe leaves that type unclaimed, instead of the wasm kernels
// answering for it.
async function serveOrt(puppeteer) {
  await openPage(puppeteer, { ...ORT_FILES, 'page.js': TFJS_FILES['page.js'] },
                 ['ort.webgpu.min.js', 'page.js']);
  const renderer = await pageCall('loading ONNX Runtime Web', (page) =>
    page.evaluate((prefix) => window.movconf.ortInit(prefix), require('./browser.js').ORIGIN));
  common.log(NAME, `${ORT_PACKAGE} (webgpu) on ${renderer}`);
  // The faults of MOVCONF_BROWSER_FAULT are keyed on a run's data, x.
  const call = (what, name, ...args) => pageCall(what, async (page) => {
    if (name === 'ortRun') await injectFault(page, { shape: args[1].x.dims });
    return page.evaluate((n, a) => window.movconf[n](...a), name, args);
  });
  const { version } = installedPackage(__dirname, ORT_PACKAGE);
  await require('../common/onnxruntime_adapter.js').serveOnnxRuntime({
    ort: require('./ort_page.js').pageOrt(call), packageName: ORT_PACKAGE, name: NAME,
    version: versionWithRenderer(version, renderer),
    without: UNRUN_IN_ORT,
    // A run that failed inside the webgpu provider leaves its session
    // unable to answer the next run (README, Findings): a new one is made.
    dropFailedSessions: true,
    sessionOptions: { executionProviders: ['webgpu'],
                      extra: { session: { disable_cpu_ep_fallback: '1' } } },
  });
  await browserSession.shutdown();
}

const backendName = process.argv[2];
if (!BACKENDS[backendName]) {
  common.log(NAME, `usage: adapter.js ${Object.keys(BACKENDS).join('|')}`);
  process.exit(2);
}
common.runAdapter(NAME, () => BACKENDS[backendName].serve(loadPuppeteer(), backendName));
