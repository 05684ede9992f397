#!/bin/sh
# movconf as an installed tool (README "Installing"): cmake --install into a
# temporary prefix, moved elsewhere (the install must be relocatable and must
# not reach back into the build or source tree); then, from an unrelated
# folder: --version names the moved data folder, `movconf run` passes every
# case and loads every file of both tiers, out-of-tree plugins build with find_package(movconf)
# (movconf::plugin, movconf::kernels) and with pkg-config and pass through
# the installed movconf, and man -l shows every page.
# usage: install.sh BUILD_DIR SOURCE_DIR WORK CMAKE CTEST C_COMPILER
set -u
build=$1 src=$2 work=$3 cmake=$4 ctest=$5 cc=$6
. "$(dirname "$0")/expect.sh"
rm -rf "$work" && mkdir -p "$work/elsewhere"

"$cmake" --install "$build" --prefix "$work/staged" >"$work/install.log" 2>&1
expect "cmake --install into a temporary prefix (see $work/install.log)" test $? -eq 0
mv "$work/staged" "$work/prefix"
prefix=$work/prefix movconf=$work/prefix/bin/movconf
cd "$work/elsewhere" || exit 1

# No path of the build or source tree in the program's data (debug info aside).
objcopy -O binary --only-section=.rodata "$movconf" "$work/rodata.bin"
expect "the program's .rodata was read" test -s "$work/rodata.bin"
expect "no source-tree path is compiled into the program" sh -c '! grep -qF "$1" "$2"' - "$src" "$work/rodata.bin"
expect "no build-tree path is compiled into the program" sh -c '! grep -qF "$1" "$2"' - "$build" "$work/rodata.bin"

# The version of project() in CMakeLists.txt, everywhere: --version, the run
# and fuzz JSON reports (movconf_version), the man pages (below).
version=$(sed -n 's/^project(movconf VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
"$movconf" --version >"$work/version.txt" 2>&1
has "$work/version.txt" "^movconf $version$"
has "$work/version.txt" "^data folder: $prefix/share/movconf (installed beside the program)$"
"$movconf" run --help >"$work/run-help.txt" 2>&1
has "$work/run-help.txt" "^data folder: $prefix/share/movconf "

# From the moved install: every case of the default tier, and every file of
# both tiers loaded (an invalid or unreadable one fails the run) with the
# large tier's empty tensors run. The whole large tier is conformance/large's
# (about 50 s here; issue 34).
"$movconf" run --quiet --json "$work/run-all.json" >"$work/run-all.txt" 2>&1
expect "movconf run exits 0 (see $work/run-all.txt)" test $? -eq 0
has "$work/run-all.txt" "^[1-9][0-9]* passed, 0 failed, 0 unsupported$"
tail -1 "$work/run-all.txt"
"$movconf" run --tier all --case '*/gen/large-empty/*' --quiet >"$work/run-large.txt" 2>&1
expect "movconf run --tier all of the large tier's empty tensors exits 0 (see $work/run-large.txt)" \
  test $? -eq 0
has "$work/run-large.txt" "^[1-9][0-9]* passed, 0 failed, 0 unsupported$"
"$movconf" fuzz --runs 20 --out "$work/findings" --json "$work/fuzz.json" >"$work/fuzz.txt" 2>&1
for report in run-all.json fuzz.json; do
  expect "$report says movconf_version $version" python3 -c 'import json, sys
assert json.load(open(sys.argv[1]))["movconf_version"] == sys.argv[2]' "$work/$report" "$version"
done

# Out-of-tree plugins: the minimal plugin of spec/plugin-abi.md and the one
# over movconf's kernels, as installed with the examples.
mkdir -p "$work/plugin-cmake" "$work/plugin-pc"
example=$prefix/share/doc/movconf/examples/plugin_abi_example.c
expect "the example plugin is installed" test -f "$example"
cp "$example" "$work/plugin-cmake/mykernels.c"
cp "$prefix/share/doc/movconf/examples/plugin_movconf.c" "$prefix/share/doc/movconf/examples/attr_view.h" \
  "$work/plugin-cmake/"
cp "$example" "$work/plugin-pc/mykernels.c"
cat >"$work/plugin-cmake/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(mykernels LANGUAGES C)
find_package(movconf 0.1 CONFIG REQUIRED)
add_library(mykernels MODULE mykernels.c)
target_link_libraries(mykernels PRIVATE movconf::plugin)
set_target_properties(mykernels PROPERTIES PREFIX "" C_STANDARD 11)
enable_testing()
add_test(NAME movconf COMMAND movconf::movconf run --impl plugin:$<TARGET_FILE:mykernels>)
# The example plugin over movconf's own kernels (movconf::kernels): one
# operation's cases, all of which it must pass.
add_library(wrapped MODULE plugin_movconf.c)
target_link_libraries(wrapped PRIVATE movconf::kernels movconf::plugin)
set_target_properties(wrapped PROPERTIES PREFIX "" C_STANDARD 11 C_VISIBILITY_PRESET hidden)
add_test(NAME wrapped COMMAND movconf::movconf run --op s2d --impl plugin:$<TARGET_FILE:wrapped>)
EOF
"$cmake" -S "$work/plugin-cmake" -B "$work/plugin-cmake/build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" >"$work/plugin-cmake.log" 2>&1 &&
  "$cmake" --build "$work/plugin-cmake/build" >>"$work/plugin-cmake.log" 2>&1
expect "find_package(movconf): the plugin builds (see $work/plugin-cmake.log)" test $? -eq 0
"$ctest" --test-dir "$work/plugin-cmake/build" -V >"$work/plugin-cmake-test.log" 2>&1
expect "find_package(movconf): movconf::movconf passes both plugins (see $work/plugin-cmake-test.log)" test $? -eq 0
has "$work/plugin-cmake-test.log" "^2: [1-9][0-9]* passed, 0 failed, 0 unsupported"
has "$work/plugin-cmake-test.log" "Test command: $movconf "

cflags=$(PKG_CONFIG_PATH="$prefix/share/pkgconfig" pkg-config --cflags movconf-plugin)
expect "pkg-config --cflags movconf-plugin names the installed headers ($cflags)" \
  test "$(cd "$(echo "$cflags" | sed 's/^-I//; s/ *$//')" && pwd -P)" = "$(cd "$prefix/include" && pwd -P)"
(cd "$work/plugin-pc" && "$cc" -std=c11 -O2 -shared -fPIC $cflags -o mykernels.so mykernels.c) \
  >"$work/plugin-pc.log" 2>&1
expect "pkg-config: the plugin builds (see $work/plugin-pc.log)" test $? -eq 0
"$movconf" run --quiet --impl "plugin:$work/plugin-pc/mykernels.so" >"$work/plugin-pc-run.txt" 2>&1
expect "pkg-config: the installed movconf passes the plugin" test $? -eq 0
has "$work/plugin-pc-run.txt" "^[1-9][0-9]* passed"

# Every installed example runs from the installed tree: the two plugins
# above, and the numpy adapter with the helper it imports as installed
# (before: the helper went to examples/adapters/, not adapters/common/, and
# the adapter stopped with ModuleNotFoundError). An example added to the
# install without a run here fails this test.
examples=$prefix/share/doc/movconf/examples
runnable=$(cd "$examples" && find . -maxdepth 1 -type f \( -name '*.c' -o -name '*.py' \) | sort | tr '\n' ' ')
expect "the installed examples are the ones run here ($runnable)" \
  test "$runnable" = "./numpy_adapter.py ./plugin_abi_example.c ./plugin_movconf.c "
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  "$movconf" run --quiet --op s2d --impl "exec:exec /usr/bin/python3 '$examples/numpy_adapter.py'" \
    >"$work/numpy-run.txt" 2>&1
  expect "the installed numpy adapter passes SpaceToDepth-1 (see $work/numpy-run.txt)" test $? -eq 0
  has "$work/numpy-run.txt" "^[1-9][0-9]* passed, 0 failed"
else
  echo "skipped: the installed numpy adapter (no numpy for /usr/bin/python3)"
fi

# Man pages: one per command of movconf --help, each shown by man -l with the
# version and the command's first option line (or, for movconf.1, command).
help_of() { if [ -n "$1" ]; then "$movconf" help "$1"; else "$movconf" --help; fi; }
for cmd in "" $("$movconf" --help | sed -n '/^commands:$/,/^$/p' | grep -oE '^  [a-z][a-z-]*' | grep -vx '  help'); do
  page=$prefix/share/man/man1/movconf${cmd:+-$cmd}.1 shown=$work/man-${cmd:-movconf}.txt
  MANWIDTH=100 man -l "$page" >"$shown" 2>"$work/man.err"
  expect "man -l $page" test $? -eq 0
  first=$(help_of "$cmd" | grep -m1 -E '^  +-' | sed 's/^ *//')
  expect "$page shows: $first" grep -qF -- "$first" "$shown"
  has "$shown" "movconf $version"
done
expect "bash completion installed" test -f "$prefix/share/bash-completion/completions/movconf"
expect_report
