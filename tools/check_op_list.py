#!/usr/bin/env python3
"""Check the copies of the list of operations outside C against movconf's.

usage: check_op_list.py --movconf MOVCONF [--root DIR]
       check_op_list.py --self-test --movconf MOVCONF [--root DIR]

include/movconf/op_list.h is the one list (docs/adding-an-operation.md);
`movconf help operations --json` prints it. What cannot be built from it
is compared with it here:
  spec/case.schema.json: the "op" enum, an if/then per operation naming
    its $defs block case_<prefix>, and that block: case and clause id
    patterns, inputs (names, which are required), attributes (names, kinds);
  the Python tables: OPS (and OPTIONAL_INPUTS) of reference/reference_model.py,
    examples/adapters/common/movconf_adapter.py, tools/conformance_matrix.py,
    tests/echo_inputs_adapter.py and tests/report_html_check.py, read as
    literals (never imported).
Prints one line per difference and exits 1 when there is one.

--self-test checks a copy of those files, which must pass, then the copy
with one planted drift at a time, each of which must be reported.
Standard library only.
"""

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA = "spec/case.schema.json"
# The schema of an attribute's value, by the kind movconf gives it.
ATTRIBUTE_SCHEMA = {"int": {"$ref": "#/$defs/integer"}, "string": {"type": "string"},
                    "int_list": {"$ref": "#/$defs/int_list"}}


def operations(movconf):
    out = subprocess.run([movconf, "help", "operations", "--json"], check=True,
                         stdout=subprocess.PIPE).stdout
    return json.loads(out)["operations"]


def python_tables(ops):
    """[(file, variable, expected value)]: each Python table as the list gives it."""
    names = [op["name"] for op in ops]
    inputs = {op["name"]: tuple(i["name"] for i in op["inputs"]) for op in ops}
    optional = {op["name"]: tuple(i["name"] for i in op["inputs"] if i["optional"])
                for op in ops if any(i["optional"] for i in op["inputs"])}
    model = {op["name"]: (op["slug"], op["prefix"].lower(), op["prefix"], inputs[op["name"]])
             for op in ops}
    return [("reference/reference_model.py", "OPS", model),
            ("reference/reference_model.py", "OPTIONAL_INPUTS", optional),
            ("examples/adapters/common/movconf_adapter.py", "OPS", inputs),
            ("examples/adapters/common/movconf_adapter.py", "OPTIONAL_INPUTS", optional),
            ("tools/conformance_matrix.py", "OPS", names),
            ("tests/echo_inputs_adapter.py", "OPS", names),
            ("tests/report_html_check.py", "OPS", names)]


def literal(root, path, variable):
    """The value of the module-level `variable = <literal>` of a Python file."""
    with open(os.path.join(root, path), encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == variable):
            return ast.literal_eval(node.value)
    raise LookupError("%s: no literal %s = ..." % (path, variable))


def diff(where, got, want):
    """Lines naming what got (a dict or a list) lacks, has beyond, has
    otherwise than want, or holds in another order."""
    if isinstance(got, dict) != isinstance(want, dict):
        return ["%s: a %s, where movconf's list gives a %s"
                % (where, type(got).__name__, type(want).__name__)]
    lines = ["%s: lacks %s" % (where, k) for k in want if k not in got]
    lines += ["%s: has %s, which movconf does not know" % (where, k)
              for k in got if k not in want]
    if isinstance(want, dict):
        lines += ["%s[%r]: %r, movconf gives %r" % (where, k, got[k], want[k])
                  for k in want if k in got and got[k] != want[k]]
    if not lines and list(got) != list(want):
        lines.append("%s: in the order %s, movconf's is %s" % (where, list(got), list(want)))
    return lines


def check_python(root, ops):
    lines = []
    for path, variable, want in python_tables(ops):
        try:
            got = literal(root, path, variable)
        except (OSError, SyntaxError, ValueError, LookupError) as e:
            lines.append("%s: cannot read %s: %s" % (path, variable, e))
            continue
        lines += diff("%s %s" % (path, variable), got, want)
    return lines


def case_block(op):
    """The $defs block of op's cases as the list gives it (the parts that vary)."""
    prefix = op["prefix"]
    required = [i["name"] for i in op["inputs"] if not i["optional"]]
    return {"id": "^%s/[a-z0-9/_.+-]*$" % prefix.lower(),
            "clauses": "^(%s|MC)-[A-Z][0-9]+$" % prefix,
            "inputs": {i["name"]: {"$ref": "#/$defs/input_tensor"} for i in op["inputs"]},
            "required inputs": required,
            "attributes": {a["name"]: ATTRIBUTE_SCHEMA[a["kind"]] for a in op["attributes"]}}


def schema_block(schema, name):
    """The same parts of the schema's block `name`; KeyError when one is missing."""
    block = schema["$defs"][name]["properties"]
    inputs = block["inputs"]
    attributes = schema["$defs"][block["attributes"]["$ref"].replace("#/$defs/", "", 1)]
    return {"id": block["id"]["pattern"], "clauses": block["clauses"]["items"]["pattern"],
            "inputs": inputs["properties"], "required inputs": inputs["required"],
            "attributes": attributes.get("properties", {})
            if attributes.get("maxProperties") != 0 else {}}


def check_schema(root, ops):
    with open(os.path.join(root, SCHEMA), encoding="utf-8") as f:
        schema = json.load(f)
    names = [op["name"] for op in ops]
    lines = diff("%s properties.op.enum" % SCHEMA, schema["properties"]["op"]["enum"], names)
    branches = {}
    for branch in schema.get("allOf", []):
        try:
            name = branch["if"]["properties"]["op"]["const"]
            branches[name] = branch["then"]["properties"]["cases"]["items"]["$ref"]
        except (KeyError, TypeError):
            lines.append("%s allOf: a branch that is not an if/then on op" % SCHEMA)
    want_blocks = {"case_" + op["prefix"].lower(): op for op in ops}
    lines += diff("%s allOf (if op, then cases of $defs block)" % SCHEMA, branches,
                  {op["name"]: "#/$defs/case_" + op["prefix"].lower() for op in ops})
    for block in schema["$defs"]:
        if block.startswith("case_") and block not in want_blocks:
            lines.append("%s $defs: %s, which movconf does not know" % (SCHEMA, block))
    for block, op in want_blocks.items():
        where = "%s $defs %s (%s)" % (SCHEMA, block, op["name"])
        try:
            got = schema_block(schema, block)
        except (KeyError, TypeError, AttributeError):
            lines.append("%s: missing, or without id, clauses, inputs or attributes" % where)
            continue
        want = case_block(op)
        lines += ["%s %s: %s, movconf gives %s" % (where, part, json.dumps(got[part]),
                                                   json.dumps(want[part]))
                  for part in want if got[part] != want[part]]
    return lines


def check(root, ops):
    return check_schema(root, ops) + check_python(root, ops)


def replace_in(path, old, new):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if old not in text:
        raise SystemExit("self-test: %r is not in %s" % (old, path))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, 1))


def edit_schema(path, change):
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    change(schema)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(schema, f)


# Each planted drift: what it does to the copy, and a text its report must hold.
PLANTS = [
    ("an operation left out of the schema's op enum",
     lambda s: edit_schema(s, lambda j: j["properties"]["op"]["enum"].remove("Slice-8")),
     "properties.op.enum"),
    ("an operation's if/then left out of the schema",
     lambda s: edit_schema(s, lambda j: j["allOf"].pop(5)),
     "allOf (if op, then cases of $defs block): lacks ShuffleChannels-1"),
    ("an operation's $defs block left out",
     lambda s: edit_schema(s, lambda j: j["$defs"].pop("case_d2s")),
     "$defs case_d2s (DepthToSpace-1): missing"),
    ("an optional input made required in the schema",
     lambda s: edit_schema(s, lambda j: j["$defs"]["case_sl"]["properties"]["inputs"]
                           ["required"].append("axes")),
     "case_sl (Slice-8) required inputs"),
    ("an attribute left out of the schema",
     lambda s: edit_schema(s, lambda j: j["$defs"]["attributes_shuffle"]["properties"]
                           .pop("group")),
     "case_sc (ShuffleChannels-1) attributes"),
    ("a wrong clause prefix in the schema",
     lambda s: edit_schema(s, lambda j: j["$defs"]["case_eip"]["properties"]["clauses"]
                           ["items"].update(pattern="^(EPI|MC)-[A-Z][0-9]+$")),
     "case_eip (ExtractImagePatches-3) clauses"),
]
# (Slice-8 goes wherever it stands in a list: rows appended after it, a
# new operation's, leave the drifts planted as they were.)
PYTHON_PLANTS = [
    ("reference/reference_model.py", "an input renamed in the reference model's OPS",
     '"crops_begin", "crops_end")', '"crops_start", "crops_end")',
     "reference/reference_model.py OPS['BatchToSpace-2']"),
    ("examples/adapters/common/movconf_adapter.py", "an optional input left out",
     'OPTIONAL_INPUTS = {"Slice-8": ("axes",), ', "OPTIONAL_INPUTS = {",
     "movconf_adapter.py OPTIONAL_INPUTS: lacks Slice-8"),
    ("tools/conformance_matrix.py", "an operation left out of the matrix's columns",
     '"ShuffleChannels-1", "Slice-8"', '"ShuffleChannels-1"', "conformance_matrix.py OPS"),
    ("tests/echo_inputs_adapter.py", "an operation left out of a test adapter",
     '"ShuffleChannels-1", "Slice-8"', '"ShuffleChannels-1"', "echo_inputs_adapter.py OPS"),
    ("tests/report_html_check.py", "an operation left out of the page check",
     '"ShuffleChannels-1", "Slice-8"', '"ShuffleChannels-1"', "report_html_check.py OPS"),
]


def self_test(root, ops):
    files = [SCHEMA] + sorted({path for path, _, _ in python_tables(ops)})
    plants = [(SCHEMA, what, plant, expect) for what, plant, expect in PLANTS]
    plants += [(path, what, lambda p, o=old, n=new: replace_in(p, o, n), expect)
               for path, what, old, new, expect in PYTHON_PLANTS]
    with tempfile.TemporaryDirectory(prefix="check-op-list-") as work:
        for path in files:
            os.makedirs(os.path.dirname(os.path.join(work, path)), exist_ok=True)
            shutil.copy(os.path.join(root, path), os.path.join(work, path))
        lines = check(work, ops)
        if lines:
            print("\n".join(lines))
            return "the copy of the files does not pass"
        for path, what, plant, expect in plants:
            shutil.copy(os.path.join(root, path), os.path.join(work, path))
            plant(os.path.join(work, path))
            lines = check(work, ops)
            if not any(expect in line for line in lines):
                print("\n".join(lines))
                return "%s: not reported (expected a line with %r)" % (what, expect)
            print("check_op_list: planted %s: %s" % (what, lines[0]))
            shutil.copy(os.path.join(root, path), os.path.join(work, path))
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--movconf", required=True, help="the built movconf program")
    parser.add_argument("--root", default=REPO, help="the source tree (default: this one)")
    parser.add_argument("--self-test", action="store_true",
                        help="also check that planted drifts are reported")
    args = parser.parse_args()
    ops = operations(args.movconf)
    lines = check(args.root, ops)
    print("\n".join(lines) if lines else
          "check_op_list: the schema and %d Python tables agree with movconf's %d operations"
          % (len(python_tables(ops)), len(ops)))
    if lines:
        return 1
    if args.self_test:
        problem = self_test(args.root, ops)
        if problem:
            print("check_op_list: self-test: " + problem)
            return 1
        print("check_op_list: self-test: %d planted drifts reported"
              % (len(PLANTS) + len(PYTHON_PLANTS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
