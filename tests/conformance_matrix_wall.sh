#!/bin/sh
# tools/conformance_matrix.py's wall times (docs/conformance-matrix.md,
# "Each run and its wall time"): a run of a registry of one adapter (the
# mock adapter, behaving, over its own cases) keeps the wall time it
# measured in the report, and --from-reports renders the time the report
# holds, not a new one.
#   conformance_matrix_wall.sh MOVCONF SOURCE_DIR WORK_DIR
set -eu
movconf=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work/reports"
cat >"$work/registry.json" <<JSON
{"adapters": [{"name": "mock", "library": "tests/mock_adapter.py",
  "impl": "exec:exec python3 $src/tests/mock_adapter.py",
  "detect": ["true"], "version": ["echo", "1"]}]}
JSON
echo '{"explanations": []}' >"$work/explanations.json"
matrix() {
  python3 "$src/tools/conformance_matrix.py" --movconf "$movconf" --registry "$work/registry.json" \
    --explanations "$work/explanations.json" --out - "$@" "$src/tests/data/adapter/mock_cases.json"
}
fail() { echo "FAIL: $*"; exit 1; }

matrix --reports "$work/reports" >"$work/run.md" 2>"$work/run.err" || fail "the run: $(cat "$work/run.err")"
wall=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["matrix_wall_seconds"])' \
         "$work/reports/mock.json") || fail "the report keeps no matrix_wall_seconds"
grep -q '^## Each run and its wall time' "$work/run.md" || fail "no wall-time section"
# The mock adapter answers at once: a few seconds at most, never nothing.
python3 -c 'import sys; w = float(sys.argv[1]); sys.exit(not 0 < w < 120)' "$wall" ||
  fail "implausible wall time $wall"
grep -q "^| mock | [0-9]* | [0-9]* | 0 | [0-9]* | [0-9]* | [0-9]* s | [0-9]* s |$" "$work/run.md" ||
  fail "no row for mock: $(grep '^| mock' "$work/run.md")"

# Rendered again from the report: the stored time, whatever it is.
python3 - "$work/reports/mock.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
report["matrix_wall_seconds"] = 4321.0
json.dump(report, open(sys.argv[1], "w"))
PY
matrix --from-reports "$work/reports" >"$work/again.md" 2>"$work/again.err" ||
  fail "--from-reports: $(cat "$work/again.err")"
grep -q '^| mock | .* | 4321 s | [0-9]* s |$' "$work/again.md" ||
  fail "--from-reports did not render the stored time: $(grep '^| mock' "$work/again.md")"
echo "ok: wall time $wall s measured, kept and rendered again"
