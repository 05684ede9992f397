#!/usr/bin/env python3
"""Write, or check, what the list of operations gives outside C.

usage: check_op_list.py --movconf MOVCONF [--root DIR] [--write | --self-test]

include/movconf/op_list.h is the one list (docs/adding-an-operation.md);
`movconf help operations --json` prints it. From it come:
  spec/operations.json: that output, byte for byte, which the Python
    tables read (reference/reference_model.py, examples/adapters/common/
    movconf_adapter.py, tools/conformance_matrix.py, tests/*.py) instead
    of keeping rows of their own;
  spec/case.schema.json, its operation parts: the "op" enum, an if/then
    per operation naming its $defs block case_<prefix>, and that block
    (case and clause id patterns, inputs and which are required,
    attributes and their kinds).
--write rewrites both (the build's target op-tables runs it). Without it
each is compared with what --write would write, and the per-operation
functions of the Python programs (reference/reference_model.py _KERNELS,
examples/numpy_adapter.py RUN, written by hand) must have a row for every
operation and no other; one line per difference, exit 1 when there is one.
--self-test also checks a copy with one planted drift at a time, each of
which must be reported. Standard library only.
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
OPERATIONS = "spec/operations.json"
# The hand-written per-operation functions: (file, dict of name -> function).
HOOKS = [("reference/reference_model.py", "_KERNELS"), ("examples/numpy_adapter.py", "RUN")]
# The schema of an attribute's value, by the kind movconf gives it.
ATTRIBUTE_SCHEMA = {"int": {"$ref": "#/$defs/integer"}, "string": {"type": "string"},
                    "int_list": {"$ref": "#/$defs/int_list"}}
WIDTH = 100


def list_text(movconf):
    return subprocess.run([movconf, "help", "operations", "--json"], check=True,
                          stdout=subprocess.PIPE).stdout.decode("utf-8")


# ------------------------------------------------------------ the schema


def case_block(op):
    """The $defs block of op's cases."""
    prefix = op["prefix"]
    optional = [i["name"] for i in op["inputs"] if i["optional"]]
    attributes = {"type": "object", "maxProperties": 0}
    if op["attributes"]:
        attributes = {"type": "object", "additionalProperties": False,
                      "properties": {a["name"]: ATTRIBUTE_SCHEMA[a["kind"]]
                                     for a in op["attributes"]}}
    return {
        "description": "A case of %s%s." % (op["name"], "".join(
            ": %s is optional (absent means its default)" % name for name in optional)),
        "type": "object",
        "required": ["id", "origin", "clauses", "inputs", "expect"],
        "additionalProperties": False,
        "properties": {
            "id": {"type": "string", "pattern": "^%s/[a-z0-9/_.+-]*$" % prefix.lower()},
            "origin": {"$ref": "#/$defs/origin"},
            "max_output_bytes": {"$ref": "#/$defs/max_output_bytes"},
            "clauses": {"type": "array", "minItems": 1, "uniqueItems": True,
                        "items": {"type": "string",
                                  "pattern": "^(%s|MC)-[A-Z][0-9]+$" % prefix}},
            "inputs": {"type": "object",
                       "required": [i["name"] for i in op["inputs"] if not i["optional"]],
                       "additionalProperties": False,
                       "properties": {i["name"]: {"$ref": "#/$defs/input_tensor"}
                                      for i in op["inputs"]}},
            "attributes": attributes,
            "expect": {"$ref": "#/$defs/expect"},
        },
    }


def is_operation_part(name):
    return name.startswith("case_") or name.startswith("attributes_")


def with_operations(schema, ops):
    """schema with its operation parts written from ops; the rest kept."""
    out = dict(schema)
    out["properties"] = dict(schema["properties"], op={"enum": [op["name"] for op in ops]})
    out["allOf"] = [{"if": {"required": ["op"], "properties": {"op": {"const": op["name"]}}},
                     "then": {"properties": {"cases": {"items": {
                         "$ref": "#/$defs/case_" + op["prefix"].lower()}}}}} for op in ops]
    defs = {k: v for k, v in schema["$defs"].items() if not is_operation_part(k)}
    defs.update(("case_" + op["prefix"].lower(), case_block(op)) for op in ops)
    out["$defs"] = defs
    return out


def emit(value, indent=0, lead=""):
    """JSON text, a value on one line when it fits in WIDTH columns."""
    one = json.dumps(value, ensure_ascii=False)
    if (not isinstance(value, (dict, list)) or not value
            or indent + len(lead) + len(one) + 1 <= WIDTH):
        return one
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [pad + json.dumps(k) + ": " + emit(v, indent + 2, json.dumps(k) + ": ")
                 for k, v in value.items()]
    elif any(isinstance(v, (dict, list)) for v in value):
        items = [pad + emit(v, indent + 2) for v in value]
    else:  # scalars, as many on a line as fit
        items, line = [], ""
        for word in (json.dumps(v, ensure_ascii=False) for v in value):
            if line and len(pad) + len(line) + len(word) + 3 > WIDTH:
                items.append(pad + line)
                line = ""
            line += (", " if line else "") + word
        items.append(pad + line)
    close = "}" if isinstance(value, dict) else "]"
    return ("{" if close == "}" else "[") + "\n" + ",\n".join(items) + "\n" + " " * indent + close


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def written(root, text):
    """{path: text} of the files the list gives, as --write writes them."""
    ops = json.loads(text)["operations"]
    schema = with_operations(json.loads(read(root, SCHEMA)), ops)
    return {OPERATIONS: text, SCHEMA: emit(schema) + "\n"}


# ------------------------------------------------------------ the check


def diff(where, got, want):
    """Lines naming what got lacks, has beyond, or holds otherwise than want."""
    lines = ["%s: lacks %s" % (where, k) for k in want if k not in got]
    lines += ["%s: has %s, which movconf does not know" % (where, k)
              for k in got if k not in want]
    if isinstance(want, dict):
        lines += ["%s %s: %s, movconf gives %s" % (where, k, json.dumps(got[k]),
                                                   json.dumps(want[k]))
                  for k in want if k in got and got[k] != want[k]]
    if not lines and list(got) != list(want):
        lines.append("%s: in the order %s, movconf's is %s" % (where, list(got), list(want)))
    return lines


def check_schema(root, ops):
    got = json.loads(read(root, SCHEMA))
    want = with_operations(got, ops)
    lines = diff(SCHEMA + " properties.op.enum", got["properties"].get("op", {}).get("enum", []),
                 want["properties"]["op"]["enum"])
    branches = {json.dumps(b) for b in got.get("allOf", [])}
    lines += ["%s allOf: lacks the if/then of %s" % (SCHEMA, b["if"]["properties"]["op"]["const"])
              for b in want["allOf"] if json.dumps(b) not in branches]
    if not lines and got.get("allOf") != want["allOf"]:
        lines.append("%s allOf: not one if/then per operation, in its order" % SCHEMA)
    for name in sorted(set(got["$defs"]) | set(want["$defs"])):
        block, ought = got["$defs"].get(name), want["$defs"].get(name)
        if block != ought:
            lines.append("%s $defs %s: %s" % (SCHEMA, name, "missing" if block is None else
                                               "which movconf does not know" if ought is None
                                               else "differs from its operation's row"))
    return lines


def hook_names(root, path, variable):
    """The keys of the module-level `variable = {"Name": function, ...}`."""
    tree = ast.parse(read(root, path), path)
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == variable
                and isinstance(node.value, ast.Dict)):
            return [ast.literal_eval(k) for k in node.value.keys]
    raise LookupError("%s: no %s = {...}" % (path, variable))


def check(root, text):
    ops = json.loads(text)["operations"]
    lines = []
    try:
        if read(root, OPERATIONS) != text:
            lines.append("%s: not movconf's list (movconf help operations --json)" % OPERATIONS)
    except OSError as e:
        lines.append("%s: %s" % (OPERATIONS, e.strerror))
    lines += check_schema(root, ops)
    if not lines and read(root, SCHEMA) != written(root, text)[SCHEMA]:
        lines.append("%s: not laid out as --write writes it" % SCHEMA)
    names = [op["name"] for op in ops]
    for path, variable in HOOKS:
        try:
            got = hook_names(root, path, variable)
        except (OSError, SyntaxError, ValueError, LookupError) as e:
            lines.append("%s: cannot read %s: %s" % (path, variable, e))
            continue
        lines += [line for line in diff("%s %s" % (path, variable), got, names)
                  if "in the order" not in line]
    if lines:
        lines.append("(after a change to include/movconf/op_list.h: "
                     "cmake --build --preset default --target op-tables)")
    return lines


# ------------------------------------------------------------ self-test


def replace_in(path, old, new):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if old not in text:
        raise SystemExit("self-test: %r is not in %s" % (old, path))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, 1))


def edit_json(path, change):
    with open(path, encoding="utf-8") as f:
        value = json.load(f)
    change(value)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f)


def drop_operation(j):
    j["operations"] = [op for op in j["operations"] if op["name"] != "Slice-8"]


def slice_inputs(j):
    return j["$defs"]["case_sl"]["properties"]["inputs"]


# Each planted drift: its file, what it does to the copy, a text its report must hold.
PLANTS = [
    (OPERATIONS, "an operation left out of the generated list",
     lambda p: edit_json(p, drop_operation), OPERATIONS + ": not movconf's list"),
    (SCHEMA, "an operation left out of the schema's op enum",
     lambda p: edit_json(p, lambda j: j["properties"]["op"]["enum"].remove("Slice-8")),
     "properties.op.enum: lacks Slice-8"),
    (SCHEMA, "an operation's if/then left out of the schema",
     lambda p: edit_json(p, lambda j: j["allOf"].pop(5)),
     "allOf: lacks the if/then of ShuffleChannels-1"),
    (SCHEMA, "an operation's $defs block left out",
     lambda p: edit_json(p, lambda j: j["$defs"].pop("case_d2s")), "$defs case_d2s: missing"),
    (SCHEMA, "an optional input made required in the schema",
     lambda p: edit_json(p, lambda j: slice_inputs(j)["required"].append("axes")),
     "$defs case_sl: differs"),
    (SCHEMA, "an attribute left out of the schema",
     lambda p: edit_json(p, lambda j: j["$defs"]["case_sc"]["properties"]["attributes"]
                         ["properties"].pop("group")), "$defs case_sc: differs"),
    (SCHEMA, "the schema hand-formatted", lambda p: edit_json(p, lambda j: None),
     "not laid out as --write writes it"),
    ("reference/reference_model.py", "a function left out of the reference model's _KERNELS",
     lambda p: replace_in(p, '"Slice-8": slice_8,', ""),
     "reference/reference_model.py _KERNELS: lacks Slice-8"),
    ("examples/numpy_adapter.py", "a row of the numpy adapter's RUN under another name",
     lambda p: replace_in(p, '"Slice-8":', '"Slice-9":'),
     "examples/numpy_adapter.py RUN: has Slice-9"),
]


def self_test(root, text):
    files = sorted({path for path, _, _, _ in PLANTS})
    with tempfile.TemporaryDirectory(prefix="check-op-list-") as work:
        for path in files:
            os.makedirs(os.path.dirname(os.path.join(work, path)), exist_ok=True)
            shutil.copy(os.path.join(root, path), os.path.join(work, path))
        for path, what, plant, expect in PLANTS:
            plant(os.path.join(work, path))
            lines = check(work, text)
            if not any(expect in line for line in lines):
                print("\n".join(lines))
                return "%s: not reported (expected a line with %r)" % (what, expect)
            print("check_op_list: planted %s: %s" % (what, lines[0]))
            shutil.copy(os.path.join(root, path), os.path.join(work, path))
        # --write mends every drift of the generated files at once.
        for path, _, plant, _ in PLANTS[:6]:
            plant(os.path.join(work, path))
        write(work, text)
        lines = check(work, text)
        if lines:
            print("\n".join(lines))
            return "--write left drifts"
    return None


def write(root, text):
    for path, content in written(root, text).items():
        if read(root, path) != content:
            with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                f.write(content)
            print("check_op_list: wrote %s" % path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--movconf", required=True, help="the built movconf program")
    parser.add_argument("--root", default=REPO, help="the source tree (default: this one)")
    parser.add_argument("--write", action="store_true",
                        help="rewrite spec/operations.json and the schema's operation parts")
    parser.add_argument("--self-test", action="store_true",
                        help="also check that planted drifts are reported")
    args = parser.parse_args()
    text = list_text(args.movconf)
    if args.write:
        write(args.root, text)
        return 0
    lines = check(args.root, text)
    print("\n".join(lines) if lines else
          "check_op_list: %s, the schema and %d function tables agree with movconf's %d "
          "operations" % (OPERATIONS, len(HOOKS), len(json.loads(text)["operations"])))
    if lines:
        return 1
    if args.self_test:
        problem = self_test(args.root, text)
        if problem:
            print("check_op_list: self-test: " + problem)
            return 1
        print("check_op_list: self-test: %d planted drifts reported" % len(PLANTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
