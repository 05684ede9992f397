#!/bin/sh
# The default run reaches size-dependent paths (generators/README.md,
# "Tiers"): the plugin tests/plugin_planted.c with a fault that only outputs
# above a threshold reach - split4:T (rows split over 4 threads as rows/4
# each, the leftover rows never written) and tail:T (the tail after the last
# whole 32-byte vector never written) - must fail the default run
# (`movconf run`, no path: conformance/) of every operation, at the
# thresholds 4,096, 65,536 and 1,000,000 output elements, with wrong-output
# verdicts only. Above every default case's output (5,000,000; the largest is
# ShuffleChannels' specification example, 4,800,000) the same
# plugin, both faults at once, passes it, so what fails is the fault, not
# the plugin.
# From 2^20 up, the same faults limited to one element size (split4:T:B,
# tail:T:B: B bits) in 1-, 2- and 4-byte types fail the default run of every
# operation (the thresholds-2e20 groups).
# A fault is caught when the operation's thresholds groups (part of the
# default run; `--case OP/gen/thresholds*`) fail on it: then the default run
# fails too. The run above every case's output is the whole default run,
# which shows that nothing else in the plugin fails.
# usage: planted_sizes.sh MOVCONF PLUGIN SOURCE_DIR WORK_DIR
set -u
movconf=$1 plugin=$2 src=$3 work=$4
mkdir -p "$work" || { echo "FAILED: cannot create $work"; exit 1; }
cd "$src" || { echo "FAILED: no $src"; exit 1; }
missed=""
ops=$("$movconf" help operations | awk -F '\t' '{ print tolower($3) }')
# Every operation's thresholds groups (the default run's OP/gen/thresholds*
# cases), loaded together: one run per fault judges every operation, each by
# its own case ids. (One run per operation and fault took 121 runs of about
# a second each, mostly starting movconf and the plugin.)
thresholds=$(ls conformance/*/generated/thresholds*.json)
# run_planted FAULT PATH...: a run of the cases in PATH with
# MOVCONF_PLANTED=FAULT; sets status and log
run_planted() {
  log="$work/$(echo "$1" | tr ':+' '--').log"
  run_fault=$1
  shift
  MOVCONF_PLANTED=$run_fault "$movconf" run --impl "plugin:$plugin" "$@" >"$log" 2>&1
  status=$?
}
# expect_caught FAULT: every operation's thresholds groups fail on FAULT, on
# wrong outputs only; one line per fault, each operation's count
expect_caught() {
  # shellcheck disable=SC2086 # the files' names have no spaces
  run_planted "$1" $thresholds
  line="$1:"
  for op in $ops; do
    failures=$(grep -Ec "^[a-z-]+: $op/" "$log")
    wrong=$(grep -Ec "^wrong-output: $op/" "$log")
    if [ "$status" -eq 1 ] && [ "$wrong" -ge 1 ] && [ "$wrong" -eq "$failures" ]; then
      line="$line $op=$wrong"
    else
      line="$line $op=MISSED"
      missed="$missed $op/$1(exit $status, $wrong of $failures failures wrong-output)"
    fi
  done
  echo "$line"
}
for fault in split4 tail; do
  for threshold in 4096 65536 1000000; do
    expect_caught "$fault:$threshold"
  done
done
for fault in split4:1048576:8 tail:1048576:8 split4:1048576:16 tail:1048576:32; do
  expect_caught "$fault"
done
# Both faults at once, above every case's output, in the whole default run:
# nothing fails.
run_planted "split4:5000000+tail:5000000"
[ "$status" -eq 0 ] ||
  missed="$missed split4+tail:5000000(exit $status: the default run fails without a case above it)"
[ -z "$missed" ] || { echo "FAILED: the default run missed:$missed"; exit 1; }
echo "every planted size fault fails the default run of every operation"
