# Which campaigns of the long fuzz tests (fuzz_planted.sh, fuzz_distinct.sh,
# fuzz_findings.sh) a build runs, by the test's last argument:
#   all    every campaign, large requests included (by hand);
#   small  the sanitizer builds: the campaigns without large requests, or
#          with them left out ($sizes is --no-large there);
#   rest   the gcc build of CI: the campaigns `small` leaves out, so that in
#          CI each campaign runs once (docs/ci/test-presets.md).
# fuzz_mode MODE: sets $sizes and the mode the two tests below read.
fuzz_mode() {
  case "$1" in
  all | rest) sizes= ;;
  small) sizes=--no-large ;;
  *) echo "FAILED: unknown mode '$1' (all, small or rest)"; exit 2 ;;
  esac
  fuzz_test_mode=$1
}
# small_campaigns: this build runs the campaigns that `small` runs.
small_campaigns() { [ "$fuzz_test_mode" != rest ]; }
# large_campaigns: this build runs the campaigns that need large requests.
large_campaigns() { [ "$fuzz_test_mode" != small ]; }
