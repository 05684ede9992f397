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
# absolute PATH: PATH, made absolute against the working folder.
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
# fresh_folder DIR: DIR emptied (created when missing), for a test's own files.
fresh_folder() {
  rm -rf "$1" && mkdir -p "$1"
}
# has FILE TEXT: one check, that FILE contains TEXT (a grep pattern).
has() {
  expect "$1 has: $2" grep -q -- "$2" "$1"
}
# lacks FILE TEXT: one check, that FILE does not contain TEXT.
lacks() {
  expect "$1 lacks: $2" sh -c '! grep -q -- "$1" "$2"' lacks "$2" "$1"
}
# junit_totals FILE TESTS FAILURES ERRORS SKIPPED: one check, that the JUnit
# report parses (Python's xml.etree), its <testsuites> has these totals,
# and its times add up: every <testcase> of an operation has file= and
# time=, every <testsuite> a time= that is the sum of its cases'.
junit_totals() {
  expect "junit $1: totals $2 tests, $3 failures, $4 errors, $5 skipped; times add up" \
    python3 -c 'import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
want = dict(zip(("tests", "failures", "errors", "skipped"), sys.argv[2:6]))
got = {k: root.get(k) for k in want}
assert got == want, (got, want)
for suite in root.iter("testsuite"):
    cases = suite.findall("testcase")
    if suite.get("name") in ("case files", "process faults"):
        continue
    assert all(c.get("file") and c.get("time") is not None for c in cases), suite.get("name")
    total = sum(float(c.get("time")) for c in cases)
    assert abs(total - float(suite.get("time"))) < 1e-5 * len(cases) + 1e-6, (suite.get("name"), total)
' "$@"
}
