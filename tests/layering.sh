#!/bin/sh
# The layers point one way (README "Where things live"):
#   include <- common <- {oracle, optimized, cases} <- {harness, gen} <- cli
#   harness <- fuzz (the movconf fuzz engine) <- cli; targets on top
# A layer is its folder src/<layer>/ with every subfolder (src/harness/impl/,
# src/cases/bytes/, ...); the fuzz targets of fuzz/ (fuzz/README.md) are the
# top layer, targets. Checks every #include "..." of those files against the
# layers the file's layer may use; a public header of include/movconf/
# belongs to the layer that implements it (oracle.h, optimized.h). Prints
# each wrong include as FILE:LINE: and exits 1 when there is one.
# usage: tests/layering.sh ROOT            check the tree at ROOT
#        tests/layering.sh --self-test ROOT WORK
#            check ROOT, then a copy in WORK with planted upward includes
#            (oracle -> harness; harness/impl -> cli; harness -> fuzz;
#            cases/bytes -> fuzz; harness/report -> harness/run), each of
#            which must be reported
set -eu

# The functions below set a variable rather than print, and the loops
# take headers apart with the shell's own expansions: a process per include
# line made the check take 42 s on an idle machine and 484 s under load.

# allowed LAYER: ok=" the layers LAYER may include ".
allowed() {
  case "$1" in
  common) ok="common" ;;
  oracle) ok="common oracle" ;;
  optimized) ok="common optimized" ;;
  cases) ok="common cases" ;;
  harness) ok="common oracle optimized cases harness" ;;
  gen) ok="common oracle cases gen" ;;
  fuzz) ok="common oracle optimized cases harness fuzz" ;;
  cli) ok="common oracle optimized cases harness gen fuzz cli" ;;
  targets) ok="common oracle optimized cases harness fuzz targets" ;;
  esac
  ok=" $ok "
}

# layer_of_file FILE: layer= the layer a file (relative to the root)
# belongs to; empty: none.
layer_of_file() {
  layer=
  case "$1" in
  fuzz/*) layer=targets ;;
  src/*/*) dir=${1#src/} && layer=${dir%%/*} ;;
  esac
}

# layer_of_include LAYER HEADER: target= the layer an include names:
# "cases/x.h" or "harness/impl/x.h" -> the first folder; "movconf/oracle.h"
# -> oracle; other public headers (types, ops, tensor, plugin) -> common; a
# header of the same folder ("roundtrip.h") -> the includer's own layer.
layer_of_include() {
  case "$2" in
  movconf/oracle.h) target=oracle ;;
  movconf/optimized.h) target=optimized ;;
  movconf/*) target=common ;;
  */*) target=${2%%/*} ;;
  *) target=$1 ;;
  esac
}

# Within the harness the rooms follow the data too (request -> run ->
# verdict -> report): a report reads verdicts, never the runner's room.
room_forbids() {
  case "$1:$2" in
  src/harness/report/*:harness/run/*) return 0 ;;
  esac
  return 1
}

check_file() {
  root=$1 file=$2
  layer_of_file "${file#"$root"/}"
  [ -n "$layer" ] || return 0
  allowed "$layer"
  lines=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" || true)
  [ -n "$lines" ] || return 0
  wrong=0
  while IFS= read -r line; do
    header=${line#*\"} && header=${header%%\"*}
    if room_forbids "${file#"$root"/}" "$header"; then
      echo "${file#"$root"/}:${line%%:*}: room harness/report includes \"$header\" of room harness/run"
      wrong=1
      continue
    fi
    layer_of_include "$layer" "$header"
    case "$ok" in
    *" $target "*) ;;
    *)
      echo "${file#"$root"/}:${line%%:*}: layer $layer includes \"$header\" of layer $target"
      wrong=1
      ;;
    esac
  done <<EOF2
$lines
EOF2
  return $wrong
}

check_tree() {
  root=$1
  bad=0
  files=$(find "$root/src" "$root/fuzz" -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort)
  for file in $files; do
    check_file "$root" "$file" || bad=1
  done
  return $bad
}

expect_reported() {
  case "$1" in
  *"$2"*) ;;
  *) echo "layering: a planted include was not reported as $2: $1" >&2; exit 1 ;;
  esac
}

if [ "${1:-}" = "--self-test" ]; then
  root=$2 work=$3
  check_tree "$root" || exit 1
  rm -rf "$work"
  mkdir -p "$work"
  cp -R "$root/src" "$root/fuzz" "$work/"
  printf '#include "harness/harness.h"\n' >>"$work/src/oracle/oracle.c"
  printf '#include "cli/cli.h"\n' >>"$work/src/harness/impl/child.c"
  printf '#include "fuzz/fuzz.h"\n' >>"$work/src/harness/harness.h"
  printf '#include "fuzz/fuzz_request.h"\n' >>"$work/src/cases/bytes/fuzz_bytes.c"
  printf '#include "harness/run/runner.h"\n' >>"$work/src/harness/report/show.c"
  if out=$(check_tree "$work"); then
    echo "layering: planted upward includes were not reported" >&2
    exit 1
  fi
  expect_reported "$out" 'src/oracle/oracle.c:'
  expect_reported "$out" 'layer oracle includes "harness/harness.h" of layer harness'
  expect_reported "$out" 'src/harness/impl/child.c:'
  expect_reported "$out" 'layer harness includes "cli/cli.h" of layer cli'
  expect_reported "$out" 'src/cases/bytes/fuzz_bytes.c:'
  expect_reported "$out" 'src/harness/harness.h:'
  expect_reported "$out" 'layer harness includes "fuzz/fuzz.h" of layer fuzz'
  expect_reported "$out" 'layer cases includes "fuzz/fuzz_request.h" of layer fuzz'
  expect_reported "$out" 'src/harness/report/show.c:'
  expect_reported "$out" 'room harness/report includes "harness/run/runner.h" of room harness/run'
  echo "layering: every include points down; planted upward includes are reported"
  exit 0
fi
check_tree "${1:-.}"
