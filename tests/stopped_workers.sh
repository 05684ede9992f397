#!/bin/sh
# An implementation that stops (SIGSTOP) the process waiting for its answer:
# a worker of run --jobs or fuzz --jobs, or movconf itself. A stopped worker
# costs its case a timeout after --timeout and a margin, never the run; a
# movconf stopped and then continued finishes its run. Limits on elapsed
# time are loose (minutes): they only tell a finished run from a hung one.
# usage: stopped_workers.sh MOVCONF PLUGIN_MOCK SOURCE_DIR WORK_DIR
set -u
movconf=$1 mock=$2 src=$3 work=$4
rm -rf "$work"
mkdir -p "$work/own"
. "$(dirname "$0")/expect.sh"
cases=$src/tests/data/plugin_faults
# A name of this script's own for the mock plugin, so that the process
# checks below see only this script's processes.
ln -sf "$mock" "$work/own/${mock##*/}" && mock=$work/own/${mock##*/}
MOVCONF_MOCK_UNSUPPORTED=
# How long a run may take before it counts as hung (seconds).
limit=${STOPPED_WORKERS_LIMIT:-300}
export MOVCONF_MOCK_UNSUPPORTED

# Pids of this script's movconf and plugin processes (their arguments name
# the mock by its own path; this script's do not).
own_pids() {
  ps -eo pid=,args= | grep -F -- "plugin:$mock" | grep -v grep | awk '{print $1}'
}
# After a check that may have left stopped processes (a movconf that hung):
# they are continued and killed, so the next check starts clean.
clean_up() {
  for pid in $(own_pids); do
    kill -CONT "$pid" 2>/dev/null
    kill -KILL "$pid" 2>/dev/null
  done
}
no_process_left() {
  test -z "$(own_pids)"
}

# run --jobs 2: case 02 stops its worker. That worker is killed after
# --timeout and the margin (2 + 5 s), case 02 is a timeout, the other 21
# cases pass on the other worker.
MOVCONF_MOCK_FAULT=stop-parent@2 timeout -s KILL "$limit" "$movconf" run --jobs 2 --timeout 2 \
  --impl "plugin:$mock" --json "$work/jobs.json" "$cases" >"$work/jobs.txt" 2>&1
status=$?
expect "run --jobs: exit status 1 (not 137: hung and killed), not $status" test "$status" -eq 1
expect "run --jobs: case 02 is a timeout naming the stopped worker, the other 21 pass" \
  python3 -c 'import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
bad = [(c["id"], c["verdict"], c.get("detail")) for c in cases if c["verdict"] != "pass"]
assert len(cases) == 22 and len(bad) == 1, bad
assert bad[0][0] == "s2d/fault/02-crash" and bad[0][1] == "timeout", bad
assert "was stopped (SIGSTOP) for more than 7 s and killed" in bad[0][2], bad' "$work/jobs.json"
sleep 1
expect "run --jobs: no process left" no_process_left
clean_up

# fuzz --jobs 2: every request stops its worker; each worker is lost, the
# campaign ends (status 2) and says why.
MOVCONF_MOCK_FAULT='stop-parent@*' timeout -s KILL "$limit" "$movconf" fuzz --jobs 2 --time 10 \
  --timeout 2 --op SpaceToDepth-1 --seed 1 --impl "plugin:$mock" --out "$work/findings" \
  >"$work/fuzz.txt" 2>&1
status=$?
expect "fuzz --jobs: exit status 2 (not 137: hung and killed), not $status" test "$status" -eq 2
expect "fuzz --jobs: says a worker was stopped" \
  grep -q 'a worker process was stopped (SIGSTOP) for more than 7 s and killed' "$work/fuzz.txt"
sleep 1
expect "fuzz --jobs: no process left" no_process_left
clean_up

# One job: case 02 stops movconf itself, which nothing inside movconf can
# undo; continued (as a shell's fg or bg would), it finishes the run.
MOVCONF_MOCK_FAULT=stop-parent@2 "$movconf" run --timeout 2 --impl "plugin:$mock" \
  --json "$work/one.json" "$cases" >"$work/one.txt" 2>&1 &
pid=$!
for _ in $(seq 600); do
  state=$(ps -o state= -p "$pid" 2>/dev/null)
  case $state in T*) break ;; '') break ;; esac
  sleep 0.1
done
expect "one job: movconf was stopped by the plugin" test "${state#T}" != "$state"
kill -CONT "$pid"
waited=0
while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt $((limit * 10)) ]; do
  sleep 0.1
  waited=$((waited + 1))
done
kill -KILL "$pid" 2>/dev/null
wait "$pid"
status=$?
expect "one job, continued: exit status 0 (every case passes), not $status" test "$status" -eq 0
sleep 1
expect "one job: no process left" no_process_left
clean_up

expect_report
