#!/bin/sh
# movconf fuzz, a finding is one bug (issue 39), against planted faults of
# tests/plugin_planted.c: a failure that needs a small output cap carries
# the cap in its case (it replays as printed) and shrinks with it to one
# finding; two bugs of side-input types are two findings, named by those
# types; a negative bound shrinks toward the smallest magnitude that keeps
# the failure; a campaign without --op asks what the implementation
# supports and spends its runs on those operations
# (supports(), a handshake); --jobs counts findings as they come; the
# findings of two campaigns run together; a shrink cut short merges into
# the finished finding of its cause; a slow implementation gets large
# requests in proportion to their cost.
# usage: fuzz_findings.sh MOVCONF PLUGIN WORKDIR [all|small|rest]
# `small` (sanitizer builds) leaves out the campaigns with large requests,
# `rest` (the gcc build of CI) runs only those (fuzz_modes.sh).
set -u
. "$(dirname "$0")/expect.sh"
. "$(dirname "$0")/fuzz_modes.sh"
movconf=$(absolute "$1") plugin=$(absolute "$2") work=$(absolute "$3")
fuzz_mode "${4:-all}"
fresh_folder "$work"

# fuzz NAME FAULTS ARGS...: a campaign in $work/NAME (its cwd), findings in
# ./findings, summary in out.txt and summary.json.
fuzz() {
  name=$1 fault=$2
  shift 2
  mkdir -p "$work/$name"
  (cd "$work/$name" && MOVCONF_PLANTED=$fault "$movconf" fuzz --impl "plugin:$plugin" \
    --seed 1 --json summary.json "$@" >out.txt 2>err.txt)
  status=$?
}

# The finding files of campaign NAME, one a line.
findings() { ls "$work/$1"/findings/*.json 2>/dev/null; }

# one_finding NAME PATTERN: exactly one finding, its file matching PATTERN.
one_finding() {
  found=$(findings "$1")
  expect "$1: exactly one finding (found: $found)" test "$(printf '%s\n' "$found" | grep -c .)" -eq 1
  case "$found" in */$2) ;; *) found= ;; esac
  expect "$1: the finding is named $2" test -n "$found"
}

# A case of FILE: python expression over `case` that must hold.
case_has() {
  expect "$1: $2" python3 -c 'import json, sys
case = json.load(open(sys.argv[1]))["cases"][0]
assert eval(sys.argv[2]), case' "$1" "$2"
}

if small_campaigns; then
  # 1. A wrong error for output_too_large, seen only under a small cap: one
  #    finding (the cap shrinks with the rest; the campaign drew caps of 0 to
  #    4096 bytes on ranks 1 to 6 and every type, 29 findings before), whose
  #    case holds its cap and replays as printed: it fails on the plugin and
  #    passes on movconf's kernels with no option but --impl.
  fuzz cap cap-wrong-error --op sc --runs 400 --no-large --out findings
  expect "cap: exit status 1, not $status (see $work/cap/err.txt)" test "$status" -eq 1
  one_finding cap "shuffle_channels_1-wrong-error-expected-output_too_large-rank1-small-any-type.json"
  if [ -n "$found" ]; then
    case_has "$found" 'case["max_output_bytes"] == 0 and case["expect"] == {"error": "output_too_large"}'
    MOVCONF_PLANTED=cap-wrong-error "$movconf" run --quiet --impl "plugin:$plugin" "$found" \
      >"$work/cap/rerun.txt" 2>&1
    rerun_status=$?
    expect "cap: the finding fails as printed on the plugin (status $rerun_status)" \
      test "$rerun_status" -eq 1
    has "$work/cap/rerun.txt" " wrong-error"
    expect "cap: the finding passes as printed on movconf's kernels" \
      sh -c '"$1" run --quiet --impl optimized "$2" >"$2.optimized.txt" 2>&1' rerun "$movconf" "$found"
  fi

  # 2. Two BatchToSpace bugs of side-input types, wrongly rejecting valid
  #    requests: side inputs narrower than 64 bits, and side inputs of mixed
  #    types. One finding each, named apart by the side types (the same name
  #    before, without them).
  fuzz narrow b2s-narrow-sides --op b2s --runs 150 --no-large --out findings
  one_finding narrow "batch_to_space_2-wrong-rejection-rank2-small-sides-i32-any-type.json"
  fuzz mixed b2s-mixed-sides --op b2s --runs 150 --no-large --out findings
  one_finding mixed "batch_to_space_2-wrong-rejection-rank2-small-sides-mixed-any-type.json"

  # 3. Slice with a start below -1: the start shrinks to -2, the smallest
  #    magnitude that keeps the failure, whatever was drawn.
  fuzz start sl-negative-start --op sl --runs 200 --no-large --out findings
  one_finding start "slice_8-wrong-output-misplaced-*.json"
  [ -n "$found" ] && case_has "$found" 'case["inputs"]["start"]["values"] == [-2]'

  # 4. A plugin that supports Slice alone, fuzzed without --op: its
  #    supports() is asked before the campaign, so nearly every run goes to
  #    Slice (one in seven with no asking, 385 of 600 when learnt from the
  #    runs), the summary says so, and the fault is found. (Its shrink can
  #    stop at a [1,2] Slice that gives a rank-2 finding beside the rank-1
  #    one: no smaller request of rank 1 swaps two elements with the same
  #    side values, so only the cause's name is checked here; campaigns 1-3
  #    check one finding per bug.)
  fuzz only only-sl+sl-negative-start --runs 600 --no-large --out findings
  found=$(findings only)
  expect "only: a finding (found: $found)" test -n "$found"
  expect "only: every finding is the Slice fault's cause (found: $found)" \
    sh -c '! printf "%s\n" "$1" | grep -v "/slice_8-wrong-output-misplaced-[^/]*\.json$"' only "$found"
  has "$work/only/out.txt" "^fuzzed: Slice-8 (the others unsupported)$"
  expect "only: more than 500 of the 600 runs went to Slice-8" python3 -c '
import re, sys
runs = int(re.search(r"^Slice-8 +(\d+)", open(sys.argv[1]).read(), re.M).group(1))
assert runs > 500, runs' "$work/only/out.txt"

  # 5. --jobs 2: the progress line (every 5 s off a terminal) counts the
  #    finding found in the first second. A second campaign's findings run
  #    together with the first's.
  fuzz jobs d2s-swap --op d2s --time 6 --jobs 2 --no-large --out findings
  has "$work/jobs/err.txt" "^\[fuzz\] [0-9]* s: .* 1 finding (the first after"
  (cd "$work/jobs" && MOVCONF_PLANTED=d2s-swap "$movconf" fuzz --impl "plugin:$plugin" --seed 2 \
    --op d2s --runs 50 --no-large --out other >/dev/null 2>&1)
  expect "jobs: the findings of two campaigns run together" \
    sh -c '"$1" run --quiet --impl optimized "$2/findings" "$2/other" >"$2/together.txt" 2>&1' \
    together "$movconf" "$work/jobs"
  has "$work/jobs/together.txt" "^2 passed, 0 failed"
fi

# 6. A shrink cut short by --shrink-time (a large request of 2^12 or more
#    output elements, 2 s) is merged into the finished finding of its
#    cause (the small one): one finding, not one per size class.
if large_campaigns; then
  fuzz merged d2s-swap --op d2s --runs 20 --shrink-time 2 --out findings
  one_finding merged "depth_to_space_1-wrong-output-misplaced-rank3-small-any-type.json"
fi
# 7. A slow implementation (2 s more per call above 4096 output elements):
#    large requests get about a third of the time, the rest goes to small
#    ones (before: one request in 20 large, whatever they cost).
if large_campaigns; then
  fuzz slow slow-large --op d2s --time 6
  expect "slow: exit status 0, not $status" test "$status" -eq 0
  expect "slow: at most 2 large runs and 150 runs or more in 6 s" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["large_runs"] <= 2 and s["runs"] >= 150, (s["large_runs"], s["runs"])' \
    "$work/slow/summary.json"
fi
# 8. A slow implementation whose cost grows with the bytes (10 ms a KiB
#    moved, as a Python adapter's; --timeout 3 scales the default 10 s
#    down) with a planted Slice fault: large requests are sized to what it
#    answers in a quarter of the --timeout at the rate its large runs
#    took (the first of 2^12 elements), so none times out and the fault is
#    found within the runs. Before: sizes drawn whatever they cost, the
#    first large one timed out and its shrink took a quarter of the time
#    left (a timeout finding; 35 s and the fault found after 30 s, here 8 s
#    and 4 s).
if large_campaigns; then
  fuzz slowkib slow-kib:10000+sl-reverse-swap --op sl --runs 200 --timeout 3 --time 100 \
    --out findings
  expect "slowkib: exit status 1, not $status" test "$status" -eq 1
  expect "slowkib: 200 runs, large ones among them, and one finding: the Slice fault, shrunk" \
    python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
keys = [f["key"] for f in s["findings"]]
assert s["runs"] == 200 and s["large_runs"] >= 2, (s["runs"], s["large_runs"])
assert keys == ["slice_8-wrong-output-misplaced-rank1-small-step-any-type"], keys
assert s["findings"][0]["shrink_cut_short_by"] is None, s["findings"]' \
    "$work/slowkib/summary.json"
fi
# 9. Large requests that time out all the same (2 s more above 4096
#    elements, a step no per-byte rate foresees; --timeout 1): each
#    timeout's shrink takes at most three --timeouts and says it was cut
#    short by --timeout; a timeout halves the bytes of the large requests
#    after it, a second ends them. Before: a shrink took up to
#    --shrink-time (30 s; 35 s in all, cut short by --shrink-time).
if large_campaigns; then
  fuzz slowto slow-large --op d2s --timeout 1 --runs 150 --out findings
  expect "slowto: 150 runs; timeout findings, each cut short by --timeout" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
cuts = [f["shrink_cut_short_by"] for f in s["findings"] if f["verdict"] == "timeout"]
assert s["runs"] == 150 and cuts and set(cuts) == {"--timeout"}, s' "$work/slowto/summary.json"
fi
if small_campaigns; then
  # 10. Every shrink cut short (--shrink-time 0): no finding finishes for
  #    the others to merge into, so those cut short merge among themselves,
  #    lesser causes first: no finding stands beside one of its type with a
  #    lower or equal rank and size class and fewer inputs not neutral (one
  #    DepthToSpace bug, 60 runs: 30 findings before, one per rank, type and
  #    inputs, 22 now; one per cause and type).
  fuzz allcut d2s-swap --op d2s --runs 60 --shrink-time 0 --no-large --out findings
  expect "allcut: no finding stands beside a lesser one of its cause and type" python3 -c '
import json, re, sys
sizes = ["small", "4ki+", "64ki+", "1mi+"]
def parse(key):
    m = re.match(r"(.*)-rank(\d+)-(small|4ki\+|64ki\+|1mi\+)((?:-[a-z_]+)*)-([a-z0-9]+)$", key)
    return m.group(1), int(m.group(2)), sizes.index(m.group(3)), set(m.group(4).split("-")) - {""}, m.group(5)
keys = [f["key"] for f in json.load(open(sys.argv[1]))["findings"]]
assert keys, keys
for p in keys:
    for q in keys:
        a, b = parse(p), parse(q)
        assert p == q or not (a[0] == b[0] and a[4] == b[4] and b[1] <= a[1] and b[2] <= a[2] and b[3] <= a[3]), (q, "stands for", p)' \
    "$work/allcut/summary.json"
  # 11. DepthToSpace's last output element left unwritten above 64
  #    elements: a rank-4 failure of some 80 elements merges two spatial
  #    axes (dropping one would fall to 64 elements or fewer), so it shrinks
  #    to the rank-3 finding: one, not one per rank (before: rank3 and
  #    rank4 findings, each shrunk to its end).
  fuzz lastrank last:64 --op d2s --runs 300 --no-large --out findings
  one_finding lastrank "depth_to_space_1-wrong-output-unwritten-rank3-small-any-type.json"
fi
expect_report
