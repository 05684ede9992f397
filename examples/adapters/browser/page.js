'use strict';
// The page side of the browser adapter (adapter.js): loaded into the page
// after the library's own files, it exposes window.movconf, which the
// adapter calls through the DevTools protocol. Tensors come and go as
// base64 with the name of the typed array holding them; every exception of
// a library call comes back as {error}, for the adapter to reply as the
// library rejecting the request.
(function page(root) {
  const ARRAYS = { Float32Array, Int32Array, Uint8Array };

  function fromBase64(text) {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  function toBase64(typed) {
    const bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
    const pieces = [];
    for (let i = 0; i < bytes.length; i += 0x8000)
      pieces.push(String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000)));
    return btoa(pieces.join(''));
  }

  function typedArray(arrayName, base64) {
    const Constructor = ARRAYS[arrayName];
    const bytes = fromBase64(base64);
    return new Constructor(bytes.buffer, 0, bytes.length / Constructor.BYTES_PER_ELEMENT);
  }

  // A backend may answer a plain Array (webgl does for an empty tensor):
  // converted by value to the typed array TensorFlow.js keeps its dtype in.
  const DTYPE_ARRAYS = { float32: Float32Array, int32: Int32Array, bool: Uint8Array };
  function asTyped(dtype, values) {
    if (ArrayBuffer.isView(values)) return values;
    const Constructor = DTYPE_ARRAYS[dtype];
    if (!Constructor) throw new Error(`TensorFlow.js returned a ${dtype} tensor`);
    return Constructor.from(values);
  }

  function describeError(e) {
    return { error: e && e.message !== undefined ? String(e.message) : String(e) };
  }

  // The renderer the shaders run on: WebGL's unmasked renderer, or the
  // WebGPU adapter's description.
  async function renderer(kind) {
    if (kind === 'webgpu') {
      const adapter = navigator.gpu && await navigator.gpu.requestAdapter();
      if (!adapter) return 'no WebGPU adapter';
      const info = adapter.info || {};
      return ['vendor', 'architecture', 'device', 'description']
        .map((key) => info[key]).filter(Boolean).join(' ') || 'WebGPU adapter';
    }
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return 'no WebGL 2 context';
    const debug = gl.getExtension('WEBGL_debug_renderer_info');
    return String(gl.getParameter(debug ? debug.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  }

  // TensorFlow.js: the backend set once; each request's calls
  // (tfjs_calls.js) on a tensor of the request's bytes, under tf.tidy.
  async function tfjsInit(backendName) {
    const ok = await root.tf.setBackend(backendName);
    if (!ok) throw new Error(`TensorFlow.js cannot set backend ${backendName}`);
    await root.tf.ready();
    return renderer(backendName);
  }

  async function tfjsRun(input, calls) {
    const tf = root.tf;
    let y;
    try {
      const x = tf.tensor(typedArray(input.array, input.base64), input.shape, input.dtype);
      y = tf.tidy(() => root.movconfTfjsCalls.applyCalls(tf, x, calls));
      x.dispose();
      const values = asTyped(y.dtype, await y.data());
      return { dtype: y.dtype, shape: y.shape, array: values.constructor.name,
               base64: toBase64(values) };
    } catch (e) {
      return describeError(e);
    } finally {
      if (y) y.dispose();
    }
  }

  // ONNX Runtime Web (ort_page.js forwards its calls here): sessions kept
  // by id until released. Tensors as {type, dims, base64}; the typed array
  // of each type is ONNX Runtime's own (int64 as BigInt64Array, float16 and
  // the 4-bit types as their bits).
  const ORT_ARRAYS = {
    float32: Float32Array, float64: Float64Array, float16: Uint16Array, uint8: Uint8Array,
    int8: Int8Array, uint16: Uint16Array, int16: Int16Array, uint32: Uint32Array,
    int32: Int32Array, uint64: BigUint64Array, int64: BigInt64Array, bool: Uint8Array,
    uint4: Uint8Array, int4: Uint8Array,
  };
  const ortSessions = new Map();
  let ortNextId = 1;

  function ortTensor({ type, dims, base64 }) {
    const Constructor = ORT_ARRAYS[type];
    if (!Constructor) throw new Error(`no ONNX Runtime tensor type ${type}`);
    const bytes = fromBase64(base64);
    return new root.ort.Tensor(type, new Constructor(bytes.buffer, 0,
                                                     bytes.length / Constructor.BYTES_PER_ELEMENT), dims);
  }

  async function ortCreate(modelBase64, options) {
    try {
      const session = await root.ort.InferenceSession.create(fromBase64(modelBase64), options);
      const id = ortNextId++;
      ortSessions.set(id, session);
      return { id };
    } catch (e) {
      return describeError(e);
    }
  }

  async function ortRun(id, feeds) {
    try {
      const session = ortSessions.get(id);
      if (!session) throw new Error(`no session ${id}`);
      const inputs = {};
      for (const [name, tensor] of Object.entries(feeds)) inputs[name] = ortTensor(tensor);
      const results = await session.run(inputs);
      const outputs = {};
      for (const [name, tensor] of Object.entries(results)) {
        const data = tensor.location === 'cpu' ? tensor.data : await tensor.getData(true);
        outputs[name] = { type: tensor.type, dims: Array.from(tensor.dims), base64: toBase64(data) };
      }
      return { outputs };
    } catch (e) {
      return describeError(e);
    }
  }

  async function ortRelease(id) {
    const session = ortSessions.get(id);
    ortSessions.delete(id);
    try {
      if (session) await session.release();
      return {};
    } catch (e) {
      return describeError(e);
    }
  }

  // ONNX Runtime's WebAssembly module is loaded from the page's origin, one
  // thread (no SharedArrayBuffer needed); returns the renderer.
  async function ortInit(wasmPrefix) {
    root.ort.env.wasm.numThreads = 1;
    root.ort.env.wasm.wasmPaths = wasmPrefix;
    root.ort.env.logLevel = 'fatal';
    return renderer('webgpu');
  }

  root.movconf = { renderer, tfjsInit, tfjsRun, ortInit, ortCreate, ortRun, ortRelease };
})(window);
