#!/bin/sh
# Sets up a Debian 12 machine for movconf and builds it into build/.
# Installs only the packages that are missing (needs root for that), then
# configures and builds the default preset. Safe to run again.
# usage: tools/bootstrap.sh [--adapters]
#   --adapters  also install the third-party libraries the example adapters
#               test (tools/install-adapters.sh), so that their tests run
#               instead of being skipped
set -eu
cd "$(dirname "$0")/.."
adapters=false
for arg in "$@"; do
  case "$arg" in
  --adapters) adapters=true ;;
  -h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "bootstrap: unknown option $arg (see --help)" >&2; exit 2 ;;
  esac
done

packages="gcc make cmake patch pkg-config libcjson-dev libssl-dev dpkg-dev man-db clang libclang-rt-14-dev python3 python3-jsonschema python3-numpy afl++ lcov"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "bootstrap: installing$missing"
  if [ "$(id -u)" -ne 0 ]; then
    echo "bootstrap: run as root (or install these packages yourself):$missing" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

if $adapters; then
  sh tools/install-adapters.sh
fi

cmake --preset default >/dev/null
cmake --build --preset default -j "$(nproc)"
echo "bootstrap: built build/movconf"
