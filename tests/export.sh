#!/bin/sh
# movconf export over the default tier (docs/export.md), read back by
# consumers movconf does not contain:
#   onnx: onnx.checker accepts every model and onnx.numpy_helper reads every
#         tensor back to the case's bytes (tests/export_check.py); ONNX Runtime
#         runs every node test and agrees byte for byte with output_0.pb, or
#         fails in a way docs/conformance-explanations.json explains for it
#         (tests/export_ort.js); the Slice cases where ONNX's clamping differs
#         are skipped, with their reason
#   npy:  numpy reads every file back to the case's bytes; each desc.json says
#         what its case says; every case has its folder
# and the command's own refusals (a folder that is not empty, a bad format).
# usage: export.sh onnx|npy MOVCONF ROOT WORK PYTHON [NODE NODE_MODULES]
# Exits 77 (skipped) when a consumer is not installed.
set -u
format=$1 movconf=$2 root=$3 work=$4 python=$5 node=${6:-} node_modules=${7:-}
. "$(dirname "$0")/expect.sh"
fresh_folder "$work"
out=$work/$format

# A consumer that is not there skips the test (exit 77), before any work.
"$python" -c "import numpy" 2>/dev/null || { echo "skipped: $python has no numpy"; exit 77; }
if [ "$format" = onnx ]; then
  "$python" -c "import onnx" 2>/dev/null || { echo "skipped: $python has no onnx (python3-onnx)"; exit 77; }
  [ -n "$node" ] && [ -d "$node_modules/onnxruntime-node" ] ||
    { echo "skipped: no node or onnxruntime-node in $node_modules"; exit 77; }
fi

"$movconf" export --format "$format" --out "$out" >"$work/export.txt" 2>&1
expect "export --format $format exits 0 ($(tail -n 3 "$work/export.txt" | tr '\n' ' '))" test $? -eq 0
cat "$work/export.txt"
has "$work/export.txt" "^total "

"$python" "$(dirname "$0")/export_check.py" "$format" "$out" "$root/conformance" >"$work/check.txt" 2>&1
expect "export_check.py $format: every file reads back to the case's bytes" test $? -eq 0
cat "$work/check.txt"

if [ "$format" = onnx ]; then
  "$node" "$(dirname "$0")/export_ort.js" "$out" "$node_modules" \
    "$root/docs/conformance-explanations.json" >"$work/ort.txt" 2>&1
  expect "ONNX Runtime agrees, or disagrees only as explained" test $? -eq 0
  cat "$work/ort.txt"
  # Slice-8 and ONNX's Slice clamp a negative step's start below -dim apart
  # (errata E32): that case is skipped, and a start within range is not.
  "$movconf" export --format onnx --out "$work/clamp" \
    --case sl/libraries/onnx-negative-step-start-below --case sl/hand/worked-example \
    >"$work/clamp.txt" 2>&1
  has "$work/clamp.txt" "slice-start-clamp  *1 "
  expect "the worked example (negative step, start in range) is exported" \
    test -f "$work/clamp/test_sl_hand_worked_example/model.onnx"
  expect "the start below -dim is not" \
    test ! -e "$work/clamp/test_sl_libraries_onnx_negative_step_start_below"
fi

# An export never mixes with older files; a format it has not is a usage error.
"$movconf" export --format "$format" --out "$out" --op s2d >"$work/again.txt" 2>&1
expect "a folder that is not empty is refused (exit 1)" test $? -eq 1
has "$work/again.txt" "is not empty"
"$movconf" export --format zz --out "$work/zz" >"$work/zz.txt" 2>&1
expect "--format zz is a usage error (exit 2)" test $? -eq 2
has "$work/zz.txt" "takes onnx or npy"
expect_report
