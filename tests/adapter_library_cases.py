#!/usr/bin/env python3
"""A library case named after an adapter (id */libraries/NAME-* in
conformance/*/libraries.json) is that adapter's minimal reproducer of a
finding: the adapter must claim it. A case that comes back unsupported
means the finding left the matrix unseen (the adapter's --ctest run takes
unsupported as no failure), so this test fails on it; the verdicts
themselves are the --ctest run's to judge.

    adapter_library_cases.py MOVCONF IMPL NAME WORKDIR CASE_PATH...

Exit 0 when every such case ran, 1 when one was unsupported or none was
found. The library's own messages (its crashes are expected) are dropped.
"""
import json
import os
import subprocess
import sys


def main(movconf, impl, name, work, paths):
    os.makedirs(work, exist_ok=True)
    report = os.path.join(work, "library-cases.json")
    subprocess.run([movconf, "run", "--impl", impl, "--case", f"*/libraries/{name}-*",
                    "--json", report] + paths, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    with open(report, encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    unclaimed = [c["id"] for c in cases if c["verdict"] == "unsupported"]
    for c in cases:
        print(f"{c['verdict']}: {c['id']}")
    if not cases:
        print(f"no case */libraries/{name}-* in {paths}")
        return 1
    if unclaimed:
        print(f"{name} does not claim its own reproducers: {', '.join(unclaimed)}")
        return 1
    print(f"{len(cases)} library cases of {name}, every one claimed")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 6:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]))
