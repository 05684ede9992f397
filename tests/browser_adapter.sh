#!/bin/sh
# The browser adapter (examples/adapters/browser) against a page that
# crashes and one that hangs: five Slice-8 cases of the specification's
# examples, the renderer crashed on request 2 and the page hung on request
# 4 (MOVCONF_BROWSER_FAULT). Case 2 must be a crash, case 4 a timeout, the
# others pass on a restarted browser, and no Chromium process of the run
# (its profile is under the test's own TMPDIR) may outlive movconf.
# Skipped (77) when Chromium or the adapter's packages are not installed.
# usage: browser_adapter.sh MOVCONF SOURCE_DIR WORK_DIR
set -u
. "$(dirname "$0")/expect.sh"
movconf=$(absolute "$1") source=$(absolute "$2") work=$(absolute "$3")
cd "$source" || exit 2
if ! node examples/adapters/browser/detect.js webgl; then
  echo "skipped: the browser adapter is not installed (tools/install-adapters.sh)"
  exit 77
fi
fresh_folder "$work"
mkdir -p "$work/tmp"
python3 - conformance/slice_8/spec_examples.json "$work/cases.json" <<'PY'
import json, sys
cases = json.load(open(sys.argv[1]))
cases["cases"] = cases["cases"][:5]
json.dump(cases, open(sys.argv[2], "w"))
PY
TMPDIR=$work/tmp MOVCONF_BROWSER_FAULT=crash@2,hang@4 "$movconf" run --timeout 40 \
  --impl "exec:exec node examples/adapters/browser/adapter.js webgl" \
  --json "$work/report.json" "$work/cases.json" >"$work/run.txt" 2>"$work/run.err"
echo "movconf exited $?"
verdicts=$(python3 -c 'import json, sys
print(" ".join(c["verdict"] for c in json.load(open(sys.argv[1]))["cases"]))' "$work/report.json")
echo "verdicts: $verdicts"
expect "case 2 crashes, case 4 times out, the rest pass on a restarted browser" \
  test "$verdicts" = "pass crash pass timeout pass"
expect "the crash says the page failed" grep -q "the page failed" "$work/run.err"
sleep 1
survivors=$(ps -eo args | grep -c "[u]ser-data-dir=$work/tmp")
expect "no Chromium process of the run survives ($survivors)" test "$survivors" -eq 0
expect_report
