#!/bin/sh
# Installs what the third-party adapters of examples/adapters/ need, on a
# fresh Debian 12, as root, from the repository's top folder:
#   - Debian packages python3-torch (PyTorch adapter), python3-opencv and
#     python3-onnx (OpenCV DNN adapter; python3-onnx also reads the models of
#     movconf export, CTest export/onnx), libxnnpack-dev and libpthreadpool-dev
#     (XNNPACK plugins), libarmnn-dev, libarmnn-cpuref-backend22 and g++ (Arm
#     NN plugin), libdnnl-dev (oneDNN plugin; CMake builds the plugins when
#     it finds them), chromium (headless, for the browser adapter and the
#     test of movconf report html's page), when missing,
#     after apt-get update;
#   - the npm packages of examples/adapters/onnxruntime, onnxruntime-web, tfjs,
#     tfjs-wasm and browser (npm ci --ignore-scripts), when node_modules is
#     missing or older than package-lock.json; the browser adapter drives
#     Debian's chromium through puppeteer-core.
# Idempotent: when everything is there it only checks and says so.
# Then: cmake --build build && python3 tools/conformance_matrix.py --strict
# usage: sh tools/install-adapters.sh [--help]
set -eu

if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
if [ $# -gt 0 ]; then
  echo "install-adapters: unknown argument $1 (see --help)" >&2
  exit 2
fi

cd "$(dirname "$0")/.."
say() { echo "install-adapters: $*"; }

# ---- Debian packages (node and npm may come from elsewhere: nodesource, nvm)
missing=""
for pkg in python3-torch python3-opencv python3-onnx libxnnpack-dev libpthreadpool-dev \
           libarmnn-dev libarmnn-cpuref-backend22 g++ libdnnl-dev chromium; do
  if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    say "$pkg: installed"
  else
    missing="$missing $pkg"
  fi
done
for tool in node npm; do
  if command -v "$tool" >/dev/null 2>&1; then
    say "$tool: $(command -v "$tool")"
  elif [ "$tool" = node ]; then
    missing="$missing nodejs"
  else
    missing="$missing npm"
  fi
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-adapters: missing Debian packages:$missing; run as root" >&2
    exit 1
  fi
  say "apt-get update"
  apt-get update -qq
  say "apt-get install$missing"
  # shellcheck disable=SC2086 # one word per package
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi

# ---- npm packages of the Node.js adapters
for dir in examples/adapters/onnxruntime examples/adapters/onnxruntime-web \
           examples/adapters/tfjs examples/adapters/tfjs-wasm examples/adapters/browser; do
  marker=$dir/node_modules/.package-lock.json
  if [ -f "$marker" ] && [ ! "$dir/package-lock.json" -nt "$marker" ]; then
    say "$dir: node_modules up to date"
    continue
  fi
  say "$dir: npm ci --ignore-scripts"
  (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
done

say "done; configure and build (cmake --preset default && cmake --build build) for the"
say "XNNPACK, Arm NN and oneDNN plugins, then run"
say "python3 tools/conformance_matrix.py --strict"
