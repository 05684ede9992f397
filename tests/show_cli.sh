#!/bin/sh
# movconf show: a case shown to a person, and side by side with a faulty
# implementation (tests/plugin_planted.c): the differing elements, marked,
# with the data elements they came from.
# usage: show_cli.sh MOVCONF PLANTED_PLUGIN SOURCE_DIR WORKDIR
set -u
movconf=$1 plugin=$2 src=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
failures=0
fail() {
  echo "FAILED: $*"
  failures=$((failures + 1))
}
has() { grep -q -- "$2" "$1" || fail "$1 lacks: $2"; }

cd "$src" || exit 1
# A specification example: origin, clauses with their text, attributes, inputs, expectation.
"$movconf" show d2s/spec/5x28x2x3 >"$work/spec.txt" 2>&1 || fail "show of a spec case failed"
has "$work/spec.txt" "^operation   DepthToSpace-1"
has "$work/spec.txt" "^origin "
has "$work/spec.txt" "D2S-S1: reshape"
has "$work/spec.txt" "^attributes block_size"
has "$work/spec.txt" "^input data "
has "$work/spec.txt" "^expected output "

# A digest-only expectation is shown through the oracle's output, which has that digest.
"$movconf" show s2d/gen/block-is-axis/0021-f16 >"$work/digest.txt" 2>&1 || fail "show of a digest case failed"
has "$work/digest.txt" "the oracle's output, which has it"
has "$work/digest.txt" "nan(0x"

# Side by side with the planted DepthToSpace fault: exit 1, marked differences, provenance.
MOVCONF_PLANTED=d2s-swap "$movconf" show d2s/spec/5x28x2x3 --impl "plugin:$plugin" \
  >"$work/impl.txt" 2>&1
[ $? -eq 1 ] || fail "show --impl on a failing case did not exit 1"
has "$work/impl.txt" "^verdict         wrong-output"
has "$work/impl.txt" "^differing elements: 2 of "
has "$work/impl.txt" "^  ! \[0,0,0,0\]"
has "$work/impl.txt" "got came from data"
"$movconf" show d2s/spec/5x28x2x3 --impl optimized >"$work/pass.txt" 2>&1 ||
  fail "show --impl optimized on a passing case did not exit 0"
has "$work/pass.txt" "^verdict         pass"

# An unknown id: exit 1 and a message.
"$movconf" show no/such/case >"$work/none.txt" 2>&1
[ $? -eq 1 ] || fail "an unknown id did not exit 1"
has "$work/none.txt" "no case has the id 'no/such/case'"

[ "$failures" -eq 0 ] && echo "show_cli: all checks passed" && exit 0
exit 1
