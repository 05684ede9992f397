#!/bin/sh
# run --op reads only the selected operation's folder of each tier
# (src/harness/run/case_folders.c): a file that does not load, put in
# another operation's folder of a copy of the data folder, is reported by a
# run of every operation and not read by a run of one.
# usage: op_folders.sh MOVCONF SOURCE_DIR WORK_DIR
set -u
movconf=$1 src=$2 work=$3
. "$(dirname "$0")/expect.sh"
fresh_folder "$work"
mkdir -p "$work/data/conformance/pad_12"
for entry in "$src"/conformance/*; do
  [ "$(basename "$entry")" = pad_12 ] || ln -s "$entry" "$work/data/conformance/"
done
for entry in "$src"/conformance/pad_12/*; do ln -s "$entry" "$work/data/conformance/pad_12/"; done
for folder in conformance-large generators spec; do ln -s "$src/$folder" "$work/data/$folder"; done
echo '{"format": "movconf-cases/1", "op": "Pad-12", "cases": [' >"$work/data/conformance/pad_12/broken.json"

export MOVCONF_DATA_DIR="$work/data"
"$movconf" run --quiet --op d2s --json "$work/d2s.json" >"$work/d2s.out" 2>&1
expect "run --op d2s: exit 0 (got $?), the broken Pad-12 file not read" test $? -eq 0
lacks "$work/d2s.out" "broken.json"
"$movconf" run --quiet --op pad_12 >"$work/pad.out" 2>&1
expect "run --op pad_12: exit 1 (got $?), the broken file read" test $? -eq 1
has "$work/pad.out" "broken.json"
"$movconf" run --quiet >"$work/every.out" 2>&1
expect "run of every operation: exit 1 (got $?), the broken file read" test $? -eq 1
has "$work/every.out" "broken.json"
expect "run --op d2s: the same DepthToSpace cases as a run of the real folder" sh -c '
  env -u MOVCONF_DATA_DIR "$1" run --quiet --op d2s --json "$2/real.json" >/dev/null 2>&1
  python3 - "$2/real.json" "$2/d2s.json" <<PY
import json, sys
ids = [sorted(c["id"] for c in json.load(open(p))["cases"]) for p in sys.argv[1:]]
sys.exit(not (ids[0] == ids[1] and len(ids[0]) > 100))
PY' - "$movconf" "$work"
expect_report
