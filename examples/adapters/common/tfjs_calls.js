'use strict';
// A TensorFlow.js mapping's calls applied to a tensor: each call is
// [op name, ...arguments after the tensor], the output of one the input of
// the next. The adapters' mapping (tfjs_adapter.js) builds the calls as
// data, so the same mapping runs in Node.js and, through this file served to
// the page, in a browser (examples/adapters/browser). An argument
// {tensor: {values, shape, dtype}} is made a tensor first (Gather-8's
// indices), inside the caller's tf.tidy.
(function exportCalls(root) {
  function argument(tf, a) {
    return a !== null && typeof a === 'object' && a.tensor
      ? tf.tensor(a.tensor.values, a.tensor.shape, a.tensor.dtype) : a;
  }
  function applyCalls(tf, x, calls) {
    return calls.reduce((y, [name, ...args]) => tf[name](y, ...args.map((a) => argument(tf, a))), x);
  }
  if (typeof module !== 'undefined') module.exports = { applyCalls };
  else root.movconfTfjsCalls = { applyCalls };
})(this);
