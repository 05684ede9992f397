#!/bin/sh
# movconf run refuses the case files check-cases refuses (spec/runner.md,
# "Case files"): a file citing a clause id the registry does not have, or
# repeating a case id of an earlier file of the run, is an invalid case file
# (none of its cases runs, exit 1); a file named twice runs once.
# usage: run_case_files.sh MOVCONF SOURCE_DIR WORK_DIR PYTHON
set -u
movconf=$1 src=$2 work=$3 python=$4
rm -rf "$work" && mkdir -p "$work/ok" "$work/clause" "$work/dup" "$work/many"
. "$(dirname "$0")/expect.sh"
base=$src/tests/data/adapter/mock_cases.json # 7 valid SpaceToDepth-1 cases
cp "$base" "$work/ok/a.json"

# edit IN OUT PYTHON-STATEMENTS: OUT is IN's JSON as d, changed by the statements.
edit() {
  "$python" -c 'import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))' "$1" "$2" "$3"
}
# report FILE: "cases N" then one line per invalid file, from a JSON report.
report() {
  "$python" -c 'import json, sys
r = json.load(open(sys.argv[1]))
print("cases", len(r["cases"]))
for e in r["invalid_files"]:
    print(e)' "$1"
}
# run_json NAME PATHS...: a run with a JSON report; its lines in $work/NAME.txt.
run_json() {
  name=$1; shift
  "$movconf" run --json "$work/$name.json" "$@" >"$work/$name.out" 2>&1
  status=$?
  report "$work/$name.json" >"$work/$name.txt"
}

# An unknown clause id: the file is invalid, naming the case and the clause.
edit "$base" "$work/clause/a.json" 'd["cases"][2]["clauses"].append("S2D-V99")'
run_json clause "$work/clause"
expect "unknown clause: exit 1, not $status" test "$status" -eq 1
printf '%s\n' "cases 0" \
  "$work/clause/a.json: case 's2d/mock/3-mode-missing': clause 'S2D-V99' is not in the clause registry" \
  >"$work/clause.want"
expect "unknown clause: an invalid case file, none of its cases run" cmp -s "$work/clause.want" "$work/clause.txt"
expect "unknown clause: on the terminal too" grep -q "^invalid case file: .*clause 'S2D-V99' is not in the clause registry" "$work/clause.out"

# A case id of an earlier file: the later file is invalid, naming both files;
# the earlier one runs.
edit "$base" "$work/dup/2.json" 'd["cases"] = d["cases"][:2]; d["cases"][1]["id"] = "s2d/mock/new"'
cp "$base" "$work/dup/1.json"
run_json dup "$work/dup"
expect "duplicate id: exit 1, not $status" test "$status" -eq 1
printf '%s\n' "cases 7" \
  "$work/dup/2.json: case 's2d/mock/1-u8': id already used by a case of $work/dup/1.json (ids are unique across files)" \
  >"$work/dup.want"
expect "duplicate id: the later file is invalid, the earlier one runs" cmp -s "$work/dup.want" "$work/dup.txt"
"$movconf" check-cases "$work/dup" >"$work/dup-check.txt"
expect "duplicate id: check-cases says the same, exit 1" test $? -eq 1
expect "duplicate id: check-cases names both files" grep -Fxq \
  "$work/dup/2.json: case 's2d/mock/1-u8': id already used by a case of $work/dup/1.json (ids are unique across files)" \
  "$work/dup-check.txt"

# More than three problems: three named, the rest counted.
edit "$base" "$work/many/a.json" 'for c in d["cases"][:5]: c["clauses"].append("S2D-V99")'
run_json many "$work/many"
expect "many problems: three named, two counted" grep -q \
  "case 's2d/mock/3-mode-missing': clause 'S2D-V99' is not in the clause registry; and 2 more (movconf check-cases lists them)\$" \
  "$work/many.txt"

# A file named twice (its folder and itself) runs once: no duplicate ids.
run_json twice "$work/ok" "$work/ok/a.json"
expect "a file named twice: exit 0, not $status" test "$status" -eq 0
expect "a file named twice: its 7 cases once, nothing invalid" test "$(cat "$work/twice.txt")" = "cases 7"

expect_report
