#!/bin/sh
# The plugin commands of README.md ("As a plugin"), exactly as written between
# its readme-plugin markers, run as a kernel author would: movconf installed
# (cmake --install into a scratch prefix whose path has a space and an ü,
# its bin/ on PATH, its pkg-config folder on PKG_CONFIG_PATH), in a folder
# of their own: each must succeed, and the files they name must appear.
# usage: readme_plugin.sh BUILD_DIR SOURCE_DIR WORK_DIR CMAKE
set -u
build=$1 src=$2 work=$3 cmake=$4
rm -rf "$work" && mkdir -p "$work/top"
. "$(dirname "$0")/expect.sh"
# A prefix with a space and a non-ASCII letter, which pkg-config escapes.
prefix="$work/my prefix ü"
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1
expect "cmake --install into $prefix" test $? -eq 0
PATH=$prefix/bin:$PATH PKG_CONFIG_PATH=$prefix/share/pkgconfig
export PATH PKG_CONFIG_PATH
expect "movconf on PATH is the scratch install" test "$(command -v movconf)" = "$prefix/bin/movconf"

# The lines between the markers, without the code fence.
sed -n '/^<!-- readme-plugin:begin -->$/,/^<!-- readme-plugin:end -->$/p' "$src/README.md" |
  grep -v '^<!--' | grep -v '^```' >"$work/commands.sh"
expect "README.md has the plugin commands between its markers" test -s "$work/commands.sh"
n=0
while IFS= read -r line; do
  n=$((n + 1))
  (cd "$work/top" && sh -c "$line") >"$work/line$n.out" 2>&1
  expect "line $n exits 0 ($line; see $work/line$n.out)" test $? -eq 0
done <"$work/commands.sh"
expect "six commands" test "$n" -eq 6
expect "the plugin was built" test -f "$work/top/mykernels.so"
expect "the JUnit report was written" grep -q '<testsuites name="movconf"' "$work/top/d2s.xml"
expect "the baseline was written" test -f "$work/top/known-failures.json"
expect "the whole run passed DepthToSpace cases" grep -Eq '^[1-9][0-9]* passed( \([0-9]+ only rejected[^)]*\))?, 0 failed' "$work/line3.out"

expect_report
