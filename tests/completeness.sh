#!/bin/sh
# ops/completeness (docs/adding-an-operation.md): every operation movconf
# knows (`movconf help operations`: name, slug, clause prefix) has
#   spec/<slug>.md citing clauses <PREFIX>-*,
#   generators/<slug>.json,
#   conformance/<slug>/ with case files (*.json) of its own,
#   conformance-large/<slug>/ with case files,
#   a reference-model function: reference/reference_model.py's _KERNELS
#     (a function) and OPS have the operation's name as a key,
#   a numpy-adapter function: examples/numpy_adapter.py's RUN (a function)
#     and the adapter helper's OPS (examples/adapters/common) have it.
# The Python files are imported by PYTHON (default /usr/bin/python3, which
# has Debian's python3-numpy), so a table that does not evaluate fails too.
# Prints "completeness: NAME (slug): missing WHAT" for each missing piece
# and exits 1 when there is one.
# usage: tests/completeness.sh MOVCONF ROOT [PYTHON]
#        tests/completeness.sh --self-test MOVCONF ROOT WORK [PYTHON]
#            check ROOT, then a tree in WORK made of links to ROOT's pieces
#            with SpaceToDepth-1's generator left out, which must be reported
set -u
if [ "${1:-}" = "--self-test" ]; then
  movconf=$2 root=$3 work=$4 python=${5:-/usr/bin/python3}
  sh "$0" "$movconf" "$root" "$python" || exit 1
  rm -rf "$work" && mkdir -p "$work/examples" || exit 1
  for piece in spec generators conformance conformance-large reference; do
    mkdir -p "$work/$piece" && ln -s "$root/$piece"/* "$work/$piece/" || exit 1
  done
  ln -s "$root/examples/numpy_adapter.py" "$root/examples/adapters" "$work/examples/" || exit 1
  sh "$0" "$movconf" "$work" "$python" >/dev/null || {
    echo "completeness: the tree of links is not complete" >&2
    exit 1
  }
  rm "$work/generators/space_to_depth_1.json"
  if out=$(sh "$0" "$movconf" "$work" "$python"); then
    echo "completeness: a missing generator was not reported" >&2
    exit 1
  fi
  case "$out" in
  *"SpaceToDepth-1 (space_to_depth_1): missing its generator generators/space_to_depth_1.json"*) ;;
  *) echo "completeness: the missing generator was reported wrongly: $out" >&2; exit 1 ;;
  esac
  echo "completeness: a planted missing generator is reported"
  exit 0
fi
movconf=$1 root=$2 python=${3:-/usr/bin/python3}
tab=$(printf '\t')

if ! ops=$("$movconf" help operations) || [ -z "$ops" ]; then
  echo "completeness: '$movconf help operations' listed no operation" >&2
  exit 1
fi

missing=0
miss() {
  echo "completeness: $1: missing $2"
  missing=1
}
has_case_files() { # DIR: at least one *.json directly in DIR
  for f in "$1"/*.json; do
    [ -f "$f" ] && return 0
  done
  return 1
}

names=""
while IFS=$tab read -r name slug prefix; do
  op="$name ($slug)"
  names="$names$name$tab"
  spec=$root/spec/$slug.md
  if [ ! -f "$spec" ]; then
    miss "$op" "its clauses spec/$slug.md"
  elif ! grep -q "$prefix-[A-Z]*[0-9]" "$spec"; then
    miss "$op" "clauses $prefix-* in spec/$slug.md"
  fi
  [ -f "$root/generators/$slug.json" ] || miss "$op" "its generator generators/$slug.json"
  has_case_files "$root/conformance/$slug" ||
    miss "$op" "case files conformance/$slug/*.json"
  has_case_files "$root/conformance-large/$slug" ||
    miss "$op" "large-tier case files conformance-large/$slug/*.json"
done <<OPERATIONS
$ops
OPERATIONS

# One line "NAME<tab>WHAT" per operation a Python table lacks.
python_missing=$(
  "$python" - "$root" "$names" <<'PYTHON'
import importlib.util
import os
import sys

root, names = sys.argv[1], [n for n in sys.argv[2].split("\t") if n]


def load(relative, module_name):
    path = os.path.join(root, relative)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # a file that does not import lacks every piece
        sys.exit("completeness: cannot import %s: %s: %s" % (relative, type(e).__name__, e))
    return module


model = load("reference/reference_model.py", "completeness_reference_model")
adapter = load("examples/numpy_adapter.py", "completeness_numpy_adapter")
helper = load("examples/adapters/common/movconf_adapter.py", "completeness_adapter_helper")
for name in names:
    if not callable(model._KERNELS.get(name)):
        print("%s\ta reference-model function (reference/reference_model.py _KERNELS)" % name)
    if name not in model.OPS:
        print("%s\ta reference-model row (reference/reference_model.py OPS)" % name)
    if not callable(adapter.RUN.get(name)):
        print("%s\ta numpy-adapter function (examples/numpy_adapter.py RUN)" % name)
    if name not in helper.OPS:
        print("%s\tan adapter-helper row (examples/adapters/common/movconf_adapter.py OPS)"
              % name)
PYTHON
) || exit 1
if [ -n "$python_missing" ]; then
  while IFS=$tab read -r name what; do
    miss "$name" "$what"
  done <<MISSING
$python_missing
MISSING
fi

if [ "$missing" = 0 ]; then
  count=$(printf '%s\n' "$ops" | wc -l)
  echo "completeness: all $count operations have their spec, generator, cases of both tiers," \
    "reference-model and numpy-adapter functions"
fi
exit "$missing"
