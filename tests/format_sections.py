#!/usr/bin/env python3
"""Maps the sections of spec/case-format.md to the format cases that cite them.

usage: format_sections.py PAGE CASE_DIR
       format_sections.py --self-test PAGE CASE_DIR

A format case cites the sections it exercises at the start of its origin:
"worked out from spec/case-format.md 7.4.2, 6.2: ..." (case-format.md,
section 3). Every numbered section of PAGE ("## 5. Integers", "#### 7.4.2
`counter`") must be cited by a case under CASE_DIR, directly or through one
of its subsections, unless the section says it is informative. A citation of
a section the page does not have is an error too. Prints the map, one line
per section; exit status 1 when a section has no case.

--self-test runs the check on a copy of PAGE with one more section and
expects it to fail naming that section, then on PAGE and expects it to pass.
"""

import json
import os
import re
import sys
import tempfile

HEADING = re.compile(r"^#{2,4} (\d+(?:\.\d+)*)\.? ")
CITATION = re.compile(r"spec/case-format\.md (\d+(?:\.\d+)*(?:, \d+(?:\.\d+)*)*):")
INFORMATIVE = "is informative"


def page_sections(page):
    """[(number, title, informative)] in page order."""
    sections = []
    with open(page, encoding="utf-8") as f:
        for line in f:
            match = HEADING.match(line)
            if match:
                sections.append([match.group(1), line.strip().lstrip("#").strip(), False])
            elif sections and INFORMATIVE in line:
                sections[-1][2] = True
    return sections


def citations(case_dir):
    """{section: [case ids]} over every case file under case_dir."""
    cited = {}
    for top, dirs, names in os.walk(case_dir):
        dirs.sort()
        for name in sorted(n for n in names if n.endswith(".json")):
            with open(os.path.join(top, name), encoding="utf-8") as f:
                doc = json.load(f)
            for case in doc["cases"]:
                match = CITATION.search(case["origin"])
                for number in match.group(1).split(", ") if match else []:
                    cited.setdefault(number, []).append(case["id"])
    return cited


def check(page, case_dir, out=sys.stdout):
    """Prints the map; returns the uncited sections and unknown citations."""
    sections = page_sections(page)
    cited = citations(case_dir)
    numbers = {number for number, _, _ in sections}
    uncited = []
    for number, title, informative in sections:
        cases = sorted({c for n, ids in cited.items()
                        if n == number or n.startswith(number + ".") for c in ids})
        if cases:
            shown = ", ".join(cases[:3]) + (" and %d more" % (len(cases) - 3) if len(cases) > 3 else "")
            print("%-48s %3d cases: %s" % (title[:48], len(cases), shown), file=out)
        elif informative:
            print("%-48s informative, no case needed" % title[:48], file=out)
        else:
            print("%-48s NO CASE" % title[:48], file=out)
            uncited.append(title)
    unknown = sorted(n for n in cited if n not in numbers)
    for number in unknown:
        print("cited but not a section of the page: %s (%s)" % (number, ", ".join(cited[number])),
              file=out)
    return uncited, unknown


def self_test(page, case_dir):
    with open(page, encoding="utf-8") as f:
        text = f.read()
    extra = "\n### 7.6 `zstd`\n\nA form no case uses.\n"
    with tempfile.NamedTemporaryFile("w", suffix=".md", encoding="utf-8", delete=False) as f:
        f.write(text + extra)
        grown = f.name
    try:
        with open(os.devnull, "w") as quiet:
            uncited, _ = check(grown, case_dir, quiet)
    finally:
        os.unlink(grown)
    ok = uncited == ["7.6 `zstd`"]
    print("a page with an uncited section 7.6: %s" % ("fails, naming it" if ok else "NOT reported: %s" % uncited))
    with open(os.devnull, "w") as quiet:
        uncited, unknown = check(page, case_dir, quiet)
    print("the page itself: %s" % ("every section cited" if not uncited and not unknown else "fails"))
    return ok and not uncited and not unknown


def main(argv):
    if len(argv) == 4 and argv[1] == "--self-test":
        return 0 if self_test(argv[2], argv[3]) else 1
    if len(argv) != 3:
        print(__doc__)
        return 2
    uncited, unknown = check(argv[1], argv[2])
    if uncited:
        print("%d sections of %s have no case: %s" % (len(uncited), argv[1], "; ".join(uncited)))
    return 1 if uncited or unknown else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
