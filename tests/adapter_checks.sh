# Sourced by the scripts that run movconf against a misbehaving adapter
# over tests/data/adapter/mock_cases.json (adapter_faults.sh, adapter_shm.sh).
# Each is run as SCRIPT MOVCONF SOURCE_DIR WORK_DIR PYTHON: adapter_test_args.
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

# adapter_test_args MOVCONF SOURCE_DIR WORK_DIR PYTHON: a script's arguments
# in $movconf, $src, $work (created) and $python; the mock cases in $cases.
adapter_test_args() {
  movconf=$1 src=$2 work=$3 python=$4
  cases=$src/tests/data/adapter
  mkdir -p "$work"
}

# run_adapter NAME ADAPTER [RUN-OPTIONS...]: movconf run over $cases against
# tests/ADAPTER (marked --run-PID of this script; the environment the caller
# sets on the call reaches it); the --json report in $work/NAME.json, the
# output in $work/NAME.out, the verdict lines in $work/NAME.txt and the exit
# status in $status.
run_adapter() {
  run_name=$1 run_adapter=$2
  shift 2
  rm -f "$work/$run_name.json"
  "$movconf" run --json "$work/$run_name.json" "$@" \
    --impl "exec:exec '$python' '$src/tests/$run_adapter' --run-$$" "$cases" >"$work/$run_name.out" 2>&1
  status=$?
  verdict_lines "$run_name"
}

# no_adapter_left ADAPTER: no process of tests/ADAPTER that this script
# started (marked --run-PID) runs once movconf exited.
no_adapter_left() {
  ! ps -eo args | grep -F "$1 --run-$$" | grep -vq grep
}
