#!/bin/sh
# spec/plugin-abi.md's advice for clang holds for run --sanitize and the fuzz
# targets alike: the page's example plugin built with clang as the page says
# (-fsanitize=address,undefined, no -shared-libasan) passes its cases under
# movconf run --sanitize (movconf preloads clang's runtime for it, whatever
# compiler built movconf) and loads into an executable linked as the fuzz
# targets are (tests/plugin_load_host.c, clang's static runtime). Built with
# -shared-libasan it runs under movconf but does not load there: the reason
# for the advice. Skips without clang or its ASan runtime.
# usage: sanitize_runtimes.sh MOVCONF EXAMPLE_PLUGIN_C SOURCE_DIR WORKDIR
set -u
. "$(dirname "$0")/expect.sh"
movconf=$1 example=$2 src=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
cd "$src" || exit 1
flags="-std=c11 -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer"
if ! command -v clang >/dev/null ||
  ! clang $flags -I include -o "$work/load_host" tests/plugin_load_host.c -ldl 2>"$work/clang.txt"; then
  echo "skipped: no clang with its sanitizer runtimes (libclang-rt-dev)"
  cat "$work/clang.txt" 2>/dev/null
  exit 77
fi
# shellcheck disable=SC2086 # the flags are words
clang $flags -shared -fPIC -I include -o "$work/d2s_clang.so" "$example"
# shellcheck disable=SC2086
clang $flags -shared-libasan -shared -fPIC -I include -o "$work/d2s_shared.so" "$example"

"$movconf" run --impl "plugin:$work/d2s_clang.so" --sanitize address --op d2s >"$work/run.txt" 2>&1
status=$?
expect "the clang plugin as advised passes under run --sanitize (exit $status)" test "$status" -eq 0
"$work/load_host" "$work/d2s_clang.so" >"$work/host.txt" 2>&1
status=$?
expect "the clang plugin as advised loads where the fuzz targets load it (exit $status)" \
  test "$status" -eq 0
"$movconf" run --impl "plugin:$work/d2s_shared.so" --sanitize address --op d2s \
  >"$work/run-shared.txt" 2>&1
status=$?
expect "the -shared-libasan plugin passes under run --sanitize too (exit $status)" \
  test "$status" -eq 0
"$work/load_host" "$work/d2s_shared.so" >"$work/host-shared.txt" 2>&1
status=$?
expect "the -shared-libasan plugin does not load where the fuzz targets load it (exit $status)" \
  test "$status" -eq 1
has "$work/host-shared.txt" "libclang_rt.asan"
expect_report
