#!/bin/sh
# What `movconf run` reports about each case, checked against the case
# files themselves (read here with Python, not through movconf):
# failure lines and the JSON report carry the inputs' types and shapes and
# the attributes; durations are measured, a slow case is marked slow (and
# is not a timeout); JUnit has time= and file=; rejections without an
# error name are counted apart and fail under --require-named-errors; the
# failure list is grouped, index-filled and small cases first.
# usage: run_reports.sh MOVCONF PLUGIN_MOCK PLUGIN_PLANTED SOURCE_DIR WORK_DIR PYTHON
set -u
movconf=$1 mock=$2 planted=$3 src=$4 work=$5 python=$6
mkdir -p "$work"
. "$(dirname "$0")/expect.sh"
faults=$src/tests/data/plugin_faults

# ---- inputs and attributes on failure lines and in JSON ----
MOVCONF_MOCK_FAULT=wrong-value@8 "$movconf" run --impl "plugin:$mock" --json "$work/wv.json" \
  "$faults" >"$work/wv.txt" 2>"$work/wv.err"
# The case's inputs and attributes as the case file gives them.
"$python" - "$faults/cases.json" >"$work/wv.want" <<'PY'
import json, sys
case = [c for c in json.load(open(sys.argv[1]))["cases"] if c["id"] == "s2d/fault/08-wrong-value"][0]
data = case["inputs"]["data"]
attrs = case["attributes"]
shown = ", ".join('%s %s' % (k, json.dumps(v) if isinstance(v, str) else v)
                  for k, v in (("block_size", attrs.get("block_size")), ("mode", attrs.get("mode"))))
print("data %s [%s]" % (data["type"], ",".join(map(str, data["shape"]))))
print(shown)
PY
inputs=$(sed -n 1p "$work/wv.want") attributes=$(sed -n 2p "$work/wv.want")
expect "failure line: inputs and attributes below the detail" \
  grep -A2 '^wrong-output: s2d/fault/08-wrong-value ' "$work/wv.txt" | grep -qF "  inputs $inputs; $attributes"
expect "json: inputs and attributes of the failing case" "$python" -c '
import json, sys
c = [c for c in json.load(open(sys.argv[1]))["cases"] if c["id"] == "s2d/fault/08-wrong-value"][0]
assert (c["inputs"], c["attributes"]) == (sys.argv[2], sys.argv[3]), c' "$work/wv.json" "$inputs" "$attributes"

# ---- durations, slow cases, JUnit time= and file= ----
MOVCONF_MOCK_FAULT=slow@3 "$movconf" run --impl "plugin:$mock" --slow 1 --timeout 5 \
  --json "$work/slow.json" --junit "$work/slow.xml" "$faults" >"$work/slow.txt" 2>&1
status=$?
expect "slow: a slow but right case passes (exit $status)" test "$status" -eq 0
expect "slow: named with its time on the slow line" \
  grep -Eq '^slow: 1 case took 1\.0 s or more \(--timeout 5 s\): s2d/fault/03-null 1\.[5-9][0-9] s$' "$work/slow.txt"
expect "slow: json seconds and slow flags" "$python" -c '
import json, sys
r = json.load(open(sys.argv[1]))
cases = {c["id"]: c for c in r["cases"]}
slow = cases.pop("s2d/fault/03-null")
assert slow["slow"] is True and slow["seconds"] >= 1.5, slow
assert all(c["slow"] is False and 0 <= c["seconds"] < 1 for c in cases.values())
assert r["summary"]["slow"] == 1 and r["summary"]["seconds"] >= 1.5, r["summary"]' "$work/slow.json"
junit_totals "$work/slow.xml" 22 0 0 0
expect "junit: the slow case's time and file" "$python" -c '
import sys, xml.etree.ElementTree as ET
c = [c for c in ET.parse(sys.argv[1]).iter("testcase") if c.get("name") == "s2d/fault/03-null"][0]
assert float(c.get("time")) >= 1.5 and c.get("file").endswith("plugin_faults/cases.json"), c.attrib' \
  "$work/slow.xml"
MOVCONF_MOCK_FAULT=slow@3 "$movconf" run --impl "plugin:$mock" --slow 0 "$faults" >"$work/slow0.txt" 2>&1
lacks "$work/slow0.txt" "^slow:"
"$movconf" run --slow soon "$faults" >/dev/null 2>"$work/slow-bad.txt"
expect "--slow soon: exit 2" test $? -eq 2
has "$work/slow-bad.txt" "takes seconds"

# ---- rejections without an error name ----
adapter="exec:exec '$python' '$src/tests/mock_adapter.py'"
MOCK_FAULT=unnamed-rejection MOCK_AT=3 "$movconf" run --impl "$adapter" --json "$work/un.json" \
  "$src/tests/data/adapter" >"$work/un.txt" 2>&1
expect "unnamed: the run passes (exit $?)" test $? -eq 0
expect "unnamed: a pass-unnamed column counting the one case" \
  grep -Eq '^SpaceToDepth-1 +7 +5 +1 +2$' "$work/un.txt"
has "$work/un.txt" "^operation .* pass pass-unnamed"
has "$work/un.txt" "^5 passed (1 only rejected, without naming the error: the reason was not checked)"
expect "unnamed: json count" "$python" -c '
import json, sys
assert json.load(open(sys.argv[1]))["summary"]["unnamed_rejection_passes"] == 1' "$work/un.json"
MOCK_FAULT=unnamed-rejection MOCK_AT=3 "$movconf" run --impl "$adapter" --require-named-errors \
  "$src/tests/data/adapter" >"$work/named.txt" 2>&1
expect "--require-named-errors: the run fails (exit $?)" test $? -eq 1
expect "--require-named-errors: the unnamed rejection is a wrong-error" \
  grep -A1 '^wrong-error: s2d/mock/3-mode-missing ' "$work/named.txt" |
  grep -q 'rejected without naming an error (--require-named-errors); expected mode_missing'
has "$work/named.txt" "^4 passed, 1 failed, 2 unsupported"
MOCK_FAULT=none "$movconf" run --impl "$adapter" --require-named-errors \
  "$src/tests/data/adapter" >"$work/named-ok.txt" 2>&1
expect "--require-named-errors: named rejections still pass (exit $?)" test $? -eq 0

# ---- the failure list: grouped, index-filled and small first ----
# A DepthToSpace fault in every type: hundreds of wrong outputs of every
# fill and size. The order of the listed cases must follow, within each
# group, index-filled before not, then fewer data elements before more -
# both worked out here from the case files.
MOVCONF_PLANTED=d2s-swap "$movconf" run --impl "plugin:$planted" --op d2s \
  --json "$work/order.json" "$src/conformance" >"$work/order.txt" 2>&1
expect "order: groups and their cases follow the diagnostic order" "$python" - \
  "$work/order.txt" "$work/order.json" <<'PY'
import json, math, re, sys
bits = {"boolean": 8, "u1": 1, "u4": 4, "i4": 4, "u8": 8, "i8": 8, "f8e4m3": 8, "f8e5m2": 8,
        "u16": 16, "i16": 16, "f16": 16, "bf16": 16, "u32": 32, "i32": 32, "f32": 32,
        "u64": 64, "i64": 64, "f64": 64}
report = json.load(open(sys.argv[2]))
key = {}
for path in {c["file"] for c in report["cases"]}:
    for c in json.load(open(path))["cases"]:
        d = c["inputs"]["data"]
        n = math.prod(int(x) for x in d["shape"])  # big dimensions are strings
        fill = d.get("fill", {})
        indexed = "iota" in fill or ("counter" in fill and (bits[d["type"]] >= 63 or n <= 2 ** bits[d["type"]]))
        key[c["id"]] = (not indexed, n)
groups, current = [], None
for line in open(sys.argv[1]):
    m = re.match(r"== (.*) \((\d+) cases?\) ==$", line)
    if m:
        current = [m.group(1), int(m.group(2)), []]
        groups.append(current)
        continue
    m = re.match(r"wrong-output: (\S+) \(", line)
    if m:
        current[2].append(m.group(1))
failing = [c["id"] for c in report["cases"] if c["verdict"] == "wrong-output"]
assert len(failing) > 100, len(failing)
assert [g[0] for g in groups] == ["DepthToSpace-1: wrong-output"], [g[0] for g in groups]
name, size, ids = groups[0]
assert size == len(ids) == len(failing) and sorted(ids) == sorted(failing), (size, len(ids))
keys = [key[i] for i in ids]
assert keys == sorted(keys), "out of order"
assert keys[0][0] is False and keys[-1][0] is True  # both kinds occur, index-filled first
PY
expect_report
