# Sourced by the scripts that run movconf against a misbehaving adapter
# over tests/data/adapter/mock_cases.json (adapter_faults.sh, adapter_shm.sh).
# Needs $work and $python set.
failures=0 passes=0
expect() { # expect DESCRIPTION COMMAND...
  what=$1; shift
  if "$@"; then passes=$((passes + 1)); else echo "FAILED: $what"; failures=$((failures + 1)); fi
}

# verdict_lines NAME: "id verdict detail" lines of $work/NAME.json (the run's
# --json report) in $work/NAME.txt; empty when there is no report.
verdict_lines() {
  : >"$work/$1.txt"
  if [ -f "$work/$1.json" ]; then
    "$python" -c 'import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    print(c["id"], c["verdict"], c.get("detail", ""))' "$work/$1.json" >"$work/$1.txt"
  fi
}

# case_is NAME CASE VERDICT [DETAIL-REGEX]: a line of $work/NAME.txt.
case_is() {
  grep -Eq "^s2d/mock/$2 $3( |\$).*${4:-}" "$work/$1.txt"
}
