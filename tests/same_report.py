"""Whether two run reports (movconf run --json) are the same but for timings.

usage: same_report.py ONE OTHER [KEY...]

Compares the reports' KEYs (default: every top-level key), with each case's
seconds and slow and the summary's seconds and slow left out. Prints the
case count and summary when they are the same; else the first differing
case and exits 1. Used by shard_merge.sh (a merge against the whole run) and
run_jobs.sh (--jobs N against one job)."""
import json
import sys


def strip(report):
    for case in report["cases"]:
        case.pop("seconds", None)
        case.pop("slow", None)
    for key in ("seconds", "slow"):
        report["summary"].pop(key, None)
    return report


def main():
    one, other = (strip(json.load(open(path))) for path in sys.argv[1:3])
    keys = sys.argv[3:] or sorted(set(one) | set(other))
    for key in keys:
        if one.get(key) != other.get(key):
            if key == "cases":
                for a, b in zip(one[key], other[key]):
                    if a != b:
                        print("first differing case:\n %s\n %s" % (a, b))
                        break
            sys.exit("%s differ" % key)
    print("%d cases, summary %s" % (len(one["cases"]), json.dumps(one["summary"])))


if __name__ == "__main__":
    main()
