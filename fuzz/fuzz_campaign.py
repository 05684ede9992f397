#!/usr/bin/env python3
"""movconf fuzz campaigns: run, merge, collect, deduplicate, minimize, write cases.

Run it as fuzz/fuzz_campaign.py (or python3 fuzz/fuzz_campaign.py);
`--help` explains the options. Standard library only.
"""

import argparse
import concurrent.futures
import hashlib
import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALL_TARGETS = ("diff", "roundtrip", "parser", "plugin_diff")
PROGRESS_EVERY = 10.0  # seconds between progress lines
REPLAY_TIMEOUT = 30  # seconds for one replay of one input
EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

HELP = """\
usage: fuzz/fuzz_campaign.py [options]

Runs a fuzzing campaign over movconf's fuzz targets, one target after the
other, and turns every distinct finding into a JSON regression case.

For each target it
  1. copies the seed corpus (corpus/<target>/, plus corpus/<target>-found/
     when present) into a work corpus under --out;
  2. runs the engine for --time seconds with --jobs processes, printing a
     progress line every 10 s (execs, exec/s, coverage, corpus size,
     findings so far); a libFuzzer process that stops on a finding is
     restarted while time remains, and a corpus input that crashes while
     libFuzzer loads the corpus is set aside (it stays a finding);
  3. merges the work corpus into a fresh minimal one (libFuzzer -merge=1 on
     top of the seeds; AFL++: afl-cmin) and counts the entries that are new;
  4. replays every crash, leak, timeout or out-of-memory artifact once
     (through the libFuzzer build, whose sanitizers print a stack, else the
     plain replay driver) and deduplicates them: by the
     `MOVCONF-MISMATCH <target> <signature>` line a differential target
     prints before abort() (the signature: the finding's name as movconf
     fuzz gives it, fuzz/README.md), else by the sanitizer's error kind and top 3
     frames; artifacts that do not reproduce are reported as flaky;
  5. minimizes one input per finding (libFuzzer -minimize_crash=1; AFL++:
     afl-tmin), keeps the minimized input only when it still reproduces the
     same signature, and writes a readable regression case with
     fuzz_to_case (origin: engine, target, date): into
     conformance/regressions/ for movconf's own targets and plugins, into
     ./movconf-findings/ for a third-party plugin (see --cases-dir);
  6. prints a summary table: target, engine, execs, exec/s, coverage,
     corpus (seeds -> merged), new entries, findings, cases written.
Everything a run produces stays under --out/<engine>/<target>/ (work
corpus, merged corpus, artifacts, logs, findings/ with each finding's
minimized input and replay log); --out/<engine>/summary.json repeats the
summary for machines.

options:
  --engine libfuzzer|afl  engine (default libfuzzer). libFuzzer uses the
                          "fuzz" preset (build-fuzz/fuzz/fuzz_<target>,
                          clang with ASan+UBSan); AFL++ the "afl" preset
                          (build-afl/fuzz/afl_<target> and its CMPLOG twin
                          afl_<target>.cmplog).
  --target T|all          target: diff, roundtrip, parser, plugin_diff, a
                          comma-separated list, or all (default): diff,
                          roundtrip and parser, plus plugin_diff when
                          MOVCONF_FUZZ_PLUGIN names a plugin .so.
  --time SECONDS          fuzzing time per target (default 60).
  --jobs N                parallel fuzzing processes per target (default 1).
                          libFuzzer: N processes sharing one corpus
                          directory; AFL++: one main instance (-M, with
                          CMPLOG) and N-1 secondaries (-S).
  --build                 configure the engine's preset (fuzz or afl) and
                          build what the run needs first: the targets, their
                          replay drivers and fuzz_to_case; with afl also the
                          libFuzzer targets (preset fuzz), through which
                          findings replay under ASan+UBSan. Without --build,
                          keep build-fuzz/ built from the same sources.
  --out DIR               work directory (default build-fuzz/campaign).
  --update-corpus         after the merge, write the entries that the seed
                          corpus lacks to corpus/<target>-found/ (named by
                          their SHA-1, replacing what was there), so later
                          campaigns start from them. corpus/<target>/ itself
                          is only ever written by fuzz_corpus
                          (build/fuzz/fuzz_corpus).
  --cases-dir DIR         where regression cases go. Default:
                          conformance/regressions/ of this tree, movconf's
                          own suite, for the targets diff, roundtrip and
                          parser and for plugin_diff over a plugin that
                          lies inside this tree (plugin_movconf, the test
                          mock); ./movconf-findings/ (in the current
                          directory) for plugin_diff over any other plugin:
                          a third-party kernel's findings are its author's
                          cases, not movconf's, unless asked for.
  --no-cases              collect and minimize findings, write no case.
  --corpus-root DIR       read seeds from DIR/<target>/ instead of corpus/
                          (an empty DIR fuzzes from nothing).
  --minimize-time S       time limit for minimizing one finding (default 15;
                          --jobs findings are minimized at a time).
  --max-artifacts N       stop a target's campaign once it has N raw
                          artifacts, and replay at most N (default 50).
  --engine-arg ARG        extra argument for every fuzzing process (for
                          example --engine-arg=-max_len=4096); repeatable.
  --build-dir DIR         the engine's build tree when it is not the
                          preset's (build-fuzz or build-afl).
  --root DIR              the movconf tree whose build-fuzz/, build-afl/,
                          build/ and corpus/ are used (default: this one;
                          --out and --cases-dir keep their own defaults).
  -h, --help              this text.

exit status: 0 no finding, 1 at least one finding (each has its case unless
--no-cases), 2 usage, build or engine errors.

environment: MOVCONF_FUZZ_PLUGIN (the plugin .so for plugin_diff);
ASAN_OPTIONS and UBSAN_OPTIONS are passed through (defaults are set when
unset); AFL++ runs with AFL_NO_UI=1, AFL_SKIP_CPUFREQ=1,
AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 and AFL_SKIP_CRASHES=1 (seeds that
crash are skipped by AFL++; the CTest replay of the corpus catches them).
"""


class UsageError(Exception):
    pass


def log(message):
    print(message, flush=True)


def sha1_file(path):
    with open(path, "rb") as handle:
        return hashlib.sha1(handle.read()).hexdigest()


def list_files(directory):
    if not os.path.isdir(directory):
        return []
    return sorted(
        os.path.join(directory, name)
        for name in os.listdir(directory)
        if os.path.isfile(os.path.join(directory, name)) and not name.startswith(".")
    )


def shas_of(directories):
    return {sha1_file(path) for directory in directories for path in list_files(directory)}


def copy_by_sha(sources, destination):
    """Copies every file of the source directories into destination, named by SHA-1."""
    os.makedirs(destination, exist_ok=True)
    for directory in sources:
        for path in list_files(directory):
            shutil.copyfile(path, os.path.join(destination, sha1_file(path)))


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def tail(path, lines=15):
    try:
        with open(path, errors="replace") as handle:
            return "".join(handle.readlines()[-lines:])
    except OSError:
        return ""


def human(number):
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if number >= size:
            return "%.1f%s" % (number / size, unit)
    return "%d" % number


def sanitizer_env():
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:symbolize=1:allocator_may_return_null=1")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1:symbolize=1")
    return env


def run_logged(command, log_path, timeout=None, env=None, cwd=None):
    """Runs command with stdout and stderr into log_path; returns its exit status."""
    with open(log_path, "wb") as out:
        try:
            return subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, timeout=timeout,
                                  env=env or sanitizer_env(), cwd=cwd, check=False).returncode
        except subprocess.TimeoutExpired:
            return None


# ---------------------------------------------------------------- signatures

FRAME = re.compile(r"^\s*#(\d+) 0x[0-9a-fA-F]+ in (\S+)(.*)$")
NOISE_PREFIXES = ("__asan", "__sanitizer", "__interceptor", "__ubsan", "__lsan", "fuzzer::",
                  "__libc_", "__GI_", "__pthread_kill")
NOISE_NAMES = {"raise", "abort", "malloc", "calloc", "realloc", "free", "operator", "_start",
               "main"}
MISMATCH = re.compile(r"MOVCONF-MISMATCH (\S+) (.+?)\s*$")


def top_frames(lines, start=0, count=3):
    """The first count frames of the stack that begins at or after line start,
    leaving out sanitizer, libFuzzer and libc frames."""
    frames, in_stack = [], False
    for line in lines[start:]:
        match = FRAME.match(line)
        if not match:
            if in_stack:
                break
            continue
        in_stack = True
        name, rest = match.group(2), match.group(3)
        if name.startswith(NOISE_PREFIXES) or name in NOISE_NAMES or "libc.so" in rest \
                or "/libclang_rt" in rest:
            continue
        frames.append(name)
        if len(frames) == count:
            break
    return frames


def first_index(lines, pattern):
    for index, line in enumerate(lines):
        if re.search(pattern, line):
            return index
    return None


def signature_of(output, returncode):
    """What a failing replay's output says went wrong, or None if it passed."""
    lines = output.splitlines()
    for line in lines:
        match = MISMATCH.search(line)
        if match:
            return "mismatch %s %s" % (match.group(1), match.group(2))
    if returncode is None:
        return "timeout"
    checks = (
        (r"ERROR: LeakSanitizer: detected memory leaks", "leak", r"(Direct|Indirect) leak of"),
        (r"ERROR: libFuzzer: timeout", "timeout", r"ERROR: libFuzzer: timeout"),
        (r"ERROR: libFuzzer: out-of-memory", "out-of-memory", r"out-of-memory"),
        (r"ERROR: AddressSanitizer: (\S+)", None, r"ERROR: AddressSanitizer"),
        (r"runtime error: ", None, r"runtime error: "),
        (r"ERROR: libFuzzer: deadly signal", "deadly-signal", r"deadly signal"),
    )
    for pattern, kind, stack_after in checks:
        index = first_index(lines, pattern)
        if index is None:
            continue
        if kind is None and "AddressSanitizer" in pattern:
            kind = "asan " + re.search(pattern, lines[index]).group(1)
            access = re.search(r"(READ|WRITE) of size", output)
            if access:
                kind += " " + access.group(1)
        elif kind is None:  # UBSan: file:line: runtime error: message
            where, message = lines[index].split("runtime error: ", 1)
            kind = "ubsan %s at %s" % (re.sub(r"-?\b\d+\b", "N", message.strip()),
                                       os.path.basename(where.strip().rstrip(":")))
        frames = top_frames(lines, first_index(lines, stack_after) or 0)
        return kind + (" in " + " < ".join(frames) if frames else "")
    if returncode == 0:
        return None
    if returncode < 0:
        try:
            return "signal " + signal.Signals(-returncode).name
        except ValueError:
            return "signal %d" % -returncode
    return "exit status %d" % returncode


def slug(text, limit=60):
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:limit]


# ------------------------------------------------------------------- engines


class Paths:
    def __init__(self, args):
        self.root = args.root
        self.engine = args.engine
        self.libfuzzer_dir = os.path.join(self.root, "build-fuzz")
        self.afl_dir = os.path.join(self.root, "build-afl")
        if args.build_dir:  # the engine's build tree, when not the preset's
            if args.engine == "libfuzzer":
                self.libfuzzer_dir = args.build_dir
            else:
                self.afl_dir = args.build_dir
        self.plain_dir = os.path.join(self.root, "build")
        self.corpus = os.path.join(self.root, "corpus")
        self.corpus_root = os.path.abspath(args.corpus_root or self.corpus)

    def libfuzzer_bin(self, target):
        return os.path.join(self.libfuzzer_dir, "fuzz", "fuzz_" + target)

    def afl_bin(self, target):
        return os.path.join(self.afl_dir, "fuzz", "afl_" + target)

    def engine_dir(self):
        return self.libfuzzer_dir if self.engine == "libfuzzer" else self.afl_dir

    def _tool(self, name):
        """The engine's build has the plain tools too; else the default build."""
        for directory in (self.engine_dir(), self.plain_dir):
            path = os.path.join(directory, "fuzz", name)
            if is_executable(path):
                return path
        return os.path.join(self.engine_dir(), "fuzz", name)

    def replay_bin(self, target):
        return self._tool("replay_" + target)

    def fuzz_to_case(self):
        return self._tool("fuzz_to_case")

    def seeds(self, target):
        own = os.path.join(self.corpus_root, target)
        if target == "plugin_diff" and not os.path.isdir(own):
            return os.path.join(self.corpus_root, "diff")  # same input format as diff
        return own

    def found(self, target):
        return os.path.join(self.corpus, target + "-found")

    def dictionary(self, target):
        path = os.path.join(self.corpus, target + ".dict")
        return path if os.path.isfile(path) else None


def is_executable(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


class LibFuzzer:
    """libFuzzer processes managed by this script, so that a process that
    stops on a finding can be restarted while time remains."""

    name = "libfuzzer"
    LINE = re.compile(r"^#(\d+)\s+\S+\s+cov: (\d+) ft: (\d+) corp: (\d+)/\S+.*?exec/s: (\d+)")

    def __init__(self, paths, target, work, args):
        self.paths, self.target, self.work, self.args = paths, target, work, args
        self.binary = paths.libfuzzer_bin(target)
        self.corpus = os.path.join(work, "corpus")
        self.artifacts = os.path.join(work, "artifacts")
        self.logs = os.path.join(work, "logs")
        self.slots = []  # per job: [process, log path, start time, restarts]
        self.finished = []  # (log path, wall seconds) of ended processes
        self.errors = []
        self.stopped_early = ""
        self.set_aside = 0  # corpus inputs that crash, taken out of the work corpus

    def required(self):
        return [self.binary]

    def prepare(self, seed_dirs):
        for directory in (self.corpus, self.artifacts, self.logs):
            fresh_dir(directory)
        copy_by_sha(seed_dirs, self.corpus)

    def _command(self, seconds):
        command = [self.binary, "-max_total_time=%d" % max(1, seconds), "-timeout=10",
                   "-print_final_stats=1", "-artifact_prefix=" + self.artifacts + "/"]
        dictionary = self.paths.dictionary(self.target)
        if dictionary:
            command.append("-dict=" + dictionary)
            command.append("-rss_limit_mb=2560")  # the loader may hold 1 GiB of tensors
        else:
            # Request targets: spend less time on the few slow large-shape
            # inputs (about 5x the exec/s at the same coverage, fuzz/README.md).
            command.append("-entropic_scale_per_exec_time=1")
        return command + list(self.args.engine_arg) + [self.corpus]

    def _spawn(self, job, seconds, restarts):
        log_path = os.path.join(self.logs, "job%d-run%d.log" % (job, restarts))
        out = open(log_path, "wb")
        process = subprocess.Popen(self._command(seconds), stdout=out, stderr=subprocess.STDOUT,
                                   env=sanitizer_env(), cwd=self.work)
        out.close()
        return [process, log_path, time.time(), restarts]

    def start(self, seconds):
        self.deadline = time.time() + seconds
        self.slots = [self._spawn(job, seconds, 0) for job in range(self.args.jobs)]

    def artifact_files(self):
        return [path for path in list_files(self.artifacts)
                if os.path.basename(path).startswith(("crash-", "leak-", "timeout-", "oom-"))]

    def poll(self):
        """Reaps ended processes, restarts those that stopped on a new
        finding; returns False when every process has ended."""
        if len(self.artifact_files()) >= self.args.max_artifacts and not self.stopped_early:
            self.stopped_early = "stopped after %d artifacts" % self.args.max_artifacts
            self.stop()
        for job, slot in enumerate(self.slots):
            process, log_path, started, restarts = slot
            if process is None or process.poll() is None:
                continue
            self.finished.append((log_path, time.time() - started))
            slot[0] = None
            text = open(log_path, errors="replace").read()
            artifact = re.search(r"Test unit written to (\S+)", text)
            remaining = self.deadline - time.time()
            if artifact is None:
                if process.returncode not in (0, -signal.SIGINT, -signal.SIGTERM) \
                        and not self.stopped_early:
                    self.errors.append("%s exited with status %s:\n%s"
                                       % (self.binary, process.returncode, tail(log_path)))
                continue
            if not re.search(r"^#\d+\s+INITED", text, re.M) and \
                    not self._set_aside(artifact.group(1)):
                self.stopped_early = "an input of the corpus crashes and cannot be set aside"
            elif remaining > 2 and restarts < 100 and not self.stopped_early:
                self.slots[job] = self._spawn(job, remaining, restarts + 1)
        return any(slot[0] is not None for slot in self.slots)

    def _set_aside(self, artifact):
        """A process that crashed while loading the corpus would crash again:
        the input (named by its SHA-1 in the work corpus, like the artifact)
        leaves the work corpus; the artifact stays a finding."""
        digest = os.path.basename(artifact).split("-", 1)[-1]
        path = os.path.join(self.corpus, digest)
        if not os.path.isfile(path):
            return False
        os.remove(path)
        self.set_aside += 1
        return True

    def stop(self):
        for slot in self.slots:
            if slot[0] is not None and slot[0].poll() is None:
                slot[0].send_signal(signal.SIGINT)  # libFuzzer prints its final stats
        for slot in self.slots:
            if slot[0] is not None:
                try:
                    slot[0].wait(timeout=10)
                except subprocess.TimeoutExpired:
                    slot[0].kill()
                    slot[0].wait()

    def _last_line(self, log_path):
        last = None
        with open(log_path, errors="replace") as handle:
            for line in handle:
                match = self.LINE.match(line)
                if match:
                    last = match
        return last

    def _execs(self, log_path):
        text = open(log_path, errors="replace").read()
        match = re.search(r"stat::number_of_executed_units:\s*(\d+)", text)
        if match:
            return int(match.group(1))
        last = self._last_line(log_path)
        return int(last.group(1)) if last else 0

    def progress(self):
        """Execs of running processes are estimated from their last status
        line (libFuzzer prints one at each new coverage and power of two):
        its average exec/s times the process's age."""
        execs = sum(self._execs(path) for path, _ in self.finished)
        cov = features = 0
        logs = [path for path, _ in self.finished] + [s[1] for s in self.slots if s[0]]
        for path in logs:
            last = self._last_line(path)
            if last:
                cov, features = max(cov, int(last.group(2))), max(features, int(last.group(3)))
        for process, log_path, started, _ in self.slots:
            if process is not None:
                last = self._last_line(log_path)
                if last:
                    execs += max(int(last.group(1)),
                                 int(int(last.group(5)) * (time.time() - started)))
        return {"execs": execs, "cov": cov, "ft": features,
                "corpus": len(list_files(self.corpus)), "artifacts": len(self.artifact_files())}

    def totals(self):
        return sum(self._execs(path) for path, _ in self.finished)

    def merge(self, seed_dirs, merged):
        """Seeds first, then whatever the work corpus adds to their coverage."""
        copy_by_sha(seed_dirs, fresh_dir(merged))
        run_logged([self.binary, "-merge=1", "-timeout=10",
                    "-artifact_prefix=" + self.artifacts + "/", merged, self.corpus],
                   os.path.join(self.logs, "merge.log"), cwd=self.work)
        return coverage_of(self.binary, merged, os.path.join(self.logs, "coverage.log"))

    def minimize(self, finding_input, out_path, seconds):
        run_logged([self.binary, "-minimize_crash=1", "-runs=1000000", "-timeout=10",
                    "-max_total_time=%d" % seconds, "-exact_artifact_path=" + out_path,
                    finding_input], out_path + ".log", timeout=seconds + 60,
                   cwd=os.path.dirname(out_path))
        return os.path.isfile(out_path)


def coverage_of(libfuzzer_binary, corpus, log_path):
    """libFuzzer's coverage (cov = edges, ft = features) of a corpus, or {}."""
    if not is_executable(libfuzzer_binary):
        return {}
    scratch = os.path.dirname(log_path)  # where an input that crashes is written
    run_logged([libfuzzer_binary, "-runs=0", "-timeout=10", "-artifact_prefix=" + scratch + "/",
                corpus], log_path, timeout=600, cwd=scratch)
    match = re.search(r"INITED cov: (\d+) ft: (\d+)", open(log_path, errors="replace").read())
    return {"cov": int(match.group(1)), "ft": int(match.group(2))} if match else {}


class AFL:
    """afl-fuzz, one main instance with CMPLOG and jobs-1 secondaries."""

    name = "afl"

    def __init__(self, paths, target, work, args):
        self.paths, self.target, self.work, self.args = paths, target, work, args
        self.binary = paths.afl_bin(target)
        self.cmplog = self.binary + ".cmplog"
        self.seeds = os.path.join(work, "seeds")
        self.output = os.path.join(work, "afl")
        self.logs = os.path.join(work, "logs")
        self.processes = []
        self.errors = []
        self.stopped_early = ""
        # AFL++ writes fuzzer_stats about once a minute; its statsd client
        # sends the same figures every second: one local UDP socket per
        # instance receives them.
        self.sockets, self.live = [], []

    def required(self):
        return [self.binary, shutil.which("afl-fuzz") or "afl-fuzz (not on PATH)"]

    def prepare(self, seed_dirs):
        for directory in (self.seeds, self.logs):
            fresh_dir(directory)
        shutil.rmtree(self.output, ignore_errors=True)
        copy_by_sha(seed_dirs, self.seeds)
        if not list_files(self.seeds):  # afl-fuzz needs one input at least
            with open(os.path.join(self.seeds, "empty"), "wb") as handle:
                handle.write(b"\0" * 16)

    def env(self):
        env = sanitizer_env()
        env.update(AFL_NO_UI="1", AFL_SKIP_CPUFREQ="1", AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1",
                   AFL_SKIP_CRASHES="1", AFL_CMPLOG_ONLY_NEW="1")
        # ASan's own abort must reach afl-fuzz as a crash.
        env["ASAN_OPTIONS"] = env["ASAN_OPTIONS"] + ":abort_on_error=1:symbolize=0"
        return env

    def start(self, seconds):
        for job in range(self.args.jobs):
            role = ["-M", "main"] if job == 0 else ["-S", "secondary%d" % job]
            command = ["afl-fuzz", "-i", self.seeds, "-o", self.output, "-V", str(max(1, seconds))]
            command += role
            if job == 0 and is_executable(self.cmplog):
                command += ["-c", self.cmplog]
            dictionary = self.paths.dictionary(self.target)
            if dictionary:
                command += ["-x", dictionary]
            command += list(self.args.engine_arg) + ["--", self.binary]
            log_path = os.path.join(self.logs, "afl-%d.log" % job)
            out = open(log_path, "wb")
            receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            receiver.bind(("127.0.0.1", 0))
            receiver.setblocking(False)
            self.sockets.append(receiver)
            self.live.append({})
            env = self.env()
            env.update(AFL_STATSD="1", AFL_STATSD_HOST="127.0.0.1",
                       AFL_STATSD_PORT=str(receiver.getsockname()[1]))
            self.processes.append((subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                                    env=env, cwd=self.work), log_path))
            out.close()
            if job == 0:
                time.sleep(1)  # let the main instance create the output directory

    def instances(self):
        return [os.path.join(self.output, name) for name in sorted(os.listdir(self.output))
                if os.path.isdir(os.path.join(self.output, name, "queue"))] \
            if os.path.isdir(self.output) else []

    def stats(self):
        result = []
        for instance in self.instances():
            path = os.path.join(instance, "fuzzer_stats")
            if os.path.isfile(path):
                fields = dict(line.split(":", 1) for line in open(path) if ":" in line)
                result.append({key.strip(): value.strip() for key, value in fields.items()})
        return result

    def artifact_files(self):
        found = []
        for instance in self.instances():
            for sub in ("crashes", "hangs"):
                found += [path for path in list_files(os.path.join(instance, sub))
                          if os.path.basename(path).startswith("id:")]
        return found

    def poll(self):
        if len(self.artifact_files()) >= self.args.max_artifacts and not self.stopped_early:
            self.stopped_early = "stopped after %d artifacts" % self.args.max_artifacts
            self.stop()
        running = False
        for process, log_path in self.processes:
            if process.poll() is None:
                running = True
            elif process.returncode != 0 and not self.stopped_early and \
                    not any(log_path in error for error in self.errors):
                self.errors.append("afl-fuzz (%s) exited with status %s:\n%s"
                                   % (log_path, process.returncode, tail(log_path)))
        if not running:
            for receiver in self.sockets:
                receiver.close()
            self.sockets = []
        return running

    def stop(self):
        for process, _ in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
        for process, _ in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for receiver in self.sockets:
            receiver.close()
        self.sockets = []

    def _latest(self, instance):
        """(execs, exec/s, edges) from whichever of fuzzer_stats (written
        about once a minute and at exit) and plot_data (written when the
        corpus changes) is newer."""
        execs, rate, edges = 0, 0.0, 0
        stats_path = os.path.join(instance, "fuzzer_stats")
        if os.path.isfile(stats_path):
            fields = dict(line.split(":", 1) for line in open(stats_path) if ":" in line)
            fields = {key.strip(): value.strip() for key, value in fields.items()}
            execs = int(fields.get("execs_done", 0) or 0)
            rate = float(fields.get("execs_per_sec", 0) or 0)
            edges = int(fields.get("edges_found", 0) or 0)
        plot_path = os.path.join(instance, "plot_data")
        if os.path.isfile(plot_path):
            rows = [line.split(",") for line in open(plot_path) if line[:1].isdigit()]
            if rows and len(rows[-1]) >= 13 and int(rows[-1][11]) > execs:
                execs, rate, edges = int(rows[-1][11]), float(rows[-1][10]), int(rows[-1][12])
        return execs, rate if math.isfinite(rate) else 0.0, edges

    def _drain(self):
        """Latest statsd gauges per instance ("fuzzing.execs_done:123|g")."""
        for receiver, gauges in zip(self.sockets, self.live):
            while True:
                try:
                    packet = receiver.recv(65536).decode(errors="replace")
                except (BlockingIOError, OSError):
                    break
                for match in re.finditer(r"fuzzing\.(\w+):([0-9.]+)\|g", packet):
                    gauges[match.group(1)] = float(match.group(2))

    def progress(self):
        self._drain()
        if any(self.live) and any(process.poll() is None for process, _ in self.processes):
            return {"execs": int(sum(g.get("execs_done", 0) for g in self.live)),
                    "exec_per_s": sum(g.get("execs_per_sec", 0) for g in self.live),
                    "edges": int(max(g.get("edges_found", 0) for g in self.live)),
                    "corpus": int(max(g.get("corpus_count", 0) for g in self.live)),
                    "artifacts": len(self.artifact_files())}
        latest = [self._latest(instance) for instance in self.instances()]
        queues = [len(list_files(os.path.join(i, "queue"))) for i in self.instances()]
        stats = [os.path.join(i, "fuzzer_stats") for i in self.instances()]
        ages = [time.time() - os.path.getmtime(path) for path in stats if os.path.isfile(path)]
        return {"execs": sum(l[0] for l in latest), "exec_per_s": sum(l[1] for l in latest),
                "stats_age": min(ages or [0]),
                "edges": max([l[2] for l in latest] or [0]), "corpus": max(queues or [0]),
                "artifacts": len(self.artifact_files())}

    def totals(self):
        return self.progress()["execs"]

    def merge(self, seed_dirs, merged):
        pool = fresh_dir(os.path.join(self.work, "merge-input"))
        queues = [os.path.join(instance, "queue") for instance in self.instances()]
        copy_by_sha(list(seed_dirs) + queues, pool)
        shutil.rmtree(merged, ignore_errors=True)
        env = self.env()
        env["AFL_ALLOW_TMP"] = "1"  # --out may well be under /tmp
        status = run_logged(["afl-cmin", "-i", pool, "-o", merged, "--", self.binary],
                            os.path.join(self.logs, "afl-cmin.log"), timeout=1800, env=env,
                            cwd=self.work)
        if status != 0 or not list_files(merged):
            log("  afl-cmin failed (see %s); keeping every queue entry"
                % os.path.join(self.logs, "afl-cmin.log"))
            copy_by_sha([pool], fresh_dir(merged))
        else:  # afl-cmin keeps file names: rename to content SHA-1 like the rest
            renamed = fresh_dir(merged + ".tmp")
            # The seeds stay, as in libFuzzer's merge; afl-cmin adds to them.
            copy_by_sha(list(seed_dirs) + [merged], renamed)
            shutil.rmtree(merged)
            os.rename(renamed, merged)
        result = {}
        stats = self.stats()
        if stats:
            result["edges"] = max(int(s.get("edges_found", 0) or 0) for s in stats)
            result["bitmap"] = max(s.get("bitmap_cvg", "") for s in stats)
        # libFuzzer's measure of the same corpus, comparable across engines.
        result.update(coverage_of(self.paths.libfuzzer_bin(self.target), merged,
                                  os.path.join(self.logs, "coverage.log")))
        return result

    def minimize(self, finding_input, out_path, seconds):
        status = run_logged(["afl-tmin", "-i", finding_input, "-o", out_path, "--", self.binary],
                            out_path + ".log", timeout=seconds, env=self.env())
        return status == 0 and os.path.isfile(out_path)


ENGINES = {"libfuzzer": LibFuzzer, "afl": AFL}


# ------------------------------------------------------------------ findings


def replay(paths, target, input_path, scratch):
    """Runs one input once; returns (signature or None, output). libFuzzer
    writes the input again as an artifact: into scratch."""
    binary = paths.libfuzzer_bin(target)
    if is_executable(binary):
        command = [binary, "-timeout=%d" % (REPLAY_TIMEOUT // 2), "-rss_limit_mb=2048",
                   "-artifact_prefix=" + scratch + "/", input_path]
    else:
        binary = paths.replay_bin(target)
        command = [binary, input_path]
    env = sanitizer_env()
    env["MOVCONF_FUZZ_VERBOSE"] = "1"  # the targets say what they ran and what differed
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=REPLAY_TIMEOUT, env=env, cwd=scratch, check=False)
        output, status = done.stdout.decode(errors="replace"), done.returncode
    except subprocess.TimeoutExpired as expired:
        output, status = (expired.stdout or b"").decode(errors="replace"), None
    return signature_of(output, status), output


def replay_tool_available(paths, target):
    return is_executable(paths.libfuzzer_bin(target)) or is_executable(paths.replay_bin(target))


def collect_findings(engine, paths, target, work, args):
    """Replays the artifacts, groups them by signature, minimizes one input
    per group and writes its case. Replays and minimizations run --jobs at a
    time; cases are written one after the other (they share files).
    Returns (findings, flaky count)."""
    artifacts = sorted(engine.artifact_files(), key=os.path.getsize)[:args.max_artifacts]
    findings_dir = fresh_dir(os.path.join(work, "findings"))
    scratch = fresh_dir(os.path.join(work, "replays"))
    if artifacts and not replay_tool_available(paths, target):
        engine.errors.append("cannot replay %d artifacts: neither %s nor %s exists (use --build)"
                             % (len(artifacts), paths.libfuzzer_bin(target),
                                paths.replay_bin(target)))
        return [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        replays = list(pool.map(lambda path: replay(paths, target, path, scratch), artifacts))
    groups, flaky = {}, 0
    for path, (signature, output) in zip(artifacts, replays):
        if signature is None:
            flaky += 1
            continue
        group = groups.setdefault(signature, {"signature": signature, "inputs": [],
                                              "output": output})
        group["inputs"].append(path)

    def minimized(group):
        smallest = group["inputs"][0]  # artifacts are sorted by size
        stem = os.path.join(findings_dir,
                            "%s-%s" % (slug(group["signature"]), sha1_file(smallest)[:12]))
        chosen = smallest
        if group["signature"] != "timeout" and \
                engine.minimize(smallest, stem + ".min", args.minimize_time):
            again, _ = replay(paths, target, stem + ".min", scratch)
            if again == group["signature"] and \
                    os.path.getsize(stem + ".min") <= os.path.getsize(smallest):
                chosen = stem + ".min"
        shutil.copyfile(chosen, stem + ".input")
        with open(stem + ".txt", "w") as handle:
            handle.write("signature: %s\nartifacts: %s\n\n%s"
                         % (group["signature"], ", ".join(group["inputs"]), group["output"]))
        return {"target": target, "engine": engine.name, "signature": group["signature"],
                "artifacts": len(group["inputs"]), "input": stem + ".input",
                "size": os.path.getsize(stem + ".input"), "replay_log": stem + ".txt"}

    ordered = [groups[signature] for signature in sorted(groups)]
    if ordered:
        log("fuzz: %s: %d artifact(s), %d distinct finding(s): minimizing"
            % (target, len(artifacts) - flaky, len(ordered)))
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        findings = list(pool.map(minimized, ordered))
    if not args.no_cases:
        for finding in findings:
            finding["case"] = write_case(paths, finding, args)
    return findings, flaky


def write_case(paths, finding, args):
    tool = paths.fuzz_to_case()
    if not is_executable(tool):
        return "not written: %s missing (use --build)" % tool
    destination = cases_dir(args, finding["target"])
    os.makedirs(destination, exist_ok=True)
    command = [tool, "--target", finding["target"], "--engine", finding["engine"],
               "--input", finding["input"], "--out", destination]
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=120, check=False)
    except subprocess.TimeoutExpired:
        return "not written: fuzz_to_case timed out"
    text = done.stdout.decode(errors="replace").strip()
    if done.returncode != 0:
        return "not written: fuzz_to_case failed (%d): %s" % (done.returncode, text[-300:])
    finding["case_written"] = True
    return text or "written to " + destination


# -------------------------------------------------------------------- driver


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message + " (see --help)")


def parse_args(argv):
    parser = Parser(add_help=False)
    parser.add_argument("-h", "--help", action="store_true")
    parser.add_argument("--engine", default="libfuzzer")
    parser.add_argument("--target", default="all")
    parser.add_argument("--time", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--build", action="store_true")
    parser.add_argument("--out", default=os.path.join(ROOT, "build-fuzz", "campaign"))
    parser.add_argument("--update-corpus", action="store_true")
    parser.add_argument("--cases-dir", default=None)
    parser.add_argument("--no-cases", action="store_true")
    parser.add_argument("--corpus-root", default=None)
    parser.add_argument("--minimize-time", type=int, default=15)
    parser.add_argument("--max-artifacts", type=int, default=50)
    parser.add_argument("--engine-arg", action="append", default=[])
    parser.add_argument("--root", default=ROOT)
    parser.add_argument("--build-dir", default=None)
    args = parser.parse_args(argv)
    if args.help:
        return args
    if args.engine not in ENGINES:
        raise UsageError("--engine must be libfuzzer or afl, not %r" % args.engine)
    if args.time < 1 or args.jobs < 1 or args.minimize_time < 1 or args.max_artifacts < 1:
        raise UsageError("--time, --jobs, --minimize-time and --max-artifacts must be positive")
    if args.target == "all":
        args.targets = ["diff", "roundtrip", "parser"]
        if os.environ.get("MOVCONF_FUZZ_PLUGIN"):
            args.targets.append("plugin_diff")
    else:
        args.targets = [t for t in args.target.split(",") if t]
        unknown = [t for t in args.targets if t not in ALL_TARGETS]
        if unknown or not args.targets:
            raise UsageError("unknown target %s; targets: %s or all"
                             % (",".join(unknown), ", ".join(ALL_TARGETS)))
    if "plugin_diff" in args.targets and not os.environ.get("MOVCONF_FUZZ_PLUGIN"):
        raise UsageError("plugin_diff needs MOVCONF_FUZZ_PLUGIN=/path/to/plugin.so")
    args.root = os.path.abspath(args.root)
    if args.build_dir:
        args.build_dir = os.path.abspath(args.build_dir)
        if args.build:
            raise UsageError("--build configures the preset's directory; drop --build-dir")
    args.out = os.path.abspath(args.out)
    if args.cases_dir:
        args.cases_dir = os.path.abspath(args.cases_dir)
    return args


# Where findings become cases when --cases-dir does not say: movconf's suite
# for its own code, the current directory for a third-party plugin.
OWN_CASES_DIR = os.path.join(ROOT, "conformance", "regressions")
THIRD_PARTY_CASES_DIR = "movconf-findings"


def own_plugin(plugin):
    """A plugin built from this tree (examples/plugin_movconf, the mock):
    its file lies inside ROOT."""
    real = os.path.realpath(plugin)
    return os.path.commonpath([real, os.path.realpath(ROOT)]) == os.path.realpath(ROOT)


def cases_dir(args, target):
    if args.cases_dir:
        return args.cases_dir
    plugin = os.environ.get("MOVCONF_FUZZ_PLUGIN", "")
    if target == "plugin_diff" and not own_plugin(plugin):
        return os.path.abspath(THIRD_PARTY_CASES_DIR)
    return OWN_CASES_DIR


def cmake(root, *arguments):
    log("+ cmake " + " ".join(arguments))
    return subprocess.run(["cmake"] + list(arguments), cwd=root, check=False).returncode == 0


def build(args):
    """Configures the engine's preset and builds what the run needs: the
    targets, their replay drivers and fuzz_to_case."""
    jobs = str(os.cpu_count() or 2)
    preset = "fuzz" if args.engine == "libfuzzer" else "afl"
    binary_dir = "build-fuzz" if args.engine == "libfuzzer" else "build-afl"
    names = ["fuzz_to_case"]
    for target in args.targets:
        names.append("replay_" + target)
        if args.engine == "libfuzzer":
            names.append("fuzz_" + target)
        else:
            names += ["afl_" + target, "afl_%s_cmplog" % target]
    root = args.root
    if not (cmake(root, "--preset", preset)
            and cmake(root, "--build", binary_dir, "-j", jobs, "--target", *names)):
        raise UsageError("build failed")
    if args.engine == "afl":
        # AFL++ findings replay through the libFuzzer build, whose sanitizers
        # name what went wrong; without it they replay without sanitizers.
        names = ["fuzz_" + target for target in args.targets]
        if not (cmake(root, "--preset", "fuzz")
                and cmake(root, "--build", "build-fuzz", "-j", jobs, "--target", *names)):
            log("fuzz: the libFuzzer build failed: AFL++ findings replay without sanitizers")


def format_coverage(engine_name, coverage):
    parts = []
    if "cov" in coverage:
        parts.append("cov %d ft %d" % (coverage["cov"], coverage["ft"]))
    if "edges" in coverage:
        parts.append("edges %d (%s)" % (coverage["edges"], coverage.get("bitmap", "")))
    return ", ".join(parts) or "-"


def progress_line(target, engine, elapsed, total, snapshot, rate):
    coverage = ("cov %d ft %d" % (snapshot["cov"], snapshot["ft"]) if "cov" in snapshot
                else "edges %d" % snapshot.get("edges", 0))
    line = ("fuzz: %-11s %-9s %4d/%ds  execs %7s  %7s exec/s  %s  corpus %d  findings %d"
            % (target, engine, elapsed, total, human(snapshot["execs"]),
               human(rate), coverage, snapshot["corpus"],
               snapshot["artifacts"]))
    if snapshot.get("stats_age", 0) > 15:  # AFL++ writes its figures about once a minute
        line += "  (execs as of %d s ago)" % snapshot["stats_age"]
    return line


def campaign(target, args, paths):
    """One target: fuzz, merge, collect. Returns its summary row."""
    engine_class = ENGINES[args.engine]
    work = os.path.join(args.out, args.engine, target)
    engine = engine_class(paths, target, work, args)
    missing = [path for path in engine.required() if not is_executable(path)
               and not shutil.which(path)]
    if missing:
        raise UsageError("%s: missing %s (run with --build, or build the %s preset)"
                         % (target, ", ".join(missing),
                            "fuzz" if args.engine == "libfuzzer" else "afl"))
    os.makedirs(work, exist_ok=True)
    seed_dirs = [d for d in (paths.seeds(target), paths.found(target)) if os.path.isdir(d)]
    if not os.path.isdir(paths.seeds(target)):
        log("fuzz: %s: no seed corpus at %s, starting from nothing"
            % (target, paths.seeds(target)))
    start_shas = shas_of(seed_dirs)
    engine.prepare(seed_dirs)
    log("fuzz: %s with %s for %d s, %d job(s), %d seed inputs, work dir %s"
        % (target, args.engine, args.time, args.jobs, len(start_shas), work))
    if not args.no_cases:
        log("fuzz: %s: findings become cases in %s" % (target, cases_dir(args, target)))
    started = time.time()
    engine.start(args.time)
    next_report = started + PROGRESS_EVERY
    last_execs, last_time = 0, started
    try:
        while engine.poll():
            time.sleep(0.5)
            now = time.time()
            if now >= next_report:
                snapshot = engine.progress()
                rate = snapshot.get("exec_per_s",
                                    (snapshot["execs"] - last_execs) / max(now - last_time, 1e-3))
                last_execs, last_time = snapshot["execs"], now
                log(progress_line(target, args.engine, now - started, args.time, snapshot, rate))
                next_report += PROGRESS_EVERY
            if time.time() > started + args.time + 120:  # engine ignores its deadline
                engine.stop()
    except KeyboardInterrupt:
        engine.stop()
        raise
    wall = max(time.time() - started, 1e-3)
    snapshot = engine.progress()
    execs = engine.totals()
    log(progress_line(target, args.engine, wall, args.time, dict(snapshot, execs=execs),
                      execs / wall))
    if engine.stopped_early:
        log("fuzz: %s: %s" % (target, engine.stopped_early))
    if getattr(engine, "set_aside", 0):
        log("fuzz: %s: %d corpus input(s) crashed on loading: set aside as findings"
            % (target, engine.set_aside))

    merged = os.path.join(work, "merged")
    coverage = engine.merge(seed_dirs, merged)
    merged_shas = shas_of([merged])
    new = len(merged_shas - start_shas)
    if args.update_corpus:
        update_found_corpus(paths, target, merged)

    findings, flaky = collect_findings(engine, paths, target, work, args)
    for error in engine.errors:
        log("fuzz: %s: ERROR %s" % (target, error))
    return {"target": target, "engine": args.engine, "jobs": args.jobs, "seconds": round(wall, 1),
            "execs": execs, "exec_per_s": round(execs / wall), "coverage": coverage,
            "seeds": len(start_shas), "merged": len(merged_shas), "new": new,
            "raw_artifacts": snapshot["artifacts"], "flaky": flaky, "findings": findings,
            "cases": sum(1 for f in findings if f.get("case_written")),
            "stopped_early": engine.stopped_early, "errors": engine.errors, "work": work}


def update_found_corpus(paths, target, merged):
    seeds = shas_of([paths.seeds(target)])
    found = paths.found(target)
    fresh_dir(found)
    kept = 0
    for path in list_files(merged):
        digest = sha1_file(path)
        if digest not in seeds:
            shutil.copyfile(path, os.path.join(found, digest))
            kept += 1
    log("fuzz: %s: %d merged entries beyond the seeds written to %s" % (target, kept, found))
    if not kept:
        os.rmdir(found)


def print_summary(rows):
    header = ("target", "engine", "jobs", "execs", "exec/s", "coverage", "corpus", "new",
              "findings", "cases")
    table = [header]
    for row in rows:
        table.append((row["target"], row["engine"], str(row["jobs"]), str(row["execs"]),
                      str(row["exec_per_s"]), format_coverage(row["engine"], row["coverage"]),
                      "%d -> %d" % (row["seeds"], row["merged"]), str(row["new"]),
                      str(len(row["findings"])), str(row["cases"])))
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    log("")
    for line in table:
        log("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())
    for row in rows:
        for finding in row["findings"]:
            log("\nFINDING %s/%s: %s\n  input %s (%d bytes; %d raw artifacts)\n  replay log %s"
                % (row["engine"], row["target"], finding["signature"], finding["input"],
                   finding["size"], finding["artifacts"], finding["replay_log"]))
            if "case" in finding:
                log("  case: " + finding["case"].replace("\n", "\n        "))
        if row["flaky"]:
            log("\n%s/%s: %d artifact(s) did not reproduce on replay (flaky; kept in %s)"
                % (row["engine"], row["target"], row["flaky"], row["work"]))


def main(argv):
    try:
        args = parse_args(argv)
        if args.help:
            sys.stdout.write(HELP)
            return EXIT_CLEAN
        paths = Paths(args)
        if args.build:
            build(args)
        rows = [campaign(target, args, paths) for target in args.targets]
    except UsageError as error:
        print("fuzz: " + str(error), file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("fuzz: interrupted", file=sys.stderr)
        return 130
    print_summary(rows)
    summary_path = os.path.join(args.out, args.engine, "summary.json")
    with open(summary_path, "w") as handle:
        json.dump(rows, handle, indent=2)
    log("\nsummary: %s" % summary_path)
    if any(row["findings"] for row in rows):
        return EXIT_FINDINGS
    if any(row["errors"] for row in rows):
        return EXIT_ERROR
    return EXIT_CLEAN


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
