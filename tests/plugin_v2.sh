#!/bin/sh
# A plugin of ABI version 2 (tests/plugin_mock.c built with MOCK_ABI=2, a
# wrapper of the oracle): movconf asks for version 3, gets NULL, loads its
# version 2 table and runs it on every SpaceToDepth-1 case, which pass. It
# is never asked for Slice-8, which version 2 cannot hold (5 inputs): with
# every call made to crash, the Slice-8 cases of
# tests/data/optional_inputs/slice.json (axes absent and given) are
# unsupported, not crashes; the same cases reach the version 3 mock, which
# shows they are well-formed and which inputs arrived.
# usage: plugin_v2.sh MOVCONF PLUGIN_V2 PLUGIN_V3 SOURCE_DIR WORK_DIR
set -u
movconf=$1 v2=$2 v3=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work"
. "$(dirname "$0")/expect.sh"
cases=$src/tests/data/optional_inputs/slice.json
(cd "$src" && "$movconf" run --impl "plugin:$v2" --op s2d) >"$work/s2d.txt" 2>&1
expect "the v2 plugin's run exits 0 (see $work/s2d.txt)" test $? -eq 0
expect "it passed SpaceToDepth cases and failed none" \
  grep -Eq '^[1-9][0-9]* passed( \([0-9]+ only rejected[^)]*\))?, 0 failed, 0 unsupported' "$work/s2d.txt"
MOVCONF_MOCK_FAULT='crash@*' "$movconf" run --impl "plugin:$v2" "$cases" >"$work/slice-v2.txt" 2>&1
expect "the v2 plugin is asked for no Slice-8 case (see $work/slice-v2.txt)" \
  grep -q '^0 passed, 0 failed, 2 unsupported' "$work/slice-v2.txt"
MOVCONF_MOCK_FAULT='echo-inputs@*' "$movconf" run --impl "plugin:$v3" "$cases" \
  --json "$work/slice-v3.json" >"$work/slice-v3.txt" 2>&1
expect "the v3 plugin answers both Slice-8 cases (see $work/slice-v3.txt)" \
  grep -q '^2 passed' "$work/slice-v3.txt"
expect_report
