#!/bin/bash -eu
# Builds movconf's fuzz targets the way OSS-Fuzz and ClusterFuzzLite expect,
# through the project's own CMake (the fuzz-nosan preset: the sanitizers and
# the coverage instrumentation come from $CFLAGS), and puts them into $OUT
# with their dictionary (<fuzzer>.dict) and seed corpus
# (<fuzzer>_seed_corpus.zip). The services run it as $SRC/build.sh (see
# .clusterfuzzlite/); to try it by hand:
#
#   CC=clang CFLAGS="-fsanitize=address,fuzzer-no-link" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out bash fuzz/build.sh
#
# movconf itself needs only a C compiler ($CXX and $CXXFLAGS serve only a
# C++ plugin's sources: -DMOVCONF_CXX=OFF).
# Any failure ends the script with a non-zero status and no success line.
#
# fuzz_plugin_diff is built when MOVCONF_FUZZ_PLUGIN names a plugin: its
# sources (compiled here, C with $CC $CFLAGS, C++ with $CXX $CXXFLAGS, -fPIC,
# movconf's include/ on the path) or a shared library the caller built with
# those flags. It is
# put beside the fuzzer as fuzz_plugin_diff.plugin.so, where the fuzzer
# finds it (fuzz/README.md, "ClusterFuzzLite over your plugin"). cJSON comes
# from $SRC/cJSON when that checkout exists (built static with the same
# flags by its own CMake; .clusterfuzzlite/Dockerfile clones it), else from
# the system, with its shared library copied to $OUT/lib.
set -euo pipefail # also when run as "bash fuzz/build.sh", which ignores the line above
trap 'echo "fuzz/build.sh: FAILED at line $LINENO (exit $?): $OUT is incomplete" >&2' ERR

: "${CC:=clang}"
: "${CFLAGS:=-fsanitize=address,fuzzer-no-link}"
: "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
: "${OUT:?set OUT to the directory that receives the fuzzers}"
: "${MOVCONF_FUZZ_PLUGIN:=}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
: "${SRC:=$(dirname "$repo")}"
if [ -n "${WORK:-}" ]; then
  work="$WORK/movconf-fuzz-build"
  rm -rf "$work"
  mkdir -p "$work"
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi
jobs="$(nproc 2>/dev/null || echo 2)"
targets=(diff roundtrip parser)
if [ -n "$MOVCONF_FUZZ_PLUGIN" ]; then
  targets+=(plugin_diff)
fi
mkdir -p "$OUT"

# The preset names the engine (libfuzzer) and the build type; the compiler,
# its flags and what links the engine are the service's. -Werror stays off:
# the service's compiler may warn where ours does not.
configure=(--preset fuzz-nosan -B "$work/build" -DCMAKE_C_COMPILER="$CC"
           -DCMAKE_C_FLAGS="$CFLAGS" -DMOVCONF_LIB_FUZZING_ENGINE="$LIB_FUZZING_ENGINE"
           -DMOVCONF_WERROR=OFF -DMOVCONF_CXX=OFF)

if [ -f "$SRC/cJSON/cJSON.c" ]; then
  # CMAKE_POLICY_VERSION_MINIMUM: cJSON asks for an older CMake than 4.x serves.
  cmake -S "$SRC/cJSON" -B "$work/cjson" -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$CFLAGS" \
    -DBUILD_SHARED_LIBS=OFF -DENABLE_CJSON_TEST=OFF -DENABLE_CUSTOM_COMPILER_FLAGS=OFF \
    -DCMAKE_POLICY_VERSION_MINIMUM=3.5 -DCMAKE_INSTALL_PREFIX="$work/cjson-install"
  cmake --build "$work/cjson" -j "$jobs"
  cmake --install "$work/cjson"
  configure+=(-DCMAKE_PREFIX_PATH="$work/cjson-install")
else
  mkdir -p "$OUT/lib"
  cp -L "$(pkg-config --variable=libdir libcjson)/libcjson.so.1" "$OUT/lib/"
  # The loader, not the shell, expands $ORIGIN: the fuzzer's own folder.
  # shellcheck disable=SC2016
  configure+=(-DCMAKE_BUILD_RPATH='$ORIGIN/lib')
fi

# The plugin fuzz_plugin_diff fuzzes: built from sources (C with $CC, C++
# with $CXX, each with the service's flags), or copied. The C++ runtime it
# needs is linked into the fuzzer, so that it is there when ASan starts (its
# __cxa_throw interceptor finds no runtime that arrives later).
if [ -n "$MOVCONF_FUZZ_PLUGIN" ]; then
  read -r -a plugin <<<"$MOVCONF_FUZZ_PLUGIN"
  if [ "${#plugin[@]}" -eq 1 ] && [[ "${plugin[0]}" == *.so* ]]; then
    cp "${plugin[0]}" "$work/plugin.so"
  else
    linker="$CC $CFLAGS"
    objects=()
    for source in "${plugin[@]}"; do
      object="$work/plugin-${#objects[@]}.o"
      case "$source" in
      *.cc | *.cpp | *.cxx | *.C)
        # UBSan's vptr and function checks need C++ runtime parts the C
        # fuzzer does not link (fuzz/README.md, C++ plugins).
        # shellcheck disable=SC2086 # the service's flags are words
        "${CXX:-clang++}" ${CXXFLAGS:-} -fno-sanitize=vptr,function -fPIC -I "$repo/include" \
          -c "$source" -o "$object"
        linker="${CXX:-clang++} ${CXXFLAGS:-}" ;;
      *)
        # shellcheck disable=SC2086
        "$CC" $CFLAGS -fPIC -I "$repo/include" -c "$source" -o "$object" ;;
      esac
      objects+=("$object")
    done
    # shellcheck disable=SC2086
    $linker -shared -o "$work/plugin.so" "${objects[@]}"
  fi
  if command -v readelf >/dev/null; then
    cxx_runtimes="$(readelf -d "$work/plugin.so" |
      sed -n 's/.*(NEEDED).*\[\(lib\(std\)\{0,1\}c++[^]]*\)\]/-l:\1/p' | paste -sd ';' -)"
    configure+=(-DMOVCONF_FUZZ_PLUGIN_LIBS="$cxx_runtimes")
  fi
fi

(cd "$repo" && cmake "${configure[@]}")
cmake --build "$work/build" -j "$jobs" --target "${targets[@]/#/fuzz_}"

for target in "${targets[@]}"; do
  name="fuzz_$target"
  seeds_of="$target"
  if [ "$target" = plugin_diff ]; then
    cp "$work/plugin.so" "$OUT/$name.plugin.so"
    seeds_of=diff # plugin_diff reads diff's inputs
  fi
  cp "$work/build/fuzz/$name" "$OUT/$name"
  if [ -f "$repo/corpus/$seeds_of.dict" ]; then
    cp "$repo/corpus/$seeds_of.dict" "$OUT/$name.dict"
  fi
  seeds="$repo/corpus/$seeds_of"
  if [ -d "$seeds" ] && [ -n "$(ls -A "$seeds")" ]; then
    rm -f "$OUT/${name}_seed_corpus.zip"
    (cd "$seeds" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
  fi
  echo "fuzz/build.sh: $OUT/$name"
done
echo "fuzz/build.sh: ${#targets[@]} fuzzers in $OUT"
