#!/bin/sh
# run --shard K/N and report merge: four shards of the default tier, merged,
# give the unsharded run's report (same cases in the same order, same
# verdicts and summary, same exit status), with the built-in kernels and
# with a plugin that fails DepthToSpace; the shards are balanced by cost;
# bad --shard values, and missing, repeated and foreign shards are refused;
# run --help lists --shard; a shard given the whole run's --expect notes
# only its own unused entries; report html refuses a shard beside the
# merged report that holds it.
# usage: shard_merge.sh MOVCONF PLUGIN_PLANTED WORK_DIR PYTHON
set -u
movconf=$1 planted=$2 work=$3 python=$4
rm -rf "$work"
mkdir -p "$work"
tests=$(cd "$(dirname "$0")" && pwd)
. "$tests/expect.sh"
cd "$work" || exit 1

# same_report WHOLE MERGED: the cases (ids, verdicts, details, expectations,
# everything but timings), their order and the summary are the same.
same_report() {
  "$python" -c 'import json, sys
m = json.load(open(sys.argv[1]))
if "shard" in m or any("position" in c for c in m["cases"]):
    sys.exit("the merged report still has shard fields")' "$2" &&
    "$python" "$tests/same_report.py" "$1" "$2" cases summary invalid_files process_faults \
      implementation
}

# sharded NAME STATUS RUN-ARGS...: the unsharded run, four shards and their
# merge; the merge exits as the whole run (STATUS) and reports the same.
sharded() {
  name=$1 status=$2; shift 2
  "$movconf" run --quiet --json "$name-whole.json" "$@" >"$name-whole.out" 2>&1
  expect "$name: the whole run exits $status" test $? -eq "$status"
  for k in 1 2 3 4; do
    "$movconf" run --quiet --shard $k/4 --json "$name-$k.json" "$@" >"$name-$k.out" 2>&1
  done
  "$movconf" report merge --quiet --json "$name-merged.json" --junit "$name-merged.xml" \
    "$name-4.json" "$name-2.json" "$name-1.json" "$name-3.json" >"$name-merged.out" 2>&1
  expect "$name: the merge exits $status" test $? -eq "$status"
  expect "$name: the merged report is the whole run's" same_report "$name-whole.json" \
    "$name-merged.json"
  expect "$name: the merged table is the whole run's" \
    sh -c 'grep -q "^total" "$1" && test "$(sed -n "1,/^total/p" "$1")" = "$(sed -n "1,/^total/p" "$2")"' table \
    "$name-whole.out" "$name-merged.out"
  expect "$name: the merged JUnit report parses" "$python" -c \
    'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$name-merged.xml"
}

# Sanitizer builds shard DepthToSpace's cases only: sharding and merging
# are the same for every case, and ten runs of the whole tier under ASan
# took 233 s of the preset's test time.
selection=""
[ -n "${MOVCONF_TEST_SANITIZED:-}" ] && selection="--op d2s"
# shellcheck disable=SC2086 # $selection is empty or two words
sharded kernels 0 $selection
# shellcheck disable=SC2086
MOVCONF_PLANTED=d2s-swap sharded planted 1 --impl "plugin:$planted" $selection

# The shards are disjoint, cover the selection, and are balanced: each
# shard's cost within 2x of the mean (cost: elements moved, by the shard's
# own cases, not the figure the shard reports).
expect "kernels: shards disjoint, complete and balanced" "$python" - kernels-*.json <<'PY'
import json, sys
whole = json.load(open("kernels-whole.json"))
shards = [json.load(open("kernels-%d.json" % k)) for k in range(1, 5)]
ids = [c["id"] for s in shards for c in s["cases"]]
assert len(ids) == len(set(ids)), "a case is in two shards"
assert sorted(ids) == sorted(c["id"] for c in whole["cases"]), "cases missing"
assert len({s["shard"]["selection"] for s in shards}) == 1
costs = [s["shard"]["cost"] for s in shards]
mean = sum(costs) / len(costs)
print("cases per shard", [len(s["cases"]) for s in shards], "costs", costs)
assert all(mean / 2 <= c <= mean * 2 for c in costs), costs
PY

# refused NAME TEXT COMMAND...: exit 2 and TEXT on stderr.
refused() {
  name=$1 text=$2; shift 2
  "$@" >"$name.out" 2>"$name.err"
  expect "$name: exit 2 (got $?)" test $? -eq 2
  has "$name.err" "$text"
}
refused shard-zero "takes K/N" "$movconf" run --shard 0/4
refused shard-above "takes K/N" "$movconf" run --shard 5/4
refused shard-text "takes K/N" "$movconf" run --shard 1/4x
refused shard-many "takes K/N" "$movconf" run --shard 1/1025
refused missing "shard 3/4 of selection .* is missing" \
  "$movconf" report merge kernels-1.json kernels-2.json kernels-4.json
refused twice "shard 2/4 is given twice: kernels-2.json and kernels-2.json" \
  "$movconf" report merge kernels-1.json kernels-2.json kernels-2.json kernels-3.json kernels-4.json
refused foreign "kernels-1.json (shard 1/4 of selection [0-9a-f]*, optimized) and planted-2.json .* are not shards of the same run" \
  "$movconf" report merge kernels-1.json planted-2.json kernels-3.json kernels-4.json
"$movconf" run --quiet --op s2d --shard 1/4 --json s2d-1.json >/dev/null 2>&1
refused other-selection "not shards of the same run" \
  "$movconf" report merge s2d-1.json kernels-2.json kernels-3.json kernels-4.json
refused not-a-shard "kernels-whole.json is not the JSON report of a shard" \
  "$movconf" report merge kernels-whole.json
echo '{"shard":' >broken.json
refused broken "broken.json: not a JSON report (does not parse)" \
  "$movconf" report merge kernels-1.json broken.json
refused no-reports "give the JSON reports of the shards" "$movconf" report merge
# Reports may come from anyone (CI artifacts): what they make movconf hold
# is bounded before it is allocated. A shard whose cases are 2^25 zeros
# (64 MiB of text, about 2.7 GB in cJSON), refused by report merge and
# report html within 512 MiB of memory; more reports than a run has
# shards, refused before any is read; a flood of invalid files, each of
# which is compared with those before it. Before: the zeros were parsed
# (merge then found case 1 not one of a run report), 1025 reports were
# all read and parsed, the 70,000 invalid files were merged.
"$python" -c 'import json, sys
d = json.load(open("kernels-1.json"))
text = json.dumps(d).replace(chr(34) + "cases" + chr(34) + ": [", chr(34) + "cases" + chr(34) + ": [" + "0," * (1 << 25), 1)
open("zeros-1.json", "w").write(text)
d["invalid_files"] = ["f%d.json" % i for i in range(70000)]
json.dump(d, open("invalid-1.json", "w"))'
within_memory() { # within_memory NAME COMMAND...: exit 2, at most 512 MiB resident
  "$python" -c 'import resource, subprocess, sys
name = sys.argv[1]
status = subprocess.call(sys.argv[2:], stdout=open(name + ".out", "w"), stderr=open(name + ".err", "w"))
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print(name + ":", "exit", status, "peak", peak, "MiB")
sys.exit(0 if status == 2 and peak < 512 else 1)' "$@"
}
expect "zeros: report merge refuses it within 512 MiB" \
  within_memory zeros-merge "$movconf" report merge zeros-1.json kernels-2.json kernels-3.json kernels-4.json
has zeros-merge.err "zeros-1.json: the reports to merge hold more than 33554432 JSON values"
expect "zeros: report html refuses it within 512 MiB" \
  within_memory zeros-html "$movconf" report html zeros-1.json -o zeros.html
has zeros-html.err "zeros-1.json holds more than 33554432 JSON values"
# shellcheck disable=SC2046 # 1025 words
set -- $(seq 1025 | sed 's/.*/kernels-1.json/')
refused too-many "1025 reports given; a run has at most 1024 shards" "$movconf" report merge "$@"
set --
refused invalid-flood "invalid-1.json: the reports name more than 65536 invalid files" \
  "$movconf" report merge invalid-1.json kernels-2.json kernels-3.json kernels-4.json
# Each shard names the files that did not load (every shard loads them all):
# the merge names each once, in the order first named.
"$python" -c 'import json
for k, names in ((1, ["a.json", "b.json"]), (2, ["b.json", "c.json"]), (3, []), (4, ["a.json"])):
    d = json.load(open("kernels-%d.json" % k)); d["invalid_files"] = names
    json.dump(d, open("named-%d.json" % k, "w"))'
"$movconf" report merge --quiet --json named-merged.json named-1.json named-2.json named-3.json \
  named-4.json >named-merged.out 2>&1
expect "invalid files named by several shards: each once, first-named first" "$python" -c '
import json, sys
names = json.load(open(sys.argv[1]))["invalid_files"]
sys.exit(names != ["a.json", "b.json", "c.json"] and "got %r" % names)' named-merged.json
refused unknown-subcommand "unknown subcommand 'bogus'" "$movconf" report bogus
# A report whose positions collide (a hand-edited or corrupted shard).
"$python" -c 'import json; d = json.load(open("kernels-2.json")); d["shard"]["index"] = 1
d["cases"][0]["id"] = json.load(open("kernels-1.json"))["cases"][0]["id"]; d["shard"]["index"] = 2
json.dump(d, open("overlap-2.json", "w"))'
refused overlap "is in more than one shard" \
  "$movconf" report merge kernels-1.json overlap-2.json kernels-3.json kernels-4.json
# A shard's report with a case taken out (cut short, or edited).
"$python" -c 'import json; d = json.load(open("kernels-3.json")); del d["cases"][-1]
json.dump(d, open("short-3.json", "w"))'
refused short "the shards have [0-9]* cases of the [0-9]* selected" \
  "$movconf" report merge kernels-1.json kernels-2.json short-3.json kernels-4.json
refused output-is-input "same file" \
  "$movconf" report merge kernels-1.json kernels-2.json kernels-3.json kernels-4.json \
  --json kernels-1.json

# run --help documents --shard (README, docs/ci/sharded.yml and the
# completion use it; the man page is made from this text).
"$movconf" help run >run-help.txt 2>&1
has run-help.txt "--shard K/N"

# Each shard is given the whole run's --expect: an expectation of another
# shard's case is not unused; one that matches no selected case still is.
other=$("$python" -c 'import json; print(json.load(open("kernels-2.json"))["cases"][0]["id"])')
printf '[{"case": "%s", "verdict": "wrong-output", "reason": "r"},
 {"case": "no/such/case", "verdict": "wrong-output", "reason": "r"}]\n' "$other" >whole-expect.json
"$movconf" run --quiet --shard 1/4 --expect whole-expect.json >expect-1.out 2>expect-1.err
has expect-1.err "expectation 'no/such/case' matched no case"
lacks expect-1.err "expectation '$other'"

# report html of the merged report and one of its shards would show the
# shard's cases twice: refused; the merged report beside another
# implementation's shard is a page.
refused html-shard-and-merged "kernels-2.json is a shard of the run that kernels-merged.json holds" \
  "$movconf" report html kernels-merged.json kernels-2.json -o page.html
expect "html-shard-and-merged: no page written" test ! -e page.html
"$movconf" report html kernels-merged.json planted-2.json -o page.html >html-other.out 2>&1
expect "html of another implementation's shard: exit 0 (got $?)" test $? -eq 0

# A shard crafted with controls, a bidi override and markup in a failing
# case's detail (reports come from CI artifacts anyone can make):
# report merge prints them escaped, never raw.
"$python" - planted-1.json planted-2.json planted-3.json planted-4.json <<'PY'
import json, sys
evil = "evil \x1b[2J\x07 \u202e <b>"
for name in sys.argv[1:]:
    report = json.load(open(name))
    for case in report["cases"]:
        if case.get("verdict") not in ("pass", "unsupported"):
            case["detail"] = evil
    json.dump(report, open("evil-" + name, "w"))
PY
"$movconf" report merge evil-planted-1.json evil-planted-2.json evil-planted-3.json \
  evil-planted-4.json >merge-evil.out 2>&1
expect "merge of crafted shards: the detail is shown" grep -qF 'evil \x1b[2J' merge-evil.out
expect "merge of crafted shards: no raw control or bidi override" "$python" -c '
import sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
sys.exit(any(c in text for c in "\x1b\x07\u202e"))' merge-evil.out

expect_report
