#!/bin/sh
# movconf run --impl exec:... against tests/mock_adapter.py, once per fault:
# each fault must be classified (crash, timeout, wrong output, ...) with a
# detail that says what happened, and the run must finish: all seven cases
# of tests/data/adapter/mock_cases.json are reported and the cases after
# the fault still pass.
# usage: adapter_faults.sh MOVCONF SOURCE_DIR WORK_DIR PYTHON
set -u
. "$(dirname "$0")/adapter_checks.sh"
adapter_test_args "$@"

# run_fault FAULT AT [OPTIONS...]: the mock cases with one fault at request
# AT; leaves "id verdict detail" lines in $work/FAULT.txt and the exit status
# in $status.
run_fault() {
  fault=$1 at=$2
  shift 2
  rm -f "$work/$fault.state" "$work/$fault.state.fault" "$work/$fault.xml"
  MOCK_FAULT=$fault MOCK_AT=$at MOCK_STATE="$work/$fault.state" \
    run_adapter "$fault" mock_adapter.py --timeout 2 --junit "$work/$fault.xml" "$@"
}

# A fault at request 2 (case 2) or 3 (case 3): that case gets the verdict,
# the run exits 1, reports all 7 cases, and the cases after it still pass.
fault_is() { # fault_is FAULT AT CASE VERDICT DETAIL-REGEX [OPTIONS...]
  fault=$1 at=$2 case=$3 verdict=$4 detail=$5
  shift 5
  run_fault "$fault" "$at" "$@"
  expect "$fault: $case is $verdict /$detail/ (see $work/$fault.txt)" \
    case_is "$fault" "$case" "$verdict" "$detail"
  expect "$fault: exit status 1, not $status" test "$status" -eq 1
  expect "$fault: all 7 cases reported" test "$(wc -l <"$work/$fault.txt")" -eq 7
  expect "$fault: case 4 still passes" case_is "$fault" 4-i16 pass
  expect "$fault: case 7 still passes" case_is "$fault" 7-u4 pass
  expect "$fault: no adapter process is left" no_adapter_left mock_adapter.py
  expect "$fault: the JSON and JUnit reports parse" reports_parse "$fault"
}
# The reports parse, whatever the adapter wrote (JSON valid UTF-8, JUnit
# well-formed XML 1.0).
reports_parse() { # reports_parse FAULT
  "$python" -c 'import json, sys, xml.etree.ElementTree as ET
json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))
ET.parse(sys.argv[2])' "$work/$1.json" "$work/$1.xml"
}

# Without a fault: five passes, two unsupported cases (one left out by the
# handshake, one declined by a reply), and unsupported is no failure.
run_fault none 0
for c in 1-u8 2-f32 3-mode-missing 4-i16 7-u4; do
  expect "none: $c passes" case_is none "$c" pass
done
expect "none: f64 unsupported by the handshake" case_is none 5-f64 unsupported "does not list f64"
expect "none: block_size 2 unsupported by the reply" case_is none 6-block-2 unsupported \
  "only does block_size 1"
expect "none: exit status 0, not $status" test "$status" -eq 0

# The adapter dies, hangs or breaks the protocol: crash or timeout.
fault_is garbage 2 2-f32 crash "protocol violation: not JSON"
fault_is exit 2 2-f32 crash "exited with status 3"
fault_is signal 2 2-f32 crash "killed by SIGSEGV .signal 11"
# --sanitize address: a sanitizer report the adapter writes during a case is
# that case's memory-error (the mock writes what ASan and UBSan would).
fault_is asan-report 2 2-f32 memory-error \
  "AddressSanitizer: heap-buffer-overflow, READ of size 1; in copy_rows < space_to_depth < main" \
  --sanitize address
fault_is ubsan-report 2 2-f32 memory-error \
  "UndefinedBehaviorSanitizer: runtime error: left shift of negative value" --sanitize address
fault_is close-stdout 2 2-f32 crash "closed its output"
fault_is hang 2 2-f32 timeout "no complete reply within 2 s"
fault_is partial 2 2-f32 timeout "10 bytes of a line came"
fault_is wrong-id 2 2-f32 crash "reply for id 3, expected id 2"
fault_is base64-length 2 2-f32 crash "output.base64 .*16 bytes take exactly 24"
fault_is extra-key 2 2-f32 crash "unknown key \"comment\""
fault_is huge-line 2 2-f32 crash "reply line longer than 65624 bytes" --max-output-bytes 64
# A second reply is the fault of the request it answers, not of the one
# waiting: case 2 is blamed, case 3 runs again in a fresh adapter and passes.
fault_is two-replies 2 2-f32 crash "a second reply to request 2, which had its reply already"
expect "two-replies: case 3 runs again and passes" case_is two-replies 3-mode-missing pass
# ... also after the last request, when nothing more is read: found at the end.
run_fault two-replies 6
expect "two-replies at the last request: case 7 is blamed" \
  case_is two-replies 7-u4 crash "a line nobody asked for after the reply to request 6"
expect "two-replies at the last request: exit status 1, not $status" test "$status" -eq 1

# The adapter answers, wrongly: the verdicts of any implementation.
fault_is wrong-value 2 2-f32 wrong-output "first differing element \[0,0,0,0\]"
fault_is wrong-shape 2 2-f32 wrong-shape "expected \[1,2,1,2\], got \[1,2,2,1\]"
fault_is missed-rejection 3 3-mode-missing missed-rejection "expected error mode_missing"
fault_is wrong-rejection 2 2-f32 wrong-rejection "rejected on purpose"
fault_is wrong-error-name 3 3-mode-missing wrong-error "mode_invalid"
# An error name movconf does not have (a typo) is said to be one, exactly.
fault_is unknown-error-name 3 3-mode-missing wrong-error "unknown error name"
expect "unknown-error-name: the detail says the name is unknown" grep -Fxq \
  "s2d/mock/3-mode-missing wrong-error unknown error name 'mode_mising' (not one of movconf's error names); expected mode_missing; its message: misspelt on purpose" \
  "$work/unknown-error-name.txt"
fault_is unknown-error-name 2 2-f32 wrong-rejection "unknown error name"
expect "unknown-error-name on a valid input: said too" grep -Fxq \
  "s2d/mock/2-f32 wrong-rejection valid input rejected with unknown error name 'mode_mising' (not one of movconf's error names): misspelt on purpose" \
  "$work/unknown-error-name.txt"
# An empty "error" is a rejection like any other (spec section 7).
fault_is empty-error 2 2-f32 wrong-rejection "no message"
expect "empty-error: the detail says there was no message" grep -Fxq \
  "s2d/mock/2-f32 wrong-rejection valid input rejected: (no message)" "$work/empty-error.txt"
run_fault empty-error 3
expect "empty-error on an invalid case: passes (unnamed)" case_is empty-error 3-mode-missing pass
run_fault unsupported 2
expect "unsupported: case 2 declined" case_is unsupported 2-f32 unsupported "declined on purpose"

# The JSON report's "rejection" says whether a rejection named the error:
# an unnamed one passes an invalid case whatever its reason.
rejection_is() { # rejection_is FAULT CASE VALUE ("none": no such key)
  "$python" -c 'import json, sys
cases = {c["id"]: c for c in json.load(open(sys.argv[1]))["cases"]}
sys.exit(cases["s2d/mock/" + sys.argv[2]].get("rejection", "none") != sys.argv[3])' \
    "$work/$1.json" "$2" "$3"
}
run_fault none 0
expect "none: the named rejection is named" rejection_is none 3-mode-missing named
expect "none: an output is no rejection" rejection_is none 1-u8 none
run_fault unnamed-rejection 3
expect "unnamed-rejection: the invalid case passes" case_is unnamed-rejection 3-mode-missing pass
expect "unnamed-rejection: as an unnamed rejection" \
  rejection_is unnamed-rejection 3-mode-missing unnamed
run_fault wrong-rejection 2
expect "wrong-rejection: unnamed" rejection_is wrong-rejection 2-f32 unnamed

# An output above --max-output-bytes should have been output_too_large.
run_fault none 0 --max-output-bytes 8
expect "output above the cap is a violation" \
  case_is none 2-f32 crash "output of 16 bytes, above the output cap of 8 bytes"

# Logging to stderr is allowed.
run_fault stderr-noise 0
expect "stderr-noise: exit status 0, not $status" test "$status" -eq 0

# The adapter cannot be restarted: every later case is still reported, and
# after three failed starts movconf stops trying.
run_fault restart-fails 2
expect "restart-fails: case 2 crashed" case_is restart-fails 2-f32 crash "exited with status 3"
# (Case 2 crashed in an adapter that had served case 1, so it is run again
# alone: that start fails too, the first of three.)
for c in 3-mode-missing 4-i16; do
  expect "restart-fails: $c reports the failed restart" \
    case_is restart-fails "$c" crash "restarting the adapter failed: bad handshake"
done
for c in 6-block-2 7-u4; do
  expect "restart-fails: then movconf gives up ($c)" \
    case_is restart-fails "$c" crash "failed to restart 3 times in a row"
done
expect "restart-fails: exit status 1, not $status" test "$status" -eq 1

# A handshake that is wrong or missing stops the run before any case: exit 2.
for fault in bad-handshake no-handshake slow-handshake; do
  run_fault $fault 0 --handshake-timeout 2
  expect "$fault: exit status 2, not $status" test "$status" -eq 2
done
expect "bad-handshake: says why" grep -q 'bad handshake: "protocol" must be "movconf-adapter/1"' \
  "$work/bad-handshake.out"
expect "no-handshake: says how it ended" grep -q 'exited with status 5' "$work/no-handshake.out"
expect "slow-handshake: says it timed out" \
  grep -q 'no handshake line within 2 s (see --handshake-timeout)' "$work/slow-handshake.out"

# The handshake has its own allowance (--handshake-timeout, default 60 s,
# never less than --timeout): an adapter that takes 4 s to start (import
# torch under load) is not cut off by --timeout 2.
run_fault late-handshake 0
expect "late-handshake: exit status 0 with --timeout 2, not $status (see $work/late-handshake.out)" \
  test "$status" -eq 0
expect "late-handshake: all 7 cases reported" test "$(wc -l <"$work/late-handshake.txt")" -eq 7
run_fault late-handshake 0 --timeout 30 --handshake-timeout 1
expect "late-handshake: --timeout 30 is also the handshake's when it is longer, status $status" \
  test "$status" -eq 0

no_raw_controls() { # no_raw_controls FILE: no C0 control but newline and tab, no C1 control
  "$python" -c 'import re, sys
t = open(sys.argv[1], "rb").read().decode("utf-8", "strict")
sys.exit(1 if re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffe\uffff]", t) else 0)' "$1"
}

# Text with control characters, an escape sequence in the adapter's name, a
# key cut inside a UTF-8 character: shown escaped everywhere.
fault_is control-text 2 2-f32 wrong-rejection 'red \\x1b\[31m bell \\x07 nel \\u0085 nonchar \\ufffe back \\\\ end'
expect "control-text: reports parse" reports_parse control-text
expect "control-text: terminal output has no raw control" no_raw_controls "$work/control-text.out"
expect "control-text: JSON has no raw control" no_raw_controls "$work/control-text.json"
expect "control-text: the name is escaped" grep -q 'implementation: mock\\x1b\[2J\\u0085adapter' \
  "$work/control-text.out"
fault_is cut-utf8-key 2 2-f32 crash 'unknown key "k{59}\\xc3"'
expect "cut-utf8-key: reports parse" reports_parse cut-utf8-key
expect "cut-utf8-key: terminal output is UTF-8" no_raw_controls "$work/cut-utf8-key.out"

# An output no tensor can have (zero elements, other dimensions past int64):
# a missed rejection where an error is expected, a wrong shape elsewhere;
# the adapter is not restarted for it.
fault_is zero-overflow 3 3-mode-missing missed-rejection \
  "expected error mode_missing, but the input was accepted: the implementation announced an output of shape \[0,4611686018427387904,4\]"
fault_is zero-overflow 2 2-f32 wrong-shape "got \[0,4611686018427387904,4\], which no tensor can have"

# A case that corrupts the adapter (poison at request 2) and a later, valid
# case that crashes for it (4-i16): the later case passes alone, the crash is
# a process fault of the window 1-3, and case 2 is found to be the culprit.
fault_is poison 2 2-f32 crash "broke the implementation.s process: s2d/mock/4-i16 crashed after it"
expect "poison: the innocent case passes" case_is poison 4-i16 pass
expect "poison: case 3 passes" case_is poison 3-mode-missing pass
process_fault_is() { # process_fault_is FAULT OBSERVED CULPRIT DETAIL-REGEX
  "$python" -c 'import json, re, sys
faults = json.load(open(sys.argv[1]))["process_faults"]
f = faults[0] if len(faults) == 1 else {}
sys.exit(not (f.get("observed_in") == sys.argv[2] and f.get("culprit") == sys.argv[3]
              and re.search(sys.argv[4], f.get("detail", ""))))' "$work/$1.json" "$2" "$3" "$4"
}
expect "poison: one process fault, observed in 4-i16, culprit 2-f32, window named" \
  process_fault_is poison s2d/mock/4-i16 s2d/mock/2-f32 \
  "crashed during s2d/mock/4-i16 .*killed by SIGSEGV.* since the last fresh start \(s2d/mock/1-u8, s2d/mock/2-f32, s2d/mock/3-mode-missing\)"
expect "poison: reports parse" reports_parse poison
# With a fresh process per case the corruption cannot spread: all pass.
run_fault poison 2 --fresh-process-per-case
for c in 1-u8 2-f32 3-mode-missing 4-i16 7-u4; do
  expect "poison --fresh-process-per-case: $c passes" case_is poison "$c" pass
done
expect "poison --fresh-process-per-case: exit status 0, not $status" test "$status" -eq 0

# No process the adapter starts outlives movconf, even one in a session of
# its own (setsid), after a normal end and after restarts.
orphan_tag=$((7000000 + $$ % 100000))
survivors() { ps -eo args | grep -c "^sleep $orphan_tag\$"; }
MOCK_ORPHAN=$orphan_tag run_fault exit 2
expect "orphans: the run completes (7 cases)" test "$(wc -l <"$work/exit.txt")" -eq 7
expect "orphans: no 'sleep $orphan_tag' survives ($(survivors))" test "$(survivors)" -eq 0

# Memory: a reply of a 64 MiB output (89 MB of base64) or a 64 MiB error
# costs about one line, not line + copy + output. Peak RSS from getrusage.
peak_kb() { # peak_kb FAULT: movconf's peak RSS (KiB) on the mock cases
  MOCK_FAULT=$1 MOCK_AT=2 MOCK_BIG=$((64 << 20)) "$python" -c 'import os, resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
    "$movconf" run --timeout 30 --impl "exec:exec '$python' '$src/tests/mock_adapter.py'" "$cases"
}
if [ -n "${MOVCONF_SANITIZE:-}" ]; then
  echo "skipped: peak memory in a sanitizer build ($MOVCONF_SANITIZE)"
else
  base_kb=$(peak_kb none) out_kb=$(peak_kb big-output) err_kb=$(peak_kb big-error)
  line_kb=$((((64 << 20) / 3 * 4) / 1024))
  echo "peak RSS: no fault $base_kb KiB, 64 MiB output $out_kb KiB, 64 MiB error $err_kb KiB (line $line_kb KiB)"
  expect "big-output: peak within one line (+25%) of the baseline" \
    test "$out_kb" -le $((base_kb + line_kb * 5 / 4))
  expect "big-error: peak within one line (+25%) of the baseline" \
    test "$err_kb" -le $((base_kb + line_kb * 5 / 4))
fi

# A large output (3 MB, decoded in place in the reply's own buffer) is
# judged on its bytes like any other: passes, or names the first wrong one.
mkdir -p "$work/large"
cat >"$work/large/cases.json" <<'JSON'
{"format": "movconf-cases/1", "op": "SpaceToDepth-1",
 "description": "a 3 MB identity for tests/adapter_faults.sh",
 "cases": [{"id": "s2d/mock/large", "origin": "by hand: block_size 1 is the identity",
   "clauses": ["S2D-O1"],
   "inputs": {"data": {"type": "u8", "shape": [1, 1, 1, 3000001], "fill": {"counter": 7}}},
   "attributes": {"block_size": 1, "mode": "blocks_first"},
   "expect": {"output": {"type": "u8", "shape": [1, 1, 1, 3000001], "fill": {"counter": 7}}}}]}
JSON
large() { # large FAULT: the large case; its "id verdict detail" line in $work/large.txt
  MOCK_FAULT=$1 MOCK_AT=1 "$movconf" run --json "$work/large.json" \
    --impl "exec:exec '$python' '$src/tests/mock_adapter.py'" "$work/large" >/dev/null 2>&1
  verdict_lines large
}
large none
expect "a 3 MB output passes" grep -q '^s2d/mock/large pass' "$work/large.txt"
large wrong-value
expect "a 3 MB output with one wrong bit: the first element named" grep -q \
  '^s2d/mock/large wrong-output first differing element \[0,0,0,0\] (flat 0): expected bits 0x7, got 0x6' \
  "$work/large.txt"

echo "$passes passed, $failures failed"
test "$failures" -eq 0
