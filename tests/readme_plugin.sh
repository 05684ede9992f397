#!/bin/sh
# The plugin commands of README.md ("As a plugin"), exactly as written between
# its readme-plugin markers, run in a scratch copy of the repository's top
# folder (include/, build/movconf and the extracted example plugin, linked):
# each must succeed, and the files they name must appear.
# usage: readme_plugin.sh MOVCONF EXAMPLE_C SOURCE_DIR WORK_DIR
set -u
movconf=$1 example=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work/top/build/examples"
. "$(dirname "$0")/expect.sh"
ln -s "$src/include" "$work/top/include"
ln -s "$movconf" "$work/top/build/movconf"
ln -s "$example" "$work/top/build/examples/plugin_abi_example.c"

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
