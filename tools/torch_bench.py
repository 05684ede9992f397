#!/usr/bin/env python3
"""PyTorch on movconf bench's workloads: the yardstick of issue 17's "each op
>= 1.5x the best PyTorch formulation measured in the same sitting".

For each workload of `movconf bench --list` (same ids, same input shapes) it
times every PyTorch formulation of the operation it knows (a view, a permute
and a copy into a preallocated output, the same into a fresh tensor, the
library's own pixel_shuffle / pixel_unshuffle / unfold where they fit), with
the same threads as the kernels, and reports the best. Before timing, every
formulation is checked bit for bit against reference/reference_model.py on a small
shape of the same workload, and all formulations against each other on the
real shape, so that a fast but wrong formulation cannot win.

Timing: a warm-up call, then 9 runs (--quick: 5), each repeating the call until
it lasts 20 ms (2 ms), median per call, as movconf bench does. Unless
--no-bracket, `movconf bench --filter ID` runs just before and just after each
workload's PyTorch timing, and movconf_speedup compares with the mean of the
two: on a loaded machine, figures minutes apart do not compare.

usage: tools/torch_bench.py [--movconf build/movconf] [--threads N] [--quick]
                            [--filter GLOB] [--json FILE]
Needs Debian's python3-torch (run it with /usr/bin/python3); exits 77 when
torch is missing.
"""

import argparse
import fnmatch
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "reference"))

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # pragma: no cover - depends on the machine
    print("torch_bench: PyTorch is not installed (Debian: python3-torch)", file=sys.stderr)
    sys.exit(77)

import reference_model as ref  # noqa: E402

INT64_MAX, INT64_MIN = 2**63 - 1, -2**63
DTYPES = {"f32": torch.float32, "f16": torch.float16, "u8": torch.uint8}
# Workload parameters by name, as src/harness/bench/bench.c defines them.
PARAMS = {
    "s2d/blocks_first": {"bs": 2, "mode": "blocks_first"},
    "s2d/depth_first": {"bs": 2, "mode": "depth_first"},
    "s2d/small": {"bs": 2, "mode": "blocks_first"},
    "d2s/blocks_first": {"bs": 2, "mode": "blocks_first"},
    "d2s/depth_first": {"bs": 2, "mode": "depth_first"},
    "b2s/crops0": {"block": 4, "begin": 0, "end": 0},
    "b2s/crops1": {"block": 4, "begin": 1, "end": 1},
    "s2b/pads0": {"block": 4, "begin": 0, "end": 0},
    "s2b/pads1_3": {"block": 4, "begin": 1, "end": 3},
    "eip/3x3_valid": {"size": 3, "pad": "valid"},
    "eip/3x3_same_upper": {"size": 3, "pad": "same_upper"},
    "sc/g4_rows": {"axis": 1, "group": 4},
    "sc/g4_last": {"axis": 3, "group": 4},
    "sl/crop": {"start": [0, 0, 8, 8], "stop": [INT64_MAX, INT64_MAX, -8, -8],
                "step": [1, 1, 1, 1]},
    "sl/reverse_last": {"start": [-1], "stop": [INT64_MIN], "step": [-1], "axes": [3]},
    "sl/step2_last": {"start": [0], "stop": [INT64_MAX], "step": [2], "axes": [3]},
    # StridedSlice-1 without masks: Slice's three rows as begin, end and stride
    # of every axis, the same PyTorch formulations (SLICE_LIKE).
    "ss/crop": {"start": [0, 0, 8, 8], "stop": [INT64_MAX, INT64_MAX, -8, -8],
                "step": [1, 1, 1, 1]},
    "ss/reverse_last": {"start": [0, 0, 0, -1], "stop": [INT64_MAX] * 3 + [INT64_MIN],
                        "step": [1, 1, 1, -1]},
    "ss/step2_last": {"start": [0, 0, 0, 0], "stop": [INT64_MAX] * 4, "step": [1, 1, 1, 2]},
    "tr/nchw_nhwc": {"order": [0, 2, 3, 1]},
    "tr/nhwc_nchw": {"order": [0, 3, 1, 2]},
    "tr/swap_last": {"order": [0, 1, 3, 2]},
    "tr/rows": {"order": [1, 0, 2, 3]},
    "pad/constant": {"mode": "constant", "begin": 1, "end": 1},
    "pad/edge": {"mode": "edge", "begin": 1, "end": 1},
    "pad/reflect": {"mode": "reflect", "begin": 1, "end": 1},
    "ga/axis0": {"axis": 0, "indices": [3, 0, -2, 1]},
    "ga/axis2": {"axis": 2, "indices": [63, 0, -1, 1]},
    "ga/axis3": {"axis": 3, "indices": [63, 0, -1, 1]},
}
SMALL = {"s2d": [2, 3, 4, 6], "d2s": [2, 12, 3, 2], "b2s": [32, 3, 2, 3],
         "s2b": [2, 3, 4, 8], "eip": [2, 3, 5, 6], "sc": [2, 8, 3, 8], "sl": [2, 3, 20, 21],
         "tr": [2, 3, 5, 7], "pad": [2, 3, 5, 6], "ga": [4, 3, 64, 64], "ss": [2, 3, 20, 21]}
# Operations whose rows PyTorch runs as another's: a StridedSlice without
# masks is a slice.
SLICE_LIKE = {"ss": "sl"}


# ------------------------------------------------------------ formulations
# Each returns the output tensor; `out` is a preallocated output or None.

def s2d_view(x, p):
    n, c, h, w = x.shape
    bs = p["bs"]
    v = x.view(n, c, h // bs, bs, w // bs, bs)
    order = (0, 3, 5, 1, 2, 4) if p["mode"] == "blocks_first" else (0, 1, 3, 5, 2, 4)
    return v.permute(*order), (n, c * bs * bs, h // bs, w // bs)


def d2s_view(x, p):
    n, c, h, w = x.shape
    bs = p["bs"]
    if p["mode"] == "blocks_first":
        v = x.view(n, bs, bs, c // (bs * bs), h, w).permute(0, 3, 4, 1, 5, 2)
    else:
        v = x.view(n, c // (bs * bs), bs, bs, h, w).permute(0, 1, 4, 2, 5, 3)
    return v, (n, c // (bs * bs), h * bs, w * bs)


def b2s_view(x, p):
    n, c, h, w = x.shape
    b = p["block"]
    v = x.view(b, b, n // (b * b), c, h, w).permute(2, 3, 4, 0, 5, 1)
    if not p["begin"] and not p["end"]:
        return v, (n // (b * b), c, h * b, w * b)
    # A crop cuts inside the (h, b) pairs: no view reaches it, so one copy first.
    v = v.reshape(n // (b * b), c, h * b, w * b)
    return v[:, :, p["begin"]:h * b - p["end"], p["begin"]:w * b - p["end"]], None


def s2b_view(x, p):
    b = p["block"]
    if p["begin"] or p["end"]:
        x = F.pad(x, (p["begin"], p["end"], p["begin"], p["end"]))
    n, c, h, w = x.shape
    v = x.view(n, c, h // b, b, w // b, b).permute(3, 5, 0, 1, 2, 4)
    return v, (b * b * n, c, h // b, w // b)


def eip_view(x, p):
    k = p["size"]
    if p["pad"] == "same_upper":  # stride 1: total padding k - 1, the odd one at the end
        x = F.pad(x, ((k - 1) // 2, k // 2, (k - 1) // 2, k // 2))
    n, c = x.shape[:2]
    v = x.unfold(2, k, 1).unfold(3, k, 1)  # [n, c, oh, ow, r, col]
    oh, ow = v.shape[2], v.shape[3]
    return v.permute(0, 4, 5, 1, 2, 3), (n, k * k * c, oh, ow)


def eip_unfold(x, p):
    k = p["size"]
    if p["pad"] == "same_upper":
        x = F.pad(x, ((k - 1) // 2, k // 2, (k - 1) // 2, k // 2))
    n, c, h, w = x.shape
    oh, ow = h - k + 1, w - k + 1
    cols = F.unfold(x, k)  # [n, c*k*k, oh*ow], channel d*k*k + r*k + col
    return cols.view(n, c, k * k, oh, ow).transpose(1, 2), (n, k * k * c, oh, ow)


def sc_view(x, p):
    axis, group = p["axis"], p["group"]
    outer = math.prod(x.shape[:axis])
    v = x.reshape(outer, group, x.shape[axis] // group, -1).permute(0, 2, 1, 3)
    return v, tuple(x.shape)


def sl_positive(x, p):
    """The slice with every step made positive (a view), and the axes whose
    step was negative: those still need reversing, which no view can do."""
    index, flips = [slice(None)] * x.dim(), []
    for i, axis in enumerate(p.get("axes", range(len(p["start"])))):
        first, stop, step = slice(p["start"][i], p["stop"][i], p["step"][i]).indices(
            x.shape[axis])
        count = len(range(first, stop, step))
        if step < 0:
            flips.append(axis)
            first, step = first + (count - 1) * step, -step
        index[axis] = slice(first, first + count * step if count else first, step)
    return x[tuple(index)], flips


def sl_index_state(x, p):
    """For index_select: the positive-step view, the reversed axis (one at
    most here) with its index list, and the preallocated output."""
    v, flips = sl_positive(x, p)
    axis = flips[0] if flips else v.dim() - 1
    index = torch.arange(v.shape[axis] - 1, -1, -1) if flips else torch.arange(v.shape[axis])
    return v, axis, index, torch.empty(v.shape, dtype=x.dtype)


def sl_index_select(state):
    v, axis, index, out = state
    return torch.index_select(v, axis, index, out=out)


def sl_view(x, p):
    v, flips = sl_positive(x, p)
    return (v.flip(flips) if flips else v), None


def tr_view(x, p):
    return x.permute(*p["order"]), None


def pad_view(x, p):
    """F.pad of the two inner axes: no view exists, the call is the copy
    (edge is PyTorch's replicate; reflect and replicate take f32 only)."""
    mode = {"constant": "constant", "edge": "replicate", "reflect": "reflect"}[p["mode"]]
    return F.pad(x, (p["begin"], p["end"], p["begin"], p["end"]), mode=mode), None


def ga_index(x, p):
    """The indices, counted from the end where negative (index_select takes
    no negative index)."""
    d = x.shape[p["axis"]]
    return torch.tensor([i % d for i in p["indices"]], dtype=torch.int64)


def ga_view(x, p):
    """index_select on one axis: no view exists, the call is the copy."""
    return torch.index_select(x, p["axis"], ga_index(x, p)), None


# The "views" that are the operation's own copy, by the name of their row:
# timed as that one call, never followed by a copy_ or contiguous().
COPYING_VIEWS = {"pad": "F.pad", "ga": "index_select"}

VIEWS = {"s2d": s2d_view, "d2s": d2s_view, "b2s": b2s_view, "s2b": s2b_view, "eip": eip_view,
         "sc": sc_view, "sl": sl_view, "tr": tr_view, "pad": pad_view, "ga": ga_view}


def as_output(v, shape):
    return v.reshape(shape) if shape is not None else v


def formulations(op, p):
    """name -> (prepare(x) -> state, call(state) -> output)."""
    op = SLICE_LIKE.get(op, op)
    view = VIEWS[op]
    forms = {}

    def copy_into(x):
        v, shape = view(x, p)
        out = torch.empty(shape if shape is not None else v.shape, dtype=x.dtype)
        target = out.view(v.shape) if shape is not None else out
        return (x, target, out)

    def run_copy_into(state):
        x, target, out = state
        v, _ = view(x, p)
        target.copy_(v)
        return out

    def run_contiguous(x):
        v, shape = view(x, p)
        return as_output(v.contiguous(), shape)

    if op in COPYING_VIEWS:  # the call is the one copy: a copy_ after it would be a second
        forms[COPYING_VIEWS[op]] = (lambda x: x, lambda x: view(x, p)[0])
    else:
        forms["permute+copy_ into preallocated"] = (copy_into, run_copy_into)
        forms["permute+contiguous"] = (lambda x: x, run_contiguous)
    if op == "s2d" and p["mode"] == "depth_first":
        forms["pixel_unshuffle"] = (lambda x: x, lambda x: F.pixel_unshuffle(x, p["bs"]))
    if op == "d2s" and p["mode"] == "depth_first":
        forms["pixel_shuffle"] = (lambda x: x, lambda x: F.pixel_shuffle(x, p["bs"]))
    if op == "sl" and any(step < 0 for step in p["step"]):
        forms["index_select into preallocated"] = (lambda x: sl_index_state(x, p),
                                                   sl_index_select)
    if op == "ga":
        def select_state(x):
            idx = ga_index(x, p)
            return (x, idx, torch.empty(torch.index_select(x, p["axis"], idx).shape,
                                        dtype=x.dtype))
        forms["index_select into preallocated"] = (
            select_state, lambda st: torch.index_select(st[0], p["axis"], st[1], out=st[2]))
    if op == "eip" and x_is_float(p):
        forms["F.unfold+transpose"] = (lambda x: x,
                                       lambda x: as_output(*eip_unfold(x, p)).contiguous())
    return forms


def x_is_float(p):
    return p.get("dtype") in (torch.float32, torch.float16)


# ------------------------------------------------------------ checking

def reference_output(op, p, x):
    """reference/reference_model.py on x (small), as raw bytes."""
    type_name = {torch.float32: "f32", torch.float16: "f16", torch.uint8: "u8"}[x.dtype]
    raw = x.contiguous().numpy().tobytes()
    data = ref.Tensor(type_name, list(x.shape), ref.unpack(type_name, raw, x.numel()))
    rank = 4
    if op in ("s2d", "d2s"):
        fn = ref.space_to_depth if op == "s2d" else ref.depth_to_space
        result = fn({"data": data}, {"mode": p["mode"], "block_size": p["bs"]}, 1 << 30)
    elif op in ("b2s", "s2b"):
        side = lambda vals: ref.Tensor("i64", [rank], vals)  # noqa: E731
        block = side([1, 1, p["block"], p["block"]])
        begin = side([0, 0, p["begin"], p["begin"]])
        end = side([0, 0, p["end"], p["end"]])
        if op == "b2s":
            result = ref.batch_to_space({"data": data, "block_shape": block, "crops_begin": begin,
                                         "crops_end": end}, {}, 1 << 30)
        else:
            result = ref.space_to_batch({"data": data, "block_shape": block, "pads_begin": begin,
                                         "pads_end": end}, {}, 1 << 30)
    elif op == "sc":
        result = ref.shuffle_channels({"data": data}, {"axis": p["axis"], "group": p["group"]},
                                      1 << 30)
    elif op == "sl":
        inputs = {"data": data}
        for name in ("start", "stop", "step", "axes"):
            if name in p:
                inputs[name] = ref.Tensor("i64", [len(p[name])], [v % 2**64 for v in p[name]])
        result = ref.slice_8(inputs, {}, 1 << 30)
    elif op == "ss":
        inputs = {"data": data}
        for name, key in (("begin", "start"), ("end", "stop"), ("stride", "step")):
            inputs[name] = ref.Tensor("i64", [rank], [v % 2**64 for v in p[key]])
        result = ref.strided_slice_1(inputs, {}, 1 << 30)
    elif op == "tr":
        order = ref.Tensor("i64", [rank], list(p["order"]))
        result = ref.transpose_1({"data": data, "input_order": order}, {}, 1 << 30)
    elif op == "ga":
        indices = ref.Tensor("i64", [len(p["indices"])], [v % 2**64 for v in p["indices"]])
        axis = ref.Tensor("i64", [], [p["axis"]])
        result = ref.gather_8({"data": data, "indices": indices, "axis": axis}, {}, 1 << 30)
    elif op == "pad":
        begin = ref.Tensor("i64", [rank], [0, 0, p["begin"], p["begin"]])
        end = ref.Tensor("i64", [rank], [0, 0, p["end"], p["end"]])
        result = ref.pad_12({"data": data, "pads_begin": begin, "pads_end": end},
                            {"pad_mode": p["mode"]}, 1 << 30)
    else:
        k = p["size"]
        result = ref.extract_image_patches({"data": data}, {
            "sizes": [k, k], "strides": [1, 1], "rates": [1, 1], "auto_pad": p["pad"]}, 1 << 30)
    return result.shape, ref.pack(result.type, result.bits)


def pattern(shape, dtype):
    n = 1
    for d in shape:
        n *= d
    if dtype == torch.uint8:
        return (torch.arange(n, dtype=torch.int64) % 251).to(torch.uint8).view(*shape)
    return (torch.arange(n, dtype=torch.float32) % 2039 - 1000).to(dtype).view(*shape)


def bytes_of(t):
    return t.contiguous().view(torch.uint8).numpy().tobytes() if t.dtype != torch.uint8 else \
        t.contiguous().numpy().tobytes()


def check_small(op, p, dtype):
    """Every formulation against the reference model on a small shape."""
    x = pattern(SMALL[op], dtype)
    shape, want = reference_output(op, p, x)
    for name, (prepare, call) in formulations(op, p).items():
        got = call(prepare(x))
        if list(got.shape) != shape or bytes_of(got) != want:
            raise SystemExit(f"torch_bench: {op} {name} differs from reference/reference_model.py "
                             f"on {SMALL[op]} {dtype}")


# ------------------------------------------------------------ timing

def time_call(call, state, runs, min_run):
    call(state)
    start = time.perf_counter()
    call(state)
    one = max(time.perf_counter() - start, 1e-9)
    calls = max(1, int(min_run / one) + 1) if one < min_run else 1
    per_call = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(calls):
            call(state)
        per_call.append((time.perf_counter() - start) / calls)
    return statistics.median(per_call)


def movconf_seconds(args, wid):
    """movconf's median per-call time on one workload, from a movconf bench
    run of that workload alone (its oracle check included)."""
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "row.json")
        cmd = [args.movconf, "bench", "--threads", str(args.threads), "--filter", wid,
               "--json", path] + (["--quick"] if args.quick else [])
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(path, encoding="utf-8") as f:
            return json.load(f)["workloads"][0]["seconds"]


def workloads(movconf, quick, pattern_glob):
    cmd = [movconf, "bench", "--list"] + (["--quick"] if quick else [])
    text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    for line in text.splitlines():
        wid, shape = line.split()
        if pattern_glob and not fnmatch.fnmatch(wid, pattern_glob):
            continue
        yield wid, [int(d) for d in shape.strip("[]").split(",")]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--movconf", default=os.path.join(ROOT, "build", "movconf"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--filter")
    ap.add_argument("--json")
    ap.add_argument("--no-bracket", dest="bracket", action="store_false",
                    help="do not time movconf on each workload just before and after PyTorch "
                    "(its mean is what the movconf_speedup of a row compares with)")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    runs, min_run = (5, 2e-3) if args.quick else (9, 20e-3)
    rows = []
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    print(f"{'workload':<26} {'input':<18} {'best formulation':<34} {'time':>10} {'GB/s':>7}")
    for wid, shape in workloads(args.movconf, args.quick, args.filter):
        op, name, type_name = wid.split("/")
        p = dict(PARAMS[f"{op}/{name}"], dtype=DTYPES[type_name])
        check_small(op, p, p["dtype"])
        x = pattern(shape, p["dtype"])
        results, outputs = {}, {}
        before = movconf_seconds(args, wid) if args.bracket else None
        for fname, (prepare, call) in formulations(op, p).items():
            state = prepare(x)
            outputs[fname] = bytes_of(call(state))
            results[fname] = time_call(call, state, runs, min_run)
        after = movconf_seconds(args, wid) if args.bracket else None
        if len(set(outputs.values())) != 1:
            raise SystemExit(f"torch_bench: {wid}: the formulations disagree")
        out_bytes = len(next(iter(outputs.values())))
        total = x.numel() * x.element_size() + out_bytes
        best = min(results, key=results.get)
        gbps = total / results[best] / 1e9
        row = {"id": wid, "input_shape": shape, "bytes": total, "best": best,
               "seconds": results[best], "gb_per_s": gbps,
               "formulations": {k: v for k, v in sorted(results.items())}}
        ratio = ""
        if args.bracket:
            row["movconf_seconds"] = (before + after) / 2
            row["movconf_speedup"] = results[best] / row["movconf_seconds"]
            ratio = f" movconf {row['movconf_speedup']:.2f}x as fast"
        print(f"{wid:<26} {str(shape).replace(' ', ''):<18} {best:<34} "
              f"{results[best] * 1e3:8.3f}ms {gbps:7.2f}{ratio}", flush=True)
        rows.append(row)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"torch_version": torch.__version__, "threads": torch.get_num_threads(),
                       "quick": args.quick, "workloads": rows}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
