#!/bin/sh
# --sanitize address with a C++ plugin that throws and catches in every
# run() (plugin_planted_cxx: tests/plugin_planted.c with
# tests/planted_throw.cpp): every case passes as without the sanitizer. ASan
# intercepts __cxa_throw when it starts; movconf preloads the C++ runtime the
# plugin needs after the sanitizer's, or the first throw would end in
# "AddressSanitizer: CHECK failed" (exit 86). With CHECK_RUNTIME (gcc's ASan
# runtime, where that failure happens) preloaded alone through
# MOVCONF_ASAN_RUNTIME, the failure is a crash that says what it means.
# usage: sanitize_cxx.sh MOVCONF CXX_PLUGIN|none SOURCE_DIR WORKDIR CHECK_RUNTIME|none
set -u
. "$(dirname "$0")/expect.sh"
movconf=$1 plugin=$2 src=$3 work=$4 check_runtime=$5
if [ "$plugin" = none ]; then
  echo "skipped: no C++ compiler at configure time (or MOVCONF_CXX=OFF)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
cd "$src" || exit 1
cases="conformance/space_to_depth_1/spec_examples.json conformance/depth_to_space_1/hand.json"

# shellcheck disable=SC2086 # the case files are words
"$movconf" run --impl "plugin:$plugin" --sanitize address $cases >"$work/cxx.txt" 2>&1
status=$?
expect "the throwing C++ plugin passes every case under --sanitize (exit $status)" \
  test "$status" -eq 0
lacks "$work/cxx.txt" "CHECK failed"

if [ "$check_runtime" != none ]; then
  # shellcheck disable=SC2086
  MOVCONF_ASAN_RUNTIME=$check_runtime "$movconf" run --impl "plugin:$plugin" \
    --sanitize address $cases >"$work/check.txt" 2>&1
  status=$?
  expect "with the C++ runtime loaded after ASan's, the run fails (exit $status)" \
    test "$status" -eq 1
  has "$work/check.txt" "crash: .*the sanitizer's runtime gave up (AddressSanitizer CHECK failed"
  has "$work/check.txt" "not a memory error; with a C++ plugin, its C++ runtime was loaded after"
  lacks "$work/check.txt" "memory-error"
fi
expect_report
