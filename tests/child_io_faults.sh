#!/bin/sh
# What an implementation under test does to the process it runs in and to
# what it shares with movconf (tests/plugin_mock.c, tests/mock_adapter.py):
# - O_NONBLOCK set on its stdout/stderr, with movconf's report going to a
#   reader that stalls under 2>&1: the report arrives whole, the exit
#   status is the run's, the SUT's text is relayed prefixed and escaped;
# - 2 MiB written to its stdout: relayed bounded, and the run goes on;
# - the soft address-space limit raised back to the hard one;
# - an adapter that exits while a process it started keeps its pipes open:
#   a crash at once, not a timeout, and that process does not outlive the run;
# - a plugin that calls exit(0) or hangs in movconf bench: exit 1 and said;
#   one that writes into its output after run() returned: the row's error;
#   one that prints or scribbles there: relayed, the table whole;
# - a plugin or an adapter that dies of a signal under `ulimit -c
#   unlimited`: no core file in the folder movconf runs in.
# usage: child_io_faults.sh MOVCONF PLUGIN_MOCK SOURCE_DIR WORK_DIR PYTHON
set -u
movconf=$1 mock=$2 src=$3 work=$4 python=$5
mkdir -p "$work"
. "$(dirname "$0")/expect.sh"
adapter="exec:exec '$python' '$src/tests/mock_adapter.py' --run-$$"

# verdicts FILE: "id verdict" lines of the JSON report in FILE, which may
# have text around it (stderr under 2>&1: the summary, the SUT's relayed
# lines); the report itself must be whole, strict UTF-8.
verdicts() {
  "$python" -c 'import json, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "strict")
start = 0 if text.startswith("{") else text.index("\n{") + 1
report, _ = json.JSONDecoder().raw_decode(text, start)
for c in report["cases"]:
    print(c["id"], c["verdict"])' "$1"
}
# stalled NAME COMMAND...: COMMAND's stdout and stderr to one pipe whose
# reader sleeps 3 s first; output in $work/NAME.out, exit status in
# $work/NAME.status.
stalled() {
  name=$1; shift
  { "$@"; echo $? >"$work/$name.status"; } 2>&1 | (sleep 3; cat) >"$work/$name.out"
}

# ---- O_NONBLOCK on a shared stderr: the report survives a stalled reader ----
s2d="$src/conformance/space_to_depth_1"
d2s="$src/conformance/depth_to_space_1"
"$movconf" run --impl "plugin:$mock" --json - --quiet "$d2s" "$s2d" >"$work/plugin-ref.json" 2>&1
echo $? >"$work/plugin-ref.status"
MOVCONF_MOCK_FAULT=nonblock-stdio@1 stalled plugin-nonblock \
  "$movconf" run --impl "plugin:$mock" --json - --quiet "$d2s" "$s2d"
verdicts "$work/plugin-ref.json" >"$work/plugin-ref.verdicts"
verdicts "$work/plugin-nonblock.out" >"$work/plugin-nonblock.verdicts"
echo "plugin: $(wc -c <"$work/plugin-nonblock.out") bytes through the stalled pipe, $(wc -l <"$work/plugin-ref.verdicts") cases"
expect "plugin O_NONBLOCK: the run passes (exit 0, not $(cat "$work/plugin-nonblock.status"))" \
  test "$(cat "$work/plugin-nonblock.status")" -eq 0
expect "plugin O_NONBLOCK: the JSON report is whole (every case, the verdicts of a plain run)" \
  cmp -s "$work/plugin-ref.verdicts" "$work/plugin-nonblock.verdicts"
expect "plugin O_NONBLOCK: a big report (more than a pipe holds)" \
  test "$(wc -c <"$work/plugin-nonblock.out")" -gt 200000
expect "plugin O_NONBLOCK: the plugin's text relayed, prefixed and escaped" grep -Fq \
  "[plugin:$mock] plugin_mock: \\x1b[2Jstdio made non-blocking" "$work/plugin-nonblock.out"

"$movconf" run --impl "$adapter" --json - --quiet "$s2d" >"$work/adapter-ref.json" 2>/dev/null
echo $? >"$work/adapter-ref.status"
MOCK_FAULT=nonblock-stderr stalled adapter-nonblock "$movconf" run --impl "$adapter" --json - --quiet "$s2d"
verdicts "$work/adapter-ref.json" >"$work/adapter-ref.verdicts"
verdicts "$work/adapter-nonblock.out" >"$work/adapter-nonblock.verdicts"
echo "adapter: $(wc -c <"$work/adapter-nonblock.out") bytes through the stalled pipe, $(wc -l <"$work/adapter-ref.verdicts") cases"
expect "adapter O_NONBLOCK: the exit status of a plain run" \
  test "$(cat "$work/adapter-nonblock.status")" -eq "$(cat "$work/adapter-ref.status")"
expect "adapter O_NONBLOCK: the JSON report is whole (every case, the verdicts of a plain run)" \
  cmp -s "$work/adapter-ref.verdicts" "$work/adapter-nonblock.verdicts"
expect "adapter O_NONBLOCK: a big report (more than a pipe holds)" \
  test "$(wc -c <"$work/adapter-nonblock.out")" -gt 200000
expect "adapter O_NONBLOCK: the adapter's text relayed, prefixed and escaped" grep -Fq \
  "[exec:exec '$python' '$src/tests/mock_adapter.py' --run-$$] mock: \\x1b[2Jstderr made non-blocking" \
  "$work/adapter-nonblock.out"

# ---- a flood on stdout: relayed up to the bound, the run goes on ----
cases="$src/tests/data/plugin_faults"
MOVCONF_MOCK_FAULT=flood@1 MOVCONF_MOCK_UNSUPPORTED= "$movconf" run --impl "plugin:$mock" \
  --timeout 10 "$cases" >"$work/flood.out" 2>"$work/flood.err"
status=$?
expect "flood: every case passes (exit 0, not $status)" test "$status" -eq 0
expect "flood: the relay stops near 1 MiB ($(wc -c <"$work/flood.err") bytes of stderr)" \
  test "$(wc -c <"$work/flood.err")" -lt $((1200 * 1024))
expect "flood: and says so" grep -q 'more output dropped: movconf relays at most 1048576 bytes' \
  "$work/flood.err"

# ---- a limit the plugin lifts ----
MOVCONF_MOCK_FAULT=lift-memory-limit@1 MOVCONF_MOCK_UNSUPPORTED= "$movconf" run \
  --impl "plugin:$mock" --memory-limit 256 --json "$work/lift.json" "$cases" >"$work/lift.out" 2>&1
verdicts "$work/lift.json" >"$work/lift.verdicts"
expect "lift-memory-limit: the limit holds (case 01 passes, the mapping beyond it failed)" \
  grep -q '^s2d/fault/01-none pass$' "$work/lift.verdicts"

# ---- an adapter that exits while its child keeps its pipes open ----
tag=$((6000000 + $$ % 100000))
rm -f "$work/grandchild.state" "$work/grandchild.state.fault" "$work/grandchild.state.grandchild"
before=$(date +%s)
MOCK_FAULT=grandchild-exit MOCK_AT=2 MOCK_STATE="$work/grandchild.state" MOCK_GRANDCHILD=$tag \
  "$movconf" run --timeout 30 --json "$work/grandchild.json" --impl "$adapter" \
  "$src/tests/data/adapter" >"$work/grandchild.out" 2>&1
took=$(($(date +%s) - before))
"$python" -c 'import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    print(c["id"], c["verdict"], c.get("detail", ""))' "$work/grandchild.json" >"$work/grandchild.txt"
expect "grandchild-exit: crash, exited with status 0" grep -Eq \
  '^s2d/mock/2-f32 crash the adapter exited with status 0 while working on the reply' \
  "$work/grandchild.txt"
expect "grandchild-exit: noticed at once, not at the 30 s timeout (took $took s)" test "$took" -lt 15
expect "grandchild-exit: later cases pass" grep -q '^s2d/mock/7-u4 pass' "$work/grandchild.txt"
# The pid the adapter wrote is its namespace's (spec/runner.md,
# "Containment"), not one this script can signal: the child is known by
# its command line instead.
grandchild=$(cat "$work/grandchild.state.grandchild" 2>/dev/null || echo 0)
expect "grandchild-exit: the adapter started its child (pid $grandchild)" \
  test "$grandchild" -gt 0
expect "grandchild-exit: no 'sleep $tag' survives" sh -c "! ps -eo args | grep -q '^sleep $tag\$'"

# ---- movconf bench: a plugin that ends the process ----
MOVCONF_MOCK_FAULT=exit-0@2 "$movconf" bench --quick --filter 's2d/*' --impl "plugin:$mock" \
  >"$work/bench-exit.out" 2>&1
status=$?
expect "bench, plugin calls exit(0): exit 1, not $status" test "$status" -eq 1
expect "bench, plugin calls exit(0): said, with the workload" grep -q \
  'the benchmark did not complete: its process exited with status 0 during workload s2d/blocks_first' \
  "$work/bench-exit.out"
MOVCONF_MOCK_FAULT=crash@2 "$movconf" bench --quick --filter 's2d/*' --impl "plugin:$mock" \
  >"$work/bench-crash.out" 2>&1
status=$?
expect "bench, plugin crashes: exit 1, not $status" test "$status" -eq 1
# (killed by SIGSEGV; under ASan, its handler's exit status)
expect "bench, plugin crashes: said" grep -q \
  'the benchmark did not complete: its process .* during workload s2d/blocks_first' \
  "$work/bench-crash.out"

# A plugin that answers wrong, or announces an output beyond any cap: the
# row says MISMATCH and the bench fails.
for fault in wrong-value huge; do
  MOVCONF_MOCK_FAULT="$fault@*" "$movconf" bench --quick --filter 's2d/small/*' \
    --impl "plugin:$mock" >"$work/bench-$fault.out" 2>&1
  status=$?
  expect "bench, $fault: exit 1, not $status" test "$status" -eq 1
  expect "bench, $fault: said" grep -q 'MISMATCH OR ERROR' "$work/bench-$fault.out"
done

# A plugin that leaves a thread writing into its output after run()
# returned: the calls bench times one after another into one buffer would
# not show it (before, the row passed with the writer's time in it); the
# request run alone first, in a process of its own, does: the row is an
# error that says so, and the bench fails.
MOVCONF_MOCK_FAULT='late-write@*' "$movconf" bench --quick --filter 's2d/small/*' \
  --impl "plugin:$mock" >"$work/bench-late-write.out" 2>&1
status=$?
expect "bench, late-write: exit 1, not $status" test "$status" -eq 1
expect "bench, late-write: the row says the late write" grep -q \
  '^  mock 1: \*\*\* ERROR \*\*\*: run alone in a process of its own, it faulted after run() returned (SIGSEGV: wrote to (or read) its output after run() returned' \
  "$work/bench-late-write.out"

# What the plugin prints goes to the relay, bounded, prefixed and made
# safe; the table goes on to stdout, whole; no file movconf writes can be
# reached through the benchmark's descriptors (a plugin that scribbles on
# them). Before, the plugin shared the table's stdout: 2 MiB per call went
# there raw (14 MB for one workload) and the scribble landed in the files.
rm -rf "$work/bench-files" && mkdir -p "$work/bench-files"
for fault in flood scribble-files; do
  MOVCONF_MOCK_FAULT="$fault@*" MOVCONF_MOCK_SCRIBBLE_DIR="$work/bench-files/" "$movconf" bench \
    --quick --filter 's2d/small/*' --impl "plugin:$mock" >"$work/bench-files/$fault.out" \
    2>"$work/bench-files/$fault.err"
  status=$?
  expect "bench, $fault: exit 0, not $status" test "$status" -eq 0
  expect "bench, $fault: the table alone on stdout" \
    test "$(grep -vc -e '^movconf bench: ' -e '^and ' -e '^op ' -e '^SpaceToDepth-1 ' -e '^  ' \
      "$work/bench-files/$fault.out")" -eq 0
  # Two relays, each bounded: the one of the benchmark's process and the one
  # of the request run alone first (the late-write check).
  expect "bench, $fault: stderr bounded ($(wc -c <"$work/bench-files/$fault.err") bytes)" \
    test "$(wc -c <"$work/bench-files/$fault.err")" -lt $((2 * 1200 * 1024))
  expect "bench, $fault: no junk in its output" \
    sh -c "! grep -q JUNK '$work/bench-files/$fault.out' '$work/bench-files/$fault.err'"
done
expect "bench, flood: the relay said where it stopped" grep -q \
  "^\[plugin:$mock\] (more output dropped: movconf relays at most 1048576 bytes" \
  "$work/bench-files/flood.err"

# A plugin that forks in its calls, both copies returning (by fork() and by
# the clone system call): the copy once went on as the benchmark, printing
# every row again, and the bench passed. Now it ends, and the bench fails.
# A copy that went on timing was copied again at each call: the raw clone's
# copies once doubled at every call, 32,000 processes in seconds (the outer
# timeout keeps such a run from taking the machine: 124 then).
for fork in fork fork-raw; do
  MOVCONF_MOCK_FAULT="$fork@*" timeout 120 "$movconf" bench --quick --filter 's2d/small/*' \
    --impl "plugin:$mock" >"$work/bench-$fork.out" 2>&1
  status=$?
  expect "bench, $fork: exit 1, not $status" test "$status" -eq 1
  expect "bench, $fork: said" grep -q \
    'the plugin forked in a call and both copies returned from it' "$work/bench-$fork.out"
  expect "bench, $fork: its rows printed once" \
    test "$(grep -c '^movconf bench: [0-9]* thread' "$work/bench-$fork.out")" -eq 1
done

# A plugin call that never returns: the default --timeout (10 s) ends the
# benchmark (the outer timeout only guards this script against a hang).
MOVCONF_MOCK_FAULT=hang@2 timeout 300 "$movconf" bench --quick --filter 's2d/*' \
  --impl "plugin:$mock" >"$work/bench-hang.out" 2>&1
status=$?
expect "bench, plugin hangs: exit 1, not $status (124: still running after 300 s)" \
  test "$status" -eq 1
expect "bench, plugin hangs: said, with the timeout and the workload" grep -q \
  'did not complete: its process was ended: a call of the plugin did not return within 10 s (--timeout) during workload s2d/blocks_first' \
  "$work/bench-hang.out"
MOVCONF_MOCK_FAULT=hang@2 "$movconf" bench --quick --filter 's2d/*' --impl "plugin:$mock" \
  --timeout 1 >"$work/bench-hang-1.out" 2>&1
expect "bench --timeout 1: the plugin's hang is said with that timeout" grep -q \
  'did not return within 1 s (--timeout)' "$work/bench-hang-1.out"

# ---- no core file from an implementation's crash ----
# Under `ulimit -c unlimited` (where the hard limit allows it) a plugin's
# abort or an adapter's SIGSEGV would write (or replace) ./core; movconf
# zeroes RLIMIT_CORE in every process that runs an implementation's code.
# crash_leaves_no_core NAME COMMAND...: COMMAND (with its environment) run
# in an empty folder under `ulimit -c unlimited` reports a crash and leaves
# the folder empty.
crash_leaves_no_core() {
  name=$1; shift
  rm -rf "$work/core-$name" && mkdir -p "$work/core-$name"
  (cd "$work/core-$name" && ulimit -c unlimited && "$@") >"$work/core-$name.out" 2>&1
  expect "$name: the crash happened" grep -Eq 'killed by SIG(ABRT|SEGV)' "$work/core-$name.out"
  expect "$name: no core file ($(ls "$work/core-$name"))" test -z "$(ls "$work/core-$name")"
}
if (ulimit -c unlimited) 2>/dev/null; then
  MOVCONF_MOCK_FAULT=abort@1 crash_leaves_no_core plugin \
    "$movconf" run --impl "plugin:$mock" --timeout 30 "$cases"
  MOCK_FAULT=signal MOCK_AT=2 crash_leaves_no_core adapter \
    "$movconf" run --impl "$adapter" --timeout 30 "$src/tests/data/adapter"
  MOVCONF_MOCK_FAULT=abort@2 crash_leaves_no_core bench-plugin \
    "$movconf" bench --quick --filter 's2d/*' --impl "plugin:$mock"
fi

expect_report
