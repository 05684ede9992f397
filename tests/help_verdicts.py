#!/usr/bin/env python3
"""`movconf help verdicts --json` against spec/runner.md, which defines the
verdicts independently of the code: the JSON must be an array with one
object per verdict of the spec's "Verdicts" table, in its order, each with
a name, whether it is a failure (every verdict but pass and unsupported,
as the spec says), its JUnit kind (the spec's "JUnit XML" table) and a
meaning; `movconf run --help` must list every verdict too.

usage: tests/help_verdicts.py MOVCONF SOURCE_DIR
"""
import json
import re
import subprocess
import sys

NOT_FAILURES = {"pass", "unsupported"}
JUNIT_ERRORS = {"crash", "timeout", "memory-error"}


def spec_verdicts(source_dir):
    """The verdicts of spec/runner.md's table, in its order."""
    with open(source_dir + "/spec/runner.md", encoding="utf-8") as f:
        text = f.read()
    table = text.split("## Verdicts", 1)[1].split("\n\n", 2)[2].split("\n\n", 1)[0]
    return re.findall(r"^\| `([a-z-]+)` \|", table, re.M)


def expected_junit(name):
    if name == "pass":
        return "passed"
    if name == "unsupported":
        return "skipped"
    return "error" if name in JUNIT_ERRORS else "failure"


def problems(verdicts, names, run_help):
    if not isinstance(verdicts, list):
        return ["the JSON is not an array"]
    found = []
    for v in verdicts:
        if not isinstance(v, dict) or set(v) != {"name", "failure", "junit", "meaning"}:
            found.append("not an object of name, failure, junit, meaning: %r" % (v,))
            continue
        name = v["name"]
        if v["failure"] is not (name not in NOT_FAILURES):
            found.append("%s: failure is %r" % (name, v["failure"]))
        if v["junit"] != expected_junit(name):
            found.append("%s: junit is %r, the spec says %r" % (name, v["junit"],
                                                                 expected_junit(name)))
        if not isinstance(v["meaning"], str) or not v["meaning"].strip():
            found.append("%s: no meaning" % name)
        if not re.search(r"^  %s " % re.escape(name), run_help, re.M):
            found.append("%s: not listed by movconf run --help" % name)
    listed = [v.get("name") for v in verdicts if isinstance(v, dict)]
    if listed != names:
        found.append("verdicts %s, spec/runner.md has %s" % (listed, names))
    return found


def main():
    movconf, source_dir = sys.argv[1], sys.argv[2]
    names = spec_verdicts(source_dir)
    if len(names) < 10 or "memory-error" not in names:
        sys.exit("help_verdicts: spec/runner.md's verdict table not found (%s)" % names)
    out = subprocess.run([movconf, "help", "verdicts", "--json"], check=True,
                         capture_output=True, text=True).stdout
    run_help = subprocess.run([movconf, "run", "--help"], check=True, capture_output=True,
                              text=True).stdout
    found = problems(json.loads(out), names, run_help)
    # The check itself must be able to fail: a verdict left out is reported.
    if not problems(json.loads(out)[:-1], names, run_help):
        found.append("self-test: a missing verdict was not reported")
    for p in found:
        print("help_verdicts: " + p, file=sys.stderr)
    if found:
        sys.exit(1)
    print("help_verdicts: %d verdicts, as spec/runner.md lists them" % len(names))


if __name__ == "__main__":
    main()
