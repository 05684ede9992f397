#!/bin/sh
# The large tier catches faults that only large inputs reach. The plugin
# tests/plugin_planted.c wraps movconf's own kernels with planted faults; two
# (BatchToSpace above 4,096 output elements, SpaceToDepth with channels a
# multiple of 16 above 2^16 output elements). Over the shipped suite -
# conformance/ and conformance-large/ - of the operation the run must fail
# (exit 1), every failure must be wrong-output on a size case (of the large
# tier, or of the default run's `thresholds` and `thresholds-2e20` groups), and at least MIN
# failures must be on large-tier cases.
# usage: planted_faults.sh MOVCONF PLUGIN SOURCE_DIR WORK_DIR OP MIN
set -u
movconf=$1 plugin=$2 src=$3 work=$4 op=$5 min=$6
fail() {
  echo "FAILED: $*"
  exit 1
}
mkdir -p "$work" || fail "cannot create $work"
log="$work/$op.log"
cd "$src" || fail "no $src"
case "$op" in
b2s) MOVCONF_PLANTED=b2s-tail-shift ;;
s2d) MOVCONF_PLANTED=s2d-tail ;;
*) fail "no planted fault for $op" ;;
esac
export MOVCONF_PLANTED
"$movconf" run --impl "plugin:$plugin" --op "$op" conformance conformance-large >"$log" 2>&1
status=$?
tail -n 12 "$log"
[ "$status" -eq 1 ] || fail "the run exited with $status, not 1: the planted $op fault went unnoticed"
# Failure lines look like "wrong-output: b2s/gen/large-sizes/0005-f16 (conformance-large/...)".
failures=$(grep -Ec '^[a-z-]+: [a-z0-9]+/' "$log")
sized=$(grep -Ec "^wrong-output: $op/gen/(large-[a-z0-9-]+|thresholds|thresholds-2e20)/[0-9]+-[a-z0-9]+ \\(conformance" "$log")
large=$(grep -Ec "^wrong-output: $op/gen/large-[a-z0-9-]+/[0-9]+-[a-z0-9]+ \\(conformance-large/" "$log")
[ "$failures" -eq "$sized" ] ||
  fail "$failures failing cases, but only $sized are wrong-output cases of the size groups"
[ "$large" -ge "$min" ] || fail "only $large large-tier cases failed, expected at least $min"
echo "the planted $op fault fails $sized cases, all size cases, $large of the large tier"
