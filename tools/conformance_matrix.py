#!/usr/bin/env python3
"""Run the conformance suite against every installed adapter and write the matrix.

    tools/conformance_matrix.py [--strict] [--only NAME ...] [PATHS ...]

For each adapter of the registry (examples/adapters/adapters.json) whose
detection command succeeds, runs `movconf run --impl IMPL --json FILE
[PATHS]` (default PATHS: conformance/) and writes docs/conformance-matrix.md:

  - a table implementation x operation: cases passed, failed by verdict,
    unsupported. Operations an adapter can only express as a composite of
    several library ops (the registry's "composite") are kept out of the
    headline table and shown in a table of their own;
  - every distinct failure: the cases that show it, a minimal reproducing
    case id, its class (bug, semantic-difference, limitation) and an
    explanation, taken from docs/conformance-explanations.json.

The explanations file is maintained by people; the matrix merges it in, so
regenerating the matrix never loses an explanation. Each entry:

  {"adapter": "tfjs", "cases": ["s2b/types/f32", "s2b/libraries/tfjs-*"],
   "verdict": "wrong-output", "class": "bug", "title": "one line",
   "explanation": "why", "reproducer": "s2b/libraries/tfjs-snan-pad"}

`cases` are shell patterns on case ids; a failing case belongs to the first
entry whose adapter, verdict and a pattern match. `reproducer` (optional)
names the minimal case; it must be among the entry's failing cases. Failures
no entry explains are listed as unexplained.

The registry: {"adapters": [{"name", "library", "impl", "detect", "version",
"composite"?}]}; detect and version are argument lists run from the
repository root (detect: exit 0 when installed; version: prints the
library's version), impl is movconf's --impl string, composite maps an
operation name to how the adapter composes it.

The output has no dates or timings: the same results give the same file.
Progress goes to stderr. Exit status: 0 on success, 1 with --strict when a
failure is unexplained, an explanation's reproducer does not reproduce it,
or no adapter is installed; 2 on a usage error or when movconf cannot run.
Standard library only.
"""

import argparse
import fnmatch
import json
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPS = ["BatchToSpace-2", "SpaceToBatch-2", "SpaceToDepth-1", "DepthToSpace-1",
       "ExtractImagePatches-3"]
FAILURES = ["wrong-output", "wrong-shape", "wrong-error", "missed-rejection",
            "wrong-rejection", "crash", "timeout"]
CLASSES = ["bug", "semantic-difference", "limitation"]
ENTRY_KEYS = {"adapter", "cases", "verdict", "class", "title", "explanation"}
OPTIONAL_ENTRY_KEYS = {"reproducer"}


class UsageError(Exception):
    pass


def progress(*parts):
    print("conformance_matrix:", *parts, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- inputs

def load_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise UsageError("%s %s: %s" % (what, path, e))


def load_registry(path):
    adapters = load_json(path, "registry").get("adapters")
    if not isinstance(adapters, list):
        raise UsageError("registry %s: no \"adapters\" list" % path)
    for a in adapters:
        missing = {"name", "library", "impl", "detect", "version"} - set(a)
        if missing:
            raise UsageError("registry %s: adapter %s lacks %s"
                             % (path, a.get("name", "?"), ", ".join(sorted(missing))))
    return adapters


def load_explanations(path):
    if not os.path.exists(path):
        return []
    entries = load_json(path, "explanations").get("explanations")
    if not isinstance(entries, list):
        raise UsageError("explanations %s: no \"explanations\" list" % path)
    for i, e in enumerate(entries):
        keys = set(e)
        if not ENTRY_KEYS <= keys or keys - ENTRY_KEYS - OPTIONAL_ENTRY_KEYS:
            raise UsageError("explanations %s: entry %d must have keys %s (and optionally %s)"
                             % (path, i, sorted(ENTRY_KEYS), sorted(OPTIONAL_ENTRY_KEYS)))
        if e["class"] not in CLASSES or e["verdict"] not in FAILURES:
            raise UsageError("explanations %s: entry %d: class must be one of %s, verdict one of %s"
                             % (path, i, CLASSES, FAILURES))
    return entries


# ---------------------------------------------------------------- running

def run_command(argv, timeout=120):
    """(exit status, stdout) of a command run from the repository root."""
    try:
        done = subprocess.run(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    return done.returncode, done.stdout


def installed(adapter):
    status, _ = run_command(adapter["detect"])
    return status == 0


def library_version(adapter):
    status, out = run_command(adapter["version"])
    return out.strip() if status == 0 and out.strip() else "unknown version"


def run_suite(adapter, movconf, paths, extra, workdir):
    """movconf's JSON report for one adapter."""
    report = os.path.join(workdir, adapter["name"] + ".json")
    argv = [movconf, "run", "--impl", adapter["impl"], "--json", report] + extra + paths
    progress("running", adapter["name"] + ":", " ".join(argv))
    done = subprocess.run(argv, cwd=REPO, stdout=subprocess.DEVNULL)
    if done.returncode not in (0, 1) or not os.path.exists(report):
        raise UsageError("movconf run for %s exited with status %d" % (adapter["name"],
                                                                       done.returncode))
    return load_json(report, "movconf report")


# ---------------------------------------------------------------- analysis

def op_counts(cases):
    """{op: {verdict: count}}."""
    counts = {}
    for c in cases:
        per_op = counts.setdefault(c["op"], {})
        per_op[c["verdict"]] = per_op.get(c["verdict"], 0) + 1
    return counts


def matching_entry(entries, adapter, case):
    for e in entries:
        if e["adapter"] == adapter and e["verdict"] == case["verdict"] and any(
                fnmatch.fnmatchcase(case["id"], p) for p in e["cases"]):
            return e
    return None


def distinct_failures(name, cases, entries):
    """(explained groups [(entry, cases)], unexplained cases) of one adapter."""
    groups = {}
    unexplained = []
    for c in cases:
        if c["verdict"] not in FAILURES:
            continue
        e = matching_entry(entries, name, c)
        if e is None:
            unexplained.append(c)
        else:
            groups.setdefault(id(e), (e, []))[1].append(c)
    ordered = [groups[id(e)] for e in entries if id(e) in groups]
    return ordered, unexplained


def reproducer(entry, cases):
    """The entry's minimal case id and whether it is among the failing cases."""
    ids = sorted(c["id"] for c in cases)
    wanted = entry.get("reproducer")
    if wanted is None:
        return ids[0], True
    return wanted, wanted in ids


# ---------------------------------------------------------------- rendering

def cell(counts):
    if not counts:
        return "no cases"
    if set(counts) == {"unsupported"}:
        return "unsupported (%d)" % counts["unsupported"]
    parts = ["%d pass" % counts.get("pass", 0)]
    parts += ["%d %s" % (counts[v], v) for v in FAILURES if counts.get(v)]
    if counts.get("unsupported"):
        parts.append("%d unsupported" % counts["unsupported"])
    return ", ".join(parts)


def table(results, composite_cells):
    """Markdown table; composite cells are replaced (headline) or kept (composite table)."""
    lines = ["| implementation | " + " | ".join(OPS) + " |",
             "|---|" + "---|" * len(OPS)]
    for r in results:
        row = []
        for op in OPS:
            is_composite = op in r["adapter"].get("composite", {})
            if composite_cells:
                row.append(cell(r["counts"].get(op, {})) if is_composite else "")
            else:
                row.append("composite, see below" if is_composite else
                           cell(r["counts"].get(op, {})))
        if composite_cells and not any(row):
            continue
        lines.append("| %s %s | %s |" % (r["adapter"]["name"], r["version"], " | ".join(row)))
    return lines


def render_failures(results):
    lines = []
    for r in results:
        name = r["adapter"]["name"]
        groups, unexplained = r["groups"], r["unexplained"]
        lines.append("### %s (%s)" % (name, r["version"]))
        lines.append("")
        if not groups and not unexplained and not r["uncarried"]:
            lines += ["No failures.", ""]
        for entry, cases in groups:
            case_id, ok = reproducer(entry, cases)
            note = "" if ok else " **(does not fail in this run)**"
            lines.append("- **%s** (%s, %s): %s" % (entry["title"], entry["class"],
                                                    entry["verdict"], entry["explanation"]))
            lines.append("  - minimal reproducing case: `%s`%s" % (case_id, note))
            lines.append("  - failing cases: " + ", ".join(
                "`%s`" % c["id"] for c in sorted(cases, key=lambda c: c["id"])))
        for c in sorted(unexplained, key=lambda c: c["id"]):
            lines.append("- **UNEXPLAINED** %s `%s` (%s): %s"
                         % (c["verdict"], c["id"], c["op"], c.get("detail", "")))
        for c in sorted(r["uncarried"], key=lambda c: c["id"]):
            lines.append("- not reportable: `%s` (%s): %s" % (c["id"], c["op"], c["detail"]))
        lines.append("")
    return lines


# The adapters' own reason when the library accepted an input but its output
# cannot travel through the protocol (common/protocol.js): a hidden
# acceptance, listed so that the matrix does not bury it among the unsupported.
UNCARRIED_PREFIXES = ("the library accepted the input", "the library produced")


def uncarried(cases):
    return [c for c in cases if c["verdict"] == "unsupported"
            and c.get("detail", "").startswith(UNCARRIED_PREFIXES)]


def render(results, missing, paths):
    out = ["# Conformance matrix",
           "",
           "Generated by `tools/conformance_matrix.py` from `movconf run` over %s, against "
           "every adapter of `examples/adapters/adapters.json` that is installed. Explanations "
           "come from `docs/conformance-explanations.json`; regenerate with "
           "`python3 tools/conformance_matrix.py` after building movconf." % (
               ", ".join("`%s`" % p for p in paths)),
           "",
           "Each cell: cases passed, failed by verdict (spec/runner.md), and unsupported (the "
           "library cannot express the case: its operation, element type, rank or attributes; "
           "not a failure).",
           "",
           "## Each library's own kernels", ""]
    out += table(results, composite_cells=False)
    composite = [(r["adapter"]["name"], op, how) for r in results
                 for op, how in sorted(r["adapter"].get("composite", {}).items())]
    if composite:
        out += ["", "## Composites of several library operations", "",
                "These operations have no single kernel in the library; the adapter composes "
                "them, so a failure may come from any of the parts.", ""]
        out += ["- %s, %s: %s" % c for c in composite]
        out += [""] + table(results, composite_cells=True)
    if missing:
        out += ["", "Not installed when this matrix was generated: " +
                ", ".join(sorted(missing)) + "."]
    out += ["", "## Failures", "",
            "Every distinct failure, its class (bug: the library is wrong by its own "
            "documentation or by any reading of the operation; semantic-difference: the "
            "library defines the operation differently, documented; limitation: the library "
            "or its API cannot represent the case), a minimal case that reproduces it and the "
            "cases that show it. \"Not reportable\" marks inputs the library accepted although "
            "the case expects a rejection, with an output the adapter protocol cannot carry "
            "(non-zero dimensions beyond int64, or above the output cap): reported as "
            "unsupported, not as failures.", ""]
    out += render_failures(results)
    return "\n".join(out).rstrip("\n") + "\n"


# ---------------------------------------------------------------- main

def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", help="case files or folders (default: conformance)")
    parser.add_argument("--movconf", default=os.path.join(REPO, "build", "movconf"),
                        help="the movconf binary (default: build/movconf)")
    parser.add_argument("--registry", default=os.path.join(REPO, "examples", "adapters",
                                                           "adapters.json"),
                        help="the adapter registry (default: examples/adapters/adapters.json)")
    parser.add_argument("--explanations", default=os.path.join(REPO, "docs",
                                                               "conformance-explanations.json"),
                        help="default: docs/conformance-explanations.json")
    parser.add_argument("--out", default=os.path.join(REPO, "docs", "conformance-matrix.md"),
                        help="the matrix to write ('-': standard output)")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="run only this adapter (repeatable)")
    parser.add_argument("--timeout", type=int, default=10,
                        help="movconf's per-request timeout in seconds (default 10)")
    parser.add_argument("--reports", metavar="DIR",
                        help="keep movconf's JSON reports in DIR (default: a temporary folder)")
    parser.add_argument("--write-expect", nargs=2, metavar=("NAME", "FILE"),
                        help="write the explanations of adapter NAME as a movconf --expect "
                             "file (spec/runner.md) to FILE and exit; runs nothing")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a failure is unexplained or a reproducer does not "
                             "fail, or when no adapter is installed")
    return parser.parse_args(argv)


def problems_of(results):
    problems = []
    for r in results:
        for c in r["unexplained"]:
            problems.append("%s: unexplained %s %s" % (r["adapter"]["name"], c["verdict"],
                                                       c["id"]))
        for entry, cases in r["groups"]:
            case_id, ok = reproducer(entry, cases)
            if not ok:
                problems.append("%s: reproducer %s of \"%s\" does not fail with %s"
                                % (r["adapter"]["name"], case_id, entry["title"],
                                   entry["verdict"]))
    return problems


def stale_entries(entries, results):
    used = {id(e) for r in results for e, _ in r["groups"]}
    ran = {r["adapter"]["name"] for r in results}
    return [e for e in entries if e["adapter"] in ran and id(e) not in used]


def run_all(args, workdir):
    adapters = load_registry(args.registry)
    entries = load_explanations(args.explanations)
    unknown = set(args.only) - {a["name"] for a in adapters}
    if unknown:
        raise UsageError("--only: no adapter named %s" % ", ".join(sorted(unknown)))
    paths = args.paths or ["conformance"]
    extra = ["--timeout", str(args.timeout)]
    results, missing = [], []
    for adapter in adapters:
        if args.only and adapter["name"] not in args.only:
            continue
        if not installed(adapter):
            progress(adapter["name"], "is not installed; skipped")
            missing.append(adapter["name"])
            continue
        report = run_suite(adapter, args.movconf, paths, extra, workdir)
        groups, unexplained = distinct_failures(adapter["name"], report["cases"], entries)
        results.append({"adapter": adapter, "version": library_version(adapter),
                        "counts": op_counts(report["cases"]), "groups": groups,
                        "unexplained": unexplained, "uncarried": uncarried(report["cases"])})
    return results, missing, paths, entries


def write_expect(entries, name, path):
    """movconf's expectations for one adapter: every case pattern of its entries."""
    expect = [{"case": pattern, "verdict": e["verdict"],
               "reason": "%s: %s" % (e["class"], e["title"])}
              for e in entries if e["adapter"] == name for pattern in e["cases"]]
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(expect, f, indent=1)
        f.write("\n")
    return 0


def main(argv):
    args = parse_args(argv)
    if args.write_expect:
        try:
            return write_expect(load_explanations(args.explanations), *args.write_expect)
        except UsageError as e:
            print("conformance_matrix: %s" % e, file=sys.stderr)
            return 2
    if not os.access(args.movconf, os.X_OK):
        print("conformance_matrix: %s is not an executable; build movconf first "
              "(cmake -S . -B build && cmake --build build)" % args.movconf, file=sys.stderr)
        return 2
    try:
        if args.reports:
            os.makedirs(args.reports, exist_ok=True)
            results, missing, paths, entries = run_all(args, args.reports)
        else:
            with tempfile.TemporaryDirectory() as workdir:
                results, missing, paths, entries = run_all(args, workdir)
    except UsageError as e:
        print("conformance_matrix: %s" % e, file=sys.stderr)
        return 2
    text = render(results, missing, paths)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        progress("wrote", os.path.relpath(args.out, REPO))
    for e in stale_entries(entries, results):
        progress("note: explanation \"%s\" (%s) matched no failure" % (e["title"], e["adapter"]))
    problems = problems_of(results)
    for p in problems:
        progress(p)
    if not results:
        progress("no adapter is installed")
    if args.strict and (problems or not results):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
