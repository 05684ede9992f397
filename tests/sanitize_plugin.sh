#!/bin/sh
# --sanitize address on plugins with planted faults (tests/plugin_planted.c),
# built with spec/plugin-abi.md's flags (-fsanitize=address,undefined):
# - MOVCONF_PLANTED=overread, a one-byte heap over-read: without the
#   sanitizer it passes every case; with it every case it computes is a
#   memory-error naming the over-read, charged to that case;
# - signed-overflow, divide-by-zero, memcpy-null: undefined behaviour only
#   UBSan sees, the same verdict with UBSan's words (gcc's UBSan beside its
#   ASan writes to stderr whatever log_path says: movconf points it at its
#   report folder);
# - the plugin without instrumentation is refused, exit 2, saying why (in a
#   sanitizer build every plugin is instrumented, so this and the plain run
#   are left out there: PLAIN is "skip");
# - MOVCONF_PLANTED=data-overread, a read of the byte after the data
#   input where movconf put it: a memory-error in the slack its 64-byte
#   alignment leaves before the guard page (poisoned), a crash at the page;
# - a plugin that does not load under --sanitize names MOVCONF_ASAN_RUNTIME.
# usage: sanitize_plugin.sh MOVCONF PLAIN_PLUGIN ASAN_PLUGIN SOURCE_DIR WORKDIR PYTHON PLAIN
set -u
. "$(dirname "$0")/expect.sh"
movconf=$1 plain=$2 asan=$3 src=$4 work=$5 python=$6 plain_run=$7
rm -rf "$work"
mkdir -p "$work"
cd "$src" || exit 1
cases="conformance/space_to_depth_1/spec_examples.json conformance/space_to_depth_1/hand.json"

if [ "$plain_run" = run ]; then
  # shellcheck disable=SC2086 # the case files are words
  MOVCONF_PLANTED=overread "$movconf" run --impl "plugin:$plain" $cases >"$work/plain.txt" 2>&1
  status=$?
  expect "the over-read passes every case without the sanitizer (exit $status)" test "$status" -eq 0
  # shellcheck disable=SC2086
  "$movconf" run --impl "plugin:$plain" --sanitize address $cases >"$work/uninstrumented.txt" 2>&1
  status=$?
  expect "an uninstrumented plugin under --sanitize is refused (exit $status)" test "$status" -eq 2
  has "$work/uninstrumented.txt" "has no sanitizer instrumentation (no __asan_ or __ubsan_ symbol)"
fi

# FAULT DETAIL: every valid case a memory-error whose detail has DETAIL,
# every invalid one (rejected by output_shape(): run() never comes) a pass.
sanitized_run() {
  # shellcheck disable=SC2086
  MOVCONF_PLANTED=$1 "$movconf" run --impl "plugin:$asan" --sanitize address \
    --json "$work/$1.json" $cases >"$work/$1.txt" 2>&1
  status=$?
  expect "$1: with --sanitize address the run fails (exit $status)" test "$status" -eq 1
  expect "$1: every valid case is a memory-error saying '$2', every invalid one passes" \
    "$python" -c '
import json, sys
verdicts = {c["id"]: c for c in json.load(open(sys.argv[1]))["cases"]}
valid = set()
for path in sys.argv[3:]:
    for case in json.load(open(path))["cases"]:
        if "output" in case["expect"]:
            valid.add(case["id"])
assert valid, "no valid case"
for case_id, c in verdicts.items():
    if case_id in valid:
        assert c["verdict"] == "memory-error", c
        assert sys.argv[2] in c["detail"], c["detail"]
    else:
        assert c["verdict"] == "pass", c
print(len(valid), "memory-errors,", len(verdicts) - len(valid), "passes")
' "$work/$1.json" "$2" $cases
  # every report went to movconf's folder, none to stderr
  lacks "$work/$1.txt" "plugin_planted.c:[0-9]*:[0-9]*: runtime error:"
}
sanitized_run overread "AddressSanitizer: heap-buffer-overflow, READ of size 1"
sanitized_run signed-overflow "UndefinedBehaviorSanitizer: runtime error: signed integer overflow"
sanitized_run divide-by-zero "UndefinedBehaviorSanitizer: runtime error: division by zero"
sanitized_run memcpy-null "UndefinedBehaviorSanitizer: runtime error: null pointer passed as argument 2"

# data-overread: the byte after the data input's last, where movconf put
# it. Between the input's end and its guard page (the 64-byte alignment's
# slack) the sanitizer sees it as poisoned; at the page it faults. No
# valid case passes. Before: every case whose data was not a multiple of
# 64 bytes passed (the slack was neither guarded nor poisoned).
# shellcheck disable=SC2086 # the case files are words
MOVCONF_PLANTED=data-overread "$movconf" run --impl "plugin:$asan" --sanitize address \
  --json "$work/data-overread.json" $cases >"$work/data-overread.txt" 2>&1
# shellcheck disable=SC2086
expect "data-overread: every valid case is a memory-error or a fault past input 0" \
  "$python" -c '
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
valid = {case["id"] for path in sys.argv[2:] for case in json.load(open(path))["cases"]
         if "output" in case["expect"]}
poisoned = guarded = 0
for c in cases:
    if c["id"] not in valid:
        assert c["verdict"] == "pass", c
    elif c["verdict"] == "memory-error":
        assert "AddressSanitizer: use-after-poison, READ of size 1" in c["detail"], c
        poisoned += 1
    else:
        assert c["verdict"] == "crash", c
        assert "past the end of input 0 (data): byte 0 after its last byte" in c["detail"], c
        guarded += 1
assert poisoned, "no read in the slack"
print(poisoned, "in the slack,", guarded, "at the guard page")
' "$work/data-overread.json" $cases

printf 'not a shared object\n' >"$work/garbage.so"
"$movconf" run --impl "plugin:$work/garbage.so" --sanitize address $cases >"$work/garbage.txt" 2>&1
status=$?
expect "a plugin that does not load is an error (exit $status)" test "$status" -eq 2
has "$work/garbage.txt" "cannot load .*garbage.so.*under --sanitize the plugin host preloads '.*MOVCONF_ASAN_RUNTIME"
expect_report
