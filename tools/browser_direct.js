#!/usr/bin/env node
'use strict';
// Confirms a browser finding outside movconf: one direct TensorFlow.js call
// in a headless Chromium page (the browser adapter's browser.js and
// packages, none of its mapping), its result printed.
//   node tools/browser_direct.js webgl|webgpu
// On 256 int32 elements starting 16777217, 5, 2147483647, 7 (the rest 0;
// above the 128 elements the webgl backend hands to its CPU kernels), calls
// tf.stridedSlice(x, [0], [256], [2]) and tf.spaceToBatchND of x as
// [1, 256, 1] with block [2], no padding: both outputs must start 16777217,
// 2147483647, int32 values above 2^24, which a float32 cannot hold exactly.
// Then tf.spaceToBatchND of an empty float32 [2, 0] padded by 3 at the end of
// axis 1, block [3]: a [6, 1] of zeros (the padding). Prints the first
// input and output elements.
const path = require('path');

const folder = path.join(__dirname, '..', 'examples', 'adapters', 'browser');
const backend = process.argv[2];
const dist = (pkg, file) => path.join(folder, 'node_modules', ...pkg.split('/'), 'dist', file);
const script = `tf-backend-${backend}.min.js`;

async function main() {
  const puppeteer = require(require.resolve('puppeteer-core', { paths: [folder] }));
  const session = await require(path.join(folder, 'browser.js')).openPage(puppeteer, {
    files: { 'tf-core.js': dist('@tensorflow/tfjs-core', 'tf-core.min.js'),
             [script]: dist(`@tensorflow/tfjs-backend-${backend}`, script) },
    scripts: ['tf-core.js', script],
    log: (text) => process.stderr.write(`${text}\n`),
    onFailure: (message) => { throw new Error(message); },
  });
  const result = await session.page.evaluate(async (b) => {
    await tf.setBackend(b);
    const values = new Int32Array(256);
    values.set([16777217, 5, 2147483647, 7]);
    const x = tf.tensor1d(values, 'int32');
    const sliced = tf.stridedSlice(x, [0], [256], [2]);
    const batched = tf.spaceToBatchND(tf.reshape(x, [1, 256, 1]), [2], [[0, 0]]);
    const first = async (t, n) => Array.from((await t.data()).slice(0, n));
    const result = { backend: tf.getBackend(), input: await first(x, 4),
                     stridedSlice: await first(sliced, 2), spaceToBatchND: await first(batched, 2) };
    // Last: on webgpu its zero-size binding invalidates the command buffer
    // it is in, and with it whatever else that buffer computes.
    const padded = tf.spaceToBatchND(tf.zeros([2, 0]), [3], [[0, 3]]);
    result.emptyPadded = { shape: padded.shape, values: await first(padded, 6) };
    return result;
  }, backend);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await session.shutdown();
  process.exit(0);
}
main();
