#!/bin/sh
# An implementation that stops (SIGSTOP) the process waiting for its answer:
# a worker of run --jobs or fuzz --jobs, or movconf itself. In a PID
# namespace of its own (tests/containment.sh) it cannot reach them and only
# stops itself: its case is a timeout. Without namespaces
# (MOVCONF_NO_NAMESPACES, as where they are unavailable) a stopped worker
# costs its case a timeout after --timeout and a margin, never the run, and
# with no --timeout (0) it is waited for as long as a running one; a
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

namespaces=no
if [ "$(id -u)" = 0 ] && unshare --pid --fork --mount-proc true 2>/dev/null &&
  unshare --user --map-root-user true 2>/dev/null; then
  namespaces=yes
fi
if [ "$namespaces" = yes ]; then
  # Its parent is outside its namespace (getppid() is 0): kill(0, SIGSTOP)
  # stops its own process only, which costs case 02 a timeout.
  for jobs in 1 2; do
    MOVCONF_MOCK_FAULT=stop-parent@2 timeout -s KILL "$limit" "$movconf" run --jobs "$jobs" \
      --timeout 2 --impl "plugin:$mock" --json "$work/ns-$jobs.json" "$cases" \
      >"$work/ns-$jobs.txt" 2>&1
    status=$?
    expect "namespaces, --jobs $jobs: exit status 1, not $status" test "$status" -eq 1
    expect "namespaces, --jobs $jobs: case 02 is the plugin's timeout, the other 21 pass" \
      python3 -c 'import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
bad = [(c["id"], c["verdict"], c.get("detail")) for c in cases if c["verdict"] != "pass"]
assert len(cases) == 22 and len(bad) == 1, bad
assert bad[0][0] == "s2d/fault/02-crash" and bad[0][1] == "timeout", bad
assert "the plugin process was killed" in bad[0][2], bad' "$work/ns-$jobs.json"
    sleep 1
    expect "namespaces, --jobs $jobs: no process left" no_process_left
    clean_up
  done
  # show --impl and bench --impl: the same stop is the call's timeout.
  MOVCONF_MOCK_FAULT=stop-parent@2 timeout -s KILL "$limit" "$movconf" show --timeout 2 \
    --impl "plugin:$mock" s2d/fault/02-crash "$cases" >"$work/ns-show.txt" 2>&1
  status=$?
  expect "namespaces, show: exit status 1, not $status" test "$status" -eq 1
  expect "namespaces, show: the verdict is the timeout" \
    grep -q '^verdict  *timeout: no answer within 2 s' "$work/ns-show.txt"
  MOVCONF_MOCK_FAULT='stop-parent@*' timeout -s KILL "$limit" "$movconf" bench --quick \
    --timeout 1 --filter 's2d/small/*' --impl "plugin:$mock" >"$work/ns-bench.txt" 2>&1
  status=$?
  expect "namespaces, bench: exit status 1, not $status" test "$status" -eq 1
  expect "namespaces, bench: the call's timeout, said" \
    grep -q 'a call of the plugin did not return within 1 s (--timeout)' "$work/ns-bench.txt"
  # An adapter's parent is outside its namespace too ($PPID is 0): the stop
  # reaches its own group, and its start is the handshake's timeout.
  tag=$((7000000 + $$ % 100000))
  timeout -s KILL "$limit" "$movconf" run --timeout 2 --handshake-timeout 2 \
    --impl "exec:sh -c 'kill -STOP \$PPID; sleep $tag'" "$cases" >"$work/ns-adapter.txt" 2>&1
  status=$?
  expect "namespaces, adapter: exit status 2 (no handshake), not $status" test "$status" -eq 2
  expect "namespaces, adapter: the handshake's timeout, said" \
    grep -q 'no handshake line within 2 s' "$work/ns-adapter.txt"
  sleep 1
  expect "namespaces, show and bench: no process left" no_process_left
  expect "namespaces, adapter: no 'sleep $tag' left" sh -c "! ps -eo args | grep -q '^sleep $tag\$'"
  clean_up
fi

# The rest reach the parent: no namespaces.
MOVCONF_NO_NAMESPACES=1
export MOVCONF_NO_NAMESPACES

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

# run --jobs 2 --timeout 0 (no limit): the stopped worker is waited for, as
# a running one would be, not killed after the margin; continued (as by a
# user's SIGCONT), it finishes and every case passes.
MOVCONF_MOCK_FAULT=stop-parent@2 timeout -s KILL "$limit" "$movconf" run --jobs 2 --timeout 0 \
  --impl "plugin:$mock" --json "$work/nolimit.json" "$cases" >"$work/nolimit.txt" 2>&1 &
pid=$!
# The stopped worker: a child of movconf (the child of timeout) in state T.
stopped_worker() {
  ps -eo pid=,ppid=,stat= | awk -v p="$pid" '$2 == p {m = $1} {pp[$1] = $2; st[$1] = $3}
    END {for (q in pp) if (pp[q] == m && st[q] ~ /^T/) print q}'
}
worker=
for _ in $(seq 600); do
  worker=$(stopped_worker)
  [ -n "$worker" ] && break
  sleep 0.1
done
expect "no limit: a worker was stopped by the plugin" test -n "$worker"
sleep 8 # past the margin of 5 s (MC_POOL_STOPPED_MARGIN_SECONDS) and a look
expect "no limit: the worker is still there and stopped after the margin" \
  test "$(stopped_worker)" = "$worker"
[ -n "$worker" ] && kill -CONT "$worker"
wait "$pid"
status=$?
expect "no limit, continued: exit status 0 (every case passes), not $status" test "$status" -eq 0
sleep 1
expect "no limit: no process left" no_process_left
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
