#!/usr/bin/env python3
"""Validate movconf case files against spec/case.schema.json.

usage: validate_schema.py [--schema FILE] PATH...

Each PATH is a case file or a directory searched recursively for *.json.
Files are read as strict JSON: UTF-8, no duplicate keys, no NaN/Infinity
constants. Prints one line per invalid file (and its first errors) and a
summary. Exit status: 0 all valid, 1 a file is invalid or unreadable,
2 usage error, 77 the jsonschema module is missing (CTest: SKIP_RETURN_CODE).

The schema is a first check; the loader (movconf check-cases) is the
authority for what a schema cannot express (spec/case-format.md, section 11).
"""

import argparse
import json
import os
import sys

DEFAULT_SCHEMA = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "spec", "case.schema.json")
MAX_ERRORS_SHOWN = 5


def strict_object(pairs):
    """Builds an object, refusing a key that appears twice."""
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError("duplicate key %r" % key)
        obj[key] = value
    return obj


def refuse_constant(name):
    raise ValueError("%s is not JSON" % name)


def load_json(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    return json.loads(text, object_pairs_hook=strict_object, parse_constant=refuse_constant)


def case_files(paths):
    """Yields (path, problem): every *.json under the given paths."""
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith(".json"):
                        yield os.path.join(root, name), None
        elif os.path.isfile(path):
            yield path, None
        else:
            yield path, "no such file or directory"


def where(error):
    parts = [str(p) for p in error.absolute_path]
    return "/" + "/".join(parts)


def short(message, limit=200):
    return message if len(message) <= limit else message[:limit] + "..."


def operation_folders():
    """{slug: operation name} from spec/operations.json."""
    with open(os.path.join(os.path.dirname(DEFAULT_SCHEMA), "operations.json"), encoding="utf-8") as f:
        return {o["slug"]: o["name"] for o in json.load(f)["operations"]}


def folder_problem(path, doc, folders):
    """A file in an operation's folder (any folder named by its slug) must be
    that operation's: `movconf run --op` reads only the operation's own
    folder of each tier (src/cli/selection.c)."""
    named = [folders[part] for part in os.path.normpath(path).split(os.sep)[:-1] if part in folders]
    if named and isinstance(doc, dict) and doc.get("op") != named[-1]:
        return ["/op: %r in the folder of %s (run --op would skip it)" % (doc.get("op"), named[-1])]
    return []


def validate(validator, path, folders):
    """Returns a list of problem lines for one file (empty: valid)."""
    try:
        doc = load_json(path)
    except (OSError, UnicodeDecodeError, ValueError) as e:
        return ["cannot read as strict JSON: %s" % e]
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    return ["%s: %s" % (where(e), short(e.message)) for e in errors] + \
        folder_problem(path, doc, folders)


def main(argv):
    parser = argparse.ArgumentParser(description="Validate case files against the JSON Schema.")
    parser.add_argument("--schema", default=DEFAULT_SCHEMA, help="schema file")
    parser.add_argument("paths", nargs="+", help="case files or directories")
    args = parser.parse_args(argv)

    try:
        import jsonschema
    except ImportError:
        print("validate_schema.py: the jsonschema module is missing "
              "(Debian: apt install python3-jsonschema)", file=sys.stderr)
        return 77

    schema = load_json(args.schema)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)

    folders = operation_folders()
    checked = invalid = 0
    for path, problem in case_files(args.paths):
        checked += 1
        problems = [problem] if problem else validate(validator, path, folders)
        if problems:
            invalid += 1
            print("%s: invalid (%d problem%s)" % (path, len(problems), "" if len(problems) == 1 else "s"))
            for line in problems[:MAX_ERRORS_SHOWN]:
                print("  " + line)
            if len(problems) > MAX_ERRORS_SHOWN:
                print("  ... %d more" % (len(problems) - MAX_ERRORS_SHOWN))
    print("%d file%s checked, %d invalid" % (checked, "" if checked == 1 else "s", invalid))
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
