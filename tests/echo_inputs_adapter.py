#!/usr/bin/env python3
"""A process adapter (spec/adapter-protocol.md) that shows what reaches it:
it claims every operation for every type and rejects every request, the
message listing the request's input keys in the order sent and each side
input's first value (as i64): "inputs data,start,stop,step; start 11;
stop 22; step 33". Used by tests/test_optional_inputs.c."""
import base64
import json
import sys

TYPES = ["boolean", "u8", "i8", "u16", "i16", "f16", "bf16", "u32", "i32", "f32", "u64",
         "i64", "f64", "f8e4m3", "f8e5m2", "u1", "u4", "i4"]
OPS = ["BatchToSpace-2", "SpaceToBatch-2", "SpaceToDepth-1", "DepthToSpace-1",
       "ExtractImagePatches-3", "ShuffleChannels-1", "Slice-8",
       "Pad-12"]


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


send({"protocol": "movconf-adapter/1", "name": "echo-inputs", "version": "1",
      "ops": {op: {"types": TYPES} for op in OPS}})
for line in sys.stdin:
    request = json.loads(line)
    inputs = request["inputs"]
    parts = ["inputs " + ",".join(inputs)]
    for name, tensor in list(inputs.items())[1:]:
        raw = base64.b64decode(tensor["base64"])
        parts.append("%s %d" % (name, int.from_bytes(raw[:8], "little", signed=True)))
    send({"id": request["id"], "error": "; ".join(parts)})
