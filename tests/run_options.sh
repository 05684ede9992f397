#!/bin/sh
# movconf run (and, for MOVCONF_THREADS, every command that runs kernels)
# refuses what it cannot honour before running any case (exit
# 2): a MOVCONF_THREADS the kernels would silently ignore, an output cap
# beyond int64 (adapters read it as one), report paths that cannot be
# written, a 65th --case; and "-" puts a report on standard output, the
# table on stderr. --case given again adds a pattern.
# usage: run_options.sh MOVCONF SOURCE_DIR WORK_DIR
set -u
movconf=$1 src=$2 work=$3
. "$(dirname "$0")/expect.sh"
rm -rf "$work"
mkdir -p "$work"
cases=$src/tests/data/adapter/mock_cases.json
run() { "$movconf" run --impl optimized "$@" "$cases"; }

for value in abc 0 1025 -1 "2x" ""; do
  MOVCONF_THREADS=$value run >"$work/threads.txt" 2>&1
  code=$?
  if [ -z "$value" ]; then
    expect "MOVCONF_THREADS empty: as if unset (not exit 2)" \
      test "$code" -ne 2
  else
    expect "MOVCONF_THREADS=$value: exit 2, not $code" test "$code" -eq 2
    expect "MOVCONF_THREADS=$value: says why" grep -q "MOVCONF_THREADS takes a number from 1 to 1024, not '$value'" "$work/threads.txt"
  fi
done
MOVCONF_THREADS=2 run >"$work/threads-ok.txt" 2>&1
expect "MOVCONF_THREADS=2: the run goes on (7 cases)" grep -Eq '^total +7 ' "$work/threads-ok.txt"
MOVCONF_THREADS=abc run --threads 2 >/dev/null 2>&1
expect "--threads overrides a bad MOVCONF_THREADS: not exit 2" test $? -ne 2
# Every command that runs the kernels holds MOVCONF_THREADS to the same rule.
for command in "bench --quick --filter nothing-matches" "fuzz --runs 1" \
    "show s2d/mock/1-u8 --impl optimized $cases"; do
  # shellcheck disable=SC2086 # the command's words
  MOVCONF_THREADS=abc "$movconf" $command >/dev/null 2>"$work/threads-cmd.txt"
  code=$?
  expect "MOVCONF_THREADS=abc movconf ${command%% *}: exit 2, not $code" test "$code" -eq 2
  expect "MOVCONF_THREADS=abc movconf ${command%% *}: says why" \
    grep -q "^movconf ${command%% *}: MOVCONF_THREADS takes a number from 1 to 1024, not 'abc'" \
    "$work/threads-cmd.txt"
done

for value in 18446744073709551616 18446744073709551615 9223372036854775808 99999999999999999999999 -1 1e9; do
  run --max-output-bytes "$value" >"$work/cap.txt" 2>&1
  expect "--max-output-bytes $value: exit 2, not $?" test $? -eq 2
  expect "--max-output-bytes $value: says the range" grep -q 'takes a byte count from 0 to 9223372036854775807' "$work/cap.txt"
done
run --max-output-bytes 9223372036854775807 >"$work/cap-max.txt" 2>&1
expect "--max-output-bytes 2^63-1 is accepted" grep -Eq '^total +7 ' "$work/cap-max.txt"

# Report paths are opened before the run: a bad one is exit 2 at once.
for option in --json --junit; do
  run $option "$work/no-such-dir/report" >"$work/path.txt" 2>&1
  expect "$option into a missing directory: exit 2, not $?" test $? -eq 2
  expect "$option into a missing directory: says so, before any case" sh -c \
    "grep -q 'cannot write' '$work/path.txt' && ! grep -q '^total' '$work/path.txt'"
  run $option "$work" >/dev/null 2>&1
  expect "$option naming a directory: exit 2" test $? -eq 2
done
run --json - >"$work/stdout.json" 2>"$work/stderr.txt"
expect "--json -: standard output is the JSON report" python3 -c 'import json, sys
assert json.load(open(sys.argv[1]))["summary"]["cases"] == 7' "$work/stdout.json"
expect "--json -: the table went to standard error" grep -Eq '^total +7 ' "$work/stderr.txt"
run --junit - >"$work/stdout.xml" 2>/dev/null
expect "--junit -: standard output is the JUnit report" python3 -c 'import sys, xml.etree.ElementTree as ET
assert ET.parse(sys.argv[1]).getroot().get("tests") == "7"' "$work/stdout.xml"
run --json - --junit - >/dev/null 2>"$work/both.txt"
expect "--json - --junit -: exit 2" test $? -eq 2

# --case given again adds a pattern: before, only the last one was kept.
run --case 's2d/mock/1-*' --case 's2d/mock/2-*' >"$work/cases.txt" 2>&1
expect "--case twice: cases that match either (2)" grep -Eq '^total +2 ' "$work/cases.txt"
i=0 many=""
while [ $i -le 64 ]; do many="$many --case x$i" && i=$((i + 1)); done
# shellcheck disable=SC2086 # one word per option
run $many >"$work/cases-many.txt" 2>&1
expect "--case 65 times: exit 2, not $?" test $? -eq 2
expect "--case 65 times: says why" grep -q "more than 64 times" "$work/cases-many.txt"

# --case makes the fills of the cases it selects, not of every case in their
# files: before, run --tier all --case X made every large fill of the large
# tier (14 s). Under a 200 MB address-space limit the unselected 256 MiB
# fill would not fit (before: "out of memory for its fills", exit 1).
# Skipped where the limit cannot be set or movconf cannot start under it
# (a sanitizer reserves terabytes).
big=$src/tests/data/selection/select_before_fills.json
if (ulimit -v 200000 && "$movconf" --version) >/dev/null 2>&1; then
  (ulimit -v 200000 && "$movconf" run --case sl/sel/small "$big") >"$work/select.txt" 2>&1
  expect "--case: the unselected case's fill is never made (exit 0, not $?)" test $? -eq 0
  expect "--case: the selected case passes" grep -q "^1 passed, 0 failed" "$work/select.txt"
fi

expect_report
