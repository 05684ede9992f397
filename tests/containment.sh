#!/bin/sh
# A plugin that acts against the processes around it (tests/plugin_contain.c):
# it signals its process group, its parent and its parent's other children,
# opens its parent's pipes through /proc, forges the worker pool's records,
# leaves setsid daemons, looks for the case files in its own memory and
# forks without end. Each act costs its own case at most: the run
# finishes with every other case passed, its report written, nothing left.
# Every movconf runs in a session of its own (setsid -w), so that a plugin
# that escapes kills that movconf, not this script.
#
# Where namespaces are available (root, or a system that allows them), the
# plugin's process cannot reach movconf's at all; elsewhere those checks
# are skipped and the fallback (a session of its own) is checked alone.
# usage: containment.sh MOVCONF PLUGIN_CONTAIN SOURCE_DIR WORK_DIR
set -u
movconf=$1 plugin=$2 src=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
. "$(dirname "$0")/expect.sh"
cases=$src/tests/data/plugin_faults
# How long a run may take before it counts as hung (seconds): loose, it only
# tells a finished run from a hung or busy-looping one.
limit=${CONTAINMENT_LIMIT:-120}
# kernel_at_least MAJOR MINOR: whether the running kernel is that version or later.
kernel_at_least() {
  release=$(uname -r)
  major=${release%%.*} rest=${release#*.}
  minor=${rest%%[!0-9]*}
  [ "$major" -gt "$1" ] || { [ "$major" -eq "$1" ] && [ "$minor" -ge "$2" ]; }
}
namespaces=no
if [ "$(id -u)" = 0 ] && unshare --pid --fork --mount-proc true 2>/dev/null &&
  unshare --user --map-root-user true 2>/dev/null; then
  namespaces=yes
fi
echo "namespaces expected: $namespaces"

# run_hostile NAME ACTS MOVCONF-ARGS...: runs movconf with MOVCONF_HOSTILE=ACTS
# over the fault cases, in a session of its own, JSON to NAME.json; the exit
# status in $status. --timeout is $case_timeout (default 10).
run_hostile() {
  name=$1 acts=$2
  shift 2
  rm -f "$work/$name.json"
  MOVCONF_HOSTILE=$acts timeout -s KILL "$limit" setsid -w "$movconf" run "$@" \
    --timeout "${case_timeout:-10}" --impl "plugin:$plugin" --json "$work/$name.json" "$cases" \
    >"$work/$name.txt" 2>&1
  status=$?
}

# verdicts NAME: "ID VERDICT DETAIL" for each case that did not pass.
verdicts() {
  python3 -c 'import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
print(len(cases), "cases")
for c in cases:
    if c["verdict"] != "pass":
        print(c["id"], c["verdict"], c.get("detail", ""))' "$work/$1.json" 2>&1
}

# one_crash NAME: 22 cases, only case 02 failed, a crash of the plugin's own
# process (not of movconf's worker).
one_crash() {
  v=$(verdicts "$1")
  [ "$(printf '%s\n' "$v" | head -1)" = "22 cases" ] &&
    [ "$(printf '%s\n' "$v" | wc -l)" -eq 2 ] &&
    printf '%s\n' "$v" | grep -q '^s2d/fault/02-crash crash the plugin process was killed by SIGKILL'
}

all_pass() {
  [ "$(verdicts "$1")" = "22 cases" ]
}

# The daemons plugin_contain starts: `sleep TAG`, a tag of this test's own.
tag=$(( $$ % 20000 + 40000 ))
daemons() {
  ps -eo pid=,args= | awk -v t="sleep $tag" '$2 " " $3 == t {print $1}'
}
end_daemons() {
  for d in $(daemons); do kill -KILL "$d"; done
}

if [ "$namespaces" = yes ]; then
  # kill(0, SIGKILL) and kill(getppid(), SIGKILL) from run(): before, movconf
  # died with no report (status 137); now the plugin's process is its own
  # group and its parent is outside its PID namespace.
  for act in kill-group kill-parent; do
    for jobs in 1 2; do
      run_hostile "$act-$jobs" "$act@2" --jobs "$jobs"
      expect "$act, --jobs $jobs: exit status 1 (a crash, not movconf killed), not $status" \
        test "$status" -eq 1
      expect "$act, --jobs $jobs: case 02 is a crash of the plugin's process, the rest pass" \
        one_crash "$act-$jobs"
    done
  done

  # kill(-1, SIGKILL) from run(): in its PID namespace it reaches only the
  # namespace's other processes (the plugin's process itself survives), not
  # movconf. Without namespaces it would reach every process of the user
  # (spec/runner.md says so): not tried.
  for jobs in 1 2; do
    run_hostile "kill-all-$jobs" kill-all@2 --jobs "$jobs"
    expect "kill-all, --jobs $jobs: exit status 0, not $status" test "$status" -eq 0
    expect "kill-all, --jobs $jobs: every case passes" all_pass "kill-all-$jobs"
    expect "kill-all, --jobs $jobs: the plugin sent it" \
      grep -q 'hostile: kill(-1, SIGKILL) sent' "$work/kill-all-$jobs.txt"
  done

  # bench calls the plugin in a process of its own: kill(0) and
  # kill(getppid()) from it end that process, said, not movconf (before,
  # status 137 and no word).
  for act in kill-group kill-parent; do
    MOVCONF_HOSTILE="$act@*" timeout -s KILL "$limit" setsid -w "$movconf" bench --quick \
      --filter 's2d/*' --impl "plugin:$plugin" >"$work/bench-$act.txt" 2>&1
    status=$?
    expect "bench, $act: exit status 1, not $status" test "$status" -eq 1
    expect "bench, $act: its process was killed, said" \
      grep -q 'the benchmark did not complete: its process was killed by SIGKILL' \
      "$work/bench-$act.txt"
  done

  # show --impl runs one case: kill(0) and kill(getppid()) from run() are
  # that case's crash, said, and movconf lives to show it.
  for act in kill-group kill-parent; do
    MOVCONF_HOSTILE="$act@*" timeout -s KILL "$limit" setsid -w "$movconf" show --timeout 10 \
      --impl "plugin:$plugin" s2d/fault/02-crash "$cases" >"$work/show-$act.txt" 2>&1
    status=$?
    expect "show, $act: exit status 1 (a crash, not movconf killed), not $status" \
      test "$status" -eq 1
    expect "show, $act: the verdict is the plugin's process killed" \
      grep -q '^verdict  *crash: the plugin process was killed by SIGKILL' "$work/show-$act.txt"
  done

  # fuzz --jobs 2 with kill(0, SIGKILL): a finding, not a dead campaign.
  rm -rf "$work/findings"
  MOVCONF_HOSTILE=kill-group@1 timeout -s KILL "$limit" setsid -w "$movconf" fuzz --jobs 2 \
    --time 3 --timeout 5 --op SpaceToDepth-1 --seed 1 --impl "plugin:$plugin" \
    --out "$work/findings" >"$work/fuzz-kill-group.txt" 2>&1
  status=$?
  expect "fuzz --jobs 2, kill-group: exit status 1 (findings), not $status" test "$status" -eq 1
  expect "fuzz --jobs 2, kill-group: the finding is the plugin's process killed" \
    grep -q 'the plugin process was killed by SIGKILL' "$work/fuzz-kill-group.txt"

  # The plugin kills its worker's siblings: before, 2 innocent cases were
  # charged "crash"; now it cannot see them.
  run_hostile kill-siblings kill-siblings@2 --jobs 3
  expect "kill-siblings, --jobs 3: exit status 0, not $status" test "$status" -eq 0
  expect "kill-siblings, --jobs 3: every case passes" all_pass kill-siblings

  # Its worker's pipes, through /proc/PPID/fd: before, every case's plugin
  # opened them ("reached its parent's pipe"); now its /proc shows only its
  # own processes.
  for jobs in 1 2; do
    run_hostile "probe-pipes-$jobs" 'probe-pipes@*' --jobs "$jobs"
    expect "probe-pipes, --jobs $jobs: exit status 0, not $status" test "$status" -eq 0
    expect "probe-pipes, --jobs $jobs: every case passes (no pipe reached)" \
      all_pass "probe-pipes-$jobs"
  done
  run_hostile forge-done forge-done@2 --jobs 2
  expect "forge-done, --jobs 2: exit status 0 (no record forged), not $status" \
    test "$status" -eq 0

  # A plugin that forks without end (a fork bomb): its processes, threads
  # included, are bounded to 1024 or 4 per processor (spec/runner.md,
  # "Containment"), where the kernel counts them per namespace. Before, it
  # forked every one it asked for, the machine's process table its limit.
  bound=$(( $(getconf _NPROCESSORS_ONLN) * 4 ))
  [ "$bound" -lt 1024 ] && bound=1024
  if kernel_at_least 5 14; then
    MOVCONF_HOSTILE_FORKS=$((bound + 64))
    export MOVCONF_HOSTILE_FORKS
    case_timeout=100 # forking a thousand processes takes seconds on a loaded machine
    run_hostile fork-many fork-many@2
    unset MOVCONF_HOSTILE_FORKS case_timeout
    expect "fork-many: exit status 1 (its case rejected), not $status" test "$status" -eq 1
    expect "fork-many: fork failed before $bound processes, the other 21 cases pass" \
      python3 -c 'import json, re, sys
cases = json.load(open(sys.argv[1]))["cases"]
bad = [(c["id"], c.get("detail", "")) for c in cases if c["verdict"] != "pass"]
assert len(cases) == 22 and len(bad) == 1 and bad[0][0] == "s2d/fault/02-crash", bad
m = re.search(r"hostile: forked ([0-9]+) processes, then fork failed", bad[0][1])
assert m and int(m.group(1)) < int(sys.argv[2]), bad' "$work/fork-many.json" "$bound"
  fi
  # An adapter keeps movconf's user (no RLIMIT_NPROC of its own): its PID
  # namespace's pid_max bounds it, from Linux 6.14. It reads that bound.
  if kernel_at_least 6 14; then
    "$movconf" run --impl "exec:sh -c 'cat /proc/sys/kernel/pid_max >\"$work/pid-max\"; exit 1'" \
      "$cases" >"$work/pid-max.txt" 2>&1
    expect "adapter: its namespace's pid_max is the bound plus one ($(cat "$work/pid-max"))" \
      test "$(cat "$work/pid-max")" = $((bound + 1))
  fi

  # kill -9 of movconf (no --jobs) while the plugin has a setsid daemon and
  # hangs in the same case: before, the daemon outlived movconf; now it dies
  # with the namespace's init, which dies with movconf.
  MOVCONF_HOSTILE_SLEEP=$tag MOVCONF_HOSTILE='daemon@3,hang@3' setsid "$movconf" run \
    --timeout 60 --impl "plugin:$plugin" --json "$work/daemons.json" "$cases" \
    >"$work/daemons.txt" 2>&1 &
  pid=$!
  for _ in $(seq 300); do
    [ -n "$(daemons)" ] && break
    sleep 0.1
  done
  expect "daemons: the plugin started one" test -n "$(daemons)"
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
  gone=no
  for _ in $(seq 50); do
    [ -z "$(daemons)" ] && gone=yes && break
    sleep 0.1
  done
  expect "daemons: none left once movconf was killed with SIGKILL" test "$gone" = yes
  end_daemons
fi

# A setsid daemon the plugin starts in case 01 ends with case 01, not with
# the plugin's process: when case 03 hangs (its plugin says so through a
# file), movconf runs on and the daemon is gone. Before, it lived until the
# end of the run. With and without namespaces.
# strays_end_with_case MODE: the check, MODE naming it.
strays_end_with_case() {
  mark=$work/hang-began-$1
  rm -f "$mark"
  MOVCONF_HOSTILE_MARK=$mark MOVCONF_HOSTILE_SLEEP=$tag MOVCONF_HOSTILE='daemon@1,hang@3' \
    setsid "$movconf" run --timeout 60 --impl "plugin:$plugin" --json "$work/strays-$1.json" \
    "$cases" >"$work/strays-$1.txt" 2>&1 &
  pid=$!
  for _ in $(seq 300); do
    [ -e "$mark" ] && break
    sleep 0.1
  done
  expect "strays, $1: case 03 began" test -e "$mark"
  expect "strays, $1: movconf still runs case 03" kill -0 "$pid"
  expect "strays, $1: case 01's daemon ended with case 01 (left: $(daemons))" test -z "$(daemons)"
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
  expect "strays, $1: --memory-limit said to bound each process, not their sum" \
    grep -q 'memory-limit 4096 bounds each of its processes, not their sum' "$work/strays-$1.txt"
  end_daemons
}
strays_end_with_case default
export MOVCONF_NO_NAMESPACES=1
strays_end_with_case fallback
unset MOVCONF_NO_NAMESPACES

# The plugin's process is a fresh movconf, not a fork of the one that
# loaded the case files: before, every case's plugin found their ids (and
# expected outputs) in its own memory.
# Not in sanitizer builds (tests/CMakeLists.txt says why).
scans="1 2"
if [ -n "${MOVCONF_TEST_SANITIZED:-}" ]; then
  echo "skipped: scan-memory (a sanitizer build: its runtime copies what the plugin formats)"
  scans=""
fi
for jobs in $scans; do
  run_hostile "scan-memory-$jobs" 'scan-memory@*' --jobs "$jobs"
  expect "scan-memory, --jobs $jobs: exit status 0, not $status" test "$status" -eq 0
  expect "scan-memory, --jobs $jobs: every case passes (no case file in its memory)" \
    all_pass "scan-memory-$jobs"
done

# Without namespaces (as where they are unavailable): the plugin forges the
# pool's end-of-work record into its worker's pipe while its case is under
# way. Before, the parent stopped listening to that worker and waited on a
# busy one for ever, spinning; now the worker is lost and its case charged.
export MOVCONF_NO_NAMESPACES=1
run_hostile forge-fallback forge-done@2 --jobs 2
expect "fallback, forge-done: exit status 1 (not 137: hung and killed), not $status" \
  test "$status" -eq 1
expect "fallback, forge-done: case 02 is charged, as a message no worker sends" \
  sh -c "python3 -c 'import json, sys
cases = json.load(open(sys.argv[1]))[\"cases\"]
bad = [c for c in cases if c[\"verdict\"] != \"pass\"]
assert len(cases) == 22 and len(bad) == 1, bad
assert bad[0][\"id\"] == \"s2d/fault/02-crash\", bad
assert \"sent movconf a message no worker sends\" in bad[0][\"detail\"], bad' '$work/forge-fallback.json'"
# Its own session: kill(0, SIGKILL) reaches only the plugin's own processes.
run_hostile group-fallback kill-group@2 --jobs 2
expect "fallback, kill-group: exit status 1, not $status" test "$status" -eq 1
expect "fallback, kill-group: case 02 is a crash of the plugin's process, the rest pass" \
  one_crash group-fallback
unset MOVCONF_NO_NAMESPACES

# --sanitize's report folder: an adapter (it may write there, as its
# runtime does) moves the folder away and leaves a link to another folder
# at its path. Before, movconf's clean-up followed the link and deleted
# that folder's files; now it works on the folder it made, wherever it went.
rm -rf "$work/victim"
mkdir -p "$work/victim"
: >"$work/victim/keep"
"$movconf" run --sanitize address --impl "exec:sh -c 'd=\${MOVCONF_SANITIZER_REPORTS%/report}
  mv \"\$d\" \"\$d.moved\" && ln -s \"$work/victim\" \"\$d\" && echo \"\$d\" >\"$work/moved\"; exit 1'" \
  "$cases" >"$work/sanitize-link.txt" 2>&1
status=$?
expect "sanitize folder swapped: exit status 2 (no handshake), not $status" test "$status" -eq 2
expect "sanitize folder swapped: the adapter moved it" test -s "$work/moved"
expect "sanitize folder swapped: the linked folder's file is left alone" test -e "$work/victim/keep"
moved=$(cat "$work/moved" 2>/dev/null)
[ -n "$moved" ] && rm -rf "$moved" "$moved.moved"

expect_report
