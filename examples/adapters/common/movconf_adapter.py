"""The movconf-adapter/1 protocol (spec/adapter-protocol.md), shared by the
Python process adapters: examples/numpy_adapter.py and
examples/adapters/pytorch/adapter.py.

An adapter supplies a handshake (name, version, the element types it claims
per operation) and a function answer(request) that returns the output
tensor (a dict made by tensor_reply) or raises Rejected or Unsupported;
serve() does the rest: the handshake line, one reply line per request line,
flushing, turning exceptions into replies, and the payload: tensors come
and go as base64 in the lines, or, when movconf sends a request with a
shared memory file (section 16, offered in the handshake), through that
file. raw_bytes and tensor_reply work alike for both.

Standard library only.
"""

import base64
import json
import os
import sys
import time
import traceback

PROTOCOL = "movconf-adapter/1"
INT64_MAX = (1 << 63) - 1
MAX_RANK = 16
DEFAULT_MAX_OUTPUT_BYTES = 1 << 30

# Storage bits of every element type of the protocol (section 6).
BITS = {
    "boolean": 8, "u8": 8, "i8": 8, "f8e4m3": 8, "f8e5m2": 8,
    "u16": 16, "i16": 16, "f16": 16, "bf16": 16,
    "u32": 32, "i32": 32, "f32": 32,
    "u64": 64, "i64": 64, "f64": 64,
    "u1": 1, "u4": 4, "i4": 4,
}

# The inputs of each operation, in the protocol's order.
OPS = {
    "BatchToSpace-2": ("data", "block_shape", "crops_begin", "crops_end"),
    "SpaceToBatch-2": ("data", "block_shape", "pads_begin", "pads_end"),
    "SpaceToDepth-1": ("data",),
    "DepthToSpace-1": ("data",),
    "ExtractImagePatches-3": ("data",),
    "ShuffleChannels-1": ("data",),
    "Slice-8": ("data", "start", "stop", "step", "axes"),
    "Pad-12": ("data", "pads_begin", "pads_end", "pad_value"),
}
# Inputs a request may leave out (section 5): absent means the default.
OPTIONAL_INPUTS = {"Slice-8": ("axes",), "Pad-12": ("pad_value",)}


def inputs_match(op, names):
    """True when names are op's inputs: every required one, optional ones or not."""
    allowed = set(OPS[op])
    return allowed - set(OPTIONAL_INPUTS.get(op, ())) <= set(names) <= allowed


class Rejected(Exception):
    """The input is invalid: replied as {"error": message}, plus
    "error_name": name when name is one of movconf's error names
    (spec/common.md). A library that has no such names leaves name None."""

    def __init__(self, name, detail=""):
        if name is None:
            super().__init__(detail or "rejected")
        else:
            super().__init__(f"{name}: {detail}" if detail else name)
        self.name = name


class Unsupported(Exception):
    """Not handled by this adapter: replied as {"unsupported": message}."""


class BrokenResult(Exception):
    """The library returned something no reply can carry (a tensor with a
    negative dimension, say). The adapter logs it and exits with status
    BROKEN_RESULT_STATUS, which movconf reports as a crash of this case."""


BROKEN_RESULT_STATUS = 3
# Exit status when the request's shared memory file cannot be opened: no
# reply could say so, and rejecting the input would be a wrong verdict.
NO_SHARED_MEMORY_STATUS = 5


def logger(prefix):
    """A function that prints one line to stderr, prefixed."""
    def log(*parts):
        print(prefix + ":", *parts, file=sys.stderr, flush=True)
    return log


# ---- tensors (section 6) ----

def element_count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def storage_bytes(type_name, count):
    return (count * BITS[type_name] + 7) // 8


def representable(v, what):
    """MC-L3: a size the steps need must fit in int64."""
    if v > INT64_MAX:
        raise Rejected("shape_overflow", f"{what} = {v} is not representable in int64")
    return v


# While a timing request repeats its call (section 15), the protocol's
# base64 is not what is timed: inputs decoded once, outputs not encoded.
_timing = {"active": False, "decoded": {}}


class SharedMemory:
    """The shared memory file of one request (section 16), open while the
    request is answered: inputs read and the output written with pread and
    pwrite at the offsets the request gives, never mapped."""

    def __init__(self, region, log):
        try:
            self.fd = os.open(region["path"], os.O_RDWR | os.O_CLOEXEC)
        except OSError as e:
            log(f"cannot open the request's shared memory file: {e}; exiting with status "
                f"{NO_SHARED_MEMORY_STATUS} (an adapter in another PID namespace or on another "
                f"machine needs movconf --payload base64)")
            sys.exit(NO_SHARED_MEMORY_STATUS)
        self.output_offset = int(region["output_offset"])
        self.output_bytes = int(region["output_bytes"])

    def read(self, offset, size):
        parts, got = [], 0
        while got < size:
            part = os.pread(self.fd, size - got, offset + got)
            if not part:
                raise OSError(f"the shared memory file ends before byte {offset + size}")
            parts.append(part)
            got += len(part)
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def write_output(self, raw):
        view, done = memoryview(raw).cast("B"), 0
        while done < len(view):
            done += os.pwrite(self.fd, view[done:], self.output_offset + done)

    def close(self):
        os.close(self.fd)


# The shared memory file of the request being answered, if it has one.
_request = {"shm": None}


def raw_bytes(tensor):
    """The tensor's bytes, checked against its type and shape."""
    if _timing["active"] and id(tensor) in _timing["decoded"]:
        return _timing["decoded"][id(tensor)]
    want = storage_bytes(tensor["type"], element_count(tensor["shape"]))
    if "offset" in tensor:
        raw = _request["shm"].read(int(tensor["offset"]), want)
    else:
        raw = base64.b64decode(tensor["base64"], validate=True)
    if len(raw) != want:
        raise Rejected("invalid_argument", f"{len(raw)} bytes for {tensor['type']}"
                       f"{tensor['shape']}, expected {want}")
    if _timing["active"]:
        _timing["decoded"][id(tensor)] = raw
    return raw


# Side-input integer types: (bytes per element, signed).
SIDE_INTEGERS = {"i8": (1, True), "i16": (2, True), "i32": (4, True), "i64": (8, True),
                 "u8": (1, False), "u16": (2, False), "u32": (4, False), "u64": (8, False)}


def side_input_values(tensor):
    """A side input's values as Python ints (exact, whatever the type), or
    None when its element type is not a side-input integer type."""
    if tensor["type"] not in SIDE_INTEGERS:
        return None
    size, signed = SIDE_INTEGERS[tensor["type"]]
    raw = raw_bytes(tensor)
    return [int.from_bytes(raw[i:i + size], "little", signed=signed)
            for i in range(0, len(raw), size)]


def tensor_reply(type_name, shape, raw):
    """An output tensor of the protocol from its raw bytes (any bytes-like
    object); the bytes are encoded when the reply is written."""
    return {"type": type_name, "shape": [int(d) for d in shape],
            "raw": None if _timing["active"] else raw}


def encode_output(output):
    """The output as the reply carries it: its bytes written to the shared
    memory file, when the request has one and they fit, else in base64. An
    output made without tensor_reply (already in base64) is left as it is."""
    if "raw" not in output:
        return output
    raw = output.pop("raw")
    size = memoryview(raw).nbytes
    shm = _request["shm"]
    if shm is not None and size <= shm.output_bytes:
        shm.write_output(raw)
        output["bytes"] = size
    else:
        output["base64"] = base64.b64encode(raw).decode("ascii")
    return output


def output_bytes(type_name, shape):
    """The byte size of an output (MC-L3 on the element count and size)."""
    count = 1
    for d in shape:
        if d:
            count = representable(count * d, "output element count")
    if any(d == 0 for d in shape):
        count = 0
    return representable(storage_bytes(type_name, count), "output byte size")


def check_output_size(type_name, shape, max_output_bytes):
    """MC-L4: an output above the request's cap is output_too_large."""
    size = output_bytes(type_name, shape)
    if size > max_output_bytes:
        raise Rejected("output_too_large", f"{size} bytes, cap {max_output_bytes}")


# ---- the session (sections 4 and 7) ----

def handshake(name, version, types_by_op):
    """Every adapter of this module answers timing requests (section 15)."""
    return {"protocol": PROTOCOL, "name": name, "version": version,
            "ops": {op: {"types": sorted(types)} for op, types in types_by_op.items()},
            "timing": True, "shared_memory": True}


MAX_CALLS_PER_RUN = 1000000


def time_answer(answer, request, plan):
    """Section 15: per-run seconds per call of answer(request), after the
    caller's own first call; base64 excluded (see _timing)."""
    runs, min_run = int(plan["runs"]), float(plan["min_run_seconds"])
    if not 1 <= runs <= 100 or not 0 <= min_run <= 10:
        raise ValueError(f"timing request out of range: {plan}")
    _timing["active"], _timing["decoded"] = True, {}
    try:
        answer(request)  # decodes the inputs once, into the cache
        start = time.perf_counter()
        answer(request)
        one = time.perf_counter() - start
        calls = 1 if one >= min_run else min(MAX_CALLS_PER_RUN, int(min_run / max(one, 1e-9)) + 1)
        seconds = []
        for _ in range(runs):
            start = time.perf_counter()
            for _ in range(calls):
                answer(request)
            seconds.append((time.perf_counter() - start) / calls)
    finally:
        _timing["active"], _timing["decoded"] = False, {}
    return {"seconds": seconds, "calls_per_run": calls}


def reply_to(line, answer, log):
    request = json.loads(line)
    reply = {"id": request["id"]}
    try:
        if "shared_memory" in request:
            _request["shm"] = SharedMemory(request["shared_memory"], log)
        output = answer(request)
        timing = time_answer(answer, request, request["timing"]) if "timing" in request else None
        reply["output"] = encode_output(output)
        if timing is not None:
            reply["timing"] = timing
    except Rejected as e:
        reply["error"] = str(e)
        if e.name is not None:
            reply["error_name"] = e.name
    except Unsupported as e:
        reply["unsupported"] = str(e)
    except BrokenResult as e:
        log(f"request {request['id']}: {e}; exiting with status {BROKEN_RESULT_STATUS}")
        sys.exit(BROKEN_RESULT_STATUS)
    except Exception as e:  # a bug in the adapter: say so instead of dying
        log(traceback.format_exc())
        reply.pop("output", None)
        reply.pop("timing", None)
        reply["error"] = f"internal error in the adapter: {e!r}"
    finally:
        if _request["shm"] is not None:
            _request["shm"].close()
            _request["shm"] = None
    return reply


def serve(hello, answer, log):
    """Writes the handshake, then answers every request line until stdin
    ends. Returns the exit status."""
    out = sys.stdout
    out.write(json.dumps(hello) + "\n")
    out.flush()
    for line in sys.stdin.buffer:
        out.write(json.dumps(reply_to(line, answer, log), separators=(",", ":")) + "\n")
        out.flush()
    return 0
