#!/usr/bin/env python3
"""movconf report html against crafted reports (issue 35, items 13-15):
a run and a bench report whose every string (names, ids, verdicts,
details, origins, picture cells and states, the report's file name...)
carries markup meant to run a script or fetch an address. The page is
served from a 127.0.0.1 http.server and opened by headless Chromium.
Passes when:
  - the page carries a Content-Security-Policy that forbids scripts and
    fetches;
  - no request but the page's own reached the server (each injected
    fetch asks for a /beacon/<field> path);
  - no injected script ran (each would put the marker in the title or
    the body, spelt so that the payload's own text never holds it);
  - the DOM Chromium dumped holds none of the injected elements or
    attributes (script, img, iframe, a, link, on* handlers, href, src);
  - no bidirectional control (U+202A-U+202E, U+2066-U+2069, U+200E,
    U+200F, U+061C) reaches the page raw.
Only 127.0.0.1 is ever named: no outside address is contacted.
usage: report_html_hostile.py MOVCONF CHROMIUM WORK
Exit 77 (skipped) when CHROMIUM is not there."""
import html.parser
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

MARKER = "PWNED" + "-BY-REPORT"
BIDI = "\u202e\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


def payloads(port, field):
    """Markup for one field: each piece tries another way out."""
    beacon = "http://127.0.0.1:%d/beacon/%s" % (port, field)
    run = "document.title='PWNED'+'-BY-REPORT';fetch('%s')" % beacon
    return "".join([
        "<script>%s</script>" % run,
        "\"><img src=\"%s-img\" onerror=\"%s\">" % (beacon, run),
        "'><svg onload=\"%s\"></svg>" % run,
        "</style><script>%s</script>" % run,
        "</title></textarea><script>%s</script>" % run,
        "<a href=\"javascript:%s\">x</a>" % run,
        "<iframe src=\"%s-frame\"></iframe>" % beacon,
        "<link rel=stylesheet href=\"%s-css\">" % beacon,
        "<meta http-equiv=refresh content=\"0;url=%s-refresh\">" % beacon,
        BIDI,
    ])


def hostile_picture(port):
    cell = {k: payloads(port, "picture-" + k) for k in ("expected", "got", "state", "from")}
    return {
        "slice": payloads(port, "picture-slice"),
        "row0": payloads(port, "picture-row0"),
        "col0": payloads(port, "picture-col0"),
        "expected": [[cell["expected"], "1"], ["2", "3"]],
        "got": [[cell["got"], "9"], ["2", "3"]],
        "state": [[cell["state"], cell["state"]], ["ok", "ok"]],
        "from": [[cell["from"], None], [None, None]],
    }


def hostile_case(port, i, outcome):
    def p(field):
        return payloads(port, "case%d-%s" % (i, field))

    return {
        "id": p("id"), "file": p("file"), "op": p("op"), "verdict": p("verdict"),
        "type": p("type"), "inputs": p("inputs"), "attributes": p("attributes"),
        "clauses": p("clauses") + ", D2S-S1", "origin": p("origin"), "detail": p("detail"),
        "seconds": p("seconds"), "slow": True,
        "expectation": {"verdict": p("x-verdict"), "outcome": outcome, "reason": p("x-reason")},
        "picture": hostile_picture(port),
    }


def hostile_run(port):
    # Outcomes: the verdict itself names the group, then the xfail and
    # xpass groups (each a heading of its own).
    cases = [hostile_case(port, i, o) for i, o in
             enumerate([payloads(port, "outcome"), "expected", "unexpected-pass"])]
    cases.append(dict(cases[0], op="DepthToSpace-1", verdict="wrong-output"))
    return {
        "implementation": payloads(port, "implementation") + " (" + payloads(port, "impl-rest") + ")",
        "movconf_version": payloads(port, "movconf_version"),
        "summary": {"stopped_early": payloads(port, "stopped_early")},
        "cases": cases,
        "invalid_files": [payloads(port, "invalid_files")],
        "process_faults": [{"detail": payloads(port, "process_faults")}],
    }


def hostile_bench(port):
    def p(field):
        return payloads(port, "bench-" + field)

    return {
        "threads": p("threads"), "quick": True,
        "workloads": [{
            "id": p("id"), "status": p("status"), "gb_per_s": 1.5,
            "ceiling_gb_per_s": p("ceiling"), "ceiling_ratio": 0.5, "memcpy_gb_per_s": 2.0,
            "impl": {"name": p("impl-name"), "status": p("impl-status"), "gb_per_s": 1.0,
                     "ceiling_ratio": 0.25},
        }],
    }


class Recorder(http.server.SimpleHTTPRequestHandler):
    requests = []

    def do_GET(self):
        Recorder.requests.append(self.path)
        super().do_GET()

    def log_message(self, *args):
        pass


class Dom(html.parser.HTMLParser):
    FORBIDDEN_TAGS = {"script", "img", "svg", "iframe", "a", "link", "object", "embed",
                      "form", "base", "textarea", "input"}
    FORBIDDEN_ATTRS = {"href", "src", "srcdoc", "action", "formaction", "xlink:href"}

    def __init__(self):
        super().__init__()
        self.problems = []
        self.title = ""
        self.in_title = False
        self.csp = None

    def handle_starttag(self, tag, attrs):
        if tag in self.FORBIDDEN_TAGS:
            self.problems.append("element <%s> in the page" % tag)
        for name, value in attrs:
            if name.startswith("on") or name in self.FORBIDDEN_ATTRS:
                self.problems.append("attribute %s=%r on <%s>" % (name, value, tag))
        a = dict(attrs)
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "refresh":
            self.problems.append("a <meta http-equiv=refresh>")
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy":
            self.csp = a.get("content", "")
        self.in_title = tag == "title"

    def handle_data(self, data):
        if self.in_title:
            self.title += data

    def handle_endtag(self, tag):
        self.in_title = False


def csp_problems(csp):
    if csp is None:
        return ["no Content-Security-Policy <meta> in the page"]
    rules = {r.split()[0]: r.split()[1:] for r in csp.split(";") if r.strip()}
    problems = []
    if rules.get("default-src") != ["'none'"]:
        problems.append("the policy's default-src is not 'none': %r" % csp)
    for directive in ("script-src", "connect-src", "img-src", "frame-src"):
        if directive in rules and rules[directive] != ["'none'"]:
            problems.append("the policy allows %s %s" % (directive, rules[directive]))
    return problems


def main():
    movconf, chromium, work = sys.argv[1:4]
    if not (os.path.isfile(chromium) and os.access(chromium, os.X_OK)):
        print("SKIPPED: no %s (Debian's chromium package)" % chromium)
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), lambda *a: Recorder(*a, directory=work))
    port = server.server_address[1]
    run_path = os.path.join(work, "run<img src=x onerror=alert(1)>\u202e.json")
    bench_path = os.path.join(work, "bench.json")
    json.dump(hostile_run(port), open(run_path, "w"))
    json.dump(hostile_bench(port), open(bench_path, "w"))
    page = os.path.join(work, "page.html")
    made = subprocess.run([movconf, "report", "html", run_path, bench_path, "-o", page],
                          capture_output=True, text=True, errors="replace")
    if made.returncode != 0:
        print("FAILED: report html exited %d: %s" % (made.returncode, made.stderr[-500:]))
        return 1
    threading.Thread(target=server.serve_forever, daemon=True).start()
    profile = tempfile.mkdtemp(prefix="report-html-hostile-")
    try:
        dumped = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile,
             "--virtual-time-budget=3000", "--dump-dom",
             "http://127.0.0.1:%d/page.html" % port],
            capture_output=True, text=True, errors="replace", timeout=300)
    finally:
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    dom_text = dumped.stdout
    open(os.path.join(work, "dom.html"), "w").write(dom_text)
    problems = []
    if dumped.returncode != 0 or "</html>" not in dom_text:
        problems.append("chromium gave no DOM (exit %d): %s" % (dumped.returncode,
                                                                dumped.stderr[-300:]))
    others = [p for p in Recorder.requests if p != "/page.html"]
    problems += ["the page fetched %s" % p for p in others]
    if MARKER in dom_text:
        problems.append("an injected script ran: the DOM holds %s" % MARKER)
    dom = Dom()
    dom.feed(dom_text)
    problems += dom.problems
    if dom.title.strip() != "movconf report":
        problems.append("the title is %r" % dom.title)
    source = open(page, encoding="utf-8", errors="replace").read()
    source_dom = Dom()
    source_dom.feed(source)
    problems += csp_problems(source_dom.csp)
    problems += ["U+%04X raw in the page" % ord(c) for c in BIDI if c in source]
    for p in sorted(set(problems))[:40]:
        print("FAILED:", p)
    if problems:
        print("(%d problems; page %s, DOM %s/dom.html)" % (len(set(problems)), page, work))
        return 1
    print("ok: %d bytes of page, only /page.html requested, no script ran" % len(source))
    return 0


if __name__ == "__main__":
    sys.exit(main())
