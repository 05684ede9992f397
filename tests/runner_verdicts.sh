#!/bin/sh
# The runner judged against cases with known wrong expectations
# (tests/data/runner/verdicts.json): every verdict must be reported, in the
# table, in JSON and in JUnit XML, and the exit status must be 1.
# usage: runner_verdicts.sh MOVCONF SOURCE_DIR WORK_DIR
set -u
movconf=$1 src=$2 work=$3
mkdir -p "$work"
. "$(dirname "$0")/expect.sh"

"$movconf" run --json "$work/v.json" --junit "$work/v.xml" "$src/tests/data/runner" >"$work/v.txt"
status=$?
expect "exit status 1" test "$status" -eq 1
# columns: cases, pass, wrong-output, wrong-shape, wrong-error, missed-rejection, wrong-rejection
expect "table row" grep -Eq '^SpaceToDepth-1 +7 +1 +2 +1 +1 +1 +1$' "$work/v.txt"
expect "first differing element" grep -q 'first differing element \[0,1,0,0\] (flat 1): expected bits 0x8, got 0x9$' "$work/v.txt"
expect "index provenance of a counter fill" grep -q 'first differing element \[0,2,0,0\] (flat 2): expected bits 0xfd, got 0xfc; the data input is index-filled: got came from data\[0,2,0,0\] (flat 2), expected came from data\[0,3,0,0\] (flat 3)' "$work/v.txt"
expect "wrong shape" grep -q 'wrong shape: expected \[1,1,2,1\], got \[1,2,1,1\]' "$work/v.txt"
expect "wrong error name" sh -c "grep -A1 '^wrong-error: s2d/runner/wrong-error ' '$work/v.txt' | grep -q 'expected error mode_missing, got mode_invalid \\[S2D-V3\\]'"
expect "json verdicts" grep -q '"missed-rejection":	1' "$work/v.json"
expect "json wrong-rejection" grep -q '"verdict":	"wrong-rejection"' "$work/v.json"
junit_totals "$work/v.xml" 7 6 0 0
expect "junit failure type" grep -q '<failure type="missed-rejection"' "$work/v.xml"
expect "junit wrong-error" grep -q '<failure type="wrong-error"' "$work/v.xml"
expect "json wrong-output" grep -q '"wrong-output":	2' "$work/v.json"

"$movconf" run --case 's2d/runner/pass' "$src/tests/data/runner" >"$work/p.txt"
expect "a passing selection exits 0" test $? -eq 0
"$movconf" run --case 'no/such/*' "$src/tests/data/runner" >"$work/n.txt" 2>&1
expect "an empty selection exits 1" test $? -eq 1
"$movconf" run --impl nonsense >/dev/null 2>&1
expect "an unknown implementation exits 2" test $? -eq 2
"$movconf" run --impl ./mykernels.so >/dev/null 2>"$work/so.txt"
expect "a library without plugin: exits 2" test $? -eq 2
expect "and the message says how to give it" grep -q '; a shared library is given as plugin:./mykernels.so$' "$work/so.txt"
"$movconf" run "$work/does-not-exist" >/dev/null 2>&1
expect "a missing path exits 2" test $? -eq 2

expect_report
