#!/bin/sh
# The layers point one way (README "Where things live"):
#   include <- common <- {oracle, optimized, cases} <- {harness, gen} <- {cli, fuzz}
# Checks every #include "..." of src/<layer>/ and fuzz/ against the layers that
# layer may use; a public header of include/movconf/ belongs to the layer that
# implements it (oracle.h, optimized.h). Prints each wrong include as
# FILE:LINE: and exits 1 when there is one.
# usage: tests/layering.sh ROOT            check the tree at ROOT
#        tests/layering.sh --self-test ROOT WORK
#            check ROOT, then a copy in WORK with a planted upward include
#            (oracle -> harness), which must fail
set -eu

allowed() {
  case "$1" in
  common) echo "common" ;;
  oracle) echo "common oracle" ;;
  optimized) echo "common optimized" ;;
  cases) echo "common cases" ;;
  harness) echo "common oracle optimized cases harness" ;;
  gen) echo "common oracle cases gen" ;;
  cli) echo "common oracle optimized cases harness gen cli" ;;
  fuzz) echo "common oracle optimized cases harness fuzz" ;;
  esac
}

# The layer an include names: "cases/x.h" -> cases; "movconf/oracle.h" ->
# oracle; other public headers (types, ops, tensor, plugin) -> common; a
# header of the same folder ("producer.h") -> the includer's own layer.
layer_of_include() {
  case "$2" in
  movconf/oracle.h) echo oracle ;;
  movconf/optimized.h) echo optimized ;;
  movconf/*) echo common ;;
  */*) echo "${2%%/*}" ;;
  *) echo "$1" ;;
  esac
}

check_tree() {
  root=$1
  bad=0
  for layer in common oracle optimized cases harness gen cli fuzz; do
    if [ "$layer" = fuzz ]; then dir=$root/fuzz; else dir=$root/src/$layer; fi
    [ -d "$dir" ] || continue
    ok=" $(allowed "$layer") "
    for file in "$dir"/*.c "$dir"/*.h; do
      [ -f "$file" ] || continue
      lines=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" || true)
      [ -n "$lines" ] || continue
      while IFS= read -r line; do
        header=$(printf '%s\n' "$line" | sed 's/^[0-9]*:[^"]*"\([^"]*\)".*/\1/')
        case "$header" in ../tests/*) continue ;; esac # fuzz/test_producer.c: a unit test
        target=$(layer_of_include "$layer" "$header")
        case "$ok" in
        *" $target "*) ;;
        *)
          echo "${file#"$root"/}:${line%%:*}: layer $layer includes \"$header\" of layer $target"
          bad=1
          ;;
        esac
      done <<EOF
$lines
EOF
    done
  done
  return $bad
}

if [ "${1:-}" = "--self-test" ]; then
  root=$2 work=$3
  check_tree "$root" || exit 1
  rm -rf "$work"
  mkdir -p "$work"
  cp -R "$root/src" "$root/fuzz" "$work/"
  printf '#include "harness/harness.h"\n' >>"$work/src/oracle/oracle.c"
  if out=$(check_tree "$work"); then
    echo "layering: a planted upward include (oracle -> harness) was not reported" >&2
    exit 1
  fi
  case "$out" in
  *"src/oracle/oracle.c:"*"layer oracle includes \"harness/harness.h\" of layer harness"*) ;;
  *) echo "layering: the planted include was reported wrongly: $out" >&2; exit 1 ;;
  esac
  echo "layering: every include points down; a planted upward include is reported"
  exit 0
fi
check_tree "${1:-.}"
