'use strict';
// The movconf-adapter/1 protocol (spec/adapter-protocol.md) for Node.js
// adapters: line reading, a JSON parser that keeps int64 values exact,
// tensor payloads (base64 or the shared memory file of section 16, element
// sizes, side-input values) and the request loop. Shared by the ONNX Runtime
// and TensorFlow.js adapters; standard library only.

const fs = require('fs');
const readline = require('readline');

// stdout carries the protocol and nothing else (section 2): whatever a
// library logs through the console goes to stderr.
for (const method of ['log', 'info', 'warn', 'debug']) console[method] = console.error;

const PROTOCOL = 'movconf-adapter/1';
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const MESSAGE_LIMIT = 2000;
// Exit status after a WebAssembly trap in a library call (libraryCall).
const TRAP_STATUS = 4;
// Exit status when the request's shared memory file cannot be opened: no
// reply could say so, and rejecting the input would be a wrong verdict.
const NO_SHARED_MEMORY_STATUS = 5;

// Bits per element of every type name of the protocol (section 6).
const ELEMENT_BITS = {
  boolean: 8, u8: 8, i8: 8, f8e4m3: 8, f8e5m2: 8,
  u16: 16, i16: 16, f16: 16, bf16: 16,
  u32: 32, i32: 32, f32: 32,
  u64: 64, i64: 64, f64: 64,
  u1: 1, u4: 4, i4: 4,
};

// Side inputs are read as numbers: their reader by element type.
const SIDE_READERS = {
  i8: [1, (b, o) => BigInt(b.readInt8(o))],
  u8: [1, (b, o) => BigInt(b.readUInt8(o))],
  i16: [2, (b, o) => BigInt(b.readInt16LE(o))],
  u16: [2, (b, o) => BigInt(b.readUInt16LE(o))],
  i32: [4, (b, o) => BigInt(b.readInt32LE(o))],
  u32: [4, (b, o) => BigInt(b.readUInt32LE(o))],
  i64: [8, (b, o) => b.readBigInt64LE(o)],
  u64: [8, (b, o) => b.readBigUInt64LE(o)],
};

// The request cannot be expressed in the library: replied as "unsupported".
class Unsupported extends Error {}

// The library rejected the request: replied as "error" (no error_name, since
// a library does not know movconf's error names; any rejection of an input
// the case expects rejected then passes, spec/runner.md).
class Rejected extends Error {}

// Runs a call into the library and turns whatever it throws into Rejected, so
// that a bug in the adapter itself (thrown outside such a call) is never
// mistaken for the library rejecting an input.
async function libraryCall(what, fn) {
  const start = process.hrtime.bigint();
  try {
    return await fn();
  } catch (e) {
    if (e instanceof Unsupported) throw e;
    // A WebAssembly trap is the library crashing, not rejecting, and may
    // leave its module's memory corrupt: the process ends, movconf reports
    // the case as a crash and starts a fresh adapter for the next one.
    if (e instanceof WebAssembly.RuntimeError) {
      log('adapter', `${what}: WebAssembly trap: ${e.message}; exiting with status ${TRAP_STATUS}`);
      process.exit(TRAP_STATUS);
    }
    const text = e && e.message !== undefined ? e.message : String(e);
    // Out of memory, as opposed to a size the library computed negative. V8
    // says "Invalid array length" for a plain Array beyond its element limit
    // (about 2^27), which tfjs-backend-wasm's spaceToBatchND reaches on a
    // 2^28-element output.
    if (/allocation failed|Invalid typed array length: \d|^Invalid array length$/i.test(text))
      throw new Unsupported(`${what}: the library could not allocate memory: ${text}`);
    throw new Rejected(`${what}: ${text}`);
  } finally {
    libraryTime.nanoseconds += process.hrtime.bigint() - start;
  }
}

// ---- JSON with exact integers ----
// JSON.parse reads every number as a double, so int64 dimensions and
// attributes above 2^53 would change. This parser returns an integer as a
// Number when it is a safe integer and as a BigInt otherwise; movconf's
// lines are strict JSON (section 3), so it need not diagnose every error.

function parseJson(text) {
  let pos = 0;
  let nextBackslash = text.indexOf('\\');

  const fail = (what) => {
    throw new SyntaxError(`JSON: ${what} at offset ${pos}`);
  };
  const skipSpace = () => {
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      pos++;
    }
  };
  const expect = (ch) => {
    skipSpace();
    if (text[pos] !== ch) fail(`expected '${ch}'`);
    pos++;
  };

  // Strings: a slice when no escape lies before the closing quote (base64
  // payloads are megabytes long), JSON.parse of the literal otherwise.
  const parseString = () => {
    const start = pos;
    const end = text.indexOf('"', start + 1);
    if (end < 0) fail('unterminated string');
    if (nextBackslash !== -1 && nextBackslash < start) nextBackslash = text.indexOf('\\', start);
    if (nextBackslash === -1 || nextBackslash > end) {
      pos = end + 1;
      return text.slice(start + 1, end);
    }
    let i = start + 1;
    for (;;) {
      const c = text[i];
      if (c === undefined) fail('unterminated string');
      if (c === '\\') i += 2;
      else if (c === '"') break;
      else i++;
    }
    pos = i + 1;
    nextBackslash = text.indexOf('\\', pos);
    return JSON.parse(text.slice(start, pos));
  };

  const NUMBER = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
  const parseNumber = () => {
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (!m || m[0].length === 0 || m[0] === '-') fail('bad number');
    pos += m[0].length;
    if (m[2] !== undefined || m[3] !== undefined) return Number(m[0]);
    const n = Number(m[0]);
    return Number.isSafeInteger(n) ? n : BigInt(m[0]);
  };

  // The members of an object or array: from its opening character to `close`,
  // reading each with readItem.
  const parseSequence = (close, readItem) => {
    pos++;
    skipSpace();
    if (text[pos] === close) {
      pos++;
      return;
    }
    for (;;) {
      readItem();
      skipSpace();
      if (text[pos] === ',') pos++;
      else if (text[pos] === close) {
        pos++;
        return;
      } else fail(`expected ',' or '${close}'`);
    }
  };

  const parseValue = (depth) => {
    if (depth > 64) fail('nesting too deep');
    skipSpace();
    const c = text[pos];
    if (c === '{') {
      const object = {};
      parseSequence('}', () => {
        skipSpace();
        if (text[pos] !== '"') fail('expected a key');
        const key = parseString();
        expect(':');
        object[key] = parseValue(depth + 1);
      });
      return object;
    }
    if (c === '[') {
      const array = [];
      parseSequence(']', () => array.push(parseValue(depth + 1)));
      return array;
    }
    if (c === '"') return parseString();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return value;
      }
    }
    return parseNumber();
  };

  const value = parseValue(0);
  skipSpace();
  if (pos !== text.length) fail('text after the value');
  return value;
}

// ---- tensors ----

const toBigInt = (v) => (typeof v === 'bigint' ? v : BigInt(v));

// Element count of a shape as a BigInt (dimensions may be BigInts).
function elementCount(shape) {
  let n = 1n;
  for (const d of shape) n *= toBigInt(d);
  return n;
}

function storageBytes(type, count) {
  return (toBigInt(count) * BigInt(ELEMENT_BITS[type]) + 7n) / 8n;
}

// A shape as JavaScript numbers, which the libraries' APIs take; a
// dimension above 2^53 cannot be passed without changing it.
function shapeNumbers(shape, what) {
  return shape.map((d) => {
    if (typeof d !== 'number')
      throw new Unsupported(`${what}: dimension ${d} is not exact as a JavaScript number`);
    return d;
  });
}

// ---- the shared memory payload (section 16) ----
// The file of the request being answered, open while it is answered: inputs
// read and the output written at the offsets the request gives, with
// readSync and writeSync (never mapped).

const sharedMemory = { fd: -1, outputOffset: 0, outputBytes: 0n };

function openSharedMemory(region, name) {
  try {
    sharedMemory.fd = fs.openSync(region.path, fs.constants.O_RDWR);
  } catch (e) {
    log(name, `cannot open the request's shared memory file: ${e.message}; exiting with status ` +
      `${NO_SHARED_MEMORY_STATUS} (an adapter in another PID namespace or on another machine ` +
      'needs movconf --payload base64)');
    process.exit(NO_SHARED_MEMORY_STATUS);
  }
  sharedMemory.outputOffset = Number(region.output_offset);
  sharedMemory.outputBytes = toBigInt(region.output_bytes);
}

function closeSharedMemory() {
  if (sharedMemory.fd >= 0) fs.closeSync(sharedMemory.fd);
  sharedMemory.fd = -1;
}

// Reads or writes length bytes at a file offset, in pieces (a read or write
// of a regular file moves at most about 2 GiB at once).
function transfer(call, buffer, offset) {
  for (let done = 0; done < buffer.length;) {
    const n = call(sharedMemory.fd, buffer, done, buffer.length - done, offset + done);
    if (n <= 0) throw new Error(`the shared memory file ends before byte ${offset + buffer.length}`);
    done += n;
  }
  return buffer;
}

// The tensor's raw bytes, checked against its type and shape.
function tensorBytes(tensor, what) {
  const expected = storageBytes(tensor.type, elementCount(tensor.shape));
  const bytes = tensor.offset === undefined ? Buffer.from(tensor.base64, 'base64')
    : transfer(fs.readSync, Buffer.allocUnsafe(Number(expected)), Number(tensor.offset));
  if (BigInt(bytes.length) !== expected)
    throw new Error(`${what}: ${bytes.length} bytes for ${tensor.type} ${JSON.stringify(
      tensor.shape.map(String))}, expected ${expected}`);
  return bytes;
}

// A typed array of the given constructor over a private, aligned copy of the
// bytes (a Buffer's offset need not be a multiple of the element size).
function typedView(Constructor, bytes) {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return new Constructor(copy.buffer, 0, bytes.length / Constructor.BYTES_PER_ELEMENT);
}

// A side input's values as BigInts, or null when its element type is not
// one of the integer types a side input may have.
function sideInputValues(tensor, what) {
  const reader = SIDE_READERS[tensor.type];
  if (!reader) return null;
  const bytes = tensorBytes(tensor, what);
  const [size, read] = reader;
  const values = [];
  for (let offset = 0; offset < bytes.length; offset += size) values.push(read(bytes, offset));
  return values;
}

// A side input's values as exact JavaScript numbers, for libraries whose API
// takes number arrays; throws Unsupported when a value is not exact.
function sideInputNumbers(values, what) {
  return values.map((v) => {
    const n = Number(v);
    if (!Number.isSafeInteger(n) || BigInt(n) !== v)
      throw new Unsupported(`${what}: value ${v} is not exact as a JavaScript number`);
    return n;
  });
}

// A handler's output from raw bytes (a Buffer or typed array): answer()
// checks its size against max_output_bytes before encoding it (encodeOutput).
function outputTensor(type, shape, data) {
  const bytes = ArrayBuffer.isView(data)
    ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
    : Buffer.from(data);
  return { type, shape: shape.map(Number), bytes };
}

// ---- the session ----

function log(name, ...parts) {
  process.stderr.write(`${name}: ${parts.join(' ')}\n`);
}

function writeLine(object) {
  return new Promise((resolve) => {
    if (process.stdout.write(JSON.stringify(object) + '\n')) resolve();
    else process.stdout.once('drain', resolve);
  });
}

// Builds the reply to one request line: handle(request) returns the output
// tensor or throws Unsupported / Rejected; anything else is an adapter bug,
// which ends the process (movconf reports the case as a crash).
// The output as the reply carries it: written to the shared memory file when
// the request has one, else in base64.
function encodeOutput(output) {
  if (output.bytes === undefined) return output;
  if (sharedMemory.fd >= 0 && BigInt(output.bytes.length) <= sharedMemory.outputBytes) {
    transfer(fs.writeSync, output.bytes, sharedMemory.outputOffset);
    return { type: output.type, shape: output.shape, bytes: output.bytes.length };
  }
  return { type: output.type, shape: output.shape, base64: output.bytes.toString('base64') };
}

async function answer(line, handle, name) {
  const request = parseJson(line);
  const reply = { id: request.id };
  try {
    if (request.shared_memory !== undefined) openSharedMemory(request.shared_memory, name);
    const output = await handle(request);
    const nonZeroCount = elementCount(output.shape.filter((d) => Number(d) !== 0));
    if (nonZeroCount > INT64_MAX)
      throw new Unsupported(`the library accepted the input with output shape ` +
        `[${output.shape.join(',')}], which the protocol cannot carry: its non-zero ` +
        `dimensions multiply beyond int64 (MC-L3)`);
    const size = storageBytes(output.type, elementCount(output.shape));
    if (size > toBigInt(request.max_output_bytes))
      throw new Unsupported(`the library produced ${size} bytes, more than max_output_bytes ` +
        `(${request.max_output_bytes}); it has no output cap (MC-L4 is movconf's limit)`);
    // Encoded only now: base64 of an output above the cap could exceed
    // V8's string length limit (about 512 MiB) before the cap is checked.
    reply.output = encodeOutput(output);
    if (request.timing !== undefined) reply.timing = await timeRequest(request, handle);
  } catch (e) {
    if (e instanceof Unsupported) reply.unsupported = e.message.slice(0, MESSAGE_LIMIT);
    else if (e instanceof Rejected) reply.error = e.message.slice(0, MESSAGE_LIMIT) || 'rejected';
    else {
      log(name, `adapter bug on request ${request.id}:`, e && e.stack ? e.stack : String(e));
      process.exit(70);
    }
  } finally {
    closeSharedMemory();
  }
  return reply;
}

// ---- the timing request (spec/adapter-protocol.md, section 15) ----
// What a timed call costs is the time spent inside libraryCall: the
// library's own calls, without decoding the inputs or encoding the output.

const libraryTime = { nanoseconds: 0n };
const MAX_CALLS_PER_RUN = 1000000;

async function timedCall(request, handle) {
  libraryTime.nanoseconds = 0n;
  await handle(request);
  return Number(libraryTime.nanoseconds) / 1e9;
}

// The reply's "timing" member for a request whose output is already made.
async function timeRequest(request, handle) {
  const runs = Number(request.timing.runs), minRun = Number(request.timing.min_run_seconds);
  if (!(runs >= 1 && runs <= 100 && minRun >= 0 && minRun <= 10))
    throw new Error(`timing request out of range: ${JSON.stringify(request.timing)}`);
  const one = await timedCall(request, handle);
  const callsPerRun = one >= minRun ? 1 :
    Math.min(MAX_CALLS_PER_RUN, Math.floor(minRun / Math.max(one, 1e-9)) + 1);
  const seconds = [];
  for (let r = 0; r < runs; r++) {
    let total = 0;
    for (let k = 0; k < callsPerRun; k++) total += await timedCall(request, handle);
    seconds.push(total / callsPerRun);
  }
  return { seconds, calls_per_run: callsPerRun };
}

// Writes the handshake, then answers request lines one at a time until
// stdin ends; handlers maps an operation name to its handler, and a request
// for another operation is unsupported (`library` names what lacks it).
async function serve({ name, version, ops, handlers, library }) {
  const handle = (request) => {
    const handler = handlers[request.op];
    if (!handler) throw new Unsupported(`${library} has no ${request.op}`);
    return handler(request);
  };
  await writeLine({ protocol: PROTOCOL, name, version, ops, timing: true, shared_memory: true });
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.length === 0) continue;
    await writeLine(await answer(line, handle, name));
  }
}

// Runs an adapter's async main; a failure before or outside a request (a
// library that does not load, a broken stdin) ends the process with status 2.
function runAdapter(name, main) {
  main().catch((e) => {
    log(name, e && e.stack ? e.stack : String(e));
    process.exit(2);
  });
}

module.exports = {
  answer,
  ELEMENT_BITS,
  INT64_MAX,
  INT64_MIN,
  Rejected,
  Unsupported,
  elementCount,
  libraryCall,
  log,
  outputTensor,
  parseJson,
  serve,
  shapeNumbers,
  sideInputNumbers,
  sideInputValues,
  runAdapter,
  storageBytes,
  tensorBytes,
  timeRequest,
  typedView,
};
