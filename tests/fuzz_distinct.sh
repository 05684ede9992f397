#!/bin/sh
# movconf fuzz keeps distinct bugs distinct and every finding reproducible
# (issue 21), against the planted faults of tests/plugin_planted.c:
# - two BatchToSpace bugs of different cause (a rank-3 crop off by one at
#   any size, b2s-crop-off-by-one; a thread split that leaves rows
#   unwritten from 2^16 elements on, split4:65535) give two findings,
#   each failing with its own bug alone and passing with the other alone;
# - with two jobs, the summary and each finding file describe the same
#   shrunk case (its steps, the run's own detail of the file);
# - a failure that a fresh process does not reproduce is flaky, not a
#   finding (exit 0);
# - a failure that needs a small output cap holds the cap in its case,
#   and reproduces as printed.
# usage: fuzz_distinct.sh MOVCONF PLUGIN WORKDIR [all|small|rest]
# `small` (sanitizer builds) leaves the large requests out of the campaigns
# whose subject is not size, and the two-bug campaign (which needs them)
# out; `rest` (the gcc build of CI) runs only that one (fuzz_modes.sh).
set -u
. "$(dirname "$0")/expect.sh"
. "$(dirname "$0")/fuzz_modes.sh"
movconf=$(absolute "$1") plugin=$(absolute "$2") work=$(absolute "$3")
fuzz_mode "${4:-all}"
fresh_folder "$work"
cd "$work" || exit 2

# fuzz NAME FAULT ARGS...: a campaign with findings in NAME/, summary NAME.json.
fuzz() {
  name=$1 fault=$2
  shift 2
  MOVCONF_PLANTED=$fault "$movconf" fuzz --impl "plugin:$plugin" --seed 1 --out "$name" \
    --json "$name.json" "$@" >"$name.out" 2>"$name.err"
  status=$?
}
# verdict FAULT FILE: the verdict line of movconf run on FILE with FAULT planted.
run_with() {
  MOVCONF_PLANTED=$1 "$movconf" run --quiet --impl "plugin:$plugin" "$2" >/dev/null 2>&1
}

# 1. Two bugs, two findings; each is its own bug's. A shrink that reaches
# its minimum stops long before --shrink-time; 60 s cut a 1 Mi split
# failure short under ASan on a loaded machine, leaving a third finding
# (which said "cut short by --shrink-time").
# The split bug needs 2^16 elements: left to the uninstrumented builds, as
# fuzz_planted.sh leaves its large campaigns (issue 34: CI time; 51 s of
# CPU under ASan, where the engine's logic is the same).
crop=b2s-crop-off-by-one split=split4:65535
if large_campaigns; then
  fuzz two "$crop+$split" --op b2s --runs 600 --shrink-time 300
  expect "two: exit status 1, not $status" test "$status" -eq 1
  set -- two/*.json
  expect "two bugs give two findings: $*" test $# -eq 2
  crop_only=0 split_only=0
  for f in "$@"; do
    if run_with "$crop" "$f" && ! run_with "$split" "$f"; then
      split_only=$((split_only + 1))
    elif ! run_with "$crop" "$f" && run_with "$split" "$f"; then
      crop_only=$((crop_only + 1))
    fi
  done
  expect "one finding fails with the crop bug alone and passes with the split alone" test $crop_only -eq 1
  expect "one finding fails with the split bug alone and passes with the crop alone" test $split_only -eq 1
fi

if small_campaigns; then
  # 2. Two jobs: the summary and the files agree.
  fuzz jobs d2s-swap --op d2s --runs 300 --jobs 2 $sizes
  expect "jobs: exit status 1, not $status" test "$status" -eq 1
  expect "jobs: each finding's steps and detail are its file's" python3 -c '
import json, os, subprocess, sys
movconf, plugin = sys.argv[2], sys.argv[3]
s = json.load(open(sys.argv[1]))
assert s["findings"], s
for f in s["findings"]:
    case = json.load(open(f["file"]))["cases"][0]
    assert "shrunk in %d steps" % f["shrink_steps"] in case["origin"], (f, case["origin"])
    run = subprocess.run([movconf, "run", "--impl", "plugin:" + plugin, f["file"]],
                         capture_output=True, text=True, env=dict(os.environ, MOVCONF_PLANTED="d2s-swap"))
    assert f["detail"] in run.stdout, (f["detail"], run.stdout)
' jobs.json "$movconf" "$plugin"
  expect "jobs: no worker file left" sh -c '! ls -A jobs | grep -q "^\."'

  # 3. A failure only from a process's second call: flaky, not a finding.
  fuzz flaky d2s-swap-after-first-call --op d2s --runs 100 $sizes
  expect "flaky: exit status 0, not $status" test "$status" -eq 0
  has flaky.out "^0 distinct findings"
  has flaky.out "flaky: not reproduced alone"
  expect "flaky: listed as flaky in --json" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert not s["findings"] and s["flaky"], s' flaky.json

  # 4. A failure under a small output cap: the file's case holds the cap
  #    (max_output_bytes) and fails as printed, and only with it.
  fuzz cap cap-wrong-error --op d2s --runs 1000
  expect "cap: exit status 1, not $status" test "$status" -eq 1
  expect "cap: a finding under a small cap holds it and fails the same way only with it" python3 -c '
import json, os, re, subprocess, sys
movconf, plugin = sys.argv[2], sys.argv[3]
s = json.load(open(sys.argv[1]))
assert all(f["rerun"] == "reproduced alone" for f in s["findings"]), s
capped = [f for f in s["findings"] if f["max_output_bytes"] != 1 << 30]
assert capped, s
for f in capped:
    doc = json.load(open(f["file"]))
    assert doc["cases"][0]["max_output_bytes"] == f["max_output_bytes"], (doc, f)
    run = lambda file: subprocess.run([movconf, "run", "--impl", "plugin:" + plugin, file],
                                      capture_output=True, text=True,
                                      env=dict(os.environ, MOVCONF_PLANTED="cap-wrong-error"))
    as_printed = run(f["file"])
    assert as_printed.returncode == 1 and re.search(r"^wrong-error: ", as_printed.stdout, re.M), as_printed.stdout
    del doc["cases"][0]["max_output_bytes"]
    uncapped = f["file"] + ".uncapped.json"
    json.dump(doc, open(uncapped, "w"))
    assert not re.search(r"^wrong-error: ", run(uncapped).stdout, re.M), f  # the cap is what makes it this failure
' cap.json "$movconf" "$plugin"
fi
expect_report
