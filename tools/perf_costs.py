"""The suite's own costs on large work, for tools/perf_matrix.py: hashing
(SHA-256 of the large tier's outputs, by libcrypto) and transport (tensors to
process adapters through a shared memory file or as base64). Each section is
measured in the sitting that writes the page, with its baseline beside it:
libcrypto with its SHA extensions masked, and base64."""

import json
import os
import resource
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = "/usr/bin/python3"
# OpenSSL's capability mask: clears CPUID.7.EBX bit 29, the SHA extensions.
NO_SHA_NI = {"OPENSSL_ia32cap": ":~0x20000000"}
NUMPY_IMPL = f"exec:exec {PYTHON} {os.path.join(ROOT, 'examples', 'numpy_adapter.py')}"
FUZZ_RUNS = 400
SMALL_FUZZ_RUNS = 3000

# Python's hashlib links the same libcrypto as movconf (checked by ldd when
# this was written); hashing a buffer with it gives libcrypto's rate alone.
HASH_RATE = """
import hashlib, statistics, time
buf = bytes(64 << 20)
rates = []
for _ in range(5):
    t = time.process_time()
    hashlib.sha256(buf).digest()
    rates.append(len(buf) / (time.process_time() - t) / 1e6)
print(statistics.median(rates))
"""


def timed(cmd, env=None, cwd=ROOT):
    """(wall seconds, user CPU seconds, exit status) of one command."""
    # Children's usage grows by what the waited-for command (and what it
    # waited for) used; commands here run one at a time.
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    start = time.monotonic()
    status = subprocess.run(cmd, cwd=cwd, env={**os.environ, **(env or {})},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.monotonic() - start
    return wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before, status


def sha_rate(env):
    out = subprocess.run([PYTHON, "-c", HASH_RATE], env={**os.environ, **env},
                         capture_output=True, text=True, check=True)
    return float(out.stdout)


def read_report(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def large_tier(movconf, env, report, log):
    cmd = [movconf, "run", "--tier", "large", "--quiet", "--json", report]
    log(" ".join(cmd) + (" (SHA extensions masked)" if env else ""))
    wall, user, _ = timed(cmd, env)
    summary = read_report(report)["summary"]
    return wall, user, summary["cases"], summary["failed"]


def hashing_section(movconf, work, log):
    """Markdown lines: libcrypto's rate and the large tier's time, with the
    SHA extensions and with them masked, alternating."""
    runs = {"on": [], "masked": []}
    for _ in range(2):
        for key, env in (("on", {}), ("masked", NO_SHA_NI)):
            runs[key].append(large_tier(movconf, env, os.path.join(work, f"large-{key}.json"), log))
    rate = {"on": sha_rate({}), "masked": sha_rate(NO_SHA_NI)}
    cases, failed = runs["on"][0][2], max(r[3] for r in runs["on"] + runs["masked"])
    lines = [
        "## Hashing",
        "",
        "Large-tier expected outputs are SHA-256 digests, computed by OpenSSL's libcrypto "
        "(`EVP_Digest`), which uses this CPU's SHA extensions (`sha_ni`). The baseline beside "
        "them is the same library with those extensions masked (`OPENSSL_ia32cap="
        f"{NO_SHA_NI['OPENSSL_ia32cap']}`), measured in alternation. `movconf run --tier large` "
        f"with the built-in kernels, {cases} cases, {failed} failed:",
        "",
        "| libcrypto | SHA-256 rate, 64 MiB buffer (MB/s of CPU) | large tier wall (s) | "
        "large tier user CPU (s) |",
        "|---|---:|---|---|",
    ]
    for key, name in (("on", "SHA extensions (movconf's default)"), ("masked", "masked")):
        walls = ", ".join(f"{r[0]:.2f}" for r in runs[key])
        users = ", ".join(f"{r[1]:.2f}" for r in runs[key])
        lines.append(f"| {name} | {rate[key]:.0f} | {walls} | {users} |")
    lines += ["", "The rate is hashlib's (the same libcrypto.so.3 movconf links), median of 5.", ""]
    return lines


def cases_by_id(report):
    return {c["id"]: c for c in report["cases"] if c["verdict"] != "unsupported"}


def payload_run(movconf, impl, mode, report, log):
    cmd = [movconf, "run", "--tier", "large", "--quiet", "--impl", impl, "--payload", mode,
           "--json", report]
    log(" ".join(cmd))
    wall, _, _ = timed(cmd)
    return wall, cases_by_id(read_report(report))


def ratio_spread(file_cases, b64_cases):
    """min, median and max of base64 time / file time over the cases that
    took more than half a second in base64."""
    ratios = [c["seconds"] / file_cases[i]["seconds"] for i, c in b64_cases.items()
              if c["seconds"] > 0.5 and i in file_cases and file_cases[i]["seconds"] > 0]
    if not ratios:
        return "no case took 0.5 s"
    return f"{min(ratios):.1f} to {max(ratios):.1f} (median {statistics.median(ratios):.1f})"


def transport_row(name, movconf, impl, work, log):
    wall_file, file_cases = payload_run(movconf, impl, "auto", os.path.join(work, "tf.json"), log)
    wall_b64, b64_cases = payload_run(movconf, impl, "base64", os.path.join(work, "tb.json"), log)
    same = {i: c["verdict"] for i, c in file_cases.items()} == \
        {i: c["verdict"] for i, c in b64_cases.items()}
    t_file = sum(c["seconds"] for c in file_cases.values())
    t_b64 = sum(c["seconds"] for c in b64_cases.values())
    slow = max(b64_cases.values(), key=lambda c: c["seconds"], default=None)
    slowest = "-"
    if slow and slow["id"] in file_cases:
        slowest = (f"`{slow['id']}`: {slow['seconds']:.2f} s, "
                   f"{file_cases[slow['id']]['seconds']:.2f} s")
    return (f"| {name} ({len(b64_cases)} cases sent) | {wall_file:.1f} / {wall_b64:.1f} "
            f"({wall_b64 / wall_file:.1f}x) | {t_file:.1f} / {t_b64:.1f} "
            f"({t_b64 / max(t_file, 1e-9):.1f}x) | {ratio_spread(file_cases, b64_cases)} | "
            f"{slowest} | {'yes' if same else 'NO'} |")


def fuzz_rates(movconf, extra, runs, log):
    """Alternating pairs of fuzz campaigns through numpy: wall and user CPU
    per payload mode, in a scratch folder (findings, if any, go there)."""
    out = {"auto": [], "base64": []}
    with tempfile.TemporaryDirectory(prefix="perf-fuzz-") as scratch:
        for _ in range(2):
            for mode in ("auto", "base64"):
                cmd = [movconf, "fuzz", "--impl", NUMPY_IMPL, "--runs", str(runs), "--seed", "7",
                       "--payload", mode] + extra
                log(" ".join(cmd))
                wall, user, status = timed(cmd, cwd=scratch)
                out[mode].append((runs / wall, user, status))
    return out


def numpy_present():
    return subprocess.run([PYTHON, "-c", "import numpy"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, check=False).returncode == 0


def transport_section(movconf, adapters, installed, work, log):
    """Markdown lines: the large tier through numpy, ONNX Runtime and
    PyTorch, file then base64, and fuzz throughput through numpy."""
    lines = [
        "## Transport",
        "",
        "Process adapters that offer it get the tensors of requests of 64 KiB or more through "
        "a shared memory file instead of base64 in the JSON lines (spec/adapter-protocol.md, "
        "section 16). `movconf run --tier large`, `--payload auto` (the file) then `--payload "
        "base64`, back to back for each adapter. *Case time* sums the per-case seconds of the "
        "JSON report over the cases sent (the request, the adapter's work and the judging; "
        "not loading the tier); the gain per case is base64 time over file time, over the "
        "cases that took more than 0.5 s in base64.",
        "",
        "| adapter | wall, file / base64 (s) | case time, file / base64 (s) | gain per slow case "
        "| slowest case in base64: base64, file | same verdicts |",
        "|---|---|---|---|---|---|",
    ]
    chosen = [("numpy, examples/numpy_adapter.py", NUMPY_IMPL)] if numpy_present() else []
    chosen += [(a["name"], a["impl"]) for a in adapters
               if a["name"] in ("onnxruntime", "pytorch") and installed(a)]
    for name, impl in chosen:
        lines.append(transport_row(name, movconf, impl, work, log))
    if not numpy_present():
        return lines + ["", "numpy is missing: no fuzz figures.", ""]
    large = fuzz_rates(movconf, [], FUZZ_RUNS, log)
    small = fuzz_rates(movconf, ["--no-large"], SMALL_FUZZ_RUNS, log)

    def rates(runs):
        return ", ".join(f"{r[0]:.0f}" for r in runs)

    def users(runs):
        return ", ".join(f"{r[1]:.2f}" for r in runs)

    statuses = {r[2] for runs in (large, small) for mode in runs.values() for r in mode}
    found = "" if statuses == {0} else f" (exit statuses {sorted(statuses)}: 1 is a finding)"
    lines += [
        "",
        f"`movconf fuzz --runs {FUZZ_RUNS} --seed 7` through the numpy adapter (large requests "
        f"included), alternating: {rates(large['auto'])} runs/s with the file, "
        f"{rates(large['base64'])} with base64. Small requests: the same with `--no-large "
        f"--runs {SMALL_FUZZ_RUNS}`, where `auto` sends base64 below 64 KiB: "
        f"{rates(small['auto'])} runs/s and {users(small['auto'])} s of user CPU under `auto`, "
        f"{rates(small['base64'])} runs/s and {users(small['base64'])} s under `base64`{found}.",
        "",
    ]
    return lines
