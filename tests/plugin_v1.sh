#!/bin/sh
# A plugin of ABI version 1, built as it was written (tests/plugin_v1_d2s.c
# with the version 1 header, tests/plugin_v1/): movconf asks for versions 3 and 2,
# gets NULL, loads its version 1 table and runs it on every DepthToSpace-1
# case; its cases of whole-byte types pass, the others are unsupported.
# usage: plugin_v1.sh MOVCONF PLUGIN SOURCE_DIR WORK_DIR
set -u
movconf=$1 plugin=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
. "$(dirname "$0")/expect.sh"
(cd "$src" && "$movconf" run --impl "plugin:$plugin" --op d2s) >"$work/run.txt" 2>&1
expect "the v1 plugin's run exits 0 (see $work/run.txt)" test $? -eq 0
has "$work/run.txt" 'd2s-example 1.0'
expect "it passed DepthToSpace cases and failed none" \
  grep -Eq '^[1-9][0-9]* passed( \([0-9]+ only rejected[^)]*\))?, 0 failed' "$work/run.txt"
expect_report
