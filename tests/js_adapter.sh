#!/bin/sh
# CTest driver for a Node.js process adapter of examples/adapters/NAME:
# exits 77 (reported as skipped) when node or the adapter's npm packages are
# missing; otherwise runs the adapter's own checks (mode_experiment.js when
# it has one) and the whole suite with the failures that
# docs/conformance-explanations.json explains as expected (movconf --expect),
# so that a new failure, or a library fix (an unexpected pass), fails the test.
#   js_adapter.sh MOVCONF SOURCE_DIR NAME WORK_DIR PYTHON
set -eu
movconf="$1" src="$2" name="$3" work="$4" python="$5"
cd "$src"
if ! command -v node >/dev/null 2>&1; then
  echo "skipped: node is not installed"
  exit 77
fi
if ! node "examples/adapters/$name/detect.js"; then
  echo "skipped: install the adapter with: (cd examples/adapters/$name && npm ci --ignore-scripts)"
  exit 77
fi
mkdir -p "$work"
if [ -f "examples/adapters/$name/mode_experiment.js" ]; then
  node "examples/adapters/$name/mode_experiment.js"
fi
"$python" tools/conformance_matrix.py --write-expect "$name" "$work/expect.json"
"$movconf" run --impl "exec:exec node examples/adapters/$name/adapter.js" \
  --expect "$work/expect.json" --json "$work/results.json"
