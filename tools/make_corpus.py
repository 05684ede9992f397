#!/usr/bin/env python3
"""Generates the seed corpora of the fuzz targets from the conformance cases.

    python3 tools/make_corpus.py            writes corpus/
    python3 tools/make_corpus.py --check    compares corpus/ with what it would write

What it writes (deterministic: the same cases give the same bytes):

  corpus/diff/<id>       every case of conformance/ (but regressions/ and the
                         generated cases of conformance/<op>/generated/) encoded in
                         the data producer's byte layout (fuzz/README.md), so that
                         fuzz/producer.c decodes each seed to exactly its case's
                         request; <id> is the case id with '/' as '_'. Cases whose
                         seed would exceed 16 KiB are left out (a long seed slows
                         every mutation down; libFuzzer also takes -max_len from
                         the longest seed).
                         fuzz_plugin_diff reads the same format: the campaign uses
                         this corpus for it too.
  corpus/roundtrip/<id>  the cases that expect an output (the round-trip target
                         skips inputs the implementations reject).
  corpus/parser/<id>.json
                         each case alone in a case file: small valid inputs for
                         the case-file parser.
  corpus/parser.dict     the parser's dictionary: JSON keys and punctuation,
                         format, operation, element-type, error and clause names,
                         payload words, integers at the format's limits.

Files of corpus/<target>/ that the generator does not produce are stale and
removed (campaign findings go to corpus/<target>-found/, never here).
Standard library only; the tensors of the cases are decoded by
tools/reference_model.py.
"""

import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import reference_model as model  # noqa: E402  (the path is set just above)

# The numbering of include/movconf/ops.h and types.h.
OP_CODES = {"BatchToSpace-2": 0, "SpaceToBatch-2": 1, "SpaceToDepth-1": 2,
            "DepthToSpace-1": 3, "ExtractImagePatches-3": 4}
TYPE_CODES = {name: code for code, name in enumerate(
    ["boolean", "u8", "i8", "u16", "i16", "f16", "bf16", "u32", "i32", "f32", "u64", "i64",
     "f64", "f8e4m3", "f8e5m2", "u1", "u4", "i4"])}

# Selector codes of fuzz/README.md, "Byte layout".
SEL_COUNTER, SEL_PRNG, SEL_ABSENT, SEL_BYTE, SEL_INT64 = 0xFA, 0xFB, 0xFC, 0xFE, 0xFF
SMALL_LIMIT = 16384          # MC_FUZZ_SMALL_LIMIT: data elements of the small class
LARGE_ELEMENTS = 262144      # MC_FUZZ_LARGE_ELEMENTS: and of the large one
MAX_SIDE_ELEMENTS = 64       # MC_FUZZ_MAX_SIDE_ELEMENTS
MAX_STRING = 64              # MC_FUZZ_MAX_STRING
MAX_LIST = 64                # MC_FUZZ_MAX_LIST
MAX_ATTR_LEN = 8             # MC_MAX_ATTR_LEN: list values the producer reads
SMALL_ELEMENTS = 4096        # MC_FUZZ_SMALL_ELEMENTS
OUTPUT_FACTOR = 8            # MC_FUZZ_OUTPUT_FACTOR
LARGE_CLASS = 0xFF           # the size byte that selects the large class
MAX_SEED_BYTES = 16 << 10    # larger seeds would slow every mutation down
MASK64 = (1 << 64) - 1


class Unencodable(Exception):
    """A case the producer's layout cannot hold (too large a tensor...)."""


def exact(value):
    """An integer field holding exactly value (two's complement for 64 bits)."""
    value = int(value)
    if 0 <= value <= 255:
        return bytes([SEL_BYTE, value])
    return bytes([SEL_INT64]) + (value & MASK64).to_bytes(8, "little")


def string_field(text):
    if text is None:
        return bytes([SEL_ABSENT])
    raw = text.encode("utf-8")
    if len(raw) > MAX_STRING or b"\0" in raw:
        raise Unencodable("a string attribute longer than %d bytes" % MAX_STRING)
    return bytes([SEL_BYTE, len(raw)]) + raw


def list_field(values):
    if values is None:
        return bytes([SEL_ABSENT])
    if len(values) > MAX_LIST:
        raise Unencodable("an attribute list of %d values" % len(values))
    out = exact(len(values))
    for v in values[:MAX_ATTR_LEN]:
        out += exact(v)
    return out


def dims(shape):
    return b"".join(exact(d) for d in shape)


def side_form(tensor):
    if model.element_count(tensor.shape) > MAX_SIDE_ELEMENTS:
        raise Unencodable("a side input of more than %d elements" % MAX_SIDE_ELEMENTS)
    return bytes([SEL_BYTE, TYPE_CODES[tensor.type], SEL_BYTE, len(tensor.shape)]) + dims(
        tensor.shape)


def side_values(tensor):
    return b"".join(exact(bits) for bits in tensor.bits)


def data_payload(desc, tensor):
    fill = desc.get("fill")
    if fill is not None and list(fill) == ["counter"]:
        return bytes([SEL_COUNTER]) + (int(fill["counter"]) & MASK64).to_bytes(8, "little")
    if fill is not None and list(fill) == ["prng"]:
        return bytes([SEL_PRNG]) + (int(fill["prng"]["seed"]) & MASK64).to_bytes(8, "little")
    return bytes([SEL_INT64]) + model.pack(tensor.type, tensor.bits)


def thread_count(case_id):
    """1..8, spread over the seeds but fixed for each."""
    return 1 + sum(case_id.encode()) % 8


def encode(op, case):
    """The producer's bytes for a case."""
    inputs = case["inputs"]
    names = model.OPS[op][3]
    data_desc = inputs["data"]
    shape = [int(d) for d in data_desc["shape"]]
    if model.element_count(shape) > LARGE_ELEMENTS:
        raise Unencodable("a data tensor of %d elements" % model.element_count(shape))
    fill = data_desc.get("fill")
    if fill is not None and list(fill) == ["prng"]:
        data = model.Tensor(data_desc["type"], shape, [0] * model.element_count(shape))
    else:
        data = model.tensor_from_json(data_desc)
    attrs = case.get("attributes", {})
    # The natural output cap is OUTPUT_FACTOR times the size class's data
    # elements: the large class when the expected output needs it.
    size_class = 0
    expected = case["expect"].get("output")
    if (expected and model.element_count([int(d) for d in expected["shape"]]) >
            OUTPUT_FACTOR * SMALL_ELEMENTS) or model.element_count(shape) > SMALL_LIMIT:
        size_class = LARGE_CLASS
    threads = thread_count(case["id"])
    out = bytes([OP_CODES[op], TYPE_CODES[data.type], 0 if threads == 1 else 0xC0 + threads - 2,
                 0, size_class])
    out += exact(len(data.shape))
    if op in ("BatchToSpace-2", "SpaceToBatch-2"):
        side = [model.tensor_from_json(inputs[name]) for name in names[1:]]
        out += b"".join(side_form(t) for t in side)
        out += side_values(side[0])
        if op == "BatchToSpace-2":
            out += dims(data.shape)
        out += side_values(side[1]) + side_values(side[2])
        if op == "SpaceToBatch-2":
            out += dims(data.shape)
    elif op in ("SpaceToDepth-1", "DepthToSpace-1"):
        out += string_field(attrs.get("mode"))
        block_size = attrs.get("block_size")
        out += bytes([SEL_ABSENT]) if block_size is None else exact(block_size)
        out += dims(data.shape)
    else:
        for name in ("sizes", "strides", "rates"):
            out += list_field(attrs.get(name))
        out += string_field(attrs.get("auto_pad"))
        out += dims(data.shape)
    return out + data_payload(data_desc, data)


def seed_name(case_id):
    return case_id.replace("/", "_")


def case_files(conformance):
    """Every case file of conformance/ except regressions/ and generated/, sorted."""
    found = []
    for top, dirs, files in os.walk(conformance):
        dirs[:] = sorted(d for d in dirs
                         if not d.startswith(".") and d not in ("regressions", "generated"))
        found += [os.path.join(top, f) for f in files if f.endswith(".json")]
    return sorted(found)


def parser_seed(doc, case):
    single = {"format": doc["format"], "op": doc["op"], "cases": [case]}
    return (json.dumps(single, ensure_ascii=False) + "\n").encode("utf-8")


def dictionary_entries():
    """Words the parser target's dictionary offers, in a fixed order."""
    with open(os.path.join(ROOT, "spec", "case.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    keys, enums = [], []

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "properties" and isinstance(value, dict):
                    keys.extend(value)
                if key == "enum" and isinstance(value, list):
                    enums.extend(v for v in value if isinstance(v, str))
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(schema)
    with open(os.path.join(ROOT, "src", "common", "clauses.c"), encoding="utf-8") as f:
        clauses = re.findall(r'\{"([A-Z0-9]+-[A-Z0-9]+)"', f.read())
    words = ['"%s"' % k for k in keys] + ['"%s"' % e for e in enums]
    words += ['"%s"' % c for c in clauses]
    words += ['"movconf-cases/1"', '"blocks_first"', '"depth_first"', '"valid"', '"same_upper"',
              '"same_lower"', '"b2s/"', '"s2b/"', '"s2d/"', '"d2s/"', '"eip/"']
    words += ["{", "}", "[", "]", ":", ",", "true", "false", "null", "-0", "1e2", "1.0", "0.5",
              "1e400", "1e-400", "9007199254740992", "9007199254740993",
              '"18446744073709551615"', '"-9223372036854775808"', '"9223372036854775808"',
              "\\u0000", "\\ud800", "\\u00e9", "\\\"", "\\\\", "\ufeff"]
    seen, unique = set(), []
    for w in words:
        if w not in seen:
            seen.add(w)
            unique.append(w)
    return unique


def dict_line(index, word):
    escaped = ""
    for ch in word.encode("utf-8"):
        c = chr(ch)
        if c in '"\\':
            escaped += "\\" + c
        elif 0x20 <= ch < 0x7F:
            escaped += c
        else:
            escaped += "\\x%02X" % ch
    return 'kw%d="%s"\n' % (index, escaped)


def generate(conformance):
    """{relative path: bytes} of everything the corpus holds."""
    files, skipped = {}, []
    for path in case_files(conformance):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        op = doc["op"]
        for case in doc["cases"]:
            name = seed_name(case["id"])
            if "diff/" + name in files:
                raise SystemExit("make_corpus.py: two cases map to the seed name %s" % name)
            files["parser/%s.json" % name] = parser_seed(doc, case)
            try:
                seed = encode(op, case)
            except Unencodable as why:
                skipped.append("%s: %s" % (case["id"], why))
                continue
            if len(seed) > MAX_SEED_BYTES:
                skipped.append("%s: its seed would have %d bytes" % (case["id"], len(seed)))
                continue
            files["diff/" + name] = seed
            if "output" in case["expect"]:
                files["roundtrip/" + name] = seed
    files["parser.dict"] = "".join(dict_line(i, w) for i, w in
                                   enumerate(dictionary_entries())).encode("utf-8")
    return files, skipped


TARGET_DIRS = ("diff", "roundtrip", "parser")


def existing(out):
    """{relative path: bytes} of the generated parts of out as they are."""
    found = {}
    for target in TARGET_DIRS:
        folder = os.path.join(out, target)
        if os.path.isdir(folder):
            for name in sorted(os.listdir(folder)):
                with open(os.path.join(folder, name), "rb") as f:
                    found[target + "/" + name] = f.read()
    dict_path = os.path.join(out, "parser.dict")
    if os.path.isfile(dict_path):
        with open(dict_path, "rb") as f:
            found["parser.dict"] = f.read()
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="report differences with the committed corpus; write nothing")
    parser.add_argument("--conformance", default=os.path.join(ROOT, "conformance"))
    parser.add_argument("--out", default=os.path.join(ROOT, "corpus"))
    args = parser.parse_args(argv)
    files, skipped = generate(args.conformance)
    have = existing(args.out)
    stale = sorted(set(have) - set(files))
    changed = sorted(p for p in files if have.get(p) != files[p])
    if args.check:
        for p in changed:
            print("make_corpus.py: %s is %s" % (p, "missing" if p not in have else "out of date"))
        for p in stale:
            print("make_corpus.py: %s is not generated any more" % p)
        if changed or stale:
            print("make_corpus.py: run python3 tools/make_corpus.py to regenerate corpus/")
            return 1
        print("make_corpus.py: corpus/ is up to date (%d files)" % len(files))
        return 0
    for p in stale:
        os.remove(os.path.join(args.out, p))
    for p in changed:
        path = os.path.join(args.out, p)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(files[p])
    for line in skipped:
        print("make_corpus.py: skipped %s" % line)
    counts = {t: sum(1 for p in files if p.startswith(t + "/")) for t in TARGET_DIRS}
    print("make_corpus.py: %s; %d files written, %d removed" % (
        ", ".join("%s %d" % (t, counts[t]) for t in TARGET_DIRS), len(changed), len(stale)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
