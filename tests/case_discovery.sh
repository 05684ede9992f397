#!/bin/sh
# Finding case files when the tree is hostile: symbolic links that loop, a
# FIFO named like a case file, a directory that cannot be read. Every run
# is under `timeout`: a hang is a failure, not a stuck test.
# usage: case_discovery.sh MOVCONF SOURCE_DIR WORK_DIR
set -u
movconf=$1 src=$2 work=$3
. "$(dirname "$0")/expect.sh"
rm -rf "$work"
mkdir -p "$work/loop/sub" "$work/fifo" "$work/locked/open" "$work/locked/shut"
case_file=$src/tests/data/adapter/mock_cases.json

# Two links to "." in one directory (and one to its parent): 2^33 paths
# once, now each directory is visited once.
cp "$case_file" "$work/loop/sub/cases.json"
ln -s . "$work/loop/sub/a"
ln -s . "$work/loop/sub/b"
ln -s .. "$work/loop/sub/up"
timeout 10 "$movconf" check-cases "$work/loop" >"$work/loop.txt" 2>&1
expect "symlink loop: check-cases ends, exit 0, not $?" test $? -eq 0
expect "symlink loop: the one file is found once" grep -q '^1 files, 7 cases, 0 problems' "$work/loop.txt"
timeout 10 "$movconf" run --impl oracle "$work/loop" >"$work/loop-run.txt" 2>&1
expect "symlink loop: run ends with the 7 cases" grep -Eq '^total +7 ' "$work/loop-run.txt"

# A FIFO: refused, never opened (opening it would wait for a writer forever).
mkfifo "$work/fifo/cases.json"
timeout 10 "$movconf" run --impl oracle "$work/fifo/cases.json" >"$work/fifo.txt" 2>&1
expect "FIFO given as a path: exit 2, not $?" test $? -eq 2
expect "FIFO given as a path: says why" grep -q 'fifo/cases.json: not a regular file' "$work/fifo.txt"
timeout 10 "$movconf" check-cases "$work/fifo" >"$work/fifo-dir.txt" 2>&1
expect "FIFO found in a directory: exit 2, not $?" test $? -eq 2
expect "FIFO found in a directory: says why" grep -q 'not a regular file' "$work/fifo-dir.txt"

# A directory that cannot be read is an error, not silently skipped. root
# reads everything, so then movconf runs as nobody.
cp "$case_file" "$work/locked/open/cases.json"
chmod 000 "$work/locked/shut"
as_user=""
if [ "$(id -u)" -eq 0 ]; then
  as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
  chmod -R a+rX "$work/locked/open"
  chmod a+rx "$work" "$work/locked"
fi
timeout 10 $as_user "$movconf" check-cases "$work/locked" >"$work/locked.txt" 2>&1
expect "unreadable directory: check-cases exits 2, not $?" test $? -eq 2
expect "unreadable directory: says which" grep -q 'locked/shut: cannot read the directory' "$work/locked.txt"
timeout 10 $as_user "$movconf" run --impl oracle "$work/locked" >"$work/locked-run.txt" 2>&1
expect "unreadable directory: run exits 2, not $?" test $? -eq 2
chmod 755 "$work/locked/shut"

expect_report
