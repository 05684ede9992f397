#!/usr/bin/env python3
"""A process adapter (spec/adapter-protocol.md) that misbehaves on purpose.

It implements SpaceToDepth-1 with block_size 1 only (the identity), which
is enough for tests/data/adapter/mock_cases.json, and injects one fault,
chosen by environment variables:

    MOCK_FAULT   the fault (below); unset or "none": behave
    MOCK_AT      the request id the fault hits (default 2)
    MOCK_STATE   a file for faults that span restarts (restart-fails); with it,
                 the faulted request's content is kept in MOCK_STATE.fault and
                 any later request with the same content (a case run again,
                 alone, in a fresh adapter) gets the same fault
    MOCK_ORPHAN  when set, the adapter starts `sleep MOCK_ORPHAN` in a
                 session of its own (setsid), which must not outlive movconf
    MOCK_BIG     bytes of the output (big-output) or error (big-error)

Faults at request MOCK_AT:
    garbage            a line that is not JSON instead of the reply
    exit               exit with status 3 without replying
    signal             die of SIGSEGV without replying
    kill-parent        kill its parent (SIGKILL) without replying; with
                       MOCK_STATE, only the first adapter to get there
    hang               never reply
    partial            write half a reply, then hang
    close-stdout       close stdout and keep running
    wrong-id           reply with the id of the next request
    base64-length      an output one byte shorter than type and shape need
    extra-key          a reply with a key the protocol does not have
    huge-line          a reply line of 200,000 bytes
    two-replies        reply twice (the second reply is unsolicited)
    poison             answer correctly, but crash (SIGSEGV) on every later
                       request for i16 data in this process: a heap
                       corrupted by one case that breaks a later one
    control-text       reject with control characters in the message, and a
                       handshake name with an escape sequence
    cut-utf8-key       an unknown key whose quoted prefix cuts a UTF-8 character
    zero-overflow      accept with an output of shape [0, 2^62, 4], base64 ""
    big-output         an output of MOCK_BIG zero bytes (shape [MOCK_BIG]), streamed
    big-error          an error of MOCK_BIG characters, streamed
    wrong-value        flip a bit of the first output byte
    wrong-shape        report the output's last two dimensions swapped
    missed-rejection   answer an invalid input with an output
    wrong-rejection    reject a valid input
    wrong-error-name   reject with the error name mode_invalid
    unknown-error-name reject with "mode_mising", no error name of movconf's
    empty-error        reject with an empty message and no error name
    unnamed-rejection  reject without an error name
    unsupported        reply unsupported
    asan-report        what an adapter built with AddressSanitizer does on a
                       heap overflow: a report in the log_path of ASAN_OPTIONS,
                       then exit with its exitcode (a simulation: the mock is
                       Python)
    ubsan-report       what UBSan does by default: a report in the log_path of
                       UBSAN_OPTIONS, then a correct reply
    restart-fails      exit; every later start sends a bad handshake
    slow-restart       hang; every later start sleeps 60 s before its handshake
    stderr-noise       (every request) log a lot to stderr; still correct
Faults at start:
    nonblock-stderr    set O_NONBLOCK on stderr and log a line with an escape
                       sequence there; then behave
    grandchild-exit    start a process (`sleep MOCK_GRANDCHILD`, its pid in
                       MOCK_STATE.grandchild) that keeps stdin, stdout and
                       stderr open; then behave, but exit with status 0 instead
                       of replying to request MOCK_AT
    bad-handshake      a handshake with the wrong protocol name
    no-handshake       exit with status 5 before the handshake
    slow-handshake     sleep 60 s before the handshake
    late-handshake     sleep 4 s before the handshake (longer than the fault
                       tests' --timeout 2, within the handshake's own allowance)

Standard library only.
"""

import json
import os
import signal
import sys
import time

FAULT = os.environ.get("MOCK_FAULT", "none")
AT = int(os.environ.get("MOCK_AT", "2"))
STATE = os.environ.get("MOCK_STATE", "")
# Every type but f64, so that the handshake filter is exercised too.
TYPES = ["boolean", "u8", "i8", "u16", "i16", "f16", "bf16", "u32", "i32", "f32",
         "u64", "i64", "f8e4m3", "f8e5m2", "u1", "u4", "i4"]


def send(obj_or_text):
    text = obj_or_text if isinstance(obj_or_text, str) else json.dumps(obj_or_text)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def hang():
    while True:
        time.sleep(60)


def make_stderr_nonblocking():
    import fcntl
    flags = fcntl.fcntl(2, fcntl.F_GETFL)
    fcntl.fcntl(2, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    sys.stderr.write("mock: \x1b[2Jstderr made non-blocking\n")
    sys.stderr.flush()


def start_grandchild():
    import subprocess
    child = subprocess.Popen(["sleep", os.environ["MOCK_GRANDCHILD"]])
    with open(STATE + ".grandchild", "w") as f:
        f.write("%d\n" % child.pid)


def handshake():
    restarted = bool(STATE) and os.path.exists(STATE)
    if FAULT == "nonblock-stderr":
        make_stderr_nonblocking()
    if FAULT == "grandchild-exit" and not restarted:
        start_grandchild()
    if FAULT == "bad-handshake" or (FAULT == "restart-fails" and restarted):
        send({"protocol": "movconf-adapter/0", "name": "mock", "version": "0", "ops": {}})
        return
    if os.environ.get("MOCK_ORPHAN"):
        import subprocess
        subprocess.Popen(["sleep", os.environ["MOCK_ORPHAN"]], start_new_session=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    if FAULT == "no-handshake":
        sys.exit(5)
    if FAULT == "slow-handshake":
        time.sleep(60)
    if FAULT == "late-handshake":
        time.sleep(4)
    if FAULT == "slow-restart" and restarted:
        time.sleep(60)
    name = "mock\x1b[2J\x85adapter" if FAULT == "control-text" else "mock-adapter"
    send({"protocol": "movconf-adapter/1", "name": name, "version": "1",
          "ops": {"SpaceToDepth-1": {"types": TYPES}}})


def identity(request):
    """SpaceToDepth-1 with block_size 1, checked in the specification's order."""
    data = request["inputs"]["data"]
    attrs = request["attributes"]
    if request["op"] != "SpaceToDepth-1":
        return {"unsupported": "the mock only does SpaceToDepth-1"}
    if len(data["shape"]) < 3:
        return {"error": "data rank below 3", "error_name": "data_rank"}
    if "mode" not in attrs:
        return {"error": "mode is missing", "error_name": "mode_missing"}
    if attrs["mode"] not in ("blocks_first", "depth_first"):
        return {"error": "unknown mode", "error_name": "mode_invalid"}
    if attrs.get("block_size", 1) < 1:
        return {"error": "block_size below 1", "error_name": "block_size_below_one"}
    if attrs.get("block_size", 1) != 1:
        return {"unsupported": "the mock only does block_size 1"}
    return {"output": dict(data)}


def flip_first_bit(b64):
    import base64
    raw = bytearray(base64.b64decode(b64))
    raw[0] ^= 1
    return base64.b64encode(bytes(raw)).decode()


def drop_last_byte(b64):
    import base64
    return base64.b64encode(base64.b64decode(b64)[:-1]).decode()


def sanitizer_report(variable, text):
    """Writes text where the sanitizer options in variable send reports."""
    options = dict(o.split("=", 1) for o in os.environ.get(variable, "").split(":") if "=" in o)
    with open("%s.%d" % (options["log_path"], os.getpid()), "w") as f:
        f.write(text)
    return options


def faulty_reply(request_id, reply):
    """The reply to the faulted request, or None when the fault sends nothing."""
    if FAULT == "garbage":
        send("this is not JSON")
    elif FAULT == "exit":
        sys.exit(3)
    elif FAULT == "grandchild-exit":
        open(STATE, "w").close()
        os._exit(0)
    elif FAULT == "restart-fails":
        open(STATE, "w").close()
        sys.exit(3)
    elif FAULT == "signal":
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    elif FAULT == "kill-parent":
        if STATE:  # created atomically: two workers may get here at once
            try:
                os.close(os.open(STATE + ".killed", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                send(reply)
                return
        os.kill(os.getppid(), signal.SIGKILL)
        hang()
    elif FAULT == "hang":
        hang()
    elif FAULT == "slow-restart":
        open(STATE, "w").close()
        hang()
    elif FAULT == "partial":
        sys.stdout.write(json.dumps(reply)[:10])
        sys.stdout.flush()
        hang()
    elif FAULT == "close-stdout":
        sys.stdout.close()
        os.close(1)
        hang()
    elif FAULT == "wrong-id":
        send(dict(reply, id=request_id + 1))
    elif FAULT == "base64-length":
        reply["output"]["base64"] = drop_last_byte(reply["output"]["base64"])
        send(reply)
    elif FAULT == "extra-key":
        send(dict(reply, comment="not in the protocol"))
    elif FAULT == "huge-line":
        send(dict(reply, padding="x" * 200000))
    elif FAULT == "two-replies":
        send(reply)
        send(reply)
    elif FAULT == "wrong-value":
        reply["output"]["base64"] = flip_first_bit(reply["output"]["base64"])
        send(reply)
    elif FAULT == "wrong-shape":
        shape = reply["output"]["shape"]
        shape[-1], shape[-2] = shape[-2], shape[-1]
        send(reply)
    elif FAULT == "missed-rejection":
        send({"id": request_id, "output": dict(REQUEST["inputs"]["data"])})
    elif FAULT == "wrong-rejection":
        send({"id": request_id, "error": "rejected on purpose"})
    elif FAULT == "wrong-error-name":
        send({"id": request_id, "error": "wrong name on purpose", "error_name": "mode_invalid"})
    elif FAULT == "unknown-error-name":
        send({"id": request_id, "error": "misspelt on purpose", "error_name": "mode_mising"})
    elif FAULT == "empty-error":
        send({"id": request_id, "error": ""})
    elif FAULT == "unnamed-rejection":
        send({"id": request_id, "error": "rejected without a name on purpose"})
    elif FAULT == "asan-report":
        options = sanitizer_report(
            "ASAN_OPTIONS",
            "=================================================================\n"
            "==%d==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000011 at "
            "pc 0x55d1 bp 0x7ffc sp 0x7ffc\n"
            "READ of size 1 at 0x602000000011 thread T0\n"
            "    #0 0x55d1 in copy_rows /src/adapter.c:42\n"
            "    #1 0x55d2 in space_to_depth /src/adapter.c:97\n"
            "    #2 0x55d3 in main /src/adapter.c:150\n" % os.getpid())
        sys.exit(int(options.get("exitcode", "1")))
    elif FAULT == "ubsan-report":
        sanitizer_report("UBSAN_OPTIONS",
                         "/src/adapter.c:77:12: runtime error: left shift of negative value -1\n"
                         "    #0 0x55d1 in block_offset /src/adapter.c:77\n")
        send(reply)
    elif FAULT == "unsupported":
        send({"id": request_id, "unsupported": "declined on purpose"})
    elif FAULT == "control-text":
        send({"id": request_id, "error": "red \x1b[31m bell \x07 nel \x85 nonchar \ufffe back \\ end"})
    elif FAULT == "cut-utf8-key":
        send(dict(reply, **{"k" * 59 + "\u00e9": 1}))
    elif FAULT == "zero-overflow":
        send({"id": request_id, "output": {"type": "u8", "shape": [0, 2**62, 4], "base64": ""}})
    elif FAULT == "big-output":
        big = int(os.environ["MOCK_BIG"])
        stream(request_id, '"output":{"type":"u8","shape":[%d],"base64":"' % big, "A", big // 3 * 4,
               '"}}')
    elif FAULT == "big-error":
        stream(request_id, '"error":"', "e", int(os.environ["MOCK_BIG"]), '"}')
    else:
        send(reply)


def stream(request_id, head, fill, count, tail):
    """A reply line of count fill characters between head and tail, written
    in pieces so that the mock itself stays small."""
    sys.stdout.write('{"id":%d,' % request_id + head)
    chunk = fill * (1 << 20)
    while count > 0:
        sys.stdout.write(chunk[:count])
        count -= len(chunk)
    sys.stdout.write(tail + "\n")
    sys.stdout.flush()


def content_key(request):
    return json.dumps({k: request[k] for k in ("op", "attributes", "inputs")}, sort_keys=True)


def faulted(request):
    """The fault hits request AT, and any later request with its content."""
    keep = STATE + ".fault" if STATE else ""
    if request["id"] == AT:
        if keep:
            with open(keep, "w") as f:
                f.write(content_key(request))
        return True
    if keep and os.path.exists(keep):
        with open(keep) as f:
            return f.read() == content_key(request)
    return False


REQUEST = None
POISONED = False


def main():
    global REQUEST, POISONED
    handshake()
    for line in sys.stdin:
        REQUEST = json.loads(line)
        request_id = REQUEST["id"]
        reply = dict(identity(REQUEST), id=request_id)
        if FAULT == "stderr-noise":
            sys.stderr.write("mock: noise " * 1000 + "\n")
        if POISONED and REQUEST["inputs"]["data"]["type"] == "i16":
            os.kill(os.getpid(), signal.SIGSEGV)
        if FAULT == "poison" and faulted(REQUEST):
            POISONED = True
            send(reply)
        elif faulted(REQUEST):
            faulty_reply(request_id, reply)
        else:
            send(reply)
    return 0


if __name__ == "__main__":
    sys.exit(main())
