'use strict';
// ONNX Runtime Web in the page, seen from Node.js: an object with the part
// of onnxruntime-common's API that common/onnxruntime_adapter.js uses
// (InferenceSession.create(modelBytes, options) -> {run(feeds), release()},
// new Tensor(type, data, dims)), each call forwarded to page.js's
// ortCreate/ortRun/ortRelease. So the same one-node models and mapping as
// the onnxruntime-node and onnxruntime-web (wasm) adapters run on the
// webgpu execution provider in headless Chromium.
//
// `call(what, name, ...args)` evaluates window.movconf[name](...args) in the
// page (a failed DevTools call is the caller's: a crash, not a rejection);
// an answer {error} is the library refusing and is thrown here, so that
// common.libraryCall replies it rejected.

// onnxruntime-common tensor type -> the typed array that holds its values
// (the adapter's ORT_TENSOR_TYPES, seen from the other side).
const TYPED = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, uint8: Uint8Array,
  int8: Int8Array, uint16: Uint16Array, int16: Int16Array, uint32: Uint32Array,
  int32: Int32Array, uint64: BigUint64Array, int64: BigInt64Array, bool: Uint8Array,
  uint4: Uint8Array, int4: Uint8Array,
};

class Tensor {
  constructor(type, data, dims) {
    this.type = type;
    this.data = data;
    this.dims = dims;
  }
}

const toWire = (t) => ({ type: t.type, dims: t.dims,
                         base64: Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength)
                           .toString('base64') });

// The page's answer, untrusted: a known type, integer dimensions, whole
// elements; the adapter checks the values against the shape.
function fromWire(answer) {
  const Typed = answer && TYPED[answer.type];
  if (!Typed || typeof answer.base64 !== 'string' || !Array.isArray(answer.dims) ||
      !answer.dims.every(Number.isInteger))
    throw new Error(`the page answered ${JSON.stringify(answer).slice(0, 200)}`);
  const bytes = Buffer.from(answer.base64, 'base64');
  if (bytes.length % Typed.BYTES_PER_ELEMENT !== 0)
    throw new Error(`the page answered ${bytes.length} bytes of ${answer.type}`);
  const copy = new Uint8Array(bytes);
  return new Tensor(answer.type, new Typed(copy.buffer, 0, copy.length / Typed.BYTES_PER_ELEMENT),
                    answer.dims);
}

function pageOrt(call) {
  const library = async (name, ...args) => {
    const answer = await call(`ONNX Runtime Web ${name}`, name, ...args);
    if (answer && answer.error !== undefined) throw new Error(String(answer.error));
    return answer;
  };
  const create = async (model, options) => {
    const { id } = await library('ortCreate', Buffer.from(model).toString('base64'), options);
    return {
      async run(feeds) {
        const wire = Object.fromEntries(Object.entries(feeds).map(([k, t]) => [k, toWire(t)]));
        const { outputs } = await library('ortRun', id, wire);
        if (!outputs || typeof outputs !== 'object')
          throw new Error('the page answered no outputs');
        return Object.fromEntries(Object.entries(outputs).map(([k, t]) => [k, fromWire(t)]));
      },
      release: () => library('ortRelease', id),
    };
  };
  return { InferenceSession: { create }, Tensor };
}

module.exports = { pageOrt };
