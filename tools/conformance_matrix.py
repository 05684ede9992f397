#!/usr/bin/env python3
"""Run the conformance suite against every installed adapter and write the matrix.

    tools/conformance_matrix.py [--strict] [--only NAME ...] [PATHS ...]
    tools/conformance_matrix.py --ctest NAME --work DIR [--impl IMPL] [--no-detect] [--shard K/N]
    tools/conformance_matrix.py --write-expect NAME FILE

For each adapter of the registry (examples/adapters/adapters.json) whose
detection command succeeds, runs `movconf run --impl IMPL --json FILE
[PATHS]` (default PATHS: conformance/) and writes docs/conformance-matrix.md:

  - a table implementation x operation: cases passed, failed by verdict,
    unsupported. Operations an adapter can only express as a composite of
    several library ops (the registry's "composite") are kept out of the
    headline table and shown in a table of their own;
  - for each implementation x operation, how many invalid cases passed by a
    named rejection (the error name was compared) and how many by an unnamed
    one (any rejection passes: the reason is not verified), from the
    "rejection" field of movconf's JSON report (spec/runner.md), and per
    implementation whether it names movconf's errors at all, so that an
    unnamed pass is not read as a verified check;
  - every distinct failure: the cases that show it, a minimal reproducing
    case id, its class (bug, semantic-difference, limitation) and an
    explanation, taken from docs/conformance-explanations.json.

The explanations file is maintained by people, and is the one record of
every adapter's expected failures: the matrix merges it in, and --ctest and
--write-expect turn it into movconf's --expect file. Each entry is one
cause, for every adapter it applies to:

  {"adapters": ["pytorch", "pytorch-composite"], "class": "bug",
   "title": "one line", "explanation": "why",
   "reproducer": "s2d/libraries/pytorch-pixel-unshuffle-empty-batch",
   "cases": {"wrong-shape": ["s2d/libraries/pytorch-*", "s2d/gen/empty/0017-i64"],
             "crash": ["..."]}}

`cases` maps each verdict the cause produces to shell patterns on case ids.
They become expectations in this order: every pattern without a wildcard
(entries in file order), then every pattern with one; a case's expectation
is the first whose pattern matches its id (as in movconf run --expect), and
the case is explained when it failed with that verdict. So a pattern must
match only cases that fail that way (or are unsupported): one that matches
a passing case would make the CTest run fail with an unexpected pass, and
--strict reports it. `reproducer` (optional) names the minimal case; it must
be among the entry's failing cases of each adapter that ran. Failures no
entry explains are listed as unexplained.

The registry: {"adapters": [{"name", "library", "impl", "detect", "version",
"composite"?, "self_test"?, "timeout_seconds"?, "ci_shards"?}]} (ci_shards:
read by tests/CMakeLists.txt for CI's --shard); detect, version and self_test are argument
lists run from the repository root (detect: exit 0 when installed; version:
prints the library's version; self_test: the adapter's own check, run by
--ctest before the suite), impl is movconf's --impl string, composite maps
an operation name to how the adapter composes it.

--ctest NAME is the CTest driver of one adapter: exits 77 (skipped) when the
adapter is not installed, runs its self_test, then the whole suite with the
explanations as expected failures, and exits with movconf's status (1 on a
new failure or an unexpected pass). --impl replaces the registry's impl
(a plugin built in another build folder) and --no-detect skips detection.
A registry entry with "unexplained" (a reason) is a row whose failures are
still being explained: --ctest reports it skipped with that reason.
--shard K/N runs movconf run's K-th of N parts of the cases (CI: 1/4; the
nightly job, the whole tier; docs/ci/test-presets.md).
--sanitized (a build with ASan, whose interceptors also check the memory a
plugin's uninstrumented library touches) expects an entry's "sanitized"
verdicts, when it has them, before its "cases": a library's silent heap
overflow (a wrong shape in a plain build) is a crash there.

The output has no dates. Its one timing is each adapter's wall time (its
movconf run, adapter starts included), measured here and kept in the
report's "matrix_wall_seconds", so that the same reports give the same
file: --from-reports renders the times of the run that made them.
Progress goes to stderr. Exit status: 0 on success, 1 with --strict when a
failure is unexplained, an explanation's reproducer does not reproduce it, a
pattern matches a passing case, or no adapter is installed; 2 on a usage
error or when movconf cannot run. Standard library only.
"""

import argparse
import fnmatch
import json
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The matrix's columns: the list of operations (spec/operations.json, from
# include/movconf/op_list.h) in its order, then any other operation the
# reports hold (ops_of).
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "spec",
                       "operations.json"), encoding="utf-8") as f:
    OPS = [op["name"] for op in json.load(f)["operations"]]
# The failure verdicts, in movconf's order: set by main() from
# `movconf help verdicts --json` (load_failures), never listed here.
FAILURES = []
CLASSES = ["bug", "semantic-difference", "limitation"]
ENTRY_KEYS = {"adapters", "cases", "class", "title", "explanation"}
OPTIONAL_ENTRY_KEYS = {"reproducer", "sanitized"}


SKIPPED = 77  # CTest's SKIP_RETURN_CODE
WALL_KEY = "matrix_wall_seconds"


class UsageError(Exception):
    pass


def progress(*parts):
    print("conformance_matrix:", *parts, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- inputs

def load_failures(movconf):
    """The names of the verdicts movconf counts as failures, in its order."""
    argv = [movconf, "help", "verdicts", "--json"]
    try:
        out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
        verdicts = json.loads(out)
        return [v["name"] for v in verdicts if v["failure"]]
    except (OSError, subprocess.CalledProcessError, ValueError, KeyError, TypeError) as e:
        raise UsageError("%s: cannot read movconf's verdicts (build movconf first, or "
                         "name it with --movconf): %s" % (" ".join(argv), e))


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


def entry_problem(e):
    """What is wrong with one explanation entry, or None."""
    keys = set(e)
    if not ENTRY_KEYS <= keys or keys - ENTRY_KEYS - OPTIONAL_ENTRY_KEYS:
        return "must have keys %s (and optionally %s)" % (sorted(ENTRY_KEYS),
                                                          sorted(OPTIONAL_ENTRY_KEYS))
    if e["class"] not in CLASSES:
        return "class must be one of %s" % CLASSES
    if not e["adapters"] or not all(isinstance(a, str) for a in e["adapters"]):
        return "adapters must be a non-empty list of names"
    for key in ("cases", "sanitized"):
        problem = verdicts_problem(key, e.get(key, {"crash": ["-"]}))
        if problem:
            return problem
    return None


def verdicts_problem(key, cases):
    """What is wrong with a map of verdicts to case patterns, or None."""
    if not isinstance(cases, dict) or not cases:
        return "%s must map verdicts to lists of patterns" % key
    for verdict, patterns in cases.items():
        if verdict not in FAILURES:
            return "%s: verdict %r is not one of %s" % (key, verdict, FAILURES)
        if not patterns or not all(isinstance(p, str) and p for p in patterns):
            return "%s[%s] must be a non-empty list of patterns" % (key, verdict)
    return None


def load_explanations(path):
    if not os.path.exists(path):
        return []
    entries = load_json(path, "explanations").get("explanations")
    if not isinstance(entries, list):
        raise UsageError("explanations %s: no \"explanations\" list" % path)
    for i, e in enumerate(entries):
        problem = entry_problem(e) if isinstance(e, dict) else "must be an object"
        if problem:
            raise UsageError("explanations %s: entry %d (%s): %s"
                             % (path, i, e.get("title", "?") if isinstance(e, dict) else "?",
                                problem))
    return entries


def is_glob(pattern):
    return any(ch in pattern for ch in "*?[")


def expectations(entries, name, sanitized=False):
    """[(pattern, verdict, entry)] of one adapter in movconf's matching order:
    exact ids first, then patterns with wildcards, each in file order; with
    sanitized, every entry's "sanitized" verdicts before its "cases"."""
    keys = ("sanitized", "cases") if sanitized else ("cases",)
    mine = [(p, v, e) for key in keys for e in entries if name in e["adapters"]
            for v, patterns in e.get(key, {}).items() for p in patterns]
    return [x for x in mine if not is_glob(x[0])] + [x for x in mine if is_glob(x[0])]


def expectation_of(expects, case_id):
    for x in expects:
        if fnmatch.fnmatchcase(case_id, x[0]):
            return x
    return None


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


def timeout_option(args, adapter):
    """--timeout, else the adapter's own (tfjs-wasm: its answer to a pad of
    -2^31 takes about 48 s of CPU; examples/adapters/README.md), else 10 s."""
    return ["--timeout", str(args.timeout or adapter.get("timeout_seconds", 10))]


def run_suite(adapter, movconf, paths, extra, workdir):
    """movconf's JSON report for one adapter."""
    report = os.path.join(workdir, adapter["name"] + ".json")
    argv = [movconf, "run", "--impl", adapter["impl"], "--json", report] + extra + paths
    progress("running", adapter["name"] + ":", " ".join(argv))
    started = time.monotonic()
    done = subprocess.run(argv, cwd=REPO, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - started
    if done.returncode not in (0, 1) or not os.path.exists(report):
        raise UsageError("movconf run for %s exited with status %d" % (adapter["name"],
                                                                       done.returncode))
    data = load_json(report, "movconf report")
    # Kept in the report, for --from-reports to render the same time.
    data[WALL_KEY] = round(wall, 1)
    with open(report, "w", encoding="utf-8", newline="\n") as f:
        json.dump(data, f)
    progress("%s: %.1f s" % (adapter["name"], wall))
    return data


# ---------------------------------------------------------------- analysis

def op_counts(cases):
    """{op: {verdict: count}}."""
    counts = {}
    for c in cases:
        per_op = counts.setdefault(c["op"], {})
        per_op[c["verdict"]] = per_op.get(c["verdict"], 0) + 1
    return counts


def distinct_failures(cases, expects):
    """(explained groups [(entry, cases)], unexplained cases, cases an
    expectation names that passed) of one adapter's report."""
    groups = {}
    unexplained, passed = [], []
    for c in cases:
        x = expectation_of(expects, c["id"])
        if c["verdict"] == "pass" and x is not None:
            passed.append((c, x))
        if c["verdict"] not in FAILURES:
            continue
        if x is None or x[1] != c["verdict"]:
            unexplained.append(c)
        else:
            groups.setdefault(id(x[2]), (x[2], []))[1].append(c)
    order = []
    for _, _, e in expects:
        if id(e) in groups and id(e) not in order:
            order.append(id(e))
    return [groups[i] for i in order], unexplained, passed


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


def ops_of(results):
    """OPS, then the other operations of the results' cases, by name."""
    seen = {op for r in results for op in r["counts"]}
    return OPS + sorted(seen - set(OPS))


def table(results, composite_cells):
    """Markdown table; composite cells are replaced (headline) or kept (composite table)."""
    ops = ops_of(results)
    lines = ["| implementation | " + " | ".join(ops) + " |",
             "|---|" + "---|" * len(ops)]
    for r in results:
        row = []
        for op in ops:
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


def verdict_counts(cases):
    counts = {}
    for c in cases:
        counts[c["verdict"]] = counts.get(c["verdict"], 0) + 1
    return ", ".join("%s %d" % (v, counts[v]) for v in FAILURES if v in counts)


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
            lines.append("- **%s** (%s; %s): %s" % (entry["title"], entry["class"],
                                                    verdict_counts(cases), entry["explanation"]))
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


def rejection_counts(cases):
    """{op: [passed by a named rejection, passed by an unnamed one]}."""
    counts = {}
    for c in cases:
        if c["verdict"] == "pass" and c.get("rejection") in ("named", "unnamed"):
            counts.setdefault(c["op"], [0, 0])[c["rejection"] == "unnamed"] += 1
    return counts


def names_errors(r):
    """Whether the implementation named one of movconf's errors in this run
    (a named pass, or a wrong-error: a name that was compared and differed)."""
    return (any(named for named, _ in r["rejections"].values())
            or r["counts_by_verdict"].get("wrong-error", 0) > 0)


def rejection_table(results):
    ops = ops_of(results)
    lines = ["| implementation | names movconf's errors | " + " | ".join(ops) + " |",
             "|---|---|" + "---|" * len(ops)]
    for r in results:
        row = []
        for op in ops:
            named, unnamed = r["rejections"].get(op, [0, 0])
            row.append("%d named, %d unnamed" % (named, unnamed) if named or unnamed else "")
        names = "yes" if names_errors(r) else "no: unnamed rejections only"
        lines.append("| %s | %s | %s |" % (r["adapter"]["name"], names, " | ".join(row)))
    return lines


# The adapters' own reason when the library accepted an input but its output
# cannot travel through the protocol (common/protocol.js): a hidden
# acceptance, listed so that the matrix does not bury it among the unsupported.
UNCARRIED_PREFIXES = ("the library accepted the input", "the library produced")


def uncarried(cases):
    return [c for c in cases if c["verdict"] == "unsupported"
            and c.get("detail", "").startswith(UNCARRIED_PREFIXES)]


def seconds(value):
    return "%.0f s" % value if isinstance(value, (int, float)) else "not measured"


def wall_table(results):
    """Per adapter: the run's figures and its wall time."""
    lines = ["| implementation | cases | pass | failed (explained) | failed (unexplained) "
             "| unsupported | wall time | cases' time summed |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        summary = r["summary"]
        explained = sum(len(cases) for _, cases in r["groups"])
        lines.append("| %s | %s | %s | %d | %d | %s | %s | %s |" % (
            r["adapter"]["name"], summary.get("cases", "?"), summary.get("pass", "?"), explained,
            len(r["unexplained"]), summary.get("unsupported", "?"), seconds(r["wall_seconds"]),
            seconds(r["case_seconds"])))
    return lines


def render(results, missing, paths):
    out = ["# Conformance matrix",
           "",
           "Generated by `tools/conformance_matrix.py` from `movconf run` over %s, against "
           "every adapter of `examples/adapters/adapters.json` that is installed. Explanations "
           "come from `docs/conformance-explanations.json`; regenerate with "
           "`python3 tools/conformance_matrix.py` after building movconf (`--reports DIR` keeps "
           "movconf's reports, `--from-reports DIR` renders them again after an edit of the "
           "explanations)." % (
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
    out += ["", "## Each run and its wall time", "",
            "Per adapter: its cases, how many passed, failed with a failure "
            "`docs/conformance-explanations.json` explains (expected by its CTest run) or "
            "without one, and were unsupported; the wall time of its `movconf run` (adapter "
            "starts and, for the browser rows, Chromium's start and shader compilation "
            "included) and movconf's own sum of the cases' times. The times were measured on "
            "the 2-core machine that generated this file, shared with other work: they say "
            "where the time goes, not how fast a library is.", ""]
    out += wall_table(results)
    out += ["", "## Invalid cases passed by a rejection, named or not", "",
            "A case that expects an error passes when the implementation rejects the input. "
            "When the rejection names the error (`error_name` of the adapter protocol, or the "
            "plugin ABI's error name), movconf compares it with the expected one, so the pass "
            "says the library rejected the input for the specification's reason. None of these "
            "libraries knows movconf's error names, so their rejections are unnamed, and an "
            "unnamed rejection passes whatever the library's reason was: an input rejected for "
            "an unrelated reason (its own limits, an exception in an unrelated step, running out "
            "of memory) counts as a pass. The unnamed counts below are therefore an upper bound "
            "on the validity checks a library really performs; the adapters' READMEs and the "
            "rejection messages in `movconf run --json` reports (case `detail` on failures) say "
            "more. The column \"names movconf's errors\" says whether the implementation gave "
            "error names at all in this run; where it says no, every pass in its row is an "
            "unnamed one, which shows that the input was rejected, not that it was rejected for "
            "the right reason. Implementations that name movconf's errors in this run: %s. "
            "Each other cell: invalid cases passed by a named rejection, by an unnamed one."
            % (", ".join(r["adapter"]["name"] for r in results if names_errors(r)) or "none"), ""]
    out += rejection_table(results)
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
    parser.add_argument("--timeout", type=int, default=None,
                        help="movconf's per-request timeout in seconds (default: the "
                        "adapter's timeout_seconds in adapters.json, else 10)")
    parser.add_argument("--reports", metavar="DIR",
                        help="keep movconf's JSON reports in DIR (default: a temporary folder)")
    parser.add_argument("--from-reports", metavar="DIR",
                        help="read each adapter's report from DIR/NAME.json (kept by an earlier "
                             "--reports DIR) instead of running it: after editing the "
                             "explanations")
    parser.add_argument("--write-expect", nargs=2, metavar=("NAME", "FILE"),
                        help="write the explanations of adapter NAME as a movconf --expect "
                             "file (spec/runner.md) to FILE and exit; runs nothing")
    parser.add_argument("--ctest", metavar="NAME",
                        help="run adapter NAME over the suite with its explained failures "
                             "expected, as CTest does; exit 77 when it is not installed")
    parser.add_argument("--work", default=os.path.join(REPO, "build", "adapter-ctest"),
                        help="--ctest: folder for the expect file and the JSON report")
    parser.add_argument("--impl", help="--ctest: movconf's --impl instead of the registry's")
    parser.add_argument("--sanitized", action="store_true",
                        help="--ctest: the build runs under ASan; expect each entry's "
                             "\"sanitized\" verdicts first")
    parser.add_argument("--no-detect", action="store_true",
                        help="--ctest: do not run the registry's detection command")
    parser.add_argument("--shard", metavar="K/N",
                        help="--ctest: only movconf run's K-th of N parts of the cases "
                             "(CI runs 1/4, the nightly job the whole tier)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a failure is unexplained or a reproducer does not "
                             "fail, or when no adapter is installed")
    return parser.parse_args(argv)


def problems_of(results):
    problems = []
    for r in results:
        name = r["adapter"]["name"]
        for c in r["unexplained"]:
            problems.append("%s: unexplained %s %s" % (name, c["verdict"], c["id"]))
        for entry, cases in r["groups"]:
            case_id, ok = reproducer(entry, cases)
            if not ok:
                problems.append("%s: reproducer %s of \"%s\" does not fail" % (name, case_id,
                                                                                entry["title"]))
        for c, x in r["passed"]:
            problems.append("%s: %s passed, but pattern %s of \"%s\" expects %s (CTest would "
                            "report an unexpected pass)" % (name, c["id"], x[0], x[2]["title"],
                                                             x[1]))
    return problems


def stale_entries(entries, results):
    used = {id(e) for r in results for e, _ in r["groups"]}
    ran = {r["adapter"]["name"] for r in results}
    return [e for e in entries if ran & set(e["adapters"]) and id(e) not in used]


def run_all(args, workdir):
    adapters = load_registry(args.registry)
    entries = load_explanations(args.explanations)
    unknown = set(args.only) - {a["name"] for a in adapters}
    if unknown:
        raise UsageError("--only: no adapter named %s" % ", ".join(sorted(unknown)))
    paths = args.paths or ["conformance"]
    results, missing = [], []
    for adapter in adapters:
        if args.only and adapter["name"] not in args.only:
            continue
        if not installed(adapter):
            progress(adapter["name"], "is not installed; skipped")
            missing.append(adapter["name"])
            continue
        kept = os.path.join(args.from_reports or "", adapter["name"] + ".json")
        if args.from_reports and os.path.exists(kept):
            progress("reading", kept)
            report = load_json(kept, "movconf report")
        else:
            report = run_suite(adapter, args.movconf, paths, timeout_option(args, adapter), workdir)
        groups, unexplained, passed = distinct_failures(report["cases"],
                                                        expectations(entries, adapter["name"]))
        results.append({"adapter": adapter, "version": library_version(adapter),
                        "counts": op_counts(report["cases"]), "groups": groups,
                        "unexplained": unexplained, "passed": passed,
                        "uncarried": uncarried(report["cases"]),
                        "rejections": rejection_counts(report["cases"]),
                        "wall_seconds": report.get(WALL_KEY),
                        "case_seconds": report.get("summary", {}).get("seconds"),
                        "summary": report.get("summary", {}),
                        "counts_by_verdict": {v: sum(1 for c in report["cases"] if c["verdict"] == v)
                                              for v in FAILURES}})
    return results, missing, paths, entries


def write_expect(entries, name, path, sanitized=False):
    """movconf's expectations for one adapter, from its explanations."""
    expect = [{"case": pattern, "verdict": verdict,
               "reason": "%s: %s" % (e["class"], e["title"])}
              for pattern, verdict, e in expectations(entries, name, sanitized)]
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(expect, f, indent=1)
        f.write("\n")
    return 0


def ctest(args):
    """The CTest run of one adapter (see --ctest in the description)."""
    name = args.ctest
    adapters = {a["name"]: a for a in load_registry(args.registry)}
    if name not in adapters:
        raise UsageError("--ctest: no adapter named %s in %s" % (name, args.registry))
    adapter = adapters[name]
    if adapter.get("unexplained"):
        # A row whose failures are still being explained: CTest reports it
        # skipped, saying why, rather than failing on what is known.
        print("skipped: %s's failures are not all explained yet: %s"
              % (name, adapter["unexplained"]))
        return SKIPPED
    if not args.no_detect and not installed(adapter):
        print("skipped: %s is not installed (%s failed); see examples/adapters/README.md "
              "or run tools/install-adapters.sh" % (name, " ".join(adapter["detect"])))
        return SKIPPED
    if "self_test" in adapter:
        status = subprocess.run(adapter["self_test"], cwd=REPO).returncode
        if status != 0:
            print("%s: self test %s failed with status %d" % (name, adapter["self_test"], status))
            return 1
    os.makedirs(args.work, exist_ok=True)
    expect = os.path.join(args.work, "expect.json")
    write_expect(load_explanations(args.explanations), name, expect, args.sanitized)
    argv = [args.movconf, "run", "--impl", args.impl or adapter["impl"], "--expect", expect,
            "--json", os.path.join(args.work, "results.json")] + timeout_option(args, adapter)
    if args.shard:
        argv += ["--shard", args.shard]
    progress(" ".join(argv))
    return subprocess.run(argv + (args.paths or []), cwd=REPO).returncode


def main(argv):
    args = parse_args(argv)
    try:
        FAILURES[:] = load_failures(args.movconf)
    except UsageError as e:
        print("conformance_matrix: %s" % e, file=sys.stderr)
        return 2
    if args.write_expect:
        try:
            return write_expect(load_explanations(args.explanations), *args.write_expect)
        except UsageError as e:
            print("conformance_matrix: %s" % e, file=sys.stderr)
            return 2
    if args.ctest:
        try:
            return ctest(args)
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
        progress("note: explanation \"%s\" (%s) matched no failure" % (e["title"], ", ".join(e["adapters"])))
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
