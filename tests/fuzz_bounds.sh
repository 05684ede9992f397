#!/bin/sh
# movconf fuzz keeps its own bounds and output (issues 20 and 21):
# - against an implementation that hangs on every request, the whole
#   campaign (shrinking and the findings' re-runs included) ends within
#   --time plus one --timeout (asserted with a wide margin for a loaded
#   machine) and leaves no process behind; when no request completed in
#   it, nothing was tested: exit 1;
# - an --out that cannot hold findings is refused before the campaign; a
#   trailing slash of --out is not doubled in the findings' names;
# - text from the implementation (escape sequences) and from the command
#   line (bytes that are not UTF-8) reaches no output raw;
# - off a terminal, a progress line every few seconds; the time to the
#   first finding; --max-findings stops early;
# - a failure that does not fail again is counted and said, not dropped;
# - a restart cut short by --time is no crash of the implementation.
# usage: fuzz_bounds.sh MOVCONF PLUGIN ADAPTER WORKDIR
set -u
. "$(dirname "$0")/expect.sh"
movconf=$(absolute "$1") plugin=$(absolute "$2") adapter=$(absolute "$3") work=$(absolute "$4")
fresh_folder "$work"
cd "$work" || exit 2

now() { python3 -c 'import time; print(time.monotonic())'; }
# within NAME LIMIT ARGS...: movconf fuzz ARGS ends within LIMIT seconds.
within() {
  name=$1 limit=$2
  shift 2
  start=$(now)
  "$movconf" fuzz "$@" >"$name.out" 2>"$name.err"
  status=$?
  took=$(python3 -c "import sys; print(round($(now) - $start, 1))")
  expect "$name: ended in $took s (at most $limit), status $status" \
    python3 -c "import sys; sys.exit(not ($took <= $limit and $status in (0, 1)))"
}

# 1. A hanging implementation: each request times out; --time bounds all.
# The adapter's own argument names this folder, so that ps finds this
# test's adapters and no other's.
hang="exec:python3 $adapter hang $work"
within hang-5 18 --impl "$hang" --op d2s --time 5 --timeout 2 --out hang5
# Nothing it started outlives movconf (before: the Python under the
# adapter's shell, re-parented to init once its worker was gone).
expect "hang-5: no adapter process outlives the campaign" \
  sh -c "! ps -eo comm=,args= | grep '^python' | grep -F -- 'hostile_adapter.py hang $work'"
within hang-8 24 --impl "$hang" --op d2s --time 8 --timeout 2 --shrink-time 5 --out hang8
has hang-8.out "distinct finding"
# Every request outlasting the campaign (--timeout 30 > --time 15): no
# request completed, nothing was tested, and that is no pass. The campaign
# is long enough for Python to start on a loaded machine (8 s seen at a
# load of 20, where a 5 s campaign ended before the handshake).
within hang-untested 50 --impl "$hang" --op d2s --time 15 --timeout 30 --out untested
expect "hang-untested: exit status 1 (nothing tested), not $status" test "$status" -eq 1
has hang-untested.err "no request completed, so nothing was tested"
has hang-untested.out "^0 runs"

# An adapter that never says its handshake, in a campaign shorter than the
# handshake's own limit: the campaign's time is named as what ran out.
"$movconf" fuzz --impl "exec:python3 $adapter mute" --op d2s --time 3 --out mute \
  >mute.out 2>mute.err
status=$?
expect "mute: exit status 2 (did not start), not $status" test "$status" -eq 2
has mute.err "no handshake line before the campaign's time ran out (--time)"

# An adapter whose request 3 hangs and whose every later start takes 60 s:
# the restart that judges the hang again runs into --time. That cut is
# movconf's, not the adapter's: the finding is the hang's timeout, with its
# own words, not a crash "restarting the adapter failed" (before).
export MOCK_FAULT=slow-restart MOCK_AT=3 MOCK_STATE="$work/slow-restart"
within slow-restart 40 --impl "exec:exec python3 $(dirname "$adapter")/mock_adapter.py" \
  --op s2d --time 8 --timeout 2 --seed 1 --out slow-restart --json slow-restart.json
unset MOCK_FAULT MOCK_AT MOCK_STATE
expect "slow-restart: one finding, a timeout" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert [f["verdict"] for f in s["findings"]] == ["timeout"], s["findings"]' slow-restart.json
lacks slow-restart.out "restarting the adapter failed"

# 2. --out that cannot be written: exit 2 before the campaign, said.
echo not a folder >plain
for out in plain plain/below /proc/movconf-findings; do
  "$movconf" fuzz --runs 10 --out "$out" >bad-out.out 2>bad-out.err
  status=$?
  expect "--out $out: exit status 2, not $status" test "$status" -eq 2
  has bad-out.err "cannot hold findings"
  expect "--out $out: no summary" test ! -s bad-out.out
done
expect "the regular file is untouched" grep -qx "not a folder" plain
"$movconf" fuzz --runs 20 --out new/deeper >clean-out.out 2>&1
expect "a writable --out with nothing found is not left behind" test ! -e new
# --out DIR/ names the folder DIR: findings are DIR/NAME, not DIR//NAME.
within slash 60 --impl "plugin:$plugin" --op d2s --runs 5 --shrink-time 0 --max-findings 1 \
  --out slash// --json slash.json
has slash.out "^    slash/depth_to_space_1-"
lacks slash.out "slash//"
lacks slash.json "slash//"

# 3. Hostile text: escapes from the implementation, a byte that is not
# UTF-8 in the command line (a shell comment); no output carries them raw.
within hostile 60 --impl "exec:python3 $adapter text #$(printf '\377')" --op d2s --runs 20 \
  --out hostile --json hostile.json
has hostile.out "valid input rejected"
for f in hostile.out hostile.err hostile.json; do
  expect "$f: no ESC or BEL, valid UTF-8" python3 -c '
import sys
b = open(sys.argv[1], "rb").read()
assert b"\x1b" not in b and b"\x07" not in b, "raw escape"
b.decode("utf-8")' "$f"
done
expect "hostile.json parses" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' hostile.json

# 4. Progress off a terminal, the first finding's time, --max-findings.
within progress 60 --impl optimized --op d2s --time 7 --out progress
has progress.err '^\[fuzz\] [0-9]* s: [0-9]* runs'
within first 50 --impl "plugin:$plugin" --op d2s --time 40 --max-findings 1 --out first \
  --json first.json
expect "--max-findings 1: stopped early with one finding" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["seconds"] < 30, s["seconds"]
assert len(s["findings"]) == 1, s["findings"]
assert 0 <= s["first_finding_seconds"] <= s["seconds"], s' first.json
has first.out "distinct finding (the first after [0-9.]* s)"

# 5. A failure that does not fail when judged again (an adapter that dies
# at the campaign's third call only: the shrink's judgment of the same
# request is a later call) is no finding, but it is not dropped unsaid:
# counted in the summary and --json, and said on stderr, made safe. Exit 0,
# as for a flaky finding (section 3 of fuzz_distinct.sh): nothing can be
# re-run. Before, the summary counted one failure and said nothing of it.
export MOCK_FAULT=signal MOCK_AT=3
within not-again 60 --impl "exec:exec python3 $(dirname "$adapter")/mock_adapter.py" --op s2d \
  --runs 3 --seed 1 --timeout 10 --out not-again --json not-again.json
unset MOCK_FAULT MOCK_AT
expect "not-again: exit 0 (no finding), not $status" test "$status" -eq 0
expect "not-again: counted in --json" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["failures"] == 1 and s["not_failing_again"] == 1 and not s["findings"], s' \
  not-again.json
has not-again.out "^1 failure not a finding: it did not fail again when judged again"
has not-again.err \
  "^movconf fuzz: run 2 (worker 0) failed (crash) but not when judged again: no finding: the adapter was killed by SIGSEGV"

expect_report
