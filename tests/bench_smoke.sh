#!/bin/sh
# movconf bench --quick on 2 threads: it must exit 0 (every workload ran and
# matched the oracle bit for bit), and its JSON must hold every workload the
# issue names, with the shapes worked out by hand below and positive figures
# that agree with their definitions. Timings themselves are never asserted.
# With --impl plugin:, movconf's own plugin must match the oracle and get
# figures of its own under each row.
# usage: bench_smoke.sh MOVCONF PYTHON JSON_FILE
set -u
movconf=$1 python=$2 json=$3
rm -f "$json"
"$movconf" bench --quick --threads 2 --json "$json" >"$json.txt"
status=$?
cat "$json.txt"
if [ "$status" -ne 0 ]; then
  echo "FAILED: movconf bench exited with $status"
  exit 1
fi
"$movconf" bench --quick --filter 'no/such/workload' >/dev/null 2>&1
if [ $? -ne 2 ]; then
  echo "FAILED: a filter that matches nothing must exit 2"
  exit 1
fi
"$movconf" bench --threads 0 >/dev/null 2>&1
if [ $? -ne 2 ]; then
  echo "FAILED: --threads 0 must exit 2"
  exit 1
fi
"$movconf" bench --quick --impl plugin:/no/such/plugin.so >/dev/null 2>&1
if [ $? -ne 2 ]; then
  echo "FAILED: an --impl that cannot be opened must exit 2"
  exit 1
fi

# --impl plugin: movconf's own kernels as a plugin (examples/plugin_movconf),
# built next to movconf: checked against the oracle, then timed.
plugin=$(dirname "$movconf")/examples/plugin_movconf.so
impl_json="$json.impl.json"
rm -f "$impl_json"
"$movconf" bench --quick --threads 2 --filter 's2d/*' --impl "plugin:$plugin" \
  --json "$impl_json" >"$impl_json.txt"
status=$?
cat "$impl_json.txt"
if [ "$status" -ne 0 ]; then
  echo "FAILED: movconf bench --impl plugin:$plugin exited with $status"
  exit 1
fi

# --impl exec: the numpy adapter (examples/numpy_adapter.py, Debian's numpy)
# answers the timing request through the shared Python module.
adapter_json="$json.adapter.json"
rm -f "$adapter_json"
adapter="exec:exec /usr/bin/python3 $(dirname "$0")/../examples/numpy_adapter.py"
"$movconf" bench --quick --threads 2 --filter 'eip/*' --impl "$adapter" \
  --json "$adapter_json" >"$adapter_json.txt"
status=$?
cat "$adapter_json.txt"
if [ "$status" -ne 0 ]; then
  echo "FAILED: movconf bench --impl $adapter exited with $status"
  exit 1
fi

"$python" - "$json" "$impl_json" "$adapter_json" <<'EOF'
import json, sys

# id: (input shape, output shape, element bytes), the output shapes from the
# operations' shape formulas with the --quick input shapes.
expected = {
    "s2d/blocks_first/f32": ([2, 16, 64, 64], [2, 64, 32, 32], 4),
    "s2d/depth_first/f32": ([2, 16, 64, 64], [2, 64, 32, 32], 4),
    "d2s/blocks_first/f32": ([2, 64, 32, 32], [2, 16, 64, 64], 4),
    "d2s/depth_first/f32": ([2, 64, 32, 32], [2, 16, 64, 64], 4),
    "b2s/crops0/f32": ([16, 16, 32, 32], [1, 16, 128, 128], 4),
    "b2s/crops1/f32": ([16, 16, 32, 32], [1, 16, 126, 126], 4),
    "s2b/pads0/f32": ([1, 16, 128, 128], [16, 16, 32, 32], 4),
    "s2b/pads1_3/f32": ([1, 16, 124, 124], [16, 16, 32, 32], 4),
    "eip/3x3_valid/f32": ([2, 16, 32, 32], [2, 144, 30, 30], 4),
    "eip/3x3_same_upper/f32": ([2, 16, 32, 32], [2, 144, 32, 32], 4),
    "s2d/blocks_first/u8": ([2, 16, 64, 64], [2, 64, 32, 32], 1),
    "s2d/blocks_first/f16": ([2, 16, 64, 64], [2, 64, 32, 32], 2),
    "b2s/crops0/u8": ([16, 16, 32, 32], [1, 16, 128, 128], 1),
    "b2s/crops0/f16": ([16, 16, 32, 32], [1, 16, 128, 128], 2),
    "s2d/small/f32": ([1, 8, 8, 8], [1, 32, 4, 4], 4),
    "sc/g4_rows/f32": ([2, 48, 32, 32], [2, 48, 32, 32], 4),
    "sc/g4_last/f32": ([2, 32, 32, 48], [2, 32, 32, 48], 4),
    "sc/g4_last/u8": ([2, 32, 32, 48], [2, 32, 32, 48], 1),
    # Slice: 72 - 8 - 8 = 56; a reversed axis keeps its length; 128 / 2 = 64.
    "sl/crop/f32": ([1, 16, 72, 72], [1, 16, 56, 56], 4),
    "sl/reverse_last/f32": ([1, 16, 64, 64], [1, 16, 64, 64], 4),
    "sl/reverse_last/u8": ([1, 16, 64, 64], [1, 16, 64, 64], 1),
    "sl/step2_last/f32": ([1, 16, 64, 128], [1, 16, 64, 64], 4),
    # StridedSlice: Slice's four, the same output shapes.
    "ss/crop/f32": ([1, 16, 72, 72], [1, 16, 56, 56], 4),
    "ss/reverse_last/f32": ([1, 16, 64, 64], [1, 16, 64, 64], 4),
    "ss/step2_last/f32": ([1, 16, 64, 128], [1, 16, 64, 64], 4),
    "ss/reverse_last/u8": ([1, 16, 64, 64], [1, 16, 64, 64], 1),
    # Transpose: output dimension k is input dimension order[k].
    "tr/nchw_nhwc/f32": ([1, 16, 64, 64], [1, 64, 64, 16], 4),
    "tr/nhwc_nchw/f32": ([1, 64, 64, 16], [1, 16, 64, 64], 4),
    "tr/swap_last/f32": ([1, 16, 64, 64], [1, 16, 64, 64], 4),
    "tr/swap_last/u8": ([1, 16, 64, 64], [1, 16, 64, 64], 1),
    "tr/swap_last/f16": ([1, 16, 64, 64], [1, 16, 64, 64], 2),
    "tr/rows/f32": ([1, 16, 64, 64], [16, 1, 64, 64], 4),
    # Pad: 62 + 1 + 1 = 64 on the two inner axes.
    "pad/constant/f32": ([1, 16, 62, 62], [1, 16, 64, 64], 4),
    "pad/constant/u8": ([1, 16, 62, 62], [1, 16, 64, 64], 1),
    "pad/constant/f16": ([1, 16, 62, 62], [1, 16, 64, 64], 2),
    "pad/edge/f32": ([1, 16, 62, 62], [1, 16, 64, 64], 4),
    "pad/reflect/f32": ([1, 16, 62, 62], [1, 16, 64, 64], 4),
    # Gather: four indices on axis 0, 2 or 3 of 4 x 16 x 64 x 64.
    "ga/axis0/f32": ([4, 16, 64, 64], [4, 16, 64, 64], 4),
    "ga/axis2/f32": ([4, 16, 64, 64], [4, 16, 4, 64], 4),
    "ga/axis3/f32": ([4, 16, 64, 64], [4, 16, 64, 4], 4),
    "ga/axis2/u8": ([4, 16, 64, 64], [4, 16, 4, 64], 1),
    "ga/axis3/f16": ([4, 16, 64, 64], [4, 16, 64, 4], 2),
}
positive = ["seconds", "microseconds_per_call", "gb_per_s", "memcpy_seconds",
            "memcpy_gb_per_s", "memcpy_ratio", "ceiling_seconds", "ceiling_gb_per_s",
            "ceiling_ratio", "oracle_seconds", "oracle_ratio"]
failures = []

def check(ok, what):
    if not ok:
        failures.append(what)

def count(shape):
    n = 1
    for d in shape:
        n *= d
    return n

def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b))

with open(sys.argv[1]) as f:
    doc = json.load(f)
check(doc.get("threads") == 2 and doc.get("quick") is True, "threads 2, quick")
check(doc.get("runs", 0) >= 5, "at least 5 timed runs")
rows = {r.get("id"): r for r in doc.get("workloads", [])}
check(sorted(rows) == sorted(expected), "workload ids: %s" % sorted(rows))
for wid, (in_shape, out_shape, size) in expected.items():
    r = rows.get(wid)
    if r is None:
        continue
    check(r.get("status") == "ok", wid + ": status ok")
    check(r.get("threads") == 2, wid + ": threads 2")
    check(r.get("input_shape") == in_shape, wid + ": input shape")
    check(r.get("output_shape") == out_shape, wid + ": output shape")
    check(r.get("input_bytes") == count(in_shape) * size, wid + ": input bytes")
    check(r.get("output_bytes") == count(out_shape) * size, wid + ": output bytes")
    check(r.get("bytes") == r.get("input_bytes", 0) + r.get("output_bytes", 0), wid + ": bytes")
    check(r.get("memcpy_bytes") == r.get("bytes", 0) // 2, wid + ": memcpy bytes")
    check(r.get("runs", 0) >= 5 and r.get("calls_per_run", 0) >= 1, wid + ": runs")
    check(r.get("oracle_runs", 0) >= 1, wid + ": oracle ran")
    for key in positive:
        v = r.get(key)
        check(isinstance(v, (int, float)) and v > 0, "%s: %s positive (%r)" % (wid, key, v))
    if failures:
        continue
    check(close(r["gb_per_s"], r["bytes"] / r["seconds"] / 1e9), wid + ": GB/s = bytes/seconds")
    check(close(r["memcpy_gb_per_s"], 2 * r["memcpy_bytes"] / r["memcpy_seconds"] / 1e9),
          wid + ": memcpy GB/s")
    check(close(r["memcpy_ratio"], r["gb_per_s"] / r["memcpy_gb_per_s"]), wid + ": memcpy ratio")
    check(close(r["ceiling_gb_per_s"], 2 * r["memcpy_bytes"] / r["ceiling_seconds"] / 1e9),
          wid + ": ceiling GB/s (the same traffic as the memcpy)")
    check(close(r["ceiling_ratio"], r["gb_per_s"] / r["ceiling_gb_per_s"]), wid + ": ceiling ratio")
    check(close(r["oracle_ratio"], r["oracle_seconds"] / r["seconds"]), wid + ": oracle ratio")
    check(close(r["microseconds_per_call"], r["seconds"] * 1e6), wid + ": microseconds")
# --impl: every s2d row carries the plugin's figures, consistent with the row's.
with open(sys.argv[2]) as f:
    impl_doc = json.load(f)
check(impl_doc.get("impl", "").startswith("movconf-optimized"), "impl name in the JSON")
impl_rows = impl_doc.get("workloads", [])
check(sorted(r.get("id") for r in impl_rows) == sorted(i for i in expected if i.startswith("s2d/")),
      "--filter s2d/* with --impl: the s2d workloads")
for r in impl_rows:
    i = r.get("impl", {})
    wid = r.get("id", "?") + " impl"
    check(i.get("status") == "ok", wid + ": status ok (%r)" % i.get("detail"))
    for key in ("seconds", "gb_per_s", "ceiling_ratio", "movconf_speedup"):
        v = i.get(key)
        check(isinstance(v, (int, float)) and v > 0, "%s: %s positive (%r)" % (wid, key, v))
    if i.get("status") == "ok" and r.get("seconds"):
        check(close(i["gb_per_s"], r["bytes"] / i["seconds"] / 1e9), wid + ": GB/s")
        check(close(i["movconf_speedup"], i["seconds"] / r["seconds"]), wid + ": speedup")
        check(close(i["ceiling_ratio"], i["gb_per_s"] / r["ceiling_gb_per_s"]), wid + ": ceiling")
# --impl exec: the adapter's own timing of every eip workload.
with open(sys.argv[3]) as f:
    adapter_doc = json.load(f)
check(adapter_doc.get("impl", "").startswith("numpy-adapter"), "adapter name in the JSON")
adapter_rows = adapter_doc.get("workloads", [])
check(len(adapter_rows) == 2, "--filter eip/* with --impl exec: two workloads")
for r in adapter_rows:
    i = r.get("impl", {})
    wid = r.get("id", "?") + " adapter"
    check(i.get("status") == "ok" and i.get("timed_by") == "itself",
          wid + ": ok, timed by itself (%r)" % i)
    check(i.get("runs") == doc.get("runs") and i.get("calls_per_run", 0) >= 1, wid + ": runs")
    check(isinstance(i.get("seconds"), (int, float)) and i["seconds"] > 0, wid + ": seconds")
for f in failures:
    print("FAILED: " + f)
print("%d workloads checked, %d failures" % (len(rows), len(failures)))
sys.exit(1 if failures else 0)
EOF
