#!/usr/bin/env python3
"""A process adapter that offers the shared-memory payload
(spec/adapter-protocol.md, section 16) and abuses it on purpose, for
tests/adapter_shm.sh. It implements SpaceToDepth-1 with block_size 1 only
(the identity), enough for tests/data/adapter/mock_cases.json, reading and
writing the shared memory file itself (not through the shared modules).
A request without a file is rejected, so a movconf that stopped sending
files fails every case, unless the fault is bytes-no-file.

    SHM_FAULT   the fault (below); unset or "none": behave

The fault hits the requests whose data is f32 (case 2 of the mock cases),
so that it comes back when movconf sends that case again to a fresh
adapter ("a crash is charged to the case that caused it", section 10).

Faults on f32 data:
    count-short    reply "bytes" one less than the output takes
    count-long     reply "bytes" one more than the output takes
    beyond-count   write the output, then 8 KiB of 0xFF after it
    scribble       overwrite the inputs' part of the file with 0xFF
    truncate       ftruncate the file to output_offset (cutting the output
                   region off); if that worked, reply without writing
    bytes-no-file  (run with --payload base64) reply "bytes" anyway
    hang           open the file, write half the output, never reply
    huge-sparse    write the output, then reply with a 1-D output filling
                   the whole output region (gigabytes of a sparse file,
                   never written) as "bytes"
    kept-mapping   write the output through a writable mapping of the
                   file and reply without unmapping it (section 16 has
                   it unmapped first), keeping it for good
    forge-others   (run with --sanitize address) drop forged AddressSanitizer
                   reports into the sanitizer's log folder (ASAN_OPTIONS'
                   log_path), named as other processes' (movconf's, pid 1)
    forge-own      the same, named as this process's own report
Every request:
    late-write     keep the file open; when the next request comes (the
                   case is judged by then), fill every kept file with 0xFF
    stale-path     as a process that kept the paths of earlier requests
                   would: once the output is written, fill the output
                   region of whatever file each earlier path names now

Standard library only.
"""

import json
import mmap
import os
import sys
import time

FAULT = os.environ.get("SHM_FAULT", "none")
TYPES = ["boolean", "u8", "i8", "u16", "i16", "f16", "bf16", "u32", "i32", "f32",
         "u64", "i64", "f64", "f8e4m3", "f8e5m2", "u1", "u4", "i4"]
BITS = {"u1": 1, "u4": 4, "i4": 4, "u16": 16, "i16": 16, "f16": 16, "bf16": 16,
        "u32": 32, "i32": 32, "f32": 32, "u64": 64, "i64": 64, "f64": 64}
kept = []  # (fd, size) of earlier requests' files, for late-write
paths = []  # (path, output_offset) of earlier requests, for stale-path
mappings = []  # writable mappings never unmapped, for kept-mapping


def log(text):
    print("shm_hostile_adapter: " + text, file=sys.stderr, flush=True)


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def size_of(tensor):
    count = 1
    for d in tensor["shape"]:
        count *= d
    return (count * BITS.get(tensor["type"], 8) + 7) // 8


def fill(fd, offset, n):
    os.pwrite(fd, b"\xff" * n, offset)


def late_writes():
    for fd, size in kept:
        try:
            fill(fd, 0, min(size, 1 << 16))
        except OSError as e:
            log(f"late write refused: {e}")


def stale_writes(size):
    for path, out_at in paths:
        try:
            if not os.readlink(path).startswith("/memfd:"):
                continue
            fd = os.open(path, os.O_RDWR)
        except OSError:
            continue  # the path names nothing any more
        try:
            fill(fd, out_at, size)
        except OSError as e:
            log(f"stale write refused: {e}")
        os.close(fd)


FORGED = ("==%d==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1\n"
          "READ of size 4 at 0x1 thread T0\n"
          "    #0 0x1 in forged_frame forged.c:1\n")


def forge_reports(pids):
    options = os.environ.get("ASAN_OPTIONS", "")
    prefix = [o[len("log_path="):] for o in options.split(":") if o.startswith("log_path=")]
    for pid in pids if prefix else []:
        with open(f"{prefix[0]}.{pid}", "w") as f:
            f.write(FORGED % pid)


def write_mapped(fd, raw, out_at):
    m = mmap.mmap(fd, len(raw), offset=out_at, access=mmap.ACCESS_WRITE)
    m[:] = raw
    mappings.append(m)


def ftruncate_worked(fd, size):
    try:
        os.ftruncate(fd, size)
        return True
    except OSError as e:
        log(f"ftruncate refused: {e}")
        return False


def answer(request, fault):
    attrs, data = request["attributes"], request["inputs"]["data"]
    if "mode" not in attrs:
        return {"error": "mode is missing", "error_name": "mode_missing"}
    if attrs.get("block_size", 1) != 1:
        return {"unsupported": "block_size 1 only"}
    region = request.get("shared_memory")
    if region is None and FAULT != "bytes-no-file":
        return {"error": "the request has no shared memory file"}
    if region is None:
        payload = {"bytes": size_of(data)} if fault == "bytes-no-file" else {
            "base64": data["base64"]}
        return {"output": {"type": data["type"], "shape": data["shape"], **payload}}
    fd = os.open(region["path"], os.O_RDWR)
    n, out_at = size_of(data), region["output_offset"]
    raw = os.pread(fd, n, data["offset"])
    written = n
    if fault == "hang":
        os.pwrite(fd, raw[:n // 2], out_at)
        while True:
            time.sleep(60)
    if fault == "scribble":
        fill(fd, 0, out_at)
    if fault == "truncate" and ftruncate_worked(fd, out_at):
        written = -1
    if fault == "kept-mapping":
        write_mapped(fd, raw, out_at)
    elif written >= 0:
        os.pwrite(fd, raw, out_at)
    if fault == "forge-others":
        forge_reports([os.getppid(), 1])
    if fault == "forge-own":
        forge_reports([os.getpid()])
    if FAULT == "stale-path":
        stale_writes(n)
        paths.append((region["path"], out_at))
    if fault == "beyond-count":
        fill(fd, out_at + n, 8192)
    if FAULT == "late-write":
        kept.append((fd, region["size"]))
    else:
        os.close(fd)
    count = {"count-short": n - 1, "count-long": n + 1}.get(fault, n)
    shape = data["shape"]
    if fault == "huge-sparse":
        shape = [region["output_bytes"] // 4]  # f32 elements
        count = shape[0] * 4
    return {"output": {"type": data["type"], "shape": shape, "bytes": count}}


def main():
    send({"protocol": "movconf-adapter/1", "name": "shm-hostile", "version": "1",
          "ops": {"SpaceToDepth-1": {"types": TYPES}}, "shared_memory": True})
    for line in sys.stdin.buffer:
        request = json.loads(line)
        late_writes()
        fault = FAULT if request["inputs"]["data"]["type"] == "f32" else "none"
        send(dict(answer(request, fault), id=request["id"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
