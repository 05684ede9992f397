#!/bin/sh
# Friendly edges of the command line: every natural spelling of an operation,
# "did you mean" for a mistyped option or operation, and gen finding its
# default folders from any working directory, as run does.
# usage: cli_options.sh MOVCONF SOURCE_DIR WORKDIR
set -u
movconf=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
failures=0
fail() {
  echo "FAILED: $*"
  failures=$((failures + 1))
}

cd "$src" || exit 1
file=conformance/space_to_depth_1/spec_examples.json
for spelling in SpaceToDepth-1 SpaceToDepth spacetodepth space_to_depth space_to_depth_1 S2D s2d; do
  "$movconf" run --quiet --op "$spelling" "$file" >"$work/op.txt" 2>&1 ||
    fail "--op $spelling: exit status $?"
  grep -q "^SpaceToDepth-1 " "$work/op.txt" || fail "--op $spelling did not select SpaceToDepth-1"
done

"$movconf" run --opp s2d >"$work/option.txt" 2>&1
[ $? -eq 2 ] || fail "a mistyped option did not exit 2"
grep -q "did you mean --op?" "$work/option.txt" || fail "no suggestion for --opp"
"$movconf" run --impl >"$work/missing.txt" 2>&1
grep -q "did you mean" "$work/missing.txt" && fail "a missing value got a suggestion"
"$movconf" run --op SpaceToDept >"$work/op-typo.txt" 2>&1
[ $? -eq 2 ] || fail "a mistyped operation did not exit 2"
grep -q "did you mean SpaceToDepth-1?" "$work/op-typo.txt" || fail "no suggestion for SpaceToDept"
"$movconf" run --op nonsense-op >"$work/op-far.txt" 2>&1
grep -q "did you mean" "$work/op-far.txt" && fail "a far-off operation got a suggestion"

# gen --check from another folder compares with the source tree's files.
(cd "$work" && "$movconf" gen --check --op s2d >gen.txt 2>&1) || fail "gen --check from elsewhere failed"
[ ! -e "$work/conformance" ] || fail "gen --check from elsewhere wrote ./conformance"

[ "$failures" -eq 0 ] && echo "cli_options: all checks passed" && exit 0
exit 1
