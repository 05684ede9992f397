#!/bin/sh
# movconf export --format onnx maps Gather-8 to ONNX Gather where the two
# mean the same (batch_dims naming no batch axis, int32 or int64 indices,
# every index in [-d, d-1]) and skips the rest with its reason
# (docs/export.md). Needs no ONNX reader: CTest export/onnx reads the
# models back and runs them on ONNX Runtime where those are installed.
# usage: export_onnx_gather.sh MOVCONF WORK
set -u
. "$(dirname "$0")/expect.sh"
movconf=$(absolute "$1") work=$(absolute "$2")
fresh_folder "$work"

"$movconf" export --format onnx --out "$work/out" --case ga/hand/axis-negative \
  --case ga/errata/e81-batch-minus-q --case ga/spec/example-2 --case ga/spec/example-7 \
  --case ga/hand/indices-2d-middle >"$work/export.txt" 2>&1
expect "export exits 0 ($(tail -n 3 "$work/export.txt" | tr '\n' ' '))" test $? -eq 0
has "$work/export.txt" "^Gather-8  *2  *3$"
has "$work/export.txt" "gather-batch-dims  *1 "
has "$work/export.txt" "gather-index-out-of-range  *1 "
has "$work/export.txt" "gather-indices-type  *1 "
# axis -2 of [2, 3, 2] as the attribute; batch_dims -q names no batch axis.
for id in ga_hand_axis_negative ga_errata_e81_batch_minus_q; do
  model=$work/out/test_$id/model.onnx
  expect "$id is exported" test -f "$model"
  expect "$id: an ONNX Gather node with an axis attribute" \
    sh -c 'grep -aq Gather "$1" && grep -aq axis "$1"' model "$model"
done
expect "batch_dims 1 is not exported" test ! -e "$work/out/test_ga_spec_example_2"
expect_report
