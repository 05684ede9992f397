#!/bin/sh
# A baseline of known failures: --write-expect writes the failures of a run
# as an expectations file; run with it, the same failures are expected
# (exit 0, no unexpected pass); by generator group, a group whose cases all
# failed the same way is one entry, a group with a passing case is not;
# the file is indented with spaces, not tabs.
# usage: expect_write.sh MOVCONF PLANTED_PLUGIN SOURCE_DIR WORKDIR PYTHON
set -u
. "$(dirname "$0")/expect.sh"
movconf=$1 plugin=$2 src=$3 work=$4 python=$5
rm -rf "$work"
mkdir -p "$work"
cd "$src/conformance/depth_to_space_1/generated" || exit 1
export MOVCONF_PLANTED=d2s-swap # the first two output elements exchanged
run() { "$movconf" run --quiet --impl "plugin:$plugin" "$@"; }

run larger.json rank4.json --write-expect "$work/cases.json" >"$work/write.txt" 2>&1
status=$?
expect "the run that writes the baseline fails (exit $status)" test "$status" -eq 1
has "$work/write.txt" "wrote 60 expectations to $work/cases.json"
expect "one entry per failing case, each a wrong-output with a reason to fill in" "$python" -c '
import json, sys
entries = json.load(open(sys.argv[1]))
assert len(entries) == 60, len(entries)
assert all(e["verdict"] == "wrong-output" and e["reason"].startswith("TODO") for e in entries)
assert all("*" not in e["case"] for e in entries)' "$work/cases.json"
# A file people edit: indented with spaces, no tab anywhere.
expect "the baseline has no tab" sh -c '! grep -q "$(printf "\t")" "$1"' tabs "$work/cases.json"
has "$work/cases.json" '^  }, {$'
has "$work/cases.json" '^    "case": "d2s/gen/'
run larger.json rank4.json --expect "$work/cases.json" >"$work/expected.txt" 2>&1
status=$?
expect "run with the baseline passes (exit $status)" test "$status" -eq 0
has "$work/expected.txt" ", 0 failed, 60 xfail, 0 xpass,"

run larger.json rank4.json --write-expect "$work/groups.json" --expect-granularity group \
  >"$work/write-groups.txt" 2>&1
expect "by group: larger (all failed) is one glob, rank4 (4 passed) one entry per case" "$python" -c '
import json, sys
cases = [e["case"] for e in json.load(open(sys.argv[1]))]
assert "d2s/gen/larger/*" in cases, cases
assert not any(c.startswith("d2s/gen/larger/0") for c in cases), cases
assert sum(c.startswith("d2s/gen/rank4/0") for c in cases) == 44, cases' "$work/groups.json"
run larger.json rank4.json --expect "$work/groups.json" >"$work/expected-groups.txt" 2>&1
status=$?
expect "run with the group baseline passes (exit $status)" test "$status" -eq 0
run larger.json --expect-granularity file >"$work/bad.txt" 2>&1
has "$work/bad.txt" "takes case or group"
expect_report
