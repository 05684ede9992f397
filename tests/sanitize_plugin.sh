#!/bin/sh
# --sanitize address on a plugin with a planted one-byte heap over-read
# (tests/plugin_planted.c, MOVCONF_PLANTED=overread): without the sanitizer
# it passes every case; built with -fsanitize=address and run with
# --sanitize address, every case it computes is a memory-error naming the
# over-read, charged to that case, and the reports are well-formed.
# In a sanitizer build every plugin is instrumented, so the plain run is
# left out there (PLAIN is "skip").
# usage: sanitize_plugin.sh MOVCONF PLAIN_PLUGIN ASAN_PLUGIN SOURCE_DIR WORKDIR PYTHON PLAIN
set -u
. "$(dirname "$0")/expect.sh"
movconf=$1 plain=$2 asan=$3 src=$4 work=$5 python=$6 plain_run=$7
rm -rf "$work"
mkdir -p "$work"
cd "$src" || exit 1
cases="conformance/space_to_depth_1/spec_examples.json conformance/space_to_depth_1/hand.json"
export MOVCONF_PLANTED=overread

if [ "$plain_run" = run ]; then
  # shellcheck disable=SC2086 # the case files are words
  "$movconf" run --impl "plugin:$plain" $cases >"$work/plain.txt" 2>&1
  status=$?
  expect "the over-read passes every case without the sanitizer (exit $status)" test "$status" -eq 0
fi

# shellcheck disable=SC2086
"$movconf" run --impl "plugin:$asan" --sanitize address --json "$work/asan.json" $cases \
  >"$work/asan.txt" 2>&1
status=$?
expect "with --sanitize address the run fails (exit $status)" test "$status" -eq 1
expect "every valid case is a memory-error naming the over-read, every invalid one passes" \
  "$python" -c '
import json, sys
verdicts = {c["id"]: c for c in json.load(open(sys.argv[1]))["cases"]}
valid = set()
for path in sys.argv[2:]:
    for case in json.load(open(path))["cases"]:
        if "output" in case["expect"]:
            valid.add(case["id"])
assert valid, "no valid case"
for case_id, c in verdicts.items():
    if case_id in valid:
        assert c["verdict"] == "memory-error", c
        assert "AddressSanitizer: heap-buffer-overflow, READ of size 1" in c["detail"], c["detail"]
    else:  # rejected by output_shape(): run(), and the over-read, never come
        assert c["verdict"] == "pass", c
print(len(valid), "memory-errors,", len(verdicts) - len(valid), "passes")
' "$work/asan.json" $cases
has "$work/asan.txt" "memory-error"
expect_report
