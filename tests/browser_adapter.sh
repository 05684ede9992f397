#!/bin/sh
# The browser adapter (examples/adapters/browser), one of its backends
# (webgl, the default; webgpu; ort-webgpu), against a page that crashes and
# one that hangs: five Slice-8 cases, the renderer crashed on the second
# (data shape [7]) and the page hung on the fourth (shape [9])
# (MOVCONF_BROWSER_FAULT). Case 2 must be a crash, case 4 a timeout, the
# others pass on a restarted browser, and no Chromium process of the run
# (its profile is under the test's own TMPDIR) may outlive movconf.
# Skipped (77) when Chromium or the adapter's packages are not installed.
# usage: browser_adapter.sh MOVCONF SOURCE_DIR WORK_DIR [BACKEND]
set -u
. "$(dirname "$0")/expect.sh"
movconf=$(absolute "$1") source=$(absolute "$2") work=$(absolute "$3") backend=${4:-webgl}
cd "$source" || exit 2
if ! node examples/adapters/browser/detect.js "$backend"; then
  echo "skipped: the browser adapter is not installed (tools/install-adapters.sh)"
  exit 77
fi
fresh_folder "$work"
mkdir -p "$work/tmp"
# Five whole-axis slices of f32 [n], n = 6 to 10 (expected by hand: the
# input itself; f32, the one type every backend's Slice has); the faults
# are keyed on the data's shape.
python3 - "$work/cases.json" <<'PY'
import json, sys
cases = [{"id": "sl/browser-faults/%d" % n, "origin": "by hand: a slice of the whole axis, step 1, returns its input",
          "clauses": ["SL-S1"],
          "inputs": {"data": {"type": "f32", "shape": [n], "values": list(range(n))},
                     "start": {"type": "i64", "shape": [1], "values": [0]},
                     "stop": {"type": "i64", "shape": [1], "values": [n]},
                     "step": {"type": "i64", "shape": [1], "values": [1]}},
          "expect": {"output": {"type": "f32", "shape": [n], "values": list(range(n))}}}
         for n in range(6, 11)]
json.dump({"format": "movconf-cases/1", "op": "Slice-8", "cases": cases}, open(sys.argv[1], "w"))
PY
# A browser start took over 60 s (the default handshake allowance) at a load
# average of 26: the allowance is 300 s, the hang still found by --timeout.
# ort-webgpu's start-up probe creates about 70 sessions in the page: 600 s.
handshake=300
[ "$backend" = ort-webgpu ] && handshake=600
TMPDIR=$work/tmp MOVCONF_BROWSER_FAULT=crash@7,hang@9 "$movconf" run --timeout 40 --handshake-timeout $handshake \
  --impl "exec:exec node examples/adapters/browser/adapter.js $backend" \
  --json "$work/report.json" "$work/cases.json" >"$work/run.txt" 2>"$work/run.err"
echo "movconf exited $?"
verdicts=$(python3 -c 'import json, sys
print(" ".join(c["verdict"] for c in json.load(open(sys.argv[1]))["cases"]))' "$work/report.json")
echo "verdicts: $verdicts"
expect "case 2 crashes, case 4 times out, the rest pass on a restarted browser" \
  test "$verdicts" = "pass crash pass timeout pass"
expect "the crash says the page failed" grep -q "the page failed" "$work/run.err"
sleep 1
survivors=$(ps -eo args | grep -c "[u]ser-data-dir=$work/tmp")
expect "no Chromium process of the run survives ($survivors)" test "$survivors" -eq 0
expect_report
