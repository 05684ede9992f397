#!/bin/sh
# Every test of CI (.ci/run): the CTest suite (unit tests, loader robustness,
# clause traceability, case-file checks, the conformance runs of the oracle
# and of the optimized kernels at several thread counts) built four ways:
# gcc (build/), clang (build-clang/), gcc with AddressSanitizer +
# UndefinedBehaviorSanitizer (build-asan/) and clang with ThreadSanitizer
# (build-tsan/); then the coverage targets (coverage/run.sh) and a short
# libFuzzer campaign (fuzz/fuzz_campaign.py) when clang's libFuzzer is
# installed. Each test runs in the builds it tells something in
# (docs/ci/test-presets.md: the long program tests once, under ASan; clang
# leaves the checks of the source tree, the third-party adapters and the
# installs to gcc; tsan runs the tests of the threads only).
# Run tools/bootstrap.sh first.
# --nightly runs the nightly jobs' long tests instead (docs/ci/nightly.yml):
# the presets nightly and asan-nightly, MOVCONF_NIGHTLY=ON, labels adapters
# and large (every adapter over the whole default tier; the large tier with
# the oracle, at 7 threads, through numpy and under AddressSanitizer), then
# the mutation score (tools/mutation.py).
# usage: sh tools/test-all.sh [--nightly | --help]
set -eu
cd "$(dirname "$0")/.."
jobs="$(nproc)"

# build_and_test PRESET: configure, build and test one CMake preset.
build_and_test() {
  echo "== $1: configure and build"
  cmake --preset "$1" >/dev/null
  cmake --build --preset "$1" -j "$jobs"
  echo "== $1: test"
  ctest --preset "$1" -j "$jobs"
}

# The mutation score of the test suite against the deliberate faults of
# tools/mutants/ (tools/mutation.py: fails below 95% killed). Nightly: 81
# mutants, an estimated 10 to 15 minutes on 2 cores (docs/mutation.md); CI
# checks that every patch still applies and compiles (CTest
# mutants/patches-apply). One mutant per CPU,
# each built with one compile job: a mutant's rebuild is one or two files,
# so parallel slots beat parallel compiles (2 cores: 339 s against 518 s).
mutation_score() {
  echo "== mutation score"
  python3 tools/mutation.py --fuzz-time 30 --jobs "$jobs" --build-jobs 1
}

case "${1:-}" in
  "") ;;
  --help | -h) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  --nightly)
    for preset in nightly asan-nightly; do build_and_test "$preset"; done
    mutation_score
    echo "test-all --nightly: every nightly test passed"
    exit 0 ;;
  *) echo "test-all: unknown argument $1 (see --help)" >&2; exit 2 ;;
esac

for preset in default clang asan tsan; do build_and_test "$preset"; done

# Line and branch coverage of src/oracle and src/optimized (coverage/run.sh:
# fails below every line and 95% of the branches).
echo "== coverage"
sh coverage/run.sh --jobs "$jobs"

# A short libFuzzer campaign over every fuzz target (fuzz/fuzz_campaign.py: 20 s per
# target, then corpus merge, deduplication and minimization of findings),
# when clang's libFuzzer is installed. A finding fails the run; its
# regression case is written under conformance/regressions/.
probe="$(mktemp -d)"
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$probe/probe.c"
if clang -fsanitize=fuzzer "$probe/probe.c" -o "$probe/probe" >/dev/null 2>&1; then
  echo "== fuzz: short libFuzzer campaign"
  python3 fuzz/fuzz_campaign.py --build --engine libfuzzer --target all --time 20 \
    --jobs "$((jobs < 4 ? jobs : 4))" --minimize-time 10
else
  echo "== fuzz: skipped (clang's libFuzzer is not installed)"
fi
rm -rf "$probe"
echo "test-all: every preset passed"
