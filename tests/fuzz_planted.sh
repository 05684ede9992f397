#!/bin/sh
# movconf fuzz against a plugin with planted faults (tests/plugin_planted.c):
# each fault is found, shrunk to a small case that fails alone and passes on
# the correct kernels, written once (a fault that does not depend on the
# element type is one finding, not one per type) and only where asked; a
# correct implementation gives no finding and writes nothing.
# usage: fuzz_planted.sh MOVCONF PLUGIN WORKDIR
set -u
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
movconf=$(absolute "$1") plugin=$(absolute "$2") work=$(absolute "$3")
rm -rf "$work"
mkdir -p "$work"
failures=0
fail() {
  echo "FAILED: $*"
  failures=$((failures + 1))
}

# fuzz NAME FAULT ARGS...: runs a campaign in $work/NAME (also its cwd).
fuzz() {
  name=$1 fault=$2
  shift 2
  mkdir -p "$work/$name"
  (cd "$work/$name" && MOVCONF_PLANTED=$fault "$movconf" fuzz --impl "plugin:$plugin" \
    --seed 1 --shrink-time 20 --json summary.json "$@" >out.txt 2>err.txt)
  status=$?
}

# Element count of the data input of the one case in FILE.
data_elements() {
  python3 -c 'import json, math, sys
case = json.load(open(sys.argv[1]))["cases"][0]
print(math.prod(case["inputs"]["data"]["shape"]))' "$1"
}

# A finding in FILE fails on the plugin with its fault and passes on the kernels.
reruns() {
  file=$1 fault=$2
  MOVCONF_PLANTED=$fault "$movconf" run --quiet --impl "plugin:$plugin" "$file" >"$file.plugin.txt" 2>&1
  [ $? -eq 1 ] || fail "$file does not fail on the faulty plugin"
  grep -Eq "^total +1 +0 +1$" "$file.plugin.txt" && grep -q " wrong-output" "$file.plugin.txt" ||
    fail "$file: not reported as one wrong-output"
  "$movconf" run --quiet --impl optimized "$file" >"$file.optimized.txt" 2>&1 ||
    fail "$file does not pass on movconf's kernels"
}

# 1. BatchToSpace, last quarter shifted once the output exceeds 4096 elements.
fuzz b2s b2s-tail-shift --op b2s --runs 300 --out findings
[ "$status" -eq 1 ] || fail "b2s: exit status $status, not 1 (see $work/b2s/err.txt)"
set -- "$work"/b2s/findings/*.json
[ $# -eq 1 ] && [ -f "$1" ] || fail "b2s: $# finding files, not 1"
case "$1" in */batch_to_space_2-wrong-output-*.json) ;; *) fail "b2s: finding named $1" ;; esac
n=$(data_elements "$1")
[ "$n" -gt 4096 ] && [ "$n" -le 16384 ] || fail "b2s: shrunk data has $n elements (the fault needs > 4096)"
reruns "$1" b2s-tail-shift
grep -q "index-filled: got came from data" "$work/b2s/out.txt" ||
  fail "b2s: the finding's detail does not say where the wrong element came from"

# 2. DepthToSpace, first two elements swapped whatever the type: one finding.
fuzz d2s d2s-swap --op d2s --runs 2000 --out findings
[ "$status" -eq 1 ] || fail "d2s: exit status $status, not 1"
set -- "$work"/d2s/findings/*.json
[ $# -eq 1 ] || fail "d2s: $# finding files, not 1 (one per type?)"
case "$1" in */depth_to_space_1-wrong-output-any-type.json) ;; *) fail "d2s: finding named $1" ;; esac
n=$(data_elements "$1")
[ "$n" -le 8 ] || fail "d2s: shrunk data has $n elements, expected a handful"
reruns "$1" d2s-swap
python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
assert s["runs"] == 2000, s["runs"]
assert len(s["findings"]) == 1 and s["findings"][0]["verdict"] == "wrong-output", s["findings"]' \
  "$work/d2s/summary.json" || fail "d2s: --json summary"

# 3. No fault, every operation, two jobs: nothing found, nothing written.
fuzz clean none --runs 1000 --jobs 2
[ "$status" -eq 0 ] || fail "clean: exit status $status, not 0"
[ ! -e "$work/clean/movconf-findings" ] || fail "clean: wrote a findings folder with nothing found"
grep -q "^1000 runs" "$work/clean/out.txt" || fail "clean: the two jobs did not run 1000 requests"

# 4. The default output folder is ./movconf-findings of the working folder.
fuzz default d2s-swap --op d2s --runs 300
[ -f "$work/default/movconf-findings/depth_to_space_1-wrong-output-any-type.json" ] ||
  fail "default: no finding in ./movconf-findings"

if [ "$failures" -eq 0 ]; then
  echo "fuzz_planted: both planted faults found, shrunk and reported once; a clean run finds nothing"
else
  echo "fuzz_planted: $failures checks failed"
  exit 1
fi
