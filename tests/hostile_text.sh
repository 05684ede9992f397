#!/bin/sh
# One rule for every command's output: text that came from outside (case
# and generator files, file names, a plugin's or an adapter's replies) is
# made safe before movconf writes it. Every command (run, show, bench, gen,
# check-cases, clauses; fuzz has its own test) is run on hostile text: ESC
# and BEL sequences (ESC]0;...BEL sets a terminal's title, ESC[2J clears it),
# C1 controls, invalid UTF-8 in file names and a plugin's error text. Then
# no output stream or file may hold a byte 0x1b or 0x07, and each must be
# valid UTF-8 (checked with Python).
# usage: hostile_text.sh MOVCONF PLUGIN_MOCK SOURCE_DIR WORK_DIR PYTHON
set -u
movconf=$1 mock=$2 src=$3 work=$4 python=$5
rm -rf "$work"
mkdir -p "$work/in" "$work/out"
. "$(dirname "$0")/expect.sh"
in=$work/in out=$work/out

# ---- hostile inputs ----
"$python" - "$in" "$src" <<'PY'
import json, os, sys
dest, src = sys.argv[1].encode(), sys.argv[2]
hostile = "\x1b]0;title\x07 \x1b[2J \u0085"
data = {"type": "u8", "shape": [1, 2, 1, 1], "fill": {"iota": 0}}
cases = [
    {"id": "s2d/hostile/bad-mode", "origin": "by hand " + hostile + " line\nbreak",
     "clauses": ["S2D-V3"], "inputs": {"data": data},
     "attributes": {"block_size": 1, "mode": "blocks_first" + hostile},
     "expect": {"error": "mode_invalid"}},
    {"id": "s2d/hostile/identity", "origin": hostile, "clauses": ["S2D-S2"],
     "inputs": {"data": data}, "attributes": {"block_size": 1, "mode": "blocks_first"},
     "expect": {"output": data}},
    # Long valid UTF-8 (2-, 3- and 4-byte characters across every buffer
    # boundary of the output): shown as it is.
    {"id": "s2d/hostile/long-utf8", "origin": "\u00e9\u2713\U0001d11e" * 3000,
     "clauses": ["S2D-S2"], "inputs": {"data": data},
     "attributes": {"block_size": 1, "mode": "blocks_first"}, "expect": {"output": data}},
    # The mock plugin rejects a batch-11 input with hostile text (bad-text@11).
    {"id": "s2d/hostile/plugin-text", "origin": hostile, "clauses": ["S2D-S2"],
     "inputs": {"data": dict(data, shape=[11, 2, 1, 1])},
     "attributes": {"block_size": 1, "mode": "blocks_first"},
     "expect": {"output": dict(data, shape=[11, 2, 1, 1])}},
]
text = json.dumps({"format": "movconf-cases/1", "op": "SpaceToDepth-1",
                   "description": hostile, "cases": cases})
# A file name with an escape sequence, BEL and a byte that is not UTF-8.
os.makedirs(dest + b"/cases")
open(dest + b"/cases/name\x1b[2J\x07\xff.json", "w").write(text)
# A case file that does not load, quoting hostile text in its error.
bad = dict(cases[1], id="s2d/hostile/x\x1b[2J")
open(dest + b"/cases/bad\x1b]0;t\x07.json", "w").write(
    json.dumps({"format": "movconf-cases/1", "op": "SpaceToDepth-1", "cases": [bad]}))
# Generators: a hostile mode (refused, quoted) and element type (refused, quoted).
gen = json.load(open(src + "/generators/space_to_depth_1.json"))
group = dict(gen["groups"][0], group="t", about="about " + hostile)
group["vary"] = dict(group["vary"], type=["u8"], fill=["counter"])
groups = [group, dict(group, group="u", vary=dict(group["vary"], mode=["depth" + hostile]))]
groups.append(dict(group, group="v", vary=dict(group["vary"], type=["u8" + hostile])))
gen.update(description="desc " + hostile, groups=groups)
os.makedirs(dest + b"/gen")
open(dest + b"/gen/space_to_depth_1.json", "w").write(json.dumps(gen))
# Not a shared library: dlopen's error quotes the hostile path.
open(dest + b"/plugin\x1b[2J\x07\xff.so", "w").write("not ELF")
PY
cases=$in/cases
badso=$(printf '%s/plugin\033[2J\007\377.so' "$in")

# step NAME COMMAND...: runs COMMAND, its stdout and stderr in out/NAME.*
step() {
  name=$1; shift
  "$@" >"$out/$name.out" 2>"$out/$name.err"
  echo "$name: exit $?"
}

step run "$movconf" run --impl "plugin:$mock" --json "$out/run.json" --junit "$out/run.xml" \
  --write-expect "$out/run.expect" --summary-by mode --summary-by file "$cases"
MOVCONF_MOCK_FAULT=bad-text@11 step run-plugin "$movconf" run --impl "plugin:$mock" \
  --json "$out/run-plugin.json" --junit "$out/run-plugin.xml" "$cases"
step run-json-stdout "$movconf" run --json - "$cases"
step show "$movconf" show 's2d/hostile/*' "$cases"
MOVCONF_MOCK_FAULT=bad-text@11 step show-plugin "$movconf" show --impl "plugin:$mock" \
  's2d/hostile/*' "$cases"
MOCK_FAULT=control-text step show-adapter "$movconf" show \
  --impl "exec:exec '$python' '$src/tests/mock_adapter.py'" 's2d/hostile/*' "$cases"
step show-bad-plugin "$movconf" show --impl "plugin:$badso" 's2d/hostile/*' "$cases"
step show-missing "$movconf" show "$(printf 'x\033[2J\007')" "$cases"
step check-cases "$movconf" check-cases "$cases"
step clauses "$movconf" clauses --json "$out/clauses.json" "$cases"
step gen "$movconf" gen --generators "$in/gen" --out "$out/gen" --op s2d
step gen-check "$movconf" gen --generators "$in/gen" --out "$out/gen" --op s2d --check
step bench-plugin "$movconf" bench --quick --filter 's2d/*' --impl "plugin:$badso" \
  --json "$out/bench.json"
step bench-filter "$movconf" bench --quick --filter "$(printf 's2d\033[2J\007\377')"
step run-bad-plugin "$movconf" run --impl "plugin:$badso" "$cases"

# The hostile text did reach each command (else the sweep proves nothing).
has "$out/show.out" 'title'
has "$out/show-plugin.out" 'bad'
has "$out/check-cases.out" 'bad'
has "$out/show-adapter.out" 'red'
has "$out/clauses.out" 'S2D-V3'
has "$out/gen.err" 'depth'
has "$out/bench-plugin.err" 'plugin'
has "$out/bench-filter.err" 's2d'
has "$out/run-plugin.json" 'bad'

expect "valid UTF-8 is kept whole, however the output is cut" "$python" -c '
import sys
want = "\u00e9\u2713\U0001d11e" * 3000
for name in sys.argv[1:]:
    assert ("origin      " + want + "\n") in open(name, encoding="utf-8").read(), name' \
  "$out/show.out" "$out/show-plugin.out"

# Every stream and file movconf wrote: no ESC, no BEL, valid UTF-8.
expect "every output is free of ESC and BEL and valid UTF-8" "$python" - "$out" <<'PY'
import os, sys
bad = []
for root, _, files in os.walk(sys.argv[1].encode()):
    for name in files:
        path = os.path.join(root, name)
        data = open(path, "rb").read()
        problems = [what for what, hit in (("ESC", b"\x1b" in data), ("BEL", b"\x07" in data))
                    if hit]
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            problems.append("invalid UTF-8 at byte %d" % e.start)
        if problems:
            bad.append("%s: %s" % (path.decode(errors="backslashreplace"), ", ".join(problems)))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
expect_report
