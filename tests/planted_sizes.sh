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
# usage: planted_sizes.sh MOVCONF PLUGIN SOURCE_DIR WORK_DIR
set -u
movconf=$1 plugin=$2 src=$3 work=$4
mkdir -p "$work" || { echo "FAILED: cannot create $work"; exit 1; }
cd "$src" || { echo "FAILED: no $src"; exit 1; }
missed=""
# run_default OP FAULT: the default run of OP with MOVCONF_PLANTED=FAULT; sets status and log
run_default() {
  log="$work/$1-$(echo "$2" | tr : -).log"
  MOVCONF_PLANTED=$2 "$movconf" run --impl "plugin:$plugin" --op "$1" >"$log" 2>&1
  status=$?
}
for op in b2s s2b s2d d2s eip sc; do
  line="$op:"
  for fault in split4 tail; do
    for threshold in 4096 65536 1000000; do
      run_default "$op" "$fault:$threshold"
      failures=$(grep -Ec '^[a-z-]+: [a-z0-9]+/' "$log")
      wrong=$(grep -Ec '^wrong-output: [a-z0-9]+/' "$log")
      if [ "$status" -eq 1 ] && [ "$wrong" -ge 1 ] && [ "$wrong" -eq "$failures" ]; then
        line="$line $fault:$threshold=caught($wrong)"
      else
        line="$line $fault:$threshold=MISSED"
        missed="$missed $op/$fault:$threshold(exit $status, $wrong of $failures failures wrong-output)"
      fi
    done
    run_default "$op" "$fault:5000000"
    [ "$status" -eq 0 ] || missed="$missed $op/$fault:5000000(exit $status: fails without a case above it)"
  done
  echo "$line"
done
[ -z "$missed" ] || { echo "FAILED: the default run missed:$missed"; exit 1; }
echo "every planted size fault fails the default run of every operation"
