#!/bin/sh
# Runs `movconf run` against a third-party adapter (examples/adapters/) when
# its library is installed, and exits 77 (CTest: skipped) when it is not.
# usage: adapter_if_installed.sh MOVCONF 'DETECT COMMAND' [movconf run options...]
# DETECT COMMAND exits 0 when the library is there (the adapter's --detect).
movconf=$1
detect=$2
shift 2
if ! sh -c "$detect" >/dev/null 2>&1; then
  echo "skipped: the library is not installed ($detect failed)"
  exit 77
fi
exec "$movconf" run "$@"
