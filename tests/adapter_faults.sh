#!/bin/sh
# movconf run --impl exec:... against tests/mock_adapter.py, once per fault:
# each fault must be classified (crash, timeout, wrong output, ...) with a
# detail that says what happened, and the run must finish: all seven cases
# of tests/data/adapter/mock_cases.json are reported and the cases after
# the fault still pass.
# usage: adapter_faults.sh MOVCONF SOURCE_DIR WORK_DIR PYTHON
set -u
movconf=$1 src=$2 work=$3 python=$4
cases=$src/tests/data/adapter
mkdir -p "$work"
failures=0 passes=0
expect() { # expect DESCRIPTION COMMAND...
  what=$1; shift
  if "$@"; then passes=$((passes + 1)); else echo "FAILED: $what"; failures=$((failures + 1)); fi
}

# run_fault FAULT AT [OPTIONS...]: the mock cases with one fault at request
# AT; leaves "id verdict detail" lines in $work/FAULT.txt and the exit status
# in $status.
run_fault() {
  fault=$1 at=$2
  shift 2
  rm -f "$work/$fault.state" "$work/$fault.json"
  MOCK_FAULT=$fault MOCK_AT=$at MOCK_STATE="$work/$fault.state" \
    "$movconf" run --timeout 2 --json "$work/$fault.json" "$@" \
    --impl "exec:exec '$python' '$src/tests/mock_adapter.py'" "$cases" >"$work/$fault.out" 2>&1
  status=$?
  : >"$work/$fault.txt"
  if [ -f "$work/$fault.json" ]; then
    "$python" -c 'import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    print(c["id"], c["verdict"], c.get("detail", ""))' "$work/$fault.json" >"$work/$fault.txt"
  fi
}

# case_is FAULT CASE VERDICT [DETAIL-REGEX]
case_is() {
  grep -Eq "^s2d/mock/$2 $3( |\$).*${4:-}" "$work/$1.txt"
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
fault_is close-stdout 2 2-f32 crash "closed its output"
fault_is hang 2 2-f32 timeout "no complete reply within 2 s"
fault_is partial 2 2-f32 timeout "10 bytes of a line came"
fault_is wrong-id 2 2-f32 crash "reply for id 3, expected id 2"
fault_is base64-length 2 2-f32 crash "output.base64 .*16 bytes take exactly 24"
fault_is extra-key 2 2-f32 crash "unknown key \"comment\""
fault_is huge-line 2 2-f32 crash "reply line longer than 65624 bytes" --max-output-bytes 64
fault_is two-replies 2 3-mode-missing crash "reply for id 2, expected id 3"
expect "two-replies: case 2 itself passes" case_is two-replies 2-f32 pass

# The adapter answers, wrongly: the verdicts of any implementation.
fault_is wrong-value 2 2-f32 wrong-output "first differing element \[0,0,0,0\]"
fault_is wrong-shape 2 2-f32 wrong-shape "expected \[1,2,1,2\], got \[1,2,2,1\]"
fault_is missed-rejection 3 3-mode-missing missed-rejection "expected error mode_missing"
fault_is wrong-rejection 2 2-f32 wrong-rejection "rejected on purpose"
fault_is wrong-error-name 3 3-mode-missing wrong-error "mode_invalid"
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
for c in 3-mode-missing 4-i16 6-block-2; do
  expect "restart-fails: $c reports the failed restart" \
    case_is restart-fails "$c" crash "restarting the adapter failed: bad handshake"
done
expect "restart-fails: then movconf gives up" \
  case_is restart-fails 7-u4 crash "failed to restart 3 times in a row"
expect "restart-fails: exit status 1, not $status" test "$status" -eq 1

# A handshake that is wrong or missing stops the run before any case: exit 2.
for fault in bad-handshake no-handshake slow-handshake; do
  run_fault $fault 0
  expect "$fault: exit status 2, not $status" test "$status" -eq 2
done
expect "bad-handshake: says why" grep -q 'bad handshake: "protocol" must be "movconf-adapter/1"' \
  "$work/bad-handshake.out"
expect "no-handshake: says how it ended" grep -q 'exited with status 5' "$work/no-handshake.out"
expect "slow-handshake: says it timed out" grep -q 'no handshake line within 2 s' \
  "$work/slow-handshake.out"

echo "$passes passed, $failures failed"
test "$failures" -eq 0
