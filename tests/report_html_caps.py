#!/usr/bin/env python3
"""movconf report html against reports with oversized pictures (issue 35,
item 14): a picture movconf writes is at most 16 x 16 cells of short texts
(spec/runner.md), a crafted one may have millions. Passes when the page
draws every picture within 16 x 16 cells, cuts a 30 kB cell text, leaves
out a picture of 1000 x 1000 cells and one of 300 x 300 under a name
spelt with an escape (saying so), keeps a cut number's exponent
(1.72...e-05, item 6 of issue 39) and stays small: the page's
size is bounded by what it shows, not by what the report holds. Nothing
is timed; CTest's timeout bounds the run.
usage: report_html_caps.py MOVCONF WORK"""
import html.parser
import json
import os
import shutil
import subprocess
import sys

EDGE = 16
MAX_PAGE_BYTES = 200_000


def picture(rows, cols, cell=lambda i, j: str(i * 1000 + j)):
    grid = [[cell(i, j) for j in range(cols)] for i in range(rows)]
    return {"slice": "output[:,:] crafted", "row0": 0, "col0": 0, "expected": grid,
            "got": grid, "state": [["wrong"] * cols for _ in range(rows)],
            "from": [[None] * cols for _ in range(rows)]}


def case(i, pic):
    return {"id": "crafted/%d" % i, "file": "crafted.json", "op": "DepthToSpace-1",
            "verdict": "wrong-output", "detail": "crafted", "seconds": 0.0, "picture": pic}


class Tables(html.parser.HTMLParser):
    """Each picture table's rows, as their cell counts."""

    def __init__(self):
        super().__init__()
        self.tables = []
        self.longest_title = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and "pic" in (a.get("class") or "").split():
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append(0)
        elif tag == "td" and self.tables and self.tables[-1]:
            self.tables[-1][-1] += 1
            self.longest_title = max(self.longest_title, len(a.get("title") or ""))

    def handle_endtag(self, tag):
        if tag == "table" and self.tables and not isinstance(self.tables[-1], tuple):
            self.tables[-1] = tuple(self.tables[-1])


def main():
    movconf, work = sys.argv[1:3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # an f16 value's text: cut, it keeps its exponent (before: "1.7285...")
    small = "1.72851562e-05"
    long_cell = lambda i, j: "7" * 30_000 if (i, j) == (0, 0) else small if (i, j) == (0, 1) \
        else str(j)
    report = {"implementation": "crafted", "movconf_version": "0", "summary": {},
              "cases": [case(0, picture(40, 40)), case(1, picture(3, 3, long_cell)),
                        case(2, picture(1000, 1000)), case(3, picture(300, 300))]}
    path = os.path.join(work, "crafted.json")
    # the last picture's name spelt with an escape, as movconf never writes it
    text = json.dumps(report)
    last = text.rindex('"picture"')
    with open(path, "w") as f:
        f.write(text[:last] + '"pict\\u0075re"' + text[last + len('"picture"'):])
    page = os.path.join(work, "page.html")
    made = subprocess.run([movconf, "report", "html", path, "-o", page],
                          capture_output=True, text=True, errors="replace")
    if made.returncode != 0:
        print("FAILED: report html exited %d: %s" % (made.returncode, made.stderr[-500:]))
        return 1
    text = open(page, encoding="utf-8").read()
    tables = Tables()
    tables.feed(text)
    problems = []
    if len(text) > MAX_PAGE_BYTES:
        problems.append("the page has %d bytes (a %d-byte report), more than %d" % (
            len(text), os.path.getsize(path), MAX_PAGE_BYTES))
    # the 40 x 40 and the 3 x 3 pictures, each expected and returned
    if len(tables.tables) != 4:
        problems.append("%d picture tables, not 4" % len(tables.tables))
    for rows in tables.tables:
        cells = rows[1:]  # the first row is the column numbers
        if len(cells) > EDGE or any(n > EDGE for n in cells):
            problems.append("a picture of %d rows, up to %d cells: more than %d x %d" % (
                len(cells), max(cells or [0]), EDGE, EDGE))
    if tables.longest_title > 1000:
        problems.append("a cell's title has %d characters" % tables.longest_title)
    if ">1.72&hellip;e-05</td>" not in text:
        problems.append("the cell of %s does not show its exponent (1.72&hellip;e-05)" % small)
    if text.count("picture left out") != 2:
        problems.append("%d pictures said to be left out, not 2 (1000 x 1000, and 300 x 300 "
                        "under an escaped name)" % text.count("picture left out"))
    for p in problems:
        print("FAILED:", p)
    if not problems:
        print("ok: a %d-byte report, a %d-byte page" % (os.path.getsize(path), len(text)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
