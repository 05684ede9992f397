#!/bin/sh
# The shared-memory payload (spec/adapter-protocol.md, section 16) against
# tests/shm_hostile_adapter.py, once per fault: a lie about the byte count is
# a protocol violation of that case alone, and so is a mapping left writable
# after the reply; bytes past the count, scribbles on the inputs, writes
# after the reply, through an old request's path, and an attempt to
# truncate the file change nothing; every other case of tests/data/adapter/mock_cases.json
# keeps its verdict, movconf finishes the run and no adapter is left.
# usage: adapter_shm.sh MOVCONF SOURCE_DIR WORK_DIR PYTHON
set -u
. "$(dirname "$0")/adapter_checks.sh"
adapter_test_args "$@"

# run_fault FAULT [OPTIONS...]: "id verdict detail" lines in $work/FAULT.txt,
# the exit status in $status.
run_fault() {
  fault=$1
  shift
  SHM_FAULT=$fault run_adapter "$fault" shm_hostile_adapter.py --payload shared-memory --timeout 30 "$@"
}

# Every case but the faulted one (case 2, f32) as a behaving adapter
# leaves it: 4 and 7 pass, 3 is the expected rejection, 5 unsupported.
others_hold() { # others_hold FAULT
  expect "$1: all 7 cases reported (see $work/$1.txt)" test "$(wc -l <"$work/$1.txt")" -eq 7
  expect "$1: case 1 passes" case_is "$1" 1-u8 pass
  expect "$1: case 3 passes" case_is "$1" 3-mode-missing pass
  expect "$1: case 4 passes" case_is "$1" 4-i16 pass
  expect "$1: case 7 passes" case_is "$1" 7-u4 pass
  expect "$1: no adapter process is left" no_adapter_left shm_hostile_adapter.py
}

# A behaving adapter passes through shared memory (it rejects a request
# without a file, so this also shows movconf sent one).
run_fault none
expect "none: exit status 0, not $status" test "$status" -eq 0
expect "none: case 2 passes" case_is none 2-f32 pass
others_hold none

# Lies about the byte count: a protocol violation of case 2 only.
for fault in count-short count-long; do
  run_fault $fault
  expect "$fault: case 2 is a crash naming output.bytes" \
    case_is $fault 2-f32 crash "protocol violation: output.bytes says"
  expect "$fault: exit status 1, not $status" test "$status" -eq 1
  others_hold $fault
done

# What the adapter does outside its count, to the inputs, to the file's
# size or after its reply changes no verdict.
for fault in beyond-count scribble truncate late-write; do
  run_fault $fault
  expect "$fault: exit status 0, not $status" test "$status" -eq 0
  expect "$fault: case 2 passes" case_is $fault 2-f32 pass
  others_hold $fault
done
expect "truncate: the seals refused it" grep -q "ftruncate refused" "$work/truncate.out"
# Before: the late writes went through (into files already judged).
expect "late-write: the seal against writes refused them" \
  grep -q "late write refused: .*Operation not permitted" "$work/late-write.out"

# Files an adapter can still change once it replied are not judged:
# a mapping left writable is a protocol violation (the file could not be
# sealed against writes); an earlier request's path names no later file.
# Before: kept-mapping passed; stale-path gave every case after the
# first a wrong-output (the old path named the new file).
run_fault kept-mapping
expect "kept-mapping: case 2 is a crash naming the mapping" \
  case_is kept-mapping 2-f32 crash "protocol violation: the shared memory file is still mapped writable after the reply"
others_hold kept-mapping
run_fault stale-path
expect "stale-path: exit status 0, not $status" test "$status" -eq 0
expect "stale-path: case 2 passes" case_is stale-path 2-f32 pass
others_hold stale-path

# --sanitize address: only the report the runtimes name after the
# implementation's own process counts; files others drop into the log
# folder are not its memory errors. Before: forge-others made case 2 a
# memory-error (its "==PID==ERROR: AddressSanitizer" lines).
run_fault forge-others --sanitize address
expect "forge-others: exit status 0, not $status" test "$status" -eq 0
expect "forge-others: case 2 passes" case_is forge-others 2-f32 pass
others_hold forge-others
run_fault forge-own --sanitize address
expect "forge-own: its own report makes case 2 a memory-error" \
  case_is forge-own 2-f32 memory-error "AddressSanitizer: heap-buffer-overflow"
others_hold forge-own

# A reply naming the whole sparse output region (256 MiB here) that it
# never wrote: a protocol violation found before movconf allocates or
# reads it (it once copied that many zeros and judged them).
run_fault huge-sparse --max-output-bytes 268435456
expect "huge-sparse: case 2 is a crash naming the unwritten region" \
  case_is huge-sparse 2-f32 crash "protocol violation: output.bytes says 268435456 bytes were written, but the output region holds no data from its byte 4096 on"
others_hold huge-sparse

# No reply: a timeout of that case alone (the half-written file is dropped).
run_fault hang --timeout 5
expect "hang: case 2 is a timeout" case_is hang 2-f32 timeout
others_hold hang

# "bytes" in reply to a base64 request (--payload base64).
run_fault bytes-no-file --payload base64
expect "bytes-no-file: case 2 is a crash" \
  case_is bytes-no-file 2-f32 crash "without a shared memory file"
others_hold bytes-no-file

# The shared Python module (through the numpy adapter) takes the file and
# writes its outputs there; with --payload base64 everything is base64; by
# default only requests of 64 KiB or more get a file.
# Its status is movconf's, also in $status.
numpy_run() { # numpy_run NAME [OPTIONS...]: request and reply lines in $work/NAME.*
  name=$1
  shift
  "$movconf" run "$@" --impl "exec:tee '$work/$name.requests' | \
    /usr/bin/python3 '$src/examples/numpy_adapter.py' | tee '$work/$name.replies'" \
    >"$work/$name.out" 2>&1
  status=$?
  return $status
}
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  # With 64 descriptors, a file left open per request would run out within
  # the operation's 764 cases.
  (ulimit -n 64 && numpy_run numpy-shm --payload shared-memory --op SpaceToDepth-1)
  status=$?
  expect "numpy-shm: exit status 0, not $status" test "$status" -eq 0
  expect "numpy-shm: the handshake offers shared memory" \
    grep -q '"shared_memory": true' "$work/numpy-shm.replies"
  expect "numpy-shm: every request has a file" \
    test "$(grep -c '"shared_memory":{"path":"/proc/' "$work/numpy-shm.requests")" -eq \
    "$(wc -l <"$work/numpy-shm.requests")"
  expect "numpy-shm: outputs come back through it" grep -q '"output":{[^}]*"bytes":' \
    "$work/numpy-shm.replies"
  expect "numpy-shm: no output in base64" test "$(grep -c '"base64"' "$work/numpy-shm.replies")" -eq 0
  numpy_run numpy-base64 --payload base64 --op SpaceToDepth-1
  expect "numpy-base64: exit status 0, not $status" test "$status" -eq 0
  expect "numpy-base64: no request has a file" test "$(grep -c shared_memory \
    "$work/numpy-base64.requests")" -eq 0
  expect "numpy-base64: outputs in base64" grep -q '"output":{[^}]*"base64":' \
    "$work/numpy-base64.replies"
  # 3,808 and 7,616 bytes each way: base64; 254 KiB and 508 KiB: files.
  numpy_run numpy-auto --tier large --case 's2d/gen/large-sizes/00[01][01]-*'
  expect "numpy-auto: exit status 0, not $status" test "$status" -eq 0
  expect "numpy-auto: 4 requests" test "$(wc -l <"$work/numpy-auto.requests")" -eq 4
  expect "numpy-auto: the 2 large ones with a file" \
    test "$(grep -c '"shared_memory":{' "$work/numpy-auto.requests")" -eq 2
  expect "numpy-auto: the f32 one among them" \
    grep -q '"type":"f32","shape":\[1,16,21,189\],"offset":0}.*"shared_memory":{' \
    "$work/numpy-auto.requests"
else
  echo "numpy is not installed for /usr/bin/python3: the numpy checks are skipped"
fi

# --payload takes auto, base64 or shared-memory only.
"$movconf" run --payload mmap --impl "exec:true" "$cases" >"$work/bad-option.out" 2>&1
status=$?
expect "--payload mmap: exit status 2, not $status" test "$status" -eq 2
expect "--payload mmap: says what it takes" \
  grep -q -- "--payload takes auto, base64 or shared-memory" \
  "$work/bad-option.out"

echo "$passes checks passed, $failures failed"
[ "$failures" -eq 0 ]
