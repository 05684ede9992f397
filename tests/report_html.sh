#!/bin/sh
# movconf report html against the JSON reports it renders
# (tests/report_html_check.py): a passing run of the built-in kernels over
# two folders, a failing run of the planted plugin (d2s-swap: the first two
# output elements exchanged, pictured as taken from another place), one whose
# outputs keep a tail unwritten (tail:64, pictured as movconf's fill), a
# case file with markup in its id and origin, and a bench report.
# MODE page: the file movconf wrote, read with html.parser.
# MODE browser: the same page opened by headless Chromium, its DOM checked
# and a screenshot kept (WORK/report-html.png); skipped (77) without Chromium.
# usage: report_html.sh MOVCONF PLUGIN SOURCE_DIR WORK PYTHON MODE
set -u
movconf=$1 plugin=$2 src=$3 work=$4 python=$5 mode=$6
chromium=${CHROMIUM:-/usr/bin/chromium}
fail() {
  echo "FAILED: $*"
  exit 1
}
if [ "$mode" = browser ] && [ ! -x "$chromium" ]; then
  echo "SKIPPED: no $chromium (Debian's chromium package; tools/install-adapters.sh installs it)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work" || fail "cannot create $work"
cd "$src" || fail "no $src"

# A case whose origin is markup (the planted fault fails it, so it is
# listed with its origin), and a file refused for an id that is markup.
hostile_origin="<script>alert('x')</script> \"quoted\" & 'single'"
hostile_id='d2s/<b>id</b>&amp;'
"$python" - "$work" "$hostile_origin" "$hostile_id" <<'PY' || fail "cannot write the hostile case files"
import json, sys
doc = json.load(open("conformance/depth_to_space_1/hand.json"))
case = doc["cases"][0]
case["id"], case["origin"] = "d2s/hostile/origin", sys.argv[2]
doc["cases"] = [case]
json.dump(doc, open(sys.argv[1] + "/hostile.json", "w"))
case["id"] = sys.argv[3]
json.dump(doc, open(sys.argv[1] + "/hostile-id.json", "w"))
PY

"$movconf" run conformance/space_to_depth_1 conformance/depth_to_space_1 \
  --json "$work/pass.json" >"$work/pass.log" 2>&1 || fail "the built-in kernels failed: $(tail -3 "$work/pass.log")"
MOVCONF_PLANTED=d2s-swap "$movconf" run --impl "plugin:$plugin" conformance/depth_to_space_1 \
  "$work/hostile.json" "$work/hostile-id.json" --json "$work/swap.json" >"$work/swap.log" 2>&1
[ $? -eq 1 ] || fail "the d2s-swap run did not fail: $(tail -3 "$work/swap.log")"
MOVCONF_PLANTED=tail:64 "$movconf" run --impl "plugin:$plugin" conformance/space_to_depth_1 \
  --json "$work/tail.json" >"$work/tail.log" 2>&1
[ $? -eq 1 ] || fail "the tail:64 run did not fail: $(tail -3 "$work/tail.log")"
"$movconf" bench --quick --filter 'd2s/*' --json "$work/bench.json" >"$work/bench.log" 2>&1 ||
  fail "bench failed: $(tail -3 "$work/bench.log")"
reports="$work/pass.json $work/swap.json $work/tail.json $work/bench.json"
# shellcheck disable=SC2086
"$movconf" report html $reports -o "$work/report.html" || fail "report html failed"

page=$work/report.html
if [ "$mode" = browser ]; then
  profile=$(mktemp -d) || fail "no temporary folder"
  flags="--headless --no-sandbox --disable-gpu --disable-background-networking
    --disable-component-update --disable-sync --no-first-run --user-data-dir=$profile"
  # shellcheck disable=SC2086
  timeout 300 "$chromium" $flags --dump-dom "file://$page" >"$work/dom.html" 2>"$work/chromium.log" ||
    fail "chromium --dump-dom failed: $(tail -3 "$work/chromium.log")"
  # shellcheck disable=SC2086
  timeout 300 "$chromium" $flags --screenshot="$work/report-html.png" --window-size=1280,1600 \
    "file://$page" >>"$work/chromium.log" 2>&1 || fail "chromium --screenshot failed"
  rm -rf "$profile"
  [ -s "$work/report-html.png" ] || fail "no screenshot"
  echo "screenshot: $work/report-html.png"
  page=$work/dom.html
fi
# shellcheck disable=SC2086
"$python" "$src/tests/report_html_check.py" "$page" --hostile "$hostile_origin" --hostile "$hostile_id" \
  --min-pictures 300 --states ok,moved,unwritten $reports
