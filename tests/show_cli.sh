#!/bin/sh
# movconf show: a case shown to a person, and side by side with a faulty
# implementation (tests/plugin_planted.c): the differing elements, marked,
# with the data elements they came from.
# usage: show_cli.sh MOVCONF PLANTED_PLUGIN SOURCE_DIR WORKDIR
set -u
. "$(dirname "$0")/expect.sh"
movconf=$1 plugin=$2 src=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
cd "$src" || exit 1

# A specification example: origin, clauses with their text, attributes, inputs, expectation.
expect "show of a spec case exits 0" sh -c '"$1" show d2s/spec/5x28x2x3 >"$2" 2>&1' show \
  "$movconf" "$work/spec.txt"
has "$work/spec.txt" "^operation   DepthToSpace-1"
has "$work/spec.txt" "^origin "
has "$work/spec.txt" "D2S-S1: reshape"
has "$work/spec.txt" "^attributes block_size"
has "$work/spec.txt" "^input data "
has "$work/spec.txt" "^expected output "

# A digest-only expectation is shown through the oracle's output, which has that digest.
expect "show of a digest case exits 0" sh -c '"$1" show s2d/gen/block-is-axis/0021-f16 >"$2" 2>&1' \
  show "$movconf" "$work/digest.txt"
has "$work/digest.txt" "the oracle's output, which has it"
has "$work/digest.txt" "nan(0x"

# Side by side with the planted DepthToSpace fault: exit 1, marked differences, provenance.
MOVCONF_PLANTED=d2s-swap "$movconf" show d2s/spec/5x28x2x3 --impl "plugin:$plugin" \
  >"$work/impl.txt" 2>&1
status=$?
expect "show --impl on a failing case exits 1, not $status" test "$status" -eq 1
has "$work/impl.txt" "^verdict         wrong-output"
has "$work/impl.txt" "^differing elements: 2 of "
has "$work/impl.txt" "^  ! \[0,0,0,0\]"
has "$work/impl.txt" "got came from data"
expect "show --impl optimized on a passing case exits 0" \
  sh -c '"$1" show d2s/spec/5x28x2x3 --impl optimized >"$2" 2>&1' show "$movconf" "$work/pass.txt"
has "$work/pass.txt" "^verdict         pass"

# An unknown id: exit 1 and a message.
"$movconf" show no/such/case >"$work/none.txt" 2>&1
status=$?
expect "an unknown id exits 1, not $status" test "$status" -eq 1
has "$work/none.txt" "no case has the id 'no/such/case'"
expect_report
