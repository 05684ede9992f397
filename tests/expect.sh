# Shared by the shell tests (sourced): expect DESCRIPTION COMMAND... counts
# one check, passed when COMMAND succeeds; expect_report prints the counts
# and fails when a check failed.
failures=0 passes=0
expect() {
  what=$1; shift
  if "$@"; then echo "ok: $what"; passes=$((passes + 1)); else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
expect_report() {
  echo "$passes passed, $failures failed"
  test "$failures" -eq 0
}
# has FILE TEXT: one check, that FILE contains TEXT (a grep pattern).
has() {
  expect "$1 has: $2" grep -q -- "$2" "$1"
}
# lacks FILE TEXT: one check, that FILE does not contain TEXT.
lacks() {
  expect "$1 lacks: $2" sh -c '! grep -q -- "$1" "$2"' lacks "$2" "$1"
}
