#!/bin/sh
# movconf fuzz against a plugin with planted faults (tests/plugin_planted.c):
# each fault is found, shrunk to a small case that fails alone and passes on
# the correct kernels, written once (a fault that does not depend on the
# element type is one finding, not one per type) and only where asked; a
# correct implementation gives no finding and writes nothing.
# usage: fuzz_planted.sh MOVCONF PLUGIN WORKDIR [all|small|rest]
# `small` (sanitizer builds) leaves the large requests out of the campaigns
# whose subject is not size (the oracle's large Slice requests alone took
# 90 s under ASan) and the campaigns that need them; `rest` (the gcc build
# of CI) runs only those, so that each campaign runs once in CI
# (fuzz_modes.sh); `all` runs every campaign with every size.
set -u
. "$(dirname "$0")/expect.sh"
. "$(dirname "$0")/fuzz_modes.sh"
movconf=$(absolute "$1") plugin=$(absolute "$2") work=$(absolute "$3")
fuzz_mode "${4:-all}"
fresh_folder "$work"

# fuzz NAME FAULT ARGS...: runs a campaign in $work/NAME (also its cwd). A
# finding's name (its cause key) holds the size and rank it shrank to, so a
# shrink cut short by --shrink-time names a large request: 90 s, where 20 s
# left a rank-4 1 Mi finding of d2s-swap beside the small one on a loaded
# machine; a shrink that reaches its minimum stops long before.
fuzz() {
  name=$1 fault=$2
  shift 2
  mkdir -p "$work/$name"
  (cd "$work/$name" && MOVCONF_PLANTED=$fault "$movconf" fuzz --impl "plugin:$plugin" \
    --seed 1 --shrink-time 90 --json summary.json "$@" >out.txt 2>err.txt)
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
  status=$?
  expect "$file fails on the faulty plugin (status $status)" test "$status" -eq 1
  has "$file.plugin.txt" "^total  *1  *0  *1$"
  has "$file.plugin.txt" " wrong-output"
  expect "$file passes on movconf's kernels" \
    sh -c '"$1" run --quiet --impl optimized "$2" >"$2.optimized.txt" 2>&1' rerun "$movconf" "$file"
}

# one_finding NAME PATTERN: exactly one finding file in $work/NAME/findings, matching PATTERN.
one_finding() {
  set -- "$work/$1"/findings/*.json "$2"
  expect "$1: exactly one finding" test $# -eq 2 -a -f "$1"
  case "$1" in $2) found=$1 ;; *) found= ;; esac
  expect "the finding $1 is named $2" test -n "$found"
}

if small_campaigns; then
  # 1. BatchToSpace, last quarter shifted once the output exceeds 4096 elements.
  fuzz b2s b2s-tail-shift --op b2s --runs 300 --out findings
  expect "b2s: exit status 1, not $status (see $work/b2s/err.txt)" test "$status" -eq 1
  one_finding b2s "*/batch_to_space_2-wrong-output-*.json"
  if [ -n "$found" ]; then
    n=$(data_elements "$found")
    expect "b2s: shrunk data of $n elements, above the fault's 4096 and at most 16384" \
      test "$n" -gt 4096 -a "$n" -le 16384
    reruns "$found" b2s-tail-shift
  fi
  has "$work/b2s/out.txt" "index-filled: got came from data"

  # 2. DepthToSpace, first two elements swapped whatever the type: one finding
  # (500 runs: some 340 failures, 30 of them large requests).
  fuzz d2s d2s-swap --op d2s --runs 500 --out findings $sizes
  expect "d2s: exit status 1, not $status" test "$status" -eq 1
  one_finding d2s "*/depth_to_space_1-wrong-output-misplaced-rank3-small-any-type.json"
  if [ -n "$found" ]; then
    n=$(data_elements "$found")
    expect "d2s: shrunk data of $n elements, a handful" test "$n" -le 8
    reruns "$found" d2s-swap
  fi
  expect "d2s: the --json summary says 500 runs and one wrong-output finding" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["runs"] == 500, s["runs"]
assert len(s["findings"]) == 1 and s["findings"][0]["verdict"] == "wrong-output", s["findings"]
assert s["findings"][0]["shrink_cut_short_by"] is None, s["findings"]' \
    "$work/d2s/summary.json"
  lacks "$work/d2s/out.txt" "cut short"

  # 3. No fault, every operation, two jobs: nothing found, nothing written.
  fuzz clean none --runs 1000 --jobs 2
  expect "clean: exit status 0, not $status" test "$status" -eq 0
  expect "clean: no findings folder when nothing is found" test ! -e "$work/clean/movconf-findings"
  has "$work/clean/out.txt" "^1000 runs"

  # 4. The default output folder is ./movconf-findings of the working folder.
  fuzz default d2s-swap --op d2s --runs 60 $sizes
  expect "default: the finding is in ./movconf-findings" \
    test -f "$work/default/movconf-findings/depth_to_space_1-wrong-output-misplaced-rank3-small-any-type.json"
  # 5. A shrink that --shrink-time cuts short says so: in the finding's line,
  # its --json entry and its file's origin (spec/runner.md, "Fuzz findings").
  fuzz cut d2s-swap --op d2s --runs 5 --shrink-time 0 --out findings
  expect "cut: exit status 1, not $status" test "$status" -eq 1
  has "$work/cut/out.txt" "shrunk in 0 steps, cut short by --shrink-time, "
  expect "cut: every finding's --json entry says its shrink was cut short" python3 -c '
import json, os, sys
s = json.load(open(sys.argv[1]))
assert s["findings"] and all(f["shrink_cut_short_by"] == "--shrink-time" for f in s["findings"]), s
for f in s["findings"]:
    file = os.path.join(os.path.dirname(sys.argv[1]), f["file"])  # relative to the campaign folder
    origin = json.load(open(file))["cases"][0]["origin"]
    assert "shrunk in 0 steps, cut short by --shrink-time (it may shrink further)" in origin, origin' \
    "$work/cut/summary.json"


  # 6. ShuffleChannels, group >= 3 left unshuffled: the shrinker brings group
  #    and channel axis down together (group 3 of 2 channels each, the
  #    smallest failing input) and drops the other axes, the axis attribute
  #    following its channel, a negative one counted from the front when the
  #    failure keeps without its sign; axis 0 of rank-1 data is as neutral
  #    as the default 1. One finding: [6] at axis 0, group 3, failing alone
  #    (seeds 1 to 8 all shrank to it).
  fuzz sc sc-group3-copy --op sc --runs 500 --out findings $sizes
  expect "sc: exit status 1, not $status" test "$status" -eq 1
  one_finding sc "*/shuffle_channels_1-wrong-output-misplaced-rank1-small-group-any-type.json"
  if [ -n "$found" ]; then
    expect "sc: [6] at axis 0, group 3" python3 -c '
import json, sys
case = json.load(open(sys.argv[1]))["cases"][0]
assert case["inputs"]["data"]["shape"] == [6], case["inputs"]
assert case["attributes"] == {"axis": 0, "group": 3}, case["attributes"]' "$found"
    reruns "$found" sc-group3-copy
  fi

  # 7. Slice, a negative step swaps two elements: the shrinker drops axes
  #    (the entries naming them go, the others renumbered; an axis of one
  #    element hands its entry to the next axis), entries, the axes input
  #    once it names 0..n-1, brings steps to 1 or -1, side inputs to i64 and
  #    bounds to the plainest that read their axis whole, so that the key
  #    names the step alone (start and stop are neutral when they read the
  #    whole axis). One finding, the smallest failing input: [2] read
  #    backwards, start -1, stop -3, step -1, all i64, failing alone (seeds 1
  #    to 11 all shrank to it, with and without large requests).
  fuzz sl sl-reverse-swap --op sl --runs 300 --out findings $sizes
  expect "sl: exit status 1, not $status" test "$status" -eq 1
  one_finding sl "*/slice_8-wrong-output-misplaced-rank1-small-step-any-type.json"
  if [ -n "$found" ]; then
    expect "sl: [2] read backwards by start -1, stop -3, step -1, all i64, no axes" python3 -c '
import json, sys
inputs = json.load(open(sys.argv[1]))["cases"][0]["inputs"]
assert inputs["data"]["shape"] == [2] and "axes" not in inputs, inputs
sides = {k: (v["type"], v["values"]) for k, v in inputs.items() if k != "data"}
assert sides == {"start": ("i64", [-1]), "stop": ("i64", [-3]), "step": ("i64", [-1])}, sides' "$found"
    reruns "$found" sl-reverse-swap
  fi

  # 8. Transpose with the empty input_order (the axes reversed), the first two
  #    output elements exchanged: dropping axes keeps the empty order (the
  #    reversal of the axes left), so the finding shrinks to rank 1, [2] with
  #    an empty i64 input_order (seed 1, 4 shrink steps).
  fuzz tr tr-reverse-swap --op tr --runs 300 --out findings $sizes
  expect "tr: exit status 1, not $status" test "$status" -eq 1
  one_finding tr "*/transpose_1-wrong-output-misplaced-rank1-small-input_order-any-type.json"
  if [ -n "$found" ]; then
    expect "tr: [2] with an empty i64 input_order" python3 -c '
import json, sys
inputs = json.load(open(sys.argv[1]))["cases"][0]["inputs"]
assert inputs["data"]["shape"] == [2], inputs
assert (inputs["input_order"]["type"], inputs["input_order"]["shape"]) == ("i64", [0]), inputs' "$found"
    reruns "$found" tr-reverse-swap
  fi

  # 9. Pad in reflect mode with a positive pads_begin, the first two output
  #    elements exchanged: the shrinker keeps one pad before (the cause), drops
  #    the axes, brings the side inputs to i64 and leaves out a pad_value,
  #    which reflect ignores (held, it kept a second finding apart as
  #    -sides-mixed). One finding: [2] padded by one before, reflect, no
  #    pad_value (seed 1, 21 shrink steps).
  fuzz pad pad-reflect-begin-swap --op pad --runs 300 --out findings $sizes
  expect "pad: exit status 1, not $status" test "$status" -eq 1
  one_finding pad "*/pad_12-wrong-output-misplaced-rank1-small-pads_begin-pad_mode-any-type.json"
  if [ -n "$found" ]; then
    expect "pad: [2] reflect, pads_begin [1], pads_end [0], both i64, no pad_value" python3 -c '
import json, sys
case = json.load(open(sys.argv[1]))["cases"][0]
inputs = case["inputs"]
assert inputs["data"]["shape"] == [2] and "pad_value" not in inputs, inputs
sides = {k: (v["type"], v["values"]) for k, v in inputs.items() if k != "data"}
assert sides == {"pads_begin": ("i64", [1]), "pads_end": ("i64", [0])}, sides
assert case["attributes"] == {"pad_mode": "reflect"}, case["attributes"]' "$found"
    reruns "$found" pad-reflect-begin-swap
  fi
fi

# 10. StridedSlice, an ordinary entry read backwards to its end_mask, the
#     first two output elements exchanged: dropping an axis takes its entry's
#     bit of every mask along and moves the later bits down (without that
#     the bits slid onto other entries: seven findings from rank 1 to 5 in
#     5000 runs), a unit axis hands its entry to the next, bits and masks
#     that change nothing go. 60 runs, large requests among them (the large
#     request reads an axis so): one finding, [2] read from -1 backwards,
#     end_mask [1] alone (seeds 1 to 3 all shrank to it, 2 to 6 s). Left to
#     the uninstrumented builds, as every campaign of its large requests.
if large_campaigns; then
  fuzz ss ss-end-mask-reverse-swap --op ss --runs 60 --out findings
  expect "ss: exit status 1, not $status" test "$status" -eq 1
  one_finding ss "*/strided_slice_1-wrong-output-misplaced-rank1-small-begin-end-stride-end_mask-any-type.json"
  if [ -n "$found" ]; then
    expect "ss: [2] from -1 backwards, end_mask [1] and no other mask" python3 -c '
import json, sys
case = json.load(open(sys.argv[1]))["cases"][0]
inputs = case["inputs"]
assert inputs["data"]["shape"] == [2], inputs
sides = {k: (v["type"], v["values"]) for k, v in inputs.items() if k != "data"}
assert sides == {"begin": ("i64", [-1]), "end": ("i64", [0]), "stride": ("i64", [-1])}, sides
assert case.get("attributes") == {"end_mask": [1]}, case.get("attributes")' "$found"
    reruns "$found" ss-end-mask-reverse-swap
  fi
fi

# 11. Gather with batch axes, the first output elements of the first two
#     batches exchanged: a batch axis shrinks and goes in the data and the
#     indices together (GA-V8), indices and their values shrink, axis and
#     batch_dims are written plainly, and batch_dims 1 is not neutral (it
#     was, so the key left it out). One finding: [2, 1] gathered on axis 1
#     by indices [0, 0], batch_dims 1 (seeds 1 to 5 all shrank to it, 1 to
#     7 s). Left to the uninstrumented builds too (issue 34: CI time).
if large_campaigns; then
  fuzz ga ga-batch-swap --op ga --runs 100 --out findings
  expect "ga: exit status 1, not $status" test "$status" -eq 1
  one_finding ga "*/gather_8-wrong-output-misplaced-rank2-small-indices-axis-batch_dims-any-type.json"
  if [ -n "$found" ]; then
    expect "ga: [2, 1] on a scalar axis 1 by indices [0, 0], batch_dims 1" python3 -c '
import json, sys
case = json.load(open(sys.argv[1]))["cases"][0]
inputs = case["inputs"]
assert inputs["data"]["shape"] == [2, 1], inputs
sides = {k: (v["type"], v["shape"], v["values"]) for k, v in inputs.items() if k != "data"}
assert sides == {"indices": ("i64", [2], [0, 0]), "axis": ("i64", [], [1])}, sides
assert case["attributes"] == {"batch_dims": 1}, case["attributes"]' "$found"
    reruns "$found" ga-batch-swap
  fi
fi
expect_report
