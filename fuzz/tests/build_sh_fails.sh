#!/bin/sh
# fuzz/build.sh fails loudly: with a C compiler that does not exist the
# build cannot succeed, so the script must exit non-zero, say that it
# failed, and print no success line ("N fuzzers in OUT").
# usage: build_sh_fails.sh SOURCE_DIR WORKDIR
set -u
. "$1/tests/expect.sh"
src=$1 work=$2
rm -rf "$work"
mkdir -p "$work/out" "$work/work"
CC=/nonexistent/clang OUT="$work/out" WORK="$work/work" bash "$src/fuzz/build.sh" \
  >"$work/build.txt" 2>&1
status=$?
expect "a build with a missing compiler exits non-zero (exit $status)" test "$status" -ne 0
lacks "$work/build.txt" "fuzzers in"
has "$work/build.txt" "fuzz/build.sh: FAILED"
expect "no fuzzer was put into OUT" test -z "$(ls "$work/out" | grep '^fuzz_' || true)"
expect_report
