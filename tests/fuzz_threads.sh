#!/bin/sh
# movconf fuzz over the threaded optimized kernels, the part of a campaign
# that ThreadSanitizer has something to check in (docs/ci/test-presets.md):
# the kernels' thread pool inside forked job workers, and inside plugin
# processes that fail, are replaced, and rerun a finding alone while it
# shrinks (small requests: large ones take minutes to shrink under the
# sanitizer). The long fuzz tests (fuzz_planted.sh, fuzz_distinct.sh) check the
# engine's logic in the other builds.
# usage: fuzz_threads.sh MOVCONF PLUGIN_PLANTED WORKDIR
set -u
. "$(dirname "$0")/expect.sh"
movconf=$(absolute "$1") plugin=$(absolute "$2") work=$(absolute "$3")
fresh_folder "$work"
cd "$work" || exit 2
# Every request split over the threads, however small.
MOVCONF_PARALLEL_MIN_BYTES=0 MOVCONF_STREAM_MIN_BYTES=0
export MOVCONF_PARALLEL_MIN_BYTES MOVCONF_STREAM_MIN_BYTES

"$movconf" fuzz --impl optimized --threads 3 --jobs 2 --runs 200 --seed 1 --out clean \
  >clean.out 2>clean.err
status=$?
expect "the kernels on 3 threads in 2 jobs: exit status 0, not $status (see $work/clean.err)" \
  test "$status" -eq 0
has clean.out "^200 runs"
has clean.out "^0 distinct findings"

MOVCONF_THREADS=3 MOVCONF_PLANTED=d2s-swap "$movconf" fuzz --impl "plugin:$plugin" --op d2s \
  --no-large --jobs 2 --runs 40 --seed 1 --out planted >planted.out 2>planted.err
status=$?
expect "a planted fault over the threaded kernels: exit status 1, not $status" test "$status" -eq 1
has planted.out "^1 distinct finding"
has planted.out "reproduced alone"
expect_report
