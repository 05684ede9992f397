#!/bin/sh
# Output files never destroy an input or each other: every file movconf
# writes goes to a temporary file beside it, renamed when complete; an
# output that is the same file as an input or another output (same inode,
# or the same path once resolved) is refused before the run, exit 2, both
# named, nothing written. And an input file option at a FIFO is refused
# (as case discovery refuses it), not waited on.
# usage: output_files.sh MOVCONF PLUGIN_MOCK SOURCE_DIR WORK_DIR PYTHON
set -u
movconf=$1 mock=$2 src=$3 work=$4 python=$5
rm -rf "$work"
mkdir -p "$work"
. "$(dirname "$0")/expect.sh"
cd "$work" || exit 1
cp "$src/tests/data/plugin_faults/cases.json" case.json
cp case.json original.json

# refused NAME COMMAND...: exit 2 and a message naming both files.
refused() {
  name=$1; shift
  "$@" >"$name.out" 2>"$name.err"
  status=$?
  expect "$name: exit 2 (got $status)" test "$status" -eq 2
}

# ---- an output that is an input or another output ----
refused json-is-case "$movconf" run case.json --json case.json
has json-is-case.err 'json case.json is the same file as the case file case.json'
expect "json-is-case: the case file is intact" cmp -s case.json original.json

refused json-junit "$movconf" run case.json --json rep.out --junit rep.out
has json-junit.err 'junit rep.out is the same file as --json rep.out'
expect "json-junit: nothing written" test ! -e rep.out

echo keep >X
refused json-write-expect "$movconf" run case.json --json X --write-expect X
has json-write-expect.err 'write-expect X is the same file as --json X'
expect "json-write-expect: X as it was" test "$(cat X)" = keep

ln -s case.json link.json
refused json-link "$movconf" run case.json --json link.json
has json-link.err 'json link.json is the same file as the case file case.json'
mkdir -p sub
refused json-resolved "$movconf" run case.json --json sub/../r.json --junit ./r.json
has json-resolved.err 'junit ./r.json is the same file as --json sub/../r.json'
refused expect-written "$movconf" run case.json --expect X --write-expect ./X
has expect-written.err 'write-expect ./X is the same file as --expect X'
refused clauses-json "$movconf" clauses --json case.json case.json
has clauses-json.err 'json case.json is the same file as the case file case.json'
expect "clauses-json: the case file is intact" cmp -s case.json original.json

cp "$mock" plugin.so
refused bench-json-plugin "$movconf" bench --quick --filter 's2d/*' --impl plugin:./plugin.so \
  --json plugin.so
has bench-json-plugin.err 'json plugin.so is the same file as the plugin ./plugin.so'
expect "bench-json-plugin: the plugin is intact" cmp -s plugin.so "$mock"

"$movconf" run case.json --json /dev/null --junit /dev/null >devnull.out 2>&1
expect "a device is a stream: --json /dev/null --junit /dev/null runs" test $? -eq 0

# ---- an output that cannot be written: found out before the run ----
refused unwritable "$movconf" run case.json --write-expect missing/dir/x.json
has unwritable.err 'write-expect missing/dir/x.json: cannot write'
refused bench-unwritable "$movconf" bench --quick --json missing/dir/b.json
has bench-unwritable.err 'json missing/dir/b.json: cannot write'

# ---- two runs writing one --json: the file is one run's whole report ----
cp original.json case.json # whatever happened above
# The second run is slow (a case takes 1.5 s) and has fewer cases, so with
# reports written in place its shorter report lands over the first's.
MOVCONF_MOCK_FAULT=slow@3 "$movconf" run --impl "plugin:$mock" --case 's2d/fault/0[1-3]-*' \
  --json same.json case.json >slow.out 2>&1 &
slow=$!
"$movconf" run --json same.json case.json >fast.out 2>&1
wait "$slow"
expect "two runs, one --json: valid JSON, one run's report" "$python" -c '
import json, sys
r = json.load(open("same.json"))
assert len(r["cases"]) in (3, 12), len(r["cases"])'
expect "no temporary file left" sh -c '! ls | grep -q "\.tmp$"'

# A report replacing a file keeps its mode.
chmod 640 same.json
"$movconf" run --json same.json case.json >/dev/null 2>&1
expect "a replaced report keeps its mode" test "$(stat -c %a same.json)" = 640

# ---- a run ended by a signal: the old report stays, no temporary file ----
echo '{"old": true}' >kept.json
MOVCONF_MOCK_FAULT=hang@3 "$movconf" run --impl "plugin:$mock" --timeout 120 --json kept.json \
  case.json >signal.out 2>&1 &
run=$!
# Until the run has started the plugin's process (at most about 60 s);
# the report's file is only made once the cases are done, so none exists
# while the third case hangs.
tries=0
while ! pgrep -P "$run" >/dev/null && [ "$tries" -lt 600 ]; do
  sleep 0.1
  tries=$((tries + 1))
done
sleep 1
kill -TERM "$run" # (SIGINT: ignored by a background job of sh)
wait "$run"
expect "SIGTERM: the old report is intact" test "$(cat kept.json)" = '{"old": true}'
expect "SIGTERM: no temporary file left" sh -c '! ls | grep -q "\.tmp$"'

# ---- input file options at a FIFO: refused at once ----
mkfifo fifo
fifo_refused() {
  name=$1; shift
  timeout 60 "$@" >"$name.out" 2>"$name.err"
  status=$?
  expect "$name: exit 2, not a hang (got $status)" test "$status" -eq 2
  has "$name.err" 'not a regular file'
}
fifo_refused expect-fifo "$movconf" run case.json --expect fifo
fifo_refused plugin-fifo "$movconf" run case.json --impl plugin:./fifo
fifo_refused show-plugin-fifo "$movconf" show 's2d/fault/01-none' --impl plugin:./fifo case.json
fifo_refused bench-plugin-fifo "$movconf" bench --quick --filter 's2d/*' --impl plugin:./fifo
fifo_refused case-fifo "$movconf" run fifo
expect_report
