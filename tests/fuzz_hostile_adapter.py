#!/usr/bin/env python3
"""An adapter (spec/adapter-protocol.md) for the tests of movconf fuzz's own
bounds and output (tests/fuzz_bounds.sh). It claims DepthToSpace-1 for every
type, then, by its argument:

    hang   never replies to a request
    mute   never says its handshake
    text   rejects every request with a message of terminal escape
           sequences (ESC]0;...BEL sets a window title, ESC[2J clears the
           screen) and bytes that are not UTF-8

Standard library only.
"""

import json
import sys
import time

TYPES = ["boolean", "u8", "i8", "u16", "i16", "f16", "bf16", "u32", "i32", "f32",
         "u64", "i64", "f64", "f8e4m3", "f8e5m2", "u1", "u4", "i4"]
HOSTILE = b"\\u001b]0;owned\\u0007 title, \\u001b[2J cleared, \\u0085 next line"


def main():
    mode = sys.argv[1]
    if mode == "mute":
        time.sleep(600)
        return 0
    out = sys.stdout.buffer
    out.write(json.dumps({"protocol": "movconf-adapter/1", "name": "hostile", "version": "1",
                          "ops": {"DepthToSpace-1": {"types": TYPES}}}).encode() + b"\n")
    out.flush()
    for line in sys.stdin.buffer:
        if mode == "hang":
            while True:
                time.sleep(60)
        request_id = json.loads(line)["id"]
        out.write(b'{"id": %d, "error": "' % request_id + HOSTILE + b'"}\n')
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
