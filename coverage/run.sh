#!/bin/sh
# Line and branch coverage of movconf's kernels (coverage/README.md): builds
# with gcc --coverage at -O0 in build-coverage/, runs the unit tests, the
# conformance runs (oracle; optimized at 1, 2, 3 and 7 threads with forced
# splitting, and once with the default small-request cut-off) and the fuzz
# corpus replay, then writes an lcov HTML report to build-coverage/html and
# prints line and branch figures for src/oracle, src/optimized and all of src/.
# Exit status: 0 when src/oracle and src/optimized meet the targets (100% of
# lines, >= 95% of branches), 1 when one does not, 2 when a tool is missing
# or a step fails.
set -eu

usage() {
  cat <<'EOF'
usage: coverage/run.sh [--jobs N] [--no-build] [--list]

Builds movconf with gcc --coverage -O0 in build-coverage/, runs the unit tests,
the conformance runs of the oracle and of the optimized kernels (1, 2, 3, 7
threads with MOVCONF_PARALLEL_MIN_BYTES=0, with and without MOVCONF_STREAM_MIN_BYTES=0,
and the default cut-offs) and the
fuzz replay drivers over corpus/ and conformance/regressions/inputs/, then:

  build-coverage/html/index.html   the lcov HTML report (line and branch)
  build-coverage/coverage.info     the lcov trace of src/

and prints line and branch coverage of src/oracle, src/optimized and src/.

  --jobs N     build with N jobs (default: the online CPUs)
  --no-build   reuse build-coverage/ as it is (counters are still reset)
  --list       also print every line and branch of src/oracle and
               src/optimized that no test reached
  -h, --help   show this text

Targets: 100% of lines and >= 95% of branches in src/oracle and
src/optimized. Exit status 0 when both meet them, 1 when one does not, 2 when
a tool is missing or a step fails. Needs gcc, cmake and lcov (Debian:
apt-get install lcov).
EOF
}

jobs="$(nproc 2>/dev/null || echo 2)"
build=yes
list=no
while [ $# -gt 0 ]; do
  case "$1" in
  --jobs)
    [ $# -ge 2 ] || { echo "coverage: --jobs needs a number" >&2; exit 2; }
    jobs=$2
    shift 2
    ;;
  --no-build) build=no; shift ;;
  --list) list=yes; shift ;;
  -h | --help) usage; exit 0 ;;
  *) echo "coverage: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$jobs" in '' | *[!0-9]*) echo "coverage: --jobs takes a number" >&2; exit 2 ;; esac

# tool:Debian package
missing="" packages=""
for pair in gcc:gcc gcov:gcc cmake:cmake lcov:lcov genhtml:lcov; do
  tool=${pair%%:*} package=${pair#*:}
  if ! command -v "$tool" >/dev/null 2>&1; then
    missing="$missing $tool"
    case " $packages " in *" $package "*) ;; *) packages="$packages $package" ;; esac
  fi
done
if [ -n "$missing" ]; then
  echo "coverage: not installed:$missing" >&2
  echo "coverage: on Debian/Ubuntu, as root: apt-get install$packages" >&2
  exit 2
fi

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/build-coverage"
log="$out/coverage.log"
# Branch coverage is off by default in lcov 1.x.
rc="--rc lcov_branch_coverage=1"

step() { echo "coverage: $*" >&2; }
# Runs a command with its output in the log; on failure shows the log's tail.
logged() {
  if ! "$@" >>"$log" 2>&1; then
    echo "coverage: failed: $*" >&2
    tail -n 30 "$log" >&2
    exit 2
  fi
}

mkdir -p "$out"
: >"$log"
if [ "$build" = yes ]; then
  step "configure and build (gcc --coverage -O0, $jobs jobs) in build-coverage/"
  # -fprofile-update=atomic: the pool's threads update the same counters.
  # CC, not CMAKE_C_COMPILER: changing the compiler of an existing build
  # directory makes CMake drop the cache, with the flags given here.
  CC=gcc logged cmake -S "$root" -B "$out" -DCMAKE_BUILD_TYPE=Debug \
    "-DCMAKE_C_FLAGS=--coverage -O0 -fprofile-update=atomic" -DMOVCONF_FUZZ_ENGINE=none
  logged cmake --build "$out" -j "$jobs"
fi
[ -x "$out/movconf" ] || { echo "coverage: no build in build-coverage/ (drop --no-build)" >&2; exit 2; }

step "reset counters"
logged lcov $rc --zerocounters --directory "$out"
logged lcov $rc --capture --initial --directory "$out" --output-file "$out/base.info"

step "unit tests"
logged ctest --test-dir "$out" -j "$jobs" -R '^unit/' --output-on-failure

# The conformance runs, $jobs at a time (most keep one core busy); gcov
# merges each process's counters into the files under a lock at its exit.
# Not run --jobs: its workers leave by _exit, which writes no counters.
lanes=$((jobs < 1 ? 1 : jobs))
# run_specs: one line per run, DESCRIPTION|ENV...|RUN-OPTIONS.
run_specs() {
  echo "oracle||--impl oracle"
  for threads in 1 2 3 7; do
    echo "optimized, $threads threads, every request split|MOVCONF_PARALLEL_MIN_BYTES=0|--impl optimized --threads $threads"
    echo "optimized, $threads threads, split, streaming stores|MOVCONF_PARALLEL_MIN_BYTES=0 MOVCONF_STREAM_MIN_BYTES=0|--impl optimized --threads $threads"
  done
  echo "optimized, default threads and cut-off||--impl optimized"
}
# lane K: the K-th of every $lanes runs, one after another; fails on the first
# that fails, with its log's tail.
lane() {
  n=0
  run_specs | while IFS='|' read -r what vars options; do
    n=$((n + 1))
    [ $(((n - 1) % lanes)) -eq "$1" ] || continue
    step "conformance run: $what"
    # shellcheck disable=SC2086 # $vars and $options are lists of words
    if ! (cd "$root" && env $vars "$out/movconf" run $options --quiet >"$out/run-$n.log" 2>&1); then
      echo "coverage: failed: conformance run: $what" >&2
      tail -n 30 "$out/run-$n.log" >&2
      exit 1
    fi
  done
}
pids="" k=0
while [ $k -lt $lanes ]; do
  lane $k &
  pids="$pids $!"
  k=$((k + 1))
done
for pid in $pids; do
  wait "$pid" || exit 2
done

for target in diff roundtrip parser; do
  step "fuzz replay: $target"
  logged "$out/fuzz/replay_$target" --skip-missing "$root/corpus/$target" \
    "$root/corpus/$target-found" "$root/conformance/regressions/inputs/$target"
done

step "collect"
logged lcov $rc --capture --directory "$out" --output-file "$out/run.info"
logged lcov $rc --add-tracefile "$out/base.info" --add-tracefile "$out/run.info" \
  --output-file "$out/all.info"
# src/: every library (the fuzz targets of fuzz/ are programs over them).
logged lcov $rc --extract "$out/all.info" "$root/src/*" --output-file "$out/coverage.info"
logged lcov $rc --extract "$out/coverage.info" "$root/src/oracle/*" --output-file "$out/oracle.info"
logged lcov $rc --extract "$out/coverage.info" "$root/src/optimized/*" \
  --output-file "$out/optimized.info"
rm -rf "$out/html"
logged genhtml $rc --branch-coverage --legend --title "movconf" --prefix "$root" \
  --output-directory "$out/html" "$out/coverage.info"

# "hit found" of lines and branches of one trace file.
figures() {
  awk -F: '
    /^LH:/ { lh += $2 } /^LF:/ { lf += $2 } /^BRH:/ { bh += $2 } /^BRF:/ { bf += $2 }
    END { print lh + 0, lf + 0, bh + 0, bf + 0 }' "$1"
}
percent() { awk -v h="$1" -v f="$2" 'BEGIN { printf "%.1f%%", f ? 100 * h / f : 100 }'; }

status=0
printf '\n%-15s %22s %22s\n' "" "lines" "branches"
for part in oracle optimized all; do
  info="$out/$part.info"
  [ "$part" = all ] && info="$out/coverage.info"
  set -- $(figures "$info")
  printf '%-15s %8s (%5d of %5d) %8s (%5d of %5d)\n' "src/${part#all}" \
    "$(percent "$1" "$2")" "$1" "$2" "$(percent "$3" "$4")" "$3" "$4"
  if [ "$part" != all ]; then
    # Targets: every line; 95% of branches (integer test: 100*hit >= 95*found).
    if [ "$1" -lt "$2" ] || [ $((100 * $3)) -lt $((95 * $4)) ]; then
      echo "  below target (100% of lines, >= 95% of branches)"
      status=1
    fi
  fi
done

if [ "$list" = yes ]; then
  echo
  echo "not reached in src/oracle and src/optimized:"
  cat "$out/oracle.info" "$out/optimized.info" | awk -F'[:,]' -v root="$root/" '
    /^SF:/ { file = substr($0, 4); sub(root, "", file) }
    /^DA:/ && $3 == "0" { print file ":" $2 ": line" }
    /^BRDA:/ && ($5 == "0" || $5 == "-") { print file ":" $2 ": branch " $4 " of block " $3 }'
fi
echo
echo "report: build-coverage/html/index.html (log: build-coverage/coverage.log)"
exit $status
