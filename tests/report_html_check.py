#!/usr/bin/env python3
"""Checks a page of `movconf report html` against the JSON reports it was
made from, counting everything again from the JSON's cases (not from its
summary, not with movconf's code):
  - each matrix cell (implementation x operation, and the totals) has the
    passed, failed and unsupported counts of the cases;
  - each listed case shows the clauses it cites, each with a text;
  - the page lists as many failure entries as the reports have cases that
    failed or passed unexpectedly, each id once;
  - every case with a picture in the JSON has one on the page: an expected
    and a returned table whose cells are classed as the JSON says, and the
    returned cells whose text differs from the expected are never "ok";
  - each bench report's workloads each have a bar;
  - no script, no external reference (http:, https:, src=, <link>), and
    each text given with --hostile is shown as text and appears only escaped
    in the source.
usage: report_html_check.py PAGE.html [--hostile TEXT] [--min-pictures N]
       [--states STATE,...] RUN_OR_BENCH.json...
The page may be movconf's file or a browser's DOM dump of it."""
import html.parser
import json
import sys

OPS = ["BatchToSpace-2", "SpaceToBatch-2", "SpaceToDepth-1", "DepthToSpace-1",
       "ExtractImagePatches-3", "ShuffleChannels-1", "Slice-8",
       "Pad-12"]


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cells = {}  # (impl, op) -> attrs
        self.cases = []  # [{"id": text, "pictures": {which: [[(class, text)]]}}]
        self.bars = 0
        self.tags = []
        self.stack = []
        self.text = None  # collecting a summary's case id
        self.table = None  # (which, rows)
        self.cell = None
        self.all_text = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        cls = (a.get("class") or "").split()
        if tag == "td" and "cell" in cls:
            self.cells[(a["data-impl"], a["data-op"])] = a
        if tag == "details" and "case" in cls:
            self.cases.append({"id": "", "pictures": {}, "clauses": []})
        if tag == "dd" and "clauses" in cls:
            self.in_clauses = True
        if getattr(self, "in_clauses", False) and tag == "div":
            self.cases[-1]["clauses"].append("")
        if tag == "span" and "verdict" in cls:
            self.text = "verdict"
        if tag == "span" and "inputs" in cls:
            self.text = None
        if tag == "table" and "pic" in cls:
            self.table = (a["data-which"], [])
        if self.table and tag == "tr":
            self.table[1].append([])
        if self.table and tag == "td":
            # a value is cut to fit its cell; its title has it whole
            self.cell = [cls[0] if cls else "", a.get("title", "").split(" from ")[0]]
        if tag == "div" and "bar" in cls:
            self.bars += 1

    def handle_endtag(self, tag):
        if tag == "dd":
            self.in_clauses = False
        if tag == "span" and self.text == "verdict":
            self.text = "id"
        if tag == "summary":
            self.text = None
        if self.table and tag == "td" and self.cell:
            self.table[1][-1].append(tuple(self.cell))
            self.cell = None
        if self.table and tag == "table":
            rows = [r for r in self.table[1] if r]
            self.cases[-1]["pictures"][self.table[0]] = rows
            self.table = None

    def handle_data(self, data):
        self.all_text.append(data)
        if getattr(self, "in_clauses", False) and self.cases[-1]["clauses"]:
            self.cases[-1]["clauses"][-1] += data
        if self.text == "id" and self.cases:
            self.cases[-1]["id"] += data


def fail(message):
    print("FAILED:", message)
    sys.exit(1)


def counts(cases, op):
    n = {"passed": 0, "failed": 0, "unsupported": 0}
    for c in cases:
        if op != "total" and c["op"] != op:
            continue
        v = c["verdict"]
        foreseen = c.get("expectation", {}).get("outcome") == "expected"
        if v == "pass":
            n["passed"] += 1
        elif v == "unsupported":
            n["unsupported"] += 1
        elif not foreseen:
            n["failed"] += 1
    return n


def listed(c):
    return (c["verdict"] not in ("pass", "unsupported")
            or c.get("expectation", {}).get("outcome") == "unexpected-pass")


def main(argv):
    page_path, rest = argv[1], argv[2:]
    hostile, min_pictures, states = [], 0, set()
    reports = []
    while rest:
        arg = rest.pop(0)
        if arg == "--hostile":
            hostile.append(rest.pop(0))
        elif arg == "--min-pictures":
            min_pictures = int(rest.pop(0))
        elif arg == "--states":
            states = set(rest.pop(0).split(","))
        else:
            reports.append(json.load(open(arg, encoding="utf-8")))
    raw = open(page_path, encoding="utf-8").read()
    page = Page()
    page.feed(raw)
    runs = [r for r in reports if "cases" in r]
    benches = [r for r in reports if "workloads" in r]

    for i, r in enumerate(runs):
        for op in OPS + ["total"]:
            want = counts(r["cases"], op)
            cell = page.cells.get((str(i), op))
            if cell is None:
                fail(f"no matrix cell for implementation {i}, {op}")
            got = {k: int(cell["data-" + k]) for k in want}
            if got != want:
                fail(f"matrix cell {i} {op}: page {got}, JSON {want}")
    want_ids = sorted(c["id"] for r in runs for c in r["cases"] if listed(c))
    got_ids = sorted(c["id"] for c in page.cases)
    by_id_all = {c["id"]: c for c in page.cases}
    if got_ids != want_ids:
        fail(f"{len(got_ids)} failure entries on the page, {len(want_ids)} in the JSON")

    for r in runs:
        for c in r["cases"]:
            if not listed(c) or not c.get("clauses"):
                continue
            shown = by_id_all[c["id"]]["clauses"]
            ids = [x.split(" ", 1)[0] for x in shown]
            if ids != c["clauses"].split(", "):
                fail(f"{c['id']}: clauses {ids}, JSON {c['clauses']}")
            if any(len(x.split(" ", 1)) < 2 or not x.split(" ", 1)[1].strip() for x in shown):
                fail(f"{c['id']}: a clause without its text: {shown}")

    pictured = [c for r in runs for c in r["cases"] if c.get("picture")]
    by_id = {c["id"]: c for c in page.cases}
    seen_states = set()
    for c in pictured:
        pics = by_id[c["id"]]["pictures"]
        if set(pics) != {"expected", "got"}:
            fail(f"{c['id']}: the picture has tables {sorted(pics)}")
        p = c["picture"]
        for r, (erow, grow) in enumerate(zip(pics["expected"], pics["got"])):
            for k, ((_, etext), (gclass, gtext)) in enumerate(zip(erow, grow)):
                if gclass != p["state"][r][k]:
                    fail(f"{c['id']} cell [{r}][{k}] is '{gclass}', JSON '{p['state'][r][k]}'")
                if (etext != gtext) != (gclass != "ok"):
                    fail(f"{c['id']} cell [{r}][{k}]: expected {etext}, returned {gtext}, "
                         f"marked {gclass}")
                seen_states.add(gclass)
        if len(pics["got"]) != len(p["got"]) or any(
                len(a) != len(b) for a, b in zip(pics["got"], p["got"])):
            fail(f"{c['id']}: the picture's size differs from the JSON's")
    if len(pictured) < min_pictures:
        fail(f"only {len(pictured)} pictures, expected at least {min_pictures}")
    if not states <= seen_states:
        fail(f"no picture cell marked {sorted(states - seen_states)}")

    workloads = sum(len(b["workloads"]) + sum("impl" in w for w in b["workloads"])
                    for b in benches)
    if page.bars != workloads:
        fail(f"{page.bars} bars for {workloads} bench rows")

    for tag, a in page.tags:
        if tag in ("script", "link", "iframe", "img", "object", "embed"):
            fail(f"the page has a <{tag}>")
        if "src" in a or "href" in a:
            fail(f"<{tag}> refers to {a.get('src') or a.get('href')}")
    for scheme in ("http:", "https:"):
        if scheme in raw:
            fail(f"the page mentions {scheme}")
    shown = "".join(page.all_text)
    for text in hostile:
        if text in raw:
            fail(f"{text!r} appears unescaped")
        if text not in shown:
            fail(f"{text!r} is not shown as text")
    print(f"ok: {len(runs)} run reports, {len(page.cells)} matrix cells, {len(got_ids)} failure "
          f"entries, {len(pictured)} pictures ({', '.join(sorted(seen_states))}), "
          f"{page.bars} bars")


if __name__ == "__main__":
    main(sys.argv)
