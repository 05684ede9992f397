#!/usr/bin/env python3
"""Writes docs/performance-matrix.md: implementation x workload -> GB/s,
ratio to the same-run ceiling (a streaming-store copy of the same traffic)
and ratio to movconf's kernels, from one sitting of `movconf bench`.

For each installed implementation of examples/adapters/adapters.json (plugins
and process adapters that answer the timing request), one
`movconf bench --impl ... --json` run: every figure of a row (movconf, the
copies, the implementation) comes from that run, so its ratios compare like
with like. Then tools/torch_bench.py's best PyTorch formulation per workload
(run right after; its ratio to movconf uses the movconf-only run of the same
sitting, which is the weaker comparison and is said so in the page).

Then the suite's own costs on large work, in the same sitting: hashing (the
large tier with the built-in kernels, libcrypto's SHA extensions on and
masked) and transport (the large tier and a fuzz campaign through process
adapters, the shared memory file against base64).

usage: tools/perf_matrix.py [--movconf build/movconf] [--threads 2] [--quick]
                            [--out docs/performance-matrix.md] [--only NAME...]
                            [--no-hashing] [--no-transport]
Standard library only; the adapters' libraries as installed by
tools/install-adapters.sh. 25 minutes and more with the full shapes, by the
adapters installed (tfjs alone took 13 minutes on 2026-11-26).
"""

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import statistics
import sys
import tempfile

from perf_costs import hashing_section, transport_section

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ADAPTERS = os.path.join(ROOT, "examples", "adapters", "adapters.json")


def log(text):
    print(f"perf_matrix: {text}", file=sys.stderr, flush=True)


def installed(adapter):
    try:
        return subprocess.run(adapter["detect"], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, check=False, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def bench(args, impl, json_path):
    """One movconf bench run; its JSON document (rows of a failed check
    carry their status; the run's exit status is not fatal). With --reuse,
    a run already in that folder is read instead."""
    if args.reuse and os.path.exists(json_path):
        log(f"reusing {json_path}")
        with open(json_path, encoding="utf-8") as f:
            return json.load(f)
    cmd = [args.movconf, "bench", "--threads", str(args.threads), "--json", json_path]
    if args.quick:
        cmd.append("--quick")
    if impl:
        cmd += ["--impl", impl]
    log(" ".join(cmd))
    proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True, check=False)
    with open(json_path + ".txt", "w", encoding="utf-8") as f:
        f.write(proc.stdout)  # the table as printed, for the README's example
    if not os.path.exists(json_path):
        raise SystemExit(f"perf_matrix: {' '.join(cmd)} wrote no JSON (exit {proc.returncode})")
    with open(json_path, encoding="utf-8") as f:
        return json.load(f)


def torch_rows(args, json_path):
    cmd = ["/usr/bin/python3", os.path.join(ROOT, "tools", "torch_bench.py"), "--movconf",
           args.movconf, "--threads", str(args.threads), "--json", json_path]
    if args.quick:
        cmd.append("--quick")
    log(" ".join(cmd))
    if subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, check=False).returncode != 0:
        log("tools/torch_bench.py failed or PyTorch is missing: no PyTorch formulations")
        return None
    with open(json_path, encoding="utf-8") as f:
        return {r["id"]: r for r in json.load(f)["workloads"]}


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    flags = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            text = f.read()
        have = [x for x in ("sse2", "avx2", "avx512f") if f" {x}" in text]
        flags = ", ".join(have)
    except OSError:
        pass
    return f"{cpu}; {os.cpu_count()} online CPUs; {flags}; {platform.system()} {platform.release()}"


def impl_figures(row):
    """(GB/s, vs ceiling, vs movconf) of the run's --impl on one row, or a
    word for a row it did not pass."""
    i = row.get("impl", {})
    if i.get("status") != "ok":
        return {"unsupported": None, "mismatch": "wrong output",
                "error": "error"}.get(i.get("status"), "-")
    return i["gb_per_s"], i["ceiling_ratio"], 1 / i["movconf_speedup"]


NOTES_MARKER = "<!-- notes below: written by hand, kept by tools/perf_matrix.py -->"


def kept_notes(path):
    """The hand-written part of an existing page (after NOTES_MARKER)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return ""
    at = text.find(NOTES_MARKER)
    return text[at:] if at >= 0 else ""


def target(wid, rows):
    """Issue 17's target for a movconf row, judged on the median over every
    run of the sitting that timed it (`rows`: the movconf-only run and each
    --impl run time movconf's kernels again): one run's ratio swings by 0.2
    and more on this machine (docs/performance-matrix.md)."""
    if wid.startswith("s2d/small/"):
        us = statistics.median(r["seconds"] for r in rows) * 1e6
        return (f"<= 1 us: {us:.2f} us (median of {len(rows)} runs), "
                f"{'met' if us <= 1 else 'missed'}")
    want = 0.8 if wid.startswith("eip/") else 0.7 if wid.endswith(("/u8", "/f16")) else 0.85
    ratios = [r["ceiling_ratio"] for r in rows]
    got = statistics.median(ratios)
    return (f">= {want} of ceiling: median {got:.2f} of {len(rows)} runs "
            f"({min(ratios):.2f} to {max(ratios):.2f}), {'met' if got >= want else 'missed'}")


def write_page(args, runs, left_out, torch, costs, out):
    by_id = [(name, {r["id"]: r for r in doc["workloads"]}) for name, doc in runs]
    movconf_rows = by_id[0][1]
    timed = {}  # workload id -> movconf's rows of it in every run of the sitting
    for _, rows in by_id:
        for wid, r in rows.items():
            if r.get("status") == "ok":
                timed.setdefault(wid, []).append(r)
    lines = [
        "# Performance matrix",
        "",
        "Generated by `tools/perf_matrix.py` "
        f"({'quick shapes' if args.quick else 'full shapes'}, {args.threads} threads) on "
        f"{datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}.",
        "",
        f"Machine: {machine()}. A shared virtual machine: other jobs ran at the same time.",
        "",
        "**Caveat.** Absolute figures are noisy and depend on the machine and its load; only "
        "ratios measured within one run compare. Each implementation has its own "
        "`movconf bench --impl` run, in which movconf's kernels, a memcpy and a streaming-store "
        "copy of the same traffic (the *ceiling*) and the implementation were measured "
        "together: its *vs ceiling* and *vs movconf* come from that run, and so does the "
        "movconf row printed above it. Plugins are timed by movconf in the same alternating "
        "runs; process adapters time their own calls (the timing request, "
        "spec/adapter-protocol.md section 15), which leaves out the pipe and the base64 but "
        "not each adapter's own conversions. Every output was checked bit for bit against the "
        "oracle before it was timed; *wrong output* means it differed (NaN payloads quieted, "
        "for example) and was not timed.",
        "",
        "GB/s counts input bytes + output bytes per call (1 GB = 10^9 bytes); *vs movconf* is "
        "the implementation's GB/s over movconf's in the same run (below 1: slower). The "
        "targets are judged on the median of movconf's row over every run of the sitting "
        "(each `--impl` run times movconf's kernels again), not on the first run alone.",
        "",
        "| workload | implementation | GB/s | vs ceiling | vs movconf | target (movconf rows) |",
        "|---|---|---:|---:|---:|---|",
    ]
    unsupported, failures = {}, {}
    for wid, base in movconf_rows.items():
        if base.get("status") != "ok":
            lines.append(f"| `{wid}` | movconf | {base.get('status')} | | |")
            continue
        lines.append(f"| `{wid}` | **movconf** | {base['gb_per_s']:.2f} | "
                     f"{base['ceiling_ratio']:.2f} | 1.00 | {target(wid, timed[wid])} |")
        for name, rows in by_id[1:]:
            row = rows.get(wid)
            if not row or row.get("status") != "ok":
                continue
            fig = impl_figures(row)
            if fig == "error":
                detail = re.sub(r" \(request \d+\)", "", row["impl"].get("detail", ""))
                failures.setdefault((name, detail), []).append(wid)
            if fig is None:
                unsupported.setdefault(name, []).append(wid)
            elif isinstance(fig, str):
                lines.append(f"| `{wid}` | {name} | {fig} | | | |")
            else:
                lines.append(f"| `{wid}` | {name} (movconf in its run: {row['gb_per_s']:.2f}) | "
                             f"{fig[0]:.2f} | {fig[1]:.2f} | {fig[2]:.2f} | |")
        t = torch.get(wid) if torch else None
        if t:
            speedup = t.get("movconf_speedup", t["seconds"] / base["seconds"])
            lines.append(f"| `{wid}` | PyTorch, best formulation: {t['best']} | "
                         f"{t['gb_per_s']:.2f} | | {1 / speedup:.2f} | "
                         f"movconf >= 1.5x PyTorch: {speedup:.2f}x, "
                         f"{'met' if speedup >= 1.5 else 'missed'} |")
    lines.append("")
    for name, wids in unsupported.items():
        lines.append(f"- {name} does not claim: {', '.join(f'`{w}`' for w in wids)}.")
    for (name, detail), wids in failures.items():
        lines.append(f"- {name}, error on {', '.join(f'`{w}`' for w in wids)}: {detail}.")
    if left_out:
        lines.append(f"- Not run in this sitting (`--only`): {', '.join(left_out)}.")
    if torch:
        lines.append("- The PyTorch rows are `tools/torch_bench.py`, run right after: the fastest "
                     "of several formulations (views and a copy into a preallocated output, "
                     "`contiguous()`, `pixel_shuffle`/`pixel_unshuffle`, `F.unfold`), each "
                     "checked against reference/reference_model.py first; its *vs movconf* divides "
                     "by the mean of movconf's times in two `movconf bench --filter` runs of "
                     "that workload made just before and just after (not the table's first "
                     "run, minutes earlier), and it has no ceiling of its own.")
    if costs:
        lines += [""] + costs
    notes = kept_notes(out)
    lines += ["", notes.rstrip("\n") if notes else NOTES_MARKER]
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--movconf", default=os.path.join(ROOT, "build", "movconf"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="movconf bench --quick shapes")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "performance-matrix.md"))
    ap.add_argument("--only", nargs="*", help="adapter names of adapters.json (default: all)")
    ap.add_argument("--no-hashing", action="store_true", help="leave out the hashing section")
    ap.add_argument("--no-transport", action="store_true",
                    help="leave out the transport section")
    ap.add_argument("--reuse", metavar="DIR", help="take the movconf bench runs already in DIR "
                    "(a previous run's folder) and run only what is missing and PyTorch")
    args = ap.parse_args(argv)
    with open(ADAPTERS, encoding="utf-8") as f:
        adapters = json.load(f)["adapters"]
    work = args.reuse or tempfile.mkdtemp(prefix="perf-matrix-")
    runs = [("movconf", bench(args, None, os.path.join(work, "movconf.json")))]
    left_out = []  # adapters --only leaves out, named on the page
    for a in adapters:
        if args.only and a["name"] not in args.only:
            left_out.append(a["name"])
            continue
        if not installed(a):
            log(f"{a['name']}: not installed, left out")
            continue
        impl = a["impl"]
        if a["name"].startswith("pytorch"):  # PyTorch's own default is 1 thread
            impl += f" --threads {args.threads}"
        runs.append((a["name"], bench(args, impl, os.path.join(work, a["name"] + ".json"))))
    torch = torch_rows(args, os.path.join(work, "torch.json"))
    costs = [] if args.no_hashing else hashing_section(args.movconf, work, log)
    if not args.no_transport:
        costs += transport_section(args.movconf, adapters, installed, work, log)
    write_page(args, runs, left_out, torch, costs, args.out)
    log(f"wrote {args.out}; the runs' tables and JSON are in {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
