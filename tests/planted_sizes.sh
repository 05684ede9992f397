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
# plugin passes it, so what fails is the fault, not the plugin.
# From 2^20 up, the same faults limited to one element size (split4:T:B,
# tail:T:B: B bits) in 1-, 2- and 4-byte types fail the default run of every
# operation, Slice too (the thresholds-2e20 groups).
# A fault is caught when the operation's thresholds groups (part of the
# default run; `--case OP/gen/thresholds*`) fail on it: then the default run
# fails too. The runs above every case's output take the operation's whole
# default run, which shows that nothing else in the plugin fails.
# usage: planted_sizes.sh MOVCONF PLUGIN SOURCE_DIR WORK_DIR
set -u
movconf=$1 plugin=$2 src=$3 work=$4
mkdir -p "$work" || { echo "FAILED: cannot create $work"; exit 1; }
cd "$src" || { echo "FAILED: no $src"; exit 1; }
missed=""
# run_default OP FAULT [SELECTION...]: the default run of OP (or SELECTION of
# it) with MOVCONF_PLANTED=FAULT; sets status and log
run_default() {
  log="$work/$1-$(echo "$2" | tr : -).log"
  run_op=$1 run_fault=$2
  shift 2
  MOVCONF_PLANTED=$run_fault "$movconf" run --impl "plugin:$plugin" --op "$run_op" "$@" \
    "$(folder_of "$run_op")" >"$log" 2>&1
  status=$?
}
# folder_of OP: the operation's case folder (conformance/SLUG), so that a run
# loads its own cases only: loading all of conformance/ took 1.3 of a
# selection's 1.8 s, 76 times over.
folder_of() {
  "$movconf" help operations | awk -F '\t' -v p="$1" 'tolower($3) == p { print "conformance/" $2 }'
}
# expect_caught OP FAULT: OP's thresholds groups fail, on wrong outputs only
expect_caught() {
  run_default "$1" "$2" --case "$1/gen/thresholds*"
  failures=$(grep -Ec '^[a-z-]+: [a-z0-9]+/' "$log")
  wrong=$(grep -Ec '^wrong-output: [a-z0-9]+/' "$log")
  if [ "$status" -eq 1 ] && [ "$wrong" -ge 1 ] && [ "$wrong" -eq "$failures" ]; then
    line="$line $2=caught($wrong)"
  else
    line="$line $2=MISSED"
    missed="$missed $1/$2(exit $status, $wrong of $failures failures wrong-output)"
  fi
}
for op in b2s s2b s2d d2s eip sc; do
  line="$op:"
  for fault in split4 tail; do
    for threshold in 4096 65536 1000000; do
      expect_caught "$op" "$fault:$threshold"
    done
    run_default "$op" "$fault:5000000"
    [ "$status" -eq 0 ] || missed="$missed $op/$fault:5000000(exit $status: fails without a case above it)"
  done
  echo "$line"
done
for op in b2s s2b s2d d2s eip sc sl; do
  line="$op 2^20:"
  for fault in split4:1048576:8 tail:1048576:8 split4:1048576:16 tail:1048576:32; do
    expect_caught "$op" "$fault"
  done
  echo "$line"
done
[ -z "$missed" ] || { echo "FAILED: the default run missed:$missed"; exit 1; }
echo "every planted size fault fails the default run of every operation"
