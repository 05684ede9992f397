#!/bin/sh
# No process movconf starts outlives it when it is killed by SIGTERM, SIGINT
# or SIGHUP, or stopped by `timeout`: not the adapter (in a process group of
# its own), not the plugin's process, not what they started in a session of
# their own (setsid). Each run hangs in a case, gets the signal, and then
# the process table must hold none of them.
# usage: orphans_signals.sh MOVCONF PLUGIN_MOCK SOURCE_DIR PYTHON
set -u
movconf=$1 mock=$2 src=$3 python=$4
exec "$python" - "$movconf" "$mock" "$src" <<'PYTHON'
import os, signal, subprocess, sys, time

movconf, mock, src = sys.argv[1:4]
failures = 0


def check(what, ok):
    global failures
    print(("ok: " if ok else "FAILED: ") + what)
    failures += not ok


def processes_with(text):
    out = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if text in line and "ps -eo" not in line]


def wait_for(text, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if processes_with(text):
            return True
        time.sleep(0.05)
    return False


def gone(text, seconds=3):
    deadline = time.time() + seconds
    while processes_with(text) and time.time() < deadline:
        time.sleep(0.05)
    return not processes_with(text)


def adapter_run(tag, wrapper=()):
    env = dict(os.environ, MOCK_FAULT="hang", MOCK_AT="2", MOCK_ORPHAN=str(tag))
    command = "exec %s '%s/tests/mock_adapter.py' --tag-%d" % (sys.executable, src, tag)
    return subprocess.Popen(list(wrapper) + [movconf, "run", "--timeout", "60", "--impl",
                            "exec:" + command, src + "/tests/data/adapter"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def plugin_run(tag):
    # The orphan is forked in the call that hangs: one forked in an earlier
    # call is ended when that call ends (spec/plugin-abi.md).
    env = dict(os.environ, MOVCONF_MOCK_FAULT="fork-orphan-hang@6", MOVCONF_MOCK_ORPHAN=str(tag))
    return subprocess.Popen([movconf, "run", "--timeout", "59.%d" % tag, "--impl", "plugin:" + mock,
                             src + "/tests/data/plugin_faults"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


base = 6000000 + os.getpid() % 100000 * 10
for k, sig in enumerate([signal.SIGTERM, signal.SIGINT, signal.SIGHUP]):
    name = signal.Signals(sig).name
    tag = base + k
    p = adapter_run(tag)
    started = wait_for("sleep %d" % tag) and wait_for("--tag-%d" % tag)
    time.sleep(0.5)  # the adapter now hangs in request 2
    p.send_signal(sig)
    try:
        code = p.wait(10)
    except subprocess.TimeoutExpired:
        p.kill()
        code = "still running"
    check("adapter, %s: movconf dies of it (%s)" % (name, code), started and code == -sig)
    check("adapter, %s: no adapter process survives" % name, gone("--tag-%d" % tag))
    check("adapter, %s: no setsid() descendant survives" % name, gone("sleep %d" % tag))

tag = base + 5
p = adapter_run(tag, wrapper=("timeout", "2"))
code = p.wait(20)
check("adapter, timeout 2: exit status 124 (%s)" % code, code == 124)
check("adapter, timeout 2: no adapter process survives", gone("--tag-%d" % tag))
check("adapter, timeout 2: no setsid() descendant survives", gone("sleep %d" % tag))

tag = base + 6
p = plugin_run(tag)
started = wait_for("sleep %d" % tag)
time.sleep(0.5)  # the plugin hangs in case 6, its orphan beside it
p.send_signal(signal.SIGTERM)
code = p.wait(10)
check("plugin, SIGTERM: movconf dies of it (%s)" % code, started and code == -signal.SIGTERM)
check("plugin, SIGTERM: no plugin process survives", gone("--timeout 59.%d" % tag))
check("plugin, SIGTERM: nothing it forked survives", gone("sleep %d" % tag))

print("%d failed" % failures)
sys.exit(failures != 0)
PYTHON
