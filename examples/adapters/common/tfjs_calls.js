'use strict';
// A TensorFlow.js mapping's calls applied to a tensor: each call is
// [op name, ...arguments after the tensor], the output of one the input of
// the next. The adapters' mapping (tfjs_adapter.js) builds the calls as
// data, so the same mapping runs in Node.js and, through this file served to
// the page, in a browser (examples/adapters/browser). An argument
// {tensor: {values, shape, dtype}} is made a tensor first (Gather-8's
// indices), inside the caller's tf.tidy.
//
// The browser's calls cross the DevTools protocol as JSON, which has no
// NaN, Infinity or -0 (NaN and the infinities become null, -0 becomes 0,
// wherever they sit in the calls): toWire writes each such number as
// {float64: its 16 hex digits, big-endian}, the payload of a NaN included
// (a pad constant's bits are the library's to keep), which applyCalls reads
// back (fromWire). Calls that never left the process go through unchanged.
(function exportCalls(root) {
  const HEX_DIGITS = /^[0-9a-f]{16}$/;

  function toWire(value) {
    if (typeof value === 'number') {
      if (Number.isFinite(value) && !Object.is(value, -0)) return value;
      const view = new DataView(new ArrayBuffer(8));
      view.setFloat64(0, value);
      return { float64: view.getBigUint64(0).toString(16).padStart(16, '0') };
    }
    if (Array.isArray(value)) return value.map(toWire);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toWire(v)]));
    return value;
  }

  function fromWire(value) {
    if (Array.isArray(value)) return value.map(fromWire);
    if (value === null || typeof value !== 'object') return value;
    if (typeof value.float64 === 'string' && Object.keys(value).length === 1) {
      if (!HEX_DIGITS.test(value.float64)) throw new Error(`no float64 bits ${value.float64}`);
      const view = new DataView(new ArrayBuffer(8));
      view.setBigUint64(0, BigInt(`0x${value.float64}`));
      return view.getFloat64(0);
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromWire(v)]));
  }

  function argument(tf, a) {
    return a !== null && typeof a === 'object' && a.tensor
      ? tf.tensor(a.tensor.values, a.tensor.shape, a.tensor.dtype) : a;
  }
  function applyCalls(tf, x, calls) {
    return fromWire(calls).reduce(
      (y, [name, ...args]) => tf[name](y, ...args.map((a) => argument(tf, a))), x);
  }
  const exported = { applyCalls, toWire };
  if (typeof module !== 'undefined') module.exports = exported;
  else root.movconfTfjsCalls = exported;
})(this);
