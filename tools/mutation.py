#!/usr/bin/env python3
"""Mutation score of movconf's test suite (docs/mutation.md).

For each deliberate fault, a patch tools/mutants/<name>.patch against
src/optimized/: build movconf from a scratch copy of the tree with the patch
applied (OUT/slot-K/tree; only src/optimized is copied), run the conformance suite against
them at 1, 2, 3 and 7 threads (MOVCONF_PARALLEL_MIN_BYTES=0, so that even tiny
requests are split), then at 1 and 3 with streaming stores forced
(MOVCONF_STREAM_MIN_BYTES=0), and, when every case still passes, a libFuzzer campaign
of fuzz_diff (oracle against the mutated kernels). Verdicts:
killed-by-conformance, killed-by-fuzz, survived. Standard library only.
Run it directly: tools/mutation.py --help.
"""

import argparse
import concurrent.futures
import filecmp
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MUTANTS_DIR = os.path.join(ROOT, "tools", "mutants")
MUTATED = "src/optimized"  # the one folder patches may change
NAME = re.compile(r"^[a-z0-9_]+$")
TARGET = re.compile(r"^\+\+\+ b/(\S+)", re.M)
FILE_LINE = re.compile(r"^(?:---|\+\+\+) (\S+)", re.M)  # both names: patch may take either
# (threads, streaming stores forced on every request): ordinary stores at
# every thread count, then the streaming paths (MOVCONF_STREAM_MIN_BYTES=0).
CONFORMANCE_RUNS = ((1, False), (2, False), (3, False), (7, False), (1, True), (3, True))
MAX_FUZZ_TIME = 60
CONFORMANCE_TIMEOUT = 300  # seconds per movconf run: a hang is a kill
FUZZ_CORPORA = ("corpus/diff", "corpus/diff-found")

HELP_EPILOG = """\
verdicts:
  killed-by-conformance  `movconf run --impl optimized --threads T` failed (some case
                         failed, or movconf crashed or hung) for T in 1, 2, 3, 7
  killed-by-fuzz         every case passed, but fuzz_diff (libFuzzer, oracle against the
                         mutated kernels, ASan+UBSan) found a difference or a crash
  survived               neither noticed the fault
  error                  the patch did not apply, the mutant did not build, or a tool
                         failed to start

mutants: tools/mutants/NAME.patch, a unified diff against src/optimized/ (paths
  a/src/optimized/FILE, b/src/optimized/FILE) after a first line
  `Description: what it breaks`; `patch -p1` applies it with no fuzz.

builds (reused from mutant to mutant; only the patched files and what includes them recompile):
  OUT/slot-K/tree         the source tree: src/optimized copied (restored, then patched,
                          for each mutant), everything else linked to the real tree
  OUT/slot-K/conformance  gcc, RelWithDebInfo: target movconf
  OUT/slot-K/fuzz         clang, cmake preset `fuzz`: target fuzz_diff (only when needed)
  OUT/results/NAME/       build and fuzz logs, runner JSON, fuzz findings

--check (CTest mutants/patches-apply): every patch applies to today's src/optimized and
  the files it changes, and every file including them, still compile (-fsyntax-only);
  a failure names the mutant. Exit 0 when all do, 1 otherwise.

exit status: 0 score >= --min-score; 1 below it; 2 usage, build or tool errors.

examples:
  tools/mutation.py --list
  tools/mutation.py --check
  tools/mutation.py --mutant eip_same_upper_lower_swapped --fuzz-time 30
  tools/mutation.py --fuzz-time 60 --jobs 2 --json build-mutants/score.json
"""


class Mutant:
    """One patch of tools/mutants: name, description, the files it changes."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)[:-len(".patch")]
        with open(path, encoding="utf-8") as f:
            text = f.read()
        first = text.split("\n", 1)[0]
        self.description = first[len("Description: "):].strip() \
            if first.startswith("Description: ") else ""
        self.targets = TARGET.findall(text)
        self.named = [n.split("/", 1)[-1] for n in FILE_LINE.findall(text)
                      if n != "/dev/null"]

    def problem(self):
        """Why the patch is not a usable mutant, or None."""
        if not NAME.match(self.name):
            return "its name must be lower case letters, digits and _"
        if not self.description:
            return "its first line must be 'Description: what it breaks'"
        if not self.targets:
            return "it changes no file (no '+++ b/...' line)"
        outside = [t for t in self.named if not t.startswith(MUTATED + "/") or ".." in t]
        if outside:
            return f"it changes {outside[0]}, outside {MUTATED}/"
        return None


def load_mutants(folder=MUTANTS_DIR):
    """The mutants of folder, by name; raises ValueError for a bad patch."""
    mutants = [Mutant(os.path.join(folder, f)) for f in sorted(os.listdir(folder))
               if f.endswith(".patch")]
    for m in mutants:
        why = m.problem()
        if why:
            raise ValueError(f"mutant {m.name} ({os.path.relpath(m.path, ROOT)}): {why}")
    return mutants


def apply_patch(mutant, root, log_path=None):
    """Applies mutant's patch under root (patch -p1, no fuzz, no backups):
    (ok, patch's output)."""
    try:
        proc = subprocess.run(["patch", "-p1", "--batch", "--forward", "--fuzz=0",
                               "--no-backup-if-mismatch", "-d", root, "-i", mutant.path],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              check=False)
    except OSError as e:
        raise RuntimeError(f"cannot run patch ({e}); on Debian: apt-get install patch") from e
    if log_path:
        with open(log_path, "a", encoding="utf-8") as log:
            log.write(f"$ patch -p1 -i {mutant.path}\n{proc.stdout}")
    return proc.returncode == 0, proc.stdout


def sync_folder(source, copy):
    """Makes copy hold exactly the files of source. A file whose content
    differs is rewritten, so that its time is new and make rebuilds it; the
    others keep their times."""
    os.makedirs(copy, exist_ok=True)
    wanted = set(os.listdir(source))
    for f in os.listdir(copy):
        if f not in wanted:
            os.remove(os.path.join(copy, f))
    for f in wanted:
        src, dst = os.path.join(source, f), os.path.join(copy, f)
        if not os.path.exists(dst) or not filecmp.cmp(src, dst, shallow=False):
            shutil.copyfile(src, dst)


def make_tree(tree):
    """OUT/slot-K/tree: the source tree with src/optimized copied and every
    other entry a link to the real one (build folders left out)."""
    os.makedirs(os.path.join(tree, "src"), exist_ok=True)

    def link(target, at):
        if os.path.islink(at) and os.readlink(at) == target:
            return
        if os.path.islink(at) or os.path.isfile(at):
            os.remove(at)
        os.symlink(target, at)

    for entry in os.listdir(ROOT):
        if entry not in ("src", ".git") and not entry.startswith("build"):
            link(os.path.join(ROOT, entry), os.path.join(tree, entry))
    for layer in os.listdir(os.path.join(ROOT, "src")):
        if os.path.join("src", layer) != MUTATED:
            link(os.path.join(ROOT, "src", layer), os.path.join(tree, "src", layer))
    sync_folder(os.path.join(ROOT, MUTATED), os.path.join(tree, MUTATED))


class Reporter:
    """Progress lines on stderr, one writer at a time."""

    def __init__(self):
        self.lock = threading.Lock()
        self.start = time.monotonic()

    def say(self, text):
        with self.lock:
            elapsed = time.monotonic() - self.start
            print(f"mutation [{elapsed:6.0f}s] {text}", file=sys.stderr, flush=True)


def run_logged(cmd, log_path, env=None, timeout=None, cwd=ROOT):
    """Runs cmd with its output appended to log_path; returns (returncode or
    'timeout', seconds)."""
    start = time.monotonic()
    with open(log_path, "a", encoding="utf-8") as log:
        log.write("$ " + " ".join(cmd) + "\n")
        log.flush()
        try:
            proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                  timeout=timeout, check=False)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            code = "timeout"
        except OSError as e:
            log.write(f"cannot run: {e}\n")
            code = "not-started"
    return code, time.monotonic() - start


def configured_for(build_dir, tree):
    """True when build_dir holds a CMake cache made for the source tree."""
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as f:
            return f"CMAKE_HOME_DIRECTORY:INTERNAL={tree}\n" in f.read()
    except OSError:
        return False


def configure_and_build(tree, build_dir, kind, target, log_path, build_jobs):
    """Configures the slot's tree (once per slot) and builds one target; the
    tree holds the mutant already. Returns (ok, seconds)."""
    t1 = 0.0
    if not configured_for(build_dir, tree):
        shutil.rmtree(build_dir, ignore_errors=True)  # a build of another tree
        if kind == "fuzz":
            base = ["cmake", "-S", tree, "--preset", "fuzz", "-B", build_dir]
        else:
            base = ["cmake", "-S", tree, "-B", build_dir, "-DCMAKE_BUILD_TYPE=RelWithDebInfo"]
        # Mutants may leave a variable unused: warnings are not errors here.
        code, t1 = run_logged(base + ["-DMOVCONF_WERROR=OFF"], log_path, cwd=tree)
        if code != 0:
            return False, t1
    code, t2 = run_logged(["cmake", "--build", build_dir, "-j", str(build_jobs), "--target", target],
                          log_path)
    return code == 0, t1 + t2


def failing_cases(json_path):
    """Every failing case of a runner JSON report, as 'id (verdict)'."""
    try:
        with open(json_path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError):
        return []
    return [f"{c['id']} ({c['verdict']})" for c in report.get("cases", []) if c.get("problem")]


def run_conformance(movconf, results, report, name):
    """First thread count that fails the suite: (threads, detail, cases) or None."""
    for threads, streaming in CONFORMANCE_RUNS:
        env = dict(os.environ, MOVCONF_PARALLEL_MIN_BYTES="0")
        env.pop("MOVCONF_THREADS", None)
        env.pop("MOVCONF_STREAM_MIN_BYTES", None)
        if streaming:
            env["MOVCONF_STREAM_MIN_BYTES"] = "0"
        label = f"{threads} streaming" if streaming else str(threads)
        json_path = os.path.join(results, f"conformance-{label.replace(' ', '-')}.json")
        code, _ = run_logged([movconf, "run", "--impl", "optimized", "--threads", str(threads),
                              "--quiet", "--json", json_path],
                             os.path.join(results, "conformance.log"), env=env,
                             timeout=CONFORMANCE_TIMEOUT)
        if code == 0:
            continue
        if code == "timeout":
            return label, f"movconf hung (over {CONFORMANCE_TIMEOUT} s)", []
        if isinstance(code, int) and code < 0:
            return label, f"movconf died of signal {-code}", []
        if code == 1:
            cases = failing_cases(json_path)
            detail = f"{len(cases)} failing case{'s' if len(cases) != 1 else ''}"
            return label, detail if cases else "run failed", cases
        raise RuntimeError(f"movconf run exited with {code} (see {results}/conformance.log)")
    report.say(f"{name}: every conformance case passes in every run {CONFORMANCE_RUNS}")
    return None


def run_fuzz(fuzzer, results, seconds, seed):
    """libFuzzer on fuzz_diff from the seed corpus: (killed, detail, seconds)."""
    work = os.path.join(results, "fuzz-corpus")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    artifacts = os.path.join(results, "fuzz-findings")
    shutil.rmtree(artifacts, ignore_errors=True)
    os.makedirs(artifacts)
    log_path = os.path.join(results, "fuzz.log")
    if os.path.exists(log_path):
        os.remove(log_path)
    corpora = [os.path.join(ROOT, c) for c in FUZZ_CORPORA if os.path.isdir(os.path.join(ROOT, c))]
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
               UBSAN_OPTIONS="halt_on_error=1")
    cmd = [fuzzer, f"-max_total_time={seconds}", f"-seed={seed}", "-timeout=10",
           "-rss_limit_mb=2560", "-entropic_scale_per_exec_time=1", "-print_final_stats=1",
           f"-artifact_prefix={artifacts}/", work] + corpora
    code, elapsed = run_logged(cmd, log_path, env=env, timeout=seconds + 120)
    shutil.rmtree(work, ignore_errors=True)  # the corpus is not kept: only findings matter
    found = sorted(os.listdir(artifacts))
    if code == 0 and not found:
        return False, f"no finding in {seconds} s", elapsed
    with open(log_path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    m = re.search(r"MOVCONF-MISMATCH (.*)", text) or re.search(r"ERROR: (\w+Sanitizer: [^\n]*)", text) \
        or re.search(r"==\d+== ERROR: (libFuzzer: [^\n]*)", text)
    if not found and not m:
        raise RuntimeError(f"fuzz_diff exited with {code} without a finding (see {log_path})")
    what = m.group(1).strip() if m else "crash"
    where = os.path.relpath(os.path.join(artifacts, found[0]), ROOT) if found else "no input saved"
    return True, f"{what}; input {where}", elapsed


def fuzz_available():
    """clang with libFuzzer, probed once."""
    probe_dir = tempfile.mkdtemp(prefix="movconf-mutation-")
    src = os.path.join(probe_dir, "probe.c")
    with open(src, "w", encoding="utf-8") as f:
        f.write("int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\n"
                "int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) "
                "{ (void)d; (void)n; return 0; }\n")
    try:
        ok = subprocess.run(["clang", "-fsanitize=fuzzer", src, "-o", os.path.join(probe_dir, "probe")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            check=False).returncode == 0
    except OSError:
        ok = False
    shutil.rmtree(probe_dir, ignore_errors=True)
    return ok


def assess(mutant, slot, args, report, can_fuzz):
    """One mutant through the two stages."""
    name = mutant.name
    out = os.path.realpath(args.out)
    results = os.path.join(out, "results", name)
    shutil.rmtree(results, ignore_errors=True)
    os.makedirs(results)
    row = {"name": name, "description": mutant.description, "verdict": "error", "detail": "",
           "threads": None, "failing_cases": [], "build_seconds": 0.0,
           "conformance_seconds": 0.0, "fuzz_seconds": 0.0}
    slot_dir = os.path.join(out, f"slot-{slot}")
    tree = os.path.join(slot_dir, "tree")
    build_log = os.path.join(results, "build.log")
    make_tree(tree)  # restores src/optimized from the real tree
    applied, _ = apply_patch(mutant, tree, build_log)
    if not applied:
        row["detail"] = f"the patch does not apply (see {os.path.relpath(build_log, ROOT)})"
        report.say(f"{name}: {row['detail']}")
        return row
    ok, secs = configure_and_build(tree, os.path.join(slot_dir, "conformance"), "conformance",
                                   "movconf", build_log, args.build_jobs)
    row["build_seconds"] = round(secs, 1)
    if not ok:
        row["detail"] = f"build failed (see {os.path.relpath(build_log, ROOT)})"
        report.say(f"{name}: {row['detail']}")
        return row
    start = time.monotonic()
    try:
        hit = run_conformance(os.path.join(slot_dir, "conformance", "movconf"), results, report, name)
    except RuntimeError as e:
        row["detail"] = str(e)
        return row
    row["conformance_seconds"] = round(time.monotonic() - start, 1)
    if hit:
        row["verdict"], row["threads"] = "killed-by-conformance", hit[0]
        row["detail"], row["failing_cases"] = f"threads {hit[0]}: {hit[1]}", hit[2]
        example = f", e.g. {hit[2][0]}" if hit[2] else ""
        report.say(f"{name}: killed by conformance ({row['detail']}{example})")
        return row
    if args.fuzz_time <= 0 or not can_fuzz:
        row["verdict"] = "survived"
        row["detail"] = "conformance passes; no fuzzing (" + \
            ("--fuzz-time 0" if args.fuzz_time <= 0 else "clang's libFuzzer is not installed") + ")"
        report.say(f"{name}: survived ({row['detail']})")
        return row
    ok, secs = configure_and_build(tree, os.path.join(slot_dir, "fuzz"), "fuzz", "fuzz_diff",
                                   build_log, args.build_jobs)
    row["build_seconds"] = round(row["build_seconds"] + secs, 1)
    if not ok:
        row["detail"] = f"fuzz build failed (see {os.path.relpath(build_log, ROOT)})"
        report.say(f"{name}: {row['detail']}")
        return row
    report.say(f"{name}: fuzzing fuzz_diff for up to {args.fuzz_time} s")
    try:
        killed, detail, secs = run_fuzz(os.path.join(slot_dir, "fuzz", "fuzz", "fuzz_diff"), results,
                                        args.fuzz_time, args.seed)
    except RuntimeError as e:
        row["detail"] = str(e)
        return row
    row["fuzz_seconds"] = round(secs, 1)
    row["verdict"] = "killed-by-fuzz" if killed else "survived"
    row["detail"] = f"after {secs:.0f} s: {detail}" if killed else f"conformance passes; {detail}"
    report.say(f"{name}: {row['verdict']} ({row['detail']})")
    return row


def print_table(rows, out):
    width = max(len(r["name"]) for r in rows)
    print(f"{'mutant':<{width}}  {'verdict':<21}  {'build':>6}  {'conf':>5}  {'fuzz':>5}  detail",
          file=out)
    for r in rows:
        detail = r["detail"]
        if r["failing_cases"]:
            detail += f"; e.g. {r['failing_cases'][0]}"
        print(f"{r['name']:<{width}}  {r['verdict']:<21}  {r['build_seconds']:5.1f}s  "
              f"{r['conformance_seconds']:4.1f}s  {r['fuzz_seconds']:4.0f}s  {detail}", file=out)


def summarize(rows):
    count = {v: sum(r["verdict"] == v for r in rows)
             for v in ("killed-by-conformance", "killed-by-fuzz", "survived", "error")}
    killed = count["killed-by-conformance"] + count["killed-by-fuzz"]
    return count, killed, (killed / len(rows) if rows else 0.0)


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="tools/mutation.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Mutation score: builds the optimized kernels once per deliberate fault, "
        "a patch of tools/mutants/ applied to a scratch copy of src/optimized, and checks "
        "that the conformance suite (at 1, 2, 3 and 7 threads) or, failing that, a short "
        "libFuzzer campaign of fuzz_diff notices it. Prints a table and the score "
        "(killed / total); progress goes to stderr.",
        epilog=HELP_EPILOG)
    ap.add_argument("--list", action="store_true", help="list the mutants and what each breaks")
    ap.add_argument("--check", action="store_true",
                    help="only check that every patch applies to src/optimized and that what "
                    "it changes compiles (fast; CTest mutants/patches-apply), then exit")
    ap.add_argument("--cc", default=os.environ.get("CC") or "cc", metavar="COMPILER",
                    help="the C compiler of --check (default $CC, else cc)")
    ap.add_argument("--include", action="append", default=[], metavar="DIR",
                    help="one more include folder for --check (repeatable; the build's "
                    "include/ for generated headers)")
    ap.add_argument("--mutant", action="append", metavar="NAME",
                    help="assess only this mutant (repeatable; default: all)")
    ap.add_argument("--fuzz-time", type=int, default=MAX_FUZZ_TIME, metavar="S",
                    help=f"seconds of fuzzing per conformance survivor, 0 to {MAX_FUZZ_TIME} "
                    f"(default {MAX_FUZZ_TIME}; 0: no fuzzing)")
    ap.add_argument("--jobs", type=int, default=1, metavar="N",
                    help="mutants assessed at once, each in its own build slot (default 1)")
    ap.add_argument("--build-jobs", type=int, default=0, metavar="N",
                    help="parallel compile jobs per build (default: CPUs / --jobs)")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    ap.add_argument("--min-score", type=float, default=0.95, metavar="X",
                    help="exit 1 when killed / total is below X (default 0.95)")
    ap.add_argument("--seed", type=int, default=1, help="libFuzzer -seed (default 1)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build-mutants"), metavar="DIR",
                    help="build slots and results (default build-mutants/)")
    args = ap.parse_args(argv)
    if not 0 <= args.fuzz_time <= MAX_FUZZ_TIME:
        ap.error(f"--fuzz-time must be between 0 and {MAX_FUZZ_TIME}")
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if not 0.0 <= args.min_score <= 1.0:
        ap.error("--min-score must be between 0 and 1")
    if args.build_jobs < 1:
        args.build_jobs = max(1, (os.cpu_count() or 1) // args.jobs)
    return args


def local_includes(folder):
    """For each file of folder: the files of folder it includes, directly or
    not ("optimized/x.h" and "x.c" forms), itself included."""
    direct = {}
    for f in os.listdir(folder):
        with open(os.path.join(folder, f), encoding="utf-8") as text:
            named = re.findall(r'^\s*#\s*include\s+"(?:optimized/)?([^"/]+)"', text.read(), re.M)
        direct[f] = {n for n in named if os.path.exists(os.path.join(folder, n))}
    closure = {}
    for f in direct:
        seen, todo = {f}, [f]
        while todo:
            for n in direct[todo.pop()] - seen:
                seen.add(n)
                todo.append(n)
        closure[f] = seen
    return closure


def check_one(mutant, work, compile_base):
    """--check for one mutant in its own scratch folder: None or the problem."""
    folder = os.path.join(work, mutant.name)
    copy = os.path.join(folder, MUTATED)
    shutil.copytree(os.path.join(ROOT, MUTATED), copy)
    ok, output = apply_patch(mutant, folder)
    if not ok:
        return f"the patch no longer applies to {MUTATED}/:\n{output.strip()}"
    # "optimized/x.h" resolves to the patched copy, the other layers to the tree.
    layers = os.path.join(folder, "layers")
    os.makedirs(layers)
    for layer in os.listdir(os.path.join(ROOT, "src")):
        target = copy if os.path.join("src", layer) == MUTATED else os.path.join(ROOT, "src", layer)
        os.symlink(target, os.path.join(layers, layer))
    changed = {os.path.basename(t) for t in mutant.targets}
    sources = sorted(f for f, deps in local_includes(copy).items()
                     if f.endswith(".c") and deps & changed)
    for source in sources:
        proc = subprocess.run(compile_base + ["-I", layers, os.path.join(copy, source)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              check=False)
        if proc.returncode != 0:
            return f"{MUTATED}/{source} does not compile with the patch:\n{proc.stdout.strip()}"
    return None


def check_patches(mutants, args):
    """--check: every patch applies and what it changes compiles. Exit status."""
    compile_base = [args.cc, "-std=c11", "-fsyntax-only", "-D_POSIX_C_SOURCE=200809L",
                    "-I", os.path.join(ROOT, "include")]
    for folder in args.include:
        compile_base += ["-I", os.path.abspath(folder)]
    work = tempfile.mkdtemp(prefix="movconf-mutants-")
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            problems = list(pool.map(lambda m: check_one(m, work, compile_base), mutants))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    broken = [(m, p) for m, p in zip(mutants, problems) if p]
    for m, problem in broken:
        print(f"mutant {m.name} ({os.path.relpath(m.path, ROOT)}): {problem}\n", file=sys.stderr)
    if broken:
        print(f"{len(broken)} of {len(mutants)} mutants broken: update each patch to today's "
              f"code (docs/mutation.md, adding a mutant)", file=sys.stderr)
        return 1
    print(f"{len(mutants)} mutants: every patch applies to {MUTATED}/ and compiles")
    return 0


def main(argv):
    args = parse_args(argv)
    try:
        mutants = load_mutants()
    except (OSError, ValueError) as e:
        print(f"tools/mutation.py: {e}", file=sys.stderr)
        return 2
    by_name = {m.name: m for m in mutants}
    for m in args.mutant or []:
        if m not in by_name:
            print(f"tools/mutation.py: unknown mutant '{m}' (tools/mutation.py --list shows them)",
                  file=sys.stderr)
            return 2
    if args.list:
        width = max(len(m.name) for m in mutants)
        for m in mutants:
            print(f"{m.name:<{width}}  {m.description}")
        return 0
    if args.check:
        try:
            return check_patches([by_name[n] for n in args.mutant] if args.mutant else mutants,
                                 args)
        except RuntimeError as e:
            print(f"tools/mutation.py: {e}", file=sys.stderr)
            return 2
    chosen = [by_name[n] for n in args.mutant] if args.mutant else mutants
    report = Reporter()
    can_fuzz = args.fuzz_time > 0 and fuzz_available()
    if args.fuzz_time > 0 and not can_fuzz:
        report.say("clang's libFuzzer is not installed: conformance survivors stay survived")
    report.say(f"{len(chosen)} mutants, {args.jobs} at a time, fuzz time {args.fuzz_time} s")
    slots = queue.Queue()
    for k in range(args.jobs):
        slots.put(k)
    done = [0]

    def work(mutant):
        slot = slots.get()
        try:
            row = assess(mutant, slot, args, report, can_fuzz)
        finally:
            slots.put(slot)
        with report.lock:
            done[0] += 1
        report.say(f"{done[0]}/{len(chosen)} done")
        return row

    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(work, chosen))
    count, killed, score = summarize(rows)
    print_table(rows, sys.stdout)
    print(f"\nmutation score: {killed}/{len(rows)} killed = {score:.1%} "
          f"(conformance {count['killed-by-conformance']}, fuzz {count['killed-by-fuzz']}, "
          f"survived {count['survived']}, errors {count['error']}); "
          f"{time.monotonic() - started:.0f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"score": round(score, 4), "killed": killed, "total": len(rows),
                       "counts": count, "min_score": args.min_score,
                       "fuzz_time": args.fuzz_time, "conformance_runs": [{"threads": t, "streaming": st} for t, st in CONFORMANCE_RUNS],
                       "seconds": round(time.monotonic() - started, 1), "mutants": rows},
                      f, indent=1)
            f.write("\n")
    if count["error"]:
        return 2
    return 0 if score >= args.min_score else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
