#!/bin/sh
# Friendly edges of the command line: every natural spelling of an operation,
# "did you mean" for a mistyped option or operation, and gen finding its
# default folders from any working directory, as run does.
# usage: cli_options.sh MOVCONF SOURCE_DIR WORKDIR [TIERS]
#   TIERS run (default) or skip: skip leaves out the large tier, whose loading
#   (4 runs over conformance-large/, gen --check's tier groups) takes minutes
#   under the sanitizers and checks option handling only (the uninstrumented
#   builds run it; conformance/large loads the tier under AddressSanitizer).
set -u
. "$(dirname "$0")/expect.sh"
movconf=$1 src=$2 work=$3 tiers=${4:-run}
rm -rf "$work"
mkdir -p "$work"
cd "$src" || exit 1

file=conformance/space_to_depth_1/spec_examples.json
for spelling in SpaceToDepth-1 SpaceToDepth spacetodepth space_to_depth space_to_depth_1 S2D s2d; do
  "$movconf" run --quiet --op "$spelling" "$file" >"$work/op-$spelling.txt" 2>&1
  has "$work/op-$spelling.txt" "^SpaceToDepth-1 "
done

"$movconf" run --opp s2d >"$work/option.txt" 2>&1
status=$?
expect "a mistyped option exits 2, not $status" test "$status" -eq 2
has "$work/option.txt" "did you mean --op?"
"$movconf" run --impl >"$work/missing.txt" 2>&1
lacks "$work/missing.txt" "did you mean"
"$movconf" run --op SpaceToDept >"$work/op-typo.txt" 2>&1
status=$?
expect "a mistyped operation exits 2, not $status" test "$status" -eq 2
has "$work/op-typo.txt" "did you mean SpaceToDepth-1?"
"$movconf" run --op nonsense-op >"$work/op-far.txt" 2>&1
lacks "$work/op-far.txt" "did you mean"

# The options that choose cases are one parser (src/cli/selection.c): every
# command that takes --op, --type or --tier says the same of a wrong value,
# with a near operation (before, export, gen and fuzz each had words of
# their own, and export no suggestion). Each exits 2 before reading a case.
export_args="--format npy --out $work/export-never"
for cmd in run "export $export_args" clauses "gen --check" "fuzz --runs 1"; do
  # shellcheck disable=SC2086 # the command's own arguments
  "$movconf" $cmd --op SpaceToDept >"$work/select-op.txt" 2>&1
  expect "$cmd --op SpaceToDept exits 2" test $? -eq 2
  has "$work/select-op.txt" "--op takes an operation (BatchToSpace-2, batch_to_space_2 or b2s...), not 'SpaceToDept'"
  has "$work/select-op.txt" "did you mean SpaceToDepth-1?"
done
for cmd in run "export $export_args" "fuzz --runs 1"; do
  # shellcheck disable=SC2086
  "$movconf" $cmd --type f33 >"$work/select-type.txt" 2>&1
  expect "$cmd --type f33 exits 2" test $? -eq 2
  has "$work/select-type.txt" "--type takes an element type name (boolean, u8, ..., f32, u1, u4, i4), not 'f33'"
done
for cmd in run "export $export_args" "show s2d/spec/none"; do
  # shellcheck disable=SC2086
  "$movconf" $cmd --tier huge >"$work/select-tier.txt" 2>&1
  expect "$cmd --tier huge exits 2" test $? -eq 2
  has "$work/select-tier.txt" "--tier takes default, large or all, not 'huge'"
done
expect "no export folder was made" test ! -e "$work/export-never"

# --tier: without paths, large runs conformance-large/ and all runs both folders.
if [ "$tiers" = run ]; then
  "$movconf" run --quiet --op d2s --tier large >"$work/tier-large.txt" 2>&1
  "$movconf" run --quiet --op d2s conformance-large >"$work/path-large.txt" 2>&1
  expect "--tier large runs the cases of conformance-large/" \
    cmp -s "$work/tier-large.txt" "$work/path-large.txt"
  "$movconf" run --quiet --op d2s --tier all >"$work/tier-all.txt" 2>&1
  "$movconf" run --quiet --op d2s conformance conformance-large >"$work/path-all.txt" 2>&1
  expect "--tier all runs both folders" cmp -s "$work/tier-all.txt" "$work/path-all.txt"
else
  MOVCONF_GEN_SKIP_TIERS=1
  export MOVCONF_GEN_SKIP_TIERS
fi
"$movconf" run --tier huge >"$work/tier-bad.txt" 2>&1
has "$work/tier-bad.txt" "takes default, large or all"

# gen --check from another folder compares with the source tree's files and writes nothing.
expect "gen --check from elsewhere exits 0" \
  sh -c 'cd "$2" && "$1" gen --check --op s2d >gen.txt 2>&1' gen "$movconf" "$work"
expect "gen --check from elsewhere wrote no ./conformance" test ! -e "$work/conformance"
# Descriptions that cannot be read are an I/O error (exit 2, as gen --help
# says), not a wrong description (1); nothing is written.
for generators in "$work/no-such-folder" "$work/gen.txt"; do
  "$movconf" gen --generators "$generators" --out "$work/gen-out" >"$work/gen-bad.txt" 2>&1
  status=$?
  expect "gen --generators ${generators##*/}: exit 2, not $status" test "$status" -eq 2
  has "$work/gen-bad.txt" "movconf gen: --generators $generators: "
  expect "gen --generators ${generators##*/}: nothing written" test ! -e "$work/gen-out"
done
mkdir -p "$work/gen-empty"
"$movconf" gen --op s2d --generators "$work/gen-empty" --out "$work/gen-out" >"$work/gen-empty.txt" 2>&1
status=$?
expect "gen, a description missing from --generators: exit 2, not $status" test "$status" -eq 2
has "$work/gen-empty.txt" "space_to_depth_1.json: No such file or directory"
expect_report
