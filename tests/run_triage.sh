#!/bin/sh
# Triage options of movconf run against the mock plugin (tests/plugin_mock.c,
# whose faults the data's batch selects) on tests/data/plugin_faults: live
# FAIL lines on standard error, the stop limits (--max-failures,
# --max-timeouts, --time-limit) and their exit status, --summary-by, and
# bad values of these options.
# usage: run_triage.sh MOVCONF PLUGIN_MOCK SOURCE_DIR WORK_DIR
set -u
movconf=$1 mock=$2 src=$3 work=$4
faults="$src/tests/data/plugin_faults/cases.json"
mkdir -p "$work"
. "$(dirname "$0")/expect.sh"
MOVCONF_MOCK_UNSUPPORTED=f16
export MOVCONF_MOCK_UNSUPPORTED
run() { "$movconf" run --impl "plugin:$mock" --memory-limit 512 "$@"; }
now() { python3 -c 'import time; print(time.monotonic())'; }
# elapsed START: seconds since START (a now), to two decimals.
elapsed() { python3 -c 'import sys, time; print("%.2f" % (time.monotonic() - float(sys.argv[1])))' "$1"; }
# less A B, at_least A B: comparisons of decimal numbers.
less() { python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)' "$1" "$2"; }
at_least() { ! less "$1" "$2"; }
count() { grep -c -- "$2" "$1"; }

# ---- (a) failures announced on standard error as they are judged ----

MOVCONF_MOCK_FAULT="crash@2,wrong-value@8,wrong-shape@9,bad-text@11" \
  run --timeout 5 "$faults" >"$work/live.out" 2>"$work/live.err"
expect "live: exit 1" test $? -eq 1
expect "live: one FAIL line per failing case (4)" test "$(count "$work/live.err" '^FAIL ')" -eq 4
expect "live: the crash, with its detail" \
  grep -q '^FAIL crash: s2d/fault/02-crash  the plugin process was killed by SIGSEGV' "$work/live.err"
expect "live: the wrong shape" \
  grep -q '^FAIL wrong-shape: s2d/fault/09-wrong-shape  wrong shape: expected \[9,2,1,1\], got \[9,2,1,1,1\]$' \
  "$work/live.err"
expect "live: a long detail is cut after 120 characters" \
  grep -Eq '^FAIL wrong-output: s2d/fault/08-wrong-value  first differing element .{80,}\.\.\.$' "$work/live.err"
expect "live: a FAIL line is at most one line of ~170 characters" \
  awk 'length($0) > 200 { bad = 1 } END { exit bad }' "$work/live.err"
expect "live: the plugin's text is escaped (no ESC byte, \\x1b shown)" sh -c \
  "grep -q '^FAIL wrong-rejection: s2d/fault/11-wrong-rejection  .*\\\\x1b\\[0m' '$work/live.err' &&
   ! grep -q \"\$(printf '\\033')\" '$work/live.err'"
expect "live: passing cases are not announced" sh -c "! grep -q 's2d/fault/01-none' '$work/live.err'"
expect "live: no FAIL line on standard output" sh -c "! grep -q '^FAIL' '$work/live.out'"
expect "live: the grouped list is still on standard output" \
  grep -q '^crash: s2d/fault/02-crash' "$work/live.out"
MOVCONF_MOCK_FAULT="crash@2,wrong-value@8" run --quiet --timeout 5 "$faults" \
  >"$work/quiet.out" 2>"$work/quiet.err"
expect "--quiet: exit 1" test $? -eq 1
expect "--quiet: no FAIL line" sh -c "! grep -q 'FAIL' '$work/quiet.err' '$work/quiet.out'"
expect "--quiet: the table is there" grep -Eq '^total +22 ' "$work/quiet.out"
# An expected failure does not fail the run: not announced.
printf '[{"case": "s2d/fault/02-crash", "verdict": "crash", "reason": "known"}]' >"$work/x.json"
MOVCONF_MOCK_FAULT="crash@2,wrong-value@8" run --expect "$work/x.json" --timeout 5 "$faults" \
  >/dev/null 2>"$work/xfail.err"
expect "--expect: only the unexpected failure is announced" sh -c \
  "test \"\$(grep -c '^FAIL' '$work/xfail.err')\" -eq 1 && grep -q '^FAIL wrong-output: s2d/fault/08' '$work/xfail.err'"

# ---- (b) --max-failures ----

all_faults="crash@2,null@3,abort@4,exit@5,wrong-value@8,wrong-shape@9"
MOVCONF_MOCK_FAULT=$all_faults run --timeout 5 --max-failures 2 "$faults" \
  >"$work/maxf.out" 2>"$work/maxf.err"
expect "--max-failures 2: exit 1" test $? -eq 1
expect "--max-failures 2: exactly 2 FAIL lines" test "$(count "$work/maxf.err" '^FAIL ')" -eq 2
expect "--max-failures 2: cases 01-03 ran (1 pass, 2 crashes)" \
  grep -Eq '^total +3 +1 +2$' "$work/maxf.out"
expect "--max-failures 2: the stopped-early line, after the table, with the cases not run" \
  sh -c "tail -n 1 '$work/maxf.out' | grep -qx 'stopped early: 2 failures reached --max-failures 2; 19 selected cases did not run'"
MOVCONF_MOCK_FAULT=$all_faults run --timeout 5 --max-failures 2 --json "$work/maxf.json" "$faults" \
  >/dev/null 2>&1
expect "--max-failures 2: json summary says why it stopped" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
assert s["stopped_early"] == "stopped early: 2 failures reached --max-failures 2; 19 selected cases did not run", s' \
  "$work/maxf.json"
MOVCONF_MOCK_FAULT=$all_faults run --timeout 5 --max-failures 7 "$faults" >"$work/maxf6.out" 2>&1
expect "--max-failures 7 with 6 failures: runs to the end, no stopped-early line" sh -c \
  "grep -Eq '^total +22 ' '$work/maxf6.out' && ! grep -q 'stopped early' '$work/maxf6.out'"
MOVCONF_MOCK_FAULT=$all_faults run --timeout 5 --fail-fast "$faults" >"$work/ff.out" 2>&1
expect "--fail-fast still stops at the first failure, and says so" sh -c \
  "grep -Eq '^total +2 +1 +1$' '$work/ff.out' && grep -q '^stopped early: a case failed the run (--fail-fast); 20 selected cases did not run' '$work/ff.out'"

# ---- (c) --max-timeouts: a hanging plugin costs N timeouts, not every case ----

start=$(now)
MOVCONF_MOCK_FAULT="hang@6,hang@7" run --timeout 6 --max-timeouts 1 "$faults" >"$work/maxt.out" 2>&1
status=$? took=$(elapsed "$start")
expect "--max-timeouts 1: exit 1" test "$status" -eq 1
expect "--max-timeouts 1: one timeout, case 07 not run (took ${took} s)" sh -c \
  "grep -Eq '^total +6 +5 +1$' '$work/maxt.out' && ! grep -q '07-oom' '$work/maxt.out'"
expect "--max-timeouts 1: says why" grep -q \
  '^stopped early: 1 timeout reached --max-timeouts 1; 16 selected cases did not run' "$work/maxt.out"
expect "--max-timeouts 1: under 2 timeouts (${took} s < 11 s)" less "$took" 11
start=$(now)
MOVCONF_MOCK_FAULT="hang@6,hang@7" run --timeout 2 "$faults" >"$work/nomaxt.out" 2>&1
took=$(elapsed "$start")
expect "without --max-timeouts both hangs time out" grep -Eq '^total +22 .* 2$' "$work/nomaxt.out"
expect "and cost two timeouts (${took} s >= 4 s)" at_least "$took" 4
# A stop is a failed run even when every failure was expected.
printf '[{"case": "s2d/fault/06-hang", "verdict": "timeout", "reason": "known"}]' >"$work/xt.json"
MOVCONF_MOCK_FAULT="hang@6" run --timeout 1 --max-timeouts 1 --expect "$work/xt.json" "$faults" \
  >"$work/xt.out" 2>&1
expect "stopped early with only expected failures: still exit 1" test $? -eq 1
expect "(and nothing else failed)" grep -q ', 0 failed, 1 xfail, 0 xpass, 0 unsupported' "$work/xt.out"

# ---- (d) --time-limit: checked between cases, a case under way bounded by --timeout ----

start=$(now)
MOVCONF_MOCK_FAULT="hang@6" run --timeout 4 --time-limit 1 "$faults" >"$work/tl.out" 2>&1
status=$? took=$(elapsed "$start")
expect "--time-limit 1: exit 1" test "$status" -eq 1
expect "--time-limit 1: stops after the hang, 16 cases not run" grep -q \
  '^stopped early: --time-limit 1 s passed; 16 selected cases did not run' "$work/tl.out"
expect "--time-limit 1: the hang ran its --timeout 4 (${took} s >= 4)" at_least "$took" 4
expect "--time-limit 1: then stopped (${took} s < 11)" less "$took" 11
"$movconf" run --time-limit 60 "$src/tests/data/digest" >"$work/tl60.out" 2>&1
status=$?
expect "--time-limit not reached: exit 0, no stopped-early line" sh -c \
  "test $status -eq 0 && ! grep -q 'stopped early' '$work/tl60.out'"

# ---- (e) --summary-by: rows computed from the case files ----

# A second file: the identity cases at ranks 3 and 5 (batch 8: wrong-value).
mkdir -p "$work/ranks"
python3 - "$faults" "$work/ranks/cases.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
base = doc["cases"][0]
cases = []
for name, shape in (("3-ok", [1, 2, 1]), ("3-bad", [8, 2, 1]), ("5-ok", [19, 2, 1, 1, 1]), ("5-bad", [8, 2, 1, 1, 1])):
    c = json.loads(json.dumps(base))
    c["id"] = "s2d/rank/" + name
    c["inputs"]["data"]["shape"] = shape
    c["expect"]["output"]["shape"] = shape
    cases.append(c)
doc["cases"] = cases
json.dump(doc, open(sys.argv[2], "w"), indent=1)
EOF
expect "the rank cases are correct (oracle passes them)" \
  "$movconf" run --impl oracle "$work/ranks/cases.json" >/dev/null 2>&1
by_faults="crash@2,wrong-value@8,wrong-shape@9,wrong-error@12"
printf '[{"case": "s2d/fault/02-crash", "verdict": "crash", "reason": "known"}]' >"$work/by.json"
MOVCONF_MOCK_FAULT=$by_faults run --timeout 5 --expect "$work/by.json" --summary-by mode \
  --summary-by file --summary-by rank --summary-by type "$faults" "$work/ranks/cases.json" \
  >"$work/by.out" 2>"$work/by.err"
expect "--summary-by: exit 1" test $? -eq 1
# The expected rows: a case fails when the fault map names its batch, is
# unsupported when its data is f16, and is an expected failure when by.json
# names it; sorted by failed (descending), then value (ranks as numbers);
# each case in one column (cases = pass + failed + xfail + unsupported).
summary_rows() {
  python3 - "$1" "$by_faults" "$faults" "$work/ranks/cases.json" <<'EOF'
import json, sys
key, fault_map, files = sys.argv[1], sys.argv[2], sys.argv[3:]
failing = {int(f.split("@")[1]) for f in fault_map.split(",")}
rows = {}
for path in files:
    for c in json.load(open(path))["cases"]:
        data = c["inputs"]["data"]
        value = {"rank": len(data["shape"]), "type": data["type"],
                 "mode": c["attributes"].get("mode", "-"), "file": path}[key]
        r = rows.setdefault(value, [0, 0, 0, 0, 0])
        r[0] += 1
        if data["type"] == "f16":
            r[4] += 1
            continue
        if data["shape"][0] not in failing:
            r[1] += 1
        elif c["id"] == "s2d/fault/02-crash":
            r[3] += 1
        else:
            r[2] += 1
for value, r in sorted(rows.items(), key=lambda kv: (-kv[1][2], kv[0])):
    print(value, *r)
EOF
}
# The rows movconf printed under "by KEY", as "value cases pass failed xfail
# unsupported".
printed_rows() {
  awk -v h="by $1" '$1 " " $2 == h { on = 1; next } on && NF == 0 { on = 0 } on { print }' \
    "$work/by.out" | tr -s ' ' | sed 's/ $//'
}
for key in rank type mode file; do
  summary_rows "$key" >"$work/by-$key.want"
  printed_rows "$key" >"$work/by-$key.got"
  expect "--summary-by $key: the rows and their order ($(tr '\n' ';' <"$work/by-$key.want"))" \
    cmp -s "$work/by-$key.want" "$work/by-$key.got"
done
# The same figures, worked out by hand from the case files, for one key:
# blocks_first 19 + 4 cases (f16 unsupported; 08, 09 and the two batch-8
# rank cases fail; 02 is expected), sideways 10, 12, 20 (12 fails).
expect "--summary-by mode: blocks_first 23 cases, 17 pass, 4 failed, 1 xfail, 1 unsupported" \
  grep -Eq '^blocks_first +23 +17 +4 +1 +1$' "$work/by.out"
expect "--summary-by mode: sideways 3 cases, 2 pass, 1 failed" grep -Eq '^sideways +3 +2 +1 +0 +0$' "$work/by.out"
expect "--summary-by rank: rank 3 before rank 5 (1 failed each), rank 4 first (3 failed)" sh -c \
  "printed_rank=\$(awk '/^by rank/ { on = 1; next } on && NF == 0 { exit } on { printf \"%s,\", \$1 }' '$work/by.out'); test \"\$printed_rank\" = '4,3,5,'"
expect "--summary-by: the tables follow the main table" sh -c \
  "awk '/^total / { t = NR } /^by rank/ { b = NR } END { exit !(t && b > t) }' '$work/by.out'"

# ---- (f) bad values: usage errors (exit 2), said in the usual form ----

bad() { # bad OPTION VALUE MESSAGE
  "$movconf" run "$1" "$2" "$faults" >/dev/null 2>"$work/bad.err"
  test $? -eq 2 && grep -q "^movconf run: $1 $3, not '$2'" "$work/bad.err"
}
expect "--max-failures 0 exits 2" bad --max-failures 0 'takes a number from 1 up'
expect "--max-failures x exits 2" bad --max-failures x 'takes a number from 1 up'
expect "--max-failures -1 exits 2" bad --max-failures -1 'takes a number from 1 up'
expect "--max-failures 2x exits 2" bad --max-failures 2x 'takes a number from 1 up'
expect "--max-failures 99999999999 exits 2" bad --max-failures 99999999999 'takes a number from 1 up'
expect "--max-timeouts '' exits 2" bad --max-timeouts '' 'takes a number from 1 up'
expect "--time-limit -1 exits 2" bad --time-limit -1 'takes seconds from 0 (no limit) to 604800'
expect "--time-limit soon exits 2" bad --time-limit soon 'takes seconds from 0 (no limit) to 604800'
expect "--summary-by color exits 2" bad --summary-by color 'takes rank, type, mode, file or size'
"$movconf" run --help >"$work/help.txt"
for option in --max-failures --max-timeouts --time-limit --summary-by; do
  expect "--help mentions $option" grep -q -- "$option" "$work/help.txt"
done

expect_report
