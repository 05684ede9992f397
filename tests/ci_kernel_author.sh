#!/bin/sh
# docs/ci/kernel-author.yml cannot be green by accident: its `run:` steps,
# exactly as written (all but the one running tools/bootstrap.sh, which
# installs packages and movconf: here movconf is installed from BUILD_DIR
# into a scratch prefix put on PATH and PKG_CONFIG_PATH instead), and the
# by-hand baseline command of its header run in a scratch copy of a kernel
# author's repository - src/movconf_plugin.c (the example plugin of
# spec/plugin-abi.md) and src/kernels.c - in the workflow's order. Each must succeed;
# the conformance run must cover the large tier, the sanitized run must run
# the sanitized plugin, and the files the workflow publishes must appear.
# usage: ci_kernel_author.sh BUILD_DIR EXAMPLE_C SOURCE_DIR WORK_DIR CMAKE
set -u
build=$1 example=$2 src=$3 work=$4 cmake=$5
rm -rf "$work" && mkdir -p "$work/repo/src" || exit 1
. "$(dirname "$0")/expect.sh"
repo=$work/repo
"$cmake" --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1
expect "cmake --install into $work/prefix" test $? -eq 0
PATH=$work/prefix/bin:$PATH PKG_CONFIG_PATH=$work/prefix/share/pkgconfig
export PATH PKG_CONFIG_PATH
cp "$example" "$repo/src/movconf_plugin.c"
echo '/* the kernels (the example plugin has its own) */ typedef int kernels_unit;' >"$repo/src/kernels.c"
yml=$src/docs/ci/kernel-author.yml

# Each step's run: as a file step<N>.sh, a one-line run: or the block of a
# "run: |" (the lines indented deeper than the step's keys).
awk -v dir="$work" '
  function close_step() { if (out != "") close(out); out = "" }
  /^ +run: \|$/ { close_step(); n++; out = dir "/step" n ".sh"; indent = index($0, "r"); next }
  /^ +run: / { close_step(); n++; out = dir "/step" n ".sh"; sub(/^ +run: /, ""); print > out; close_step(); next }
  out != "" { match($0, /^ */); if ($0 != "" && RLENGTH < indent) close_step(); else print > out }
' "$yml"
# Every file the workflow uploads is in the .gitignore block of
# docs/ci/README.md: a report left in the work tree is not committed.
awk '/^ +path: \|$/ { p = 1; next } p && /^ +[^ :]+$/ { print $1; next } { p = 0 }' "$yml" |
  sort -u >"$work/uploaded"
expect "the workflow uploads files" test -s "$work/uploaded"
sed -n '/^```gitignore$/,/^```$/p' "$src/docs/ci/README.md" >"$work/gitignore"
while read -r file; do
  expect "docs/ci/README.md's .gitignore block has $file" grep -qxF -- "$file" "$work/gitignore"
done <"$work/uploaded"

steps=$(ls "$work"/step*.sh 2>/dev/null | wc -l)
expect "the workflow has run: steps" test "$steps" -ge 5
grep -E '^#   movconf run ' "$yml" | sed 's/^#   //' >"$work/by-hand.sh"
expect "the header has the by-hand baseline command" test -s "$work/by-hand.sh"
expect "build/ does not exist before the workflow makes it" test ! -e "$repo/build"

export FUZZ_SECONDS=5
# run_step FILE: runs it in the repository as the workflow's shell does (sh -e)
run_step() {
  (cd "$repo" && sh -e "$1") >"$1.log" 2>&1
  expect "$(basename "$1") exits 0 ($(head -n 1 "$1" | sed 's/^ *//'); see $1.log)" test $? -eq 0
}
skipped=0 n=0
for i in $(seq 1 "$steps"); do
  step=$work/step$i.sh
  if grep -q 'tools/bootstrap.sh' "$step"; then
    skipped=$((skipped + 1))
    continue
  fi
  run_step "$step"
  n=$((n + 1))
  # The baseline is made once by hand after the first build, before the runs that use it.
  [ "$n" -eq 1 ] && run_step "$work/by-hand.sh"
done
expect "only the bootstrap step is left out" test "$skipped" -eq 1
expect "the plugin was built" test -f "$repo/build/libmykernels.so"
expect "the sanitized plugin was built" test -f "$repo/build/libmykernels-asan.so"
expect "the baseline was written" test -f "$repo/movconf-expect.json"
has "$repo/movconf.json" '"id":[[:space:]]*"d2s/gen/large-sizes/'
has "$repo/movconf-junit.xml" '<testsuites name="movconf"'
has "$repo/movconf-asan-junit.xml" '<testsuites name="movconf"'
has "$repo/movconf-fuzz.json" '"findings"'
for log in "$work"/step*.sh.log; do
  if grep -q -- '--sanitize address' "${log%.log}"; then
    has "$log" 'libmykernels-asan.so'
  fi
done
expect_report
