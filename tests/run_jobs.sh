#!/bin/sh
# run --jobs N: the same report as one job (cases in run order, verdicts,
# details, summary, exit status; timings aside) over the default tier with
# the built-in kernels (whole and one --shard) and with a plugin that fails
# DepthToSpace, and over a fault suite of the mock plugin (crashes, a hang,
# wrong outputs, writes out of bounds, a late write); late writes charged
# to their own case; a fault that breaks a worker's process charged within
# that worker or not at all; stop limits stop with the first cases of the
# run; a worker its adapter kills costs its case, not the run; no process
# outlives the run, even when movconf is killed.
# usage: run_jobs.sh MOVCONF PLUGIN_PLANTED PLUGIN_MOCK SOURCE_DIR WORK_DIR PYTHON
set -u
movconf=$1 planted=$2 mock=$3 src=$4 work=$5 python=$6
rm -rf "$work"
mkdir -p "$work"
. "$(dirname "$0")/expect.sh"
cd "$work" || exit 1
faults=$src/tests/data/plugin_faults
# A name of this script's own for the mock plugin: tests that run beside
# this one load the same plugin, and their processes are not leftovers of
# this one (a process check once failed on cli/signal-faults' plugin).
mkdir -p own && ln -sf "$mock" "own/${mock##*/}" && mock=$work/own/${mock##*/}

# same_report ONE MANY: the reports are the same but for timings.
same_report() {
  "$python" "$src/tests/same_report.py" "$1" "$2"
}

# jobs NAME STATUS RUN-ARGS...: one job, then two and three; each exits
# STATUS and reports as one job does.
jobs() {
  name=$1 status=$2; shift 2
  "$movconf" run --quiet --json "$name-1.json" "$@" >"$name-1.out" 2>&1
  expect "$name: one job exits $status" test $? -eq "$status"
  for n in 2 3; do
    "$movconf" run --jobs $n --json "$name-$n.json" --junit "$name-$n.xml" "$@" \
      >"$name-$n.out" 2>"$name-$n.err"
    expect "$name: $n jobs exit $status" test $? -eq "$status"
    expect "$name: $n jobs report what one job reports" same_report "$name-1.json" "$name-$n.json"
  done
}

# No process started by a run of this script is left.
no_plugin_process() {
  ! ps -eo args | grep -F -- "plugin:$mock" | grep -v grep | grep -q .
}

# Under a sanitizer (several times slower; under ThreadSanitizer the three
# runs of the default tier took 600 s and more at a load of 12) the
# whole-tier runs take DepthToSpace's cases: how jobs split, order and merge
# a run is the same for every case, and the planted plugin fails d2s.
# The shard is then the second of 16 of the whole tier.
tier="" shard=2/4
[ -n "${MOVCONF_TEST_SANITIZED:-}" ] && tier="--op d2s" shard=2/16
# shellcheck disable=SC2086 # $tier is empty or one option and its value
jobs kernels 0 $tier
jobs shard 0 --shard $shard
expect "shard: the report is a shard's, with positions" "$python" -c 'import json, sys
r = json.load(open(sys.argv[1]))
assert r["shard"]["index"] == 2 and all("position" in c for c in r["cases"]), r.get("shard")' \
  shard-2.json
# shellcheck disable=SC2086
MOVCONF_PLANTED=d2s-swap jobs planted 1 --impl "plugin:$planted" $tier
expect "planted: each DepthToSpace failure has its live FAIL line" test \
  "$(grep -c '^FAIL wrong-output: d2s/' planted-2.err)" -eq \
  "$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["summary"]["wrong-output"])' planted-1.json)"

# Under ThreadSanitizer: no report but the mock plugin's own races.
no_tsan_report() {
  expect "no ThreadSanitizer report but the mock's own races" \
    sh -c "! cat ./*.out ./*.err | grep 'SUMMARY: ThreadSanitizer' | grep -v plugin_mock.c | grep -q ."
}
# The tsan preset stops here: its subject is the kernels' threads in forked
# workers, above. The mock's faults below, its late-writing threads among
# them, are cli/plugin-faults' share of that preset (the same mock and
# faults, one process); the default and asan presets run them in workers
# (issue 34: this test took 110 s of the preset's 208 s).
case "${MOVCONF_SANITIZE:-}" in
*thread*)
  no_tsan_report
  expect_report
  exit
  ;;
esac

# The fault suite: every fault is a fault of its own case, whichever worker
# ran it; a late write found only at the end (the last case's) is charged
# to its case by the worker that ran it.
MOVCONF_MOCK_FAULT="crash@2,null@3,abort@4,exit@5,hang@6,wrong-value@8,wrong-shape@9,missed-rejection@10,wrong-rejection@11,wrong-error@12,write-past@13,write-before@14,write-input@15,bad-status@16,bad-shape@17,stdout@18,late-write-slow@22"
MOVCONF_MOCK_UNSUPPORTED=f16
export MOVCONF_MOCK_FAULT MOVCONF_MOCK_UNSUPPORTED
# The late threads race with the output on purpose (plugin_faults.sh).
TSAN_OPTIONS="${TSAN_OPTIONS:-}:halt_on_error=0"
export TSAN_OPTIONS
jobs faults 1 --impl "plugin:$mock" --timeout 3 --memory-limit 512 "$faults"
expect "faults: the late write at the end is charged to 22" \
  grep -Eq '^crash: s2d/fault/22-last' faults-2.out
expect "faults: the hang is a timeout" grep -q '^timeout: s2d/fault/06-hang' faults-2.out
expect "faults: the plugin's chatter is relayed" grep -q 'garbage on stdout from the mock plugin' \
  faults-2.err
expect "faults: no plugin process left" no_plugin_process

# A late write, by a thread that keeps writing or by one write 10 ms late,
# is charged to its own case, never to the next case of that worker.
for fault in late-write@2 late-write-slow@9; do
  MOVCONF_MOCK_FAULT=$fault MOVCONF_MOCK_UNSUPPORTED= "$movconf" run --jobs 2 --impl "plugin:$mock" \
    --timeout 5 --json late.json "$faults" >late.out 2>&1
  expect "$fault: its case alone crashes, late" "$python" -c 'import json, sys
r = json.load(open(sys.argv[1]))
bad = [(c["id"][10:12], c["verdict"], c.get("detail", "")) for c in r["cases"] if c["verdict"] != "pass"]
assert len(bad) == 1 and bad[0][:2] == (sys.argv[2], "crash") and "after run() returned" in bad[0][2], bad
' late.json "$(printf '%02d' "${fault#*@}")"
  expect "$fault: no plugin process left" no_plugin_process
done

# A case that breaks its process for a later one (poison@2 makes batch 4
# crash in that process): with two workers, 04 may run in the other one.
# Either way 04 keeps no crash and no case but 02 is charged.
MOVCONF_MOCK_FAULT=poison@2,crash-if-poisoned@4 MOVCONF_MOCK_UNSUPPORTED= \
  "$movconf" run --jobs 2 --impl "plugin:$mock" --json poison.json "$faults" >poison.out 2>&1
expect "poison: only 02 may be charged, and then as the culprit of a process fault" \
  "$python" -c 'import json, sys
r = json.load(open(sys.argv[1]))
bad = [c["id"] for c in r["cases"] if c["verdict"] != "pass"]
faults = r["process_faults"]
assert bad in ([], ["s2d/fault/02-crash"]), bad
assert len(faults) == len(bad), faults
assert all(f["culprit"] == "s2d/fault/02-crash" for f in faults), faults' poison.json

# Stop limits: no case starts once one is reached; the cases that ran
# (those under way in other workers finish) are the first of the run.
prefix() {
  "$python" - "$1" "$2" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
ids = [c["id"] for c in r["cases"]]
every = ["s2d/fault/%02d" % n for n in range(1, 23)]
assert [i[:12] for i in ids] == every[:len(ids)], ids
assert len(ids) < 22, ids
assert re.match(sys.argv[2], r["summary"]["stopped_early"]), r["summary"]["stopped_early"]
PY
}
MOVCONF_MOCK_FAULT=crash@2,crash@3,crash@4,crash@5 "$movconf" run --jobs 2 --max-failures 2 \
  --impl "plugin:$mock" --json max.json "$faults" >max.out 2>&1
expect "--max-failures 2: exit 1" test $? -eq 1
expect "--max-failures 2: the first cases, stopped early" prefix max.json \
  "stopped early: [2-9] failures reached --max-failures 2"
MOVCONF_MOCK_FAULT=hang@3,hang@4 "$movconf" run --jobs 2 --timeout 2 --time-limit 1 \
  --impl "plugin:$mock" --json limit.json "$faults" >limit.out 2>&1
expect "--time-limit 1 with both workers hanging: exit 1" test $? -eq 1
expect "--time-limit: the first cases, stopped early" prefix limit.json \
  "stopped early: --time-limit 1 s passed"
expect "no plugin process left after the stops" no_plugin_process

# An adapter that kills its worker: that case is a crash saying so, the
# other worker runs the rest, and the adapter (now movconf's) is ended.
# Only without namespaces (MOVCONF_NO_NAMESPACES): in a PID namespace of
# its own its parent is out of its reach (tests/containment.sh).
adapter="exec:exec '$python' '$src/tests/mock_adapter.py' --jobs-$$"
MOVCONF_NO_NAMESPACES=1 MOCK_FAULT=kill-parent MOCK_AT=2 MOCK_STATE="$work/kill" "$movconf" run \
  --jobs 2 --impl "$adapter" \
  --json kill.json "$src/tests/data/adapter" >kill.out 2>&1
expect "kill-parent: exit 1" test $? -eq 1
expect "kill-parent: one crash, its worker's death; the other cases as without the fault" "$python" -c '
import json, sys
r = json.load(open(sys.argv[1]))
bad = [c for c in r["cases"] if c["verdict"] not in ("pass", "unsupported")]
assert len(r["cases"]) == 7 and len(bad) == 1, [(c["id"], c["verdict"]) for c in r["cases"]]
assert bad[0]["verdict"] == "crash" and "worker process running this case ended" in bad[0]["detail"], bad
assert r["summary"]["stopped_early"] is None' kill.json
# Without the state file both workers are killed: the run stops, saying so.
MOVCONF_NO_NAMESPACES=1 MOCK_FAULT=kill-parent MOCK_AT=2 "$movconf" run --jobs 2 \
  --impl "$adapter" --json kill2.json \
  "$src/tests/data/adapter" >kill2.out 2>&1
expect "kill-parent in every worker: exit 1" test $? -eq 1
expect "kill-parent in every worker: stopped early, saying why" \
  grep -q 'stopped early: every worker process (--jobs) ended' kill2.out
expect "kill-parent: no adapter left" sh -c "! ps -eo args | grep -F -- '--jobs-$$' | grep -vq grep"

# Signalled, or killed outright, while every worker hangs in its plugin:
# no worker and no plugin process outlives it (workers get SIGTERM when
# movconf dies). Polls, so a loaded machine only makes it slower.
wait_for() { # wait_for SECONDS COMMAND...: polls COMMAND until it succeeds
  limit=$1; shift
  for _ in $(seq $((limit * 10))); do "$@" && return 0; sleep 0.1; done
  return 1
}
# The processes of the run below: movconf and its workers (--timeout 100
# is theirs alone), plugin hosts of this test's plugin copy.
signal_run_processes() {
  ps -eo args | grep -F -- "$mock" | grep -E -- '--timeout 100|__plugin-host' | grep -vc grep
}
signal_run_hosts_up() {
  [ "$(ps -eo args | grep -F -- "$mock" | grep -F -- __plugin-host | grep -vc grep)" -ge 3 ]
}
signal_run_gone() { [ "$(signal_run_processes)" -eq 0 ]; }
for signal in TERM KILL; do
  MOVCONF_MOCK_FAULT='hang@*' MOVCONF_MOCK_UNSUPPORTED= "$movconf" run --jobs 3 \
    --impl "plugin:$mock" --timeout 100 "$faults" >signal.out 2>&1 &
  pid=$!
  # movconf, 3 workers and their 3 plugin processes (fresh movconf
  # programs, `movconf __plugin-host FD PLUGIN ...`; with namespaces, each
  # under a warden forked from its worker)
  expect "SIG$signal: the workers and their plugins are up" \
    wait_for 60 signal_run_hosts_up
  kill -$signal $pid
  wait $pid
  expect "SIG$signal: no worker or plugin process is left" \
    wait_for 20 signal_run_gone
done

# --jobs takes 1 to 64; an implementation that cannot start is exit 2.
"$movconf" run --jobs 0 >jobs0.out 2>&1
expect "--jobs 0: exit 2" test $? -eq 2
has jobs0.out '--jobs takes a number from 1 to 64'
"$movconf" run --jobs 2 --impl "plugin:$work/none.so" "$faults" >nostart.out 2>&1
expect "--jobs 2 with a plugin that does not load: exit 2" test $? -eq 2
has nostart.out 'cannot load'

no_tsan_report
expect_report
