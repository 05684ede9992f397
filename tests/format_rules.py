#!/usr/bin/env python3
"""Does the format set catch a reader that gets one rule of the case format wrong?

usage: format_rules.py FORMAT_DIR

reference/reference_model.py reads case files by the rules of spec/case-format.md.
This script breaks one of those rules at a time in it (a "mutant" reader: big-
endian bytes, u1 least significant bit first, iota as bit patterns, NaN with
another payload, ...), runs every case under FORMAT_DIR (conformance/format/)
through it and counts the cases that then fail. Each mutant must fail at least
one case, and the unbroken reader none. Prints one line per mutant; exit
status 1 when a mutant passes every case (the set does not pin that rule) or
the unbroken reader fails one.
"""

import contextlib
import json
import math
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import reference_model as rm  # noqa: E402

MUTANTS = []


def mutant(section, rule):
    """Registers a function that breaks one rule of the given section."""
    def register(break_rule):
        MUTANTS.append((section, rule, break_rule))
        return break_rule
    return register


@contextlib.contextmanager
def patched(**replacements):
    """Replaces module attributes of the reference model for a while."""
    saved = {name: getattr(rm, name) for name in replacements}
    for name, value in replacements.items():
        setattr(rm, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(rm, name, value)


def wrap(name, make):
    """patched(name=make(original)): a replacement built around the original."""
    return patched(**{name: make(getattr(rm, name))})


def float_kind(type_name):
    return rm.TYPES[type_name][1] == "float"


def refusing(predicate, why):
    """A reader that refuses every tensor description for which predicate holds."""
    def tensor(original):
        def from_json(desc):
            if predicate(desc):
                raise rm.FormatError(why)
            return original(desc)
        return from_json
    return wrap("tensor_from_json", tensor)


def rewriting(key, rewrite):
    """A reader that reads the payload string under key as rewrite(text)."""
    def tensor(original):
        def from_json(desc):
            if key in desc:
                desc = dict(desc, **{key: rewrite(desc[key])})
            return original(desc)
        return from_json
    return wrap("tensor_from_json", tensor)


# ---------------------------------------------------------------- section 1, 2, 3, 4: the JSON text and the case

@mutant("1", "\\u escapes in strings are not decoded")
def no_escapes():
    def load(original):
        def read(path):
            with open(path, encoding="utf-8") as f:
                text = f.read().replace("\\u", "u").replace("\\/", "/")
            return json.loads(text, parse_int=lambda t: -0.0 if t == "-0" else int(t))
        return read
    return wrap("load_case_file", load)


@mutant("1", "a number of more than 32 characters is refused")
def short_numbers():
    def load(original):
        def refuse_long(text):
            if len(text) > 32:
                raise rm.FormatError("number %s too long" % text)
            return float(text)

        def read(path):
            with open(path, encoding="utf-8") as f:
                return json.load(f, parse_float=refuse_long,
                                 parse_int=lambda t: -0.0 if t == "-0" else int(t))
        return read
    return wrap("load_case_file", load)


@mutant("3", "inputs are taken in the order the file lists them, not by name")
def inputs_by_position():
    def run_case(original):
        def run(op, case):
            names = rm.OPS[op][3]
            descs = list(case["inputs"].values())
            return original(op, dict(case, inputs=dict(zip(names, descs))))
        return run
    return wrap("run_case", run_case)


@mutant("4", "block_size absent means 2")
def block_size_default():
    def attributes(original):
        def depth(data, attrs, prefix):
            return original(data, dict({"block_size": 2}, **attrs), prefix)
        return depth
    return wrap("depth_attributes", attributes)


@mutant("3", "an absent attributes member gives mode its first value")
def mode_default():
    def run_case(original):
        def run(op, case):
            if "attributes" not in case and op in ("SpaceToDepth-1", "DepthToSpace-1"):
                case = dict(case, attributes={"mode": "blocks_first"})
            return original(op, case)
        return run
    return wrap("run_case", run_case)


# ---------------------------------------------------------------- section 5: integers

@mutant("5", "decimal strings are read through a double")
def strings_through_double():
    def bits(original):
        def value_bits(type_name, value):
            if isinstance(value, str) and not float_kind(type_name):
                value = int(float(value))
            return original(type_name, value)
        return value_bits
    return wrap("value_bits", bits)


@mutant("5", "an integer must be written without fraction or exponent (1e2, 1.0 refused)")
def plain_integers_only():
    def bits(original):
        def value_bits(type_name, value):
            kind = rm.TYPES[type_name][1]
            if kind in ("int", "uint") and isinstance(value, float):
                raise rm.FormatError("%r is not written as an integer" % value)
            return original(type_name, value)
        return value_bits
    return wrap("value_bits", bits)


@mutant("5", "dimensions and attributes must be JSON numbers (decimal strings refused)")
def no_strings_in_shapes():
    return refusing(lambda desc: any(isinstance(d, str) for d in desc["shape"]),
                    "a dimension as a string")


# ---------------------------------------------------------------- section 6: shapes and raw bytes

@mutant("6.1", "rank 0 has no elements")
def rank0_empty():
    def count(original):
        return lambda shape: 0 if not shape else original(shape)
    return wrap("element_count", count)


@mutant("6.1", "the element count is the product of the non-zero dimensions")
def nonzero_product():
    def count(original):
        return lambda shape: original([d for d in shape if d])
    return wrap("element_count", count)


@mutant("6.1", "rank above 16 is refused by the reader")
def rank_16():
    return refusing(lambda desc: len(desc["shape"]) > 16, "rank above 16")


@mutant("6.2", "elements in column-major order (the first axis fastest)")
def column_major():
    def tensor(original):
        def from_json(desc):
            t = original(desc)
            shape = t.shape
            if len(shape) < 2 or not rm.element_count(shape):
                return t
            strides = rm.row_major_strides(shape)
            bits = [0] * len(t.bits)
            for k, index in enumerate(rm.all_indices(list(reversed(shape)))):
                bits[rm.flat_index(list(reversed(index)), strides)] = t.bits[k]
            return rm.Tensor(t.type, shape, bits)
        return from_json
    return wrap("tensor_from_json", tensor)


def byte_swapped(data, type_name):
    size = rm.type_bits(type_name) // 8
    if size <= 1:
        return data
    return b"".join(data[i:i + size][::-1] for i in range(0, len(data), size))


@mutant("6.2", "raw bytes big-endian")
def big_endian():
    def unpack(original):
        return lambda t, data, count: original(t, byte_swapped(bytes(data), t), count)

    def pack(original):
        return lambda t, bits: byte_swapped(original(t, bits), t)
    with wrap("unpack", unpack), wrap("pack", pack):
        yield


@mutant("6.2", "u1 element 0 in the least significant bit")
def u1_lsb_first():
    def reverse_bits(data):
        return bytes(int("{:08b}".format(b)[::-1], 2) for b in data)

    def unpack(original):
        return lambda t, data, count: original(t, reverse_bits(data) if t == "u1" else data, count)

    def pack(original):
        return lambda t, bits: reverse_bits(original(t, bits)) if t == "u1" else original(t, bits)
    with wrap("unpack", unpack), wrap("pack", pack):
        yield


@mutant("6.2", "u4/i4 element 0 in the high nibble")
def nibbles_swapped():
    def swap(data):
        return bytes(((b & 15) << 4) | (b >> 4) for b in data)

    def unpack(original):
        return lambda t, data, count: [
            (swap(data)[i // 2] >> (4 * (i % 2))) & 15 for i in range(count)] \
            if t in ("u4", "i4") else original(t, data, count)

    def pack(original):
        return lambda t, bits: swap(original(t, bits)) if t in ("u4", "i4") else original(t, bits)
    with wrap("unpack", unpack), wrap("pack", pack):
        yield


@mutant("6.2", "the unused bits of a packed tensor's last byte are not zero")
def tail_bits_set():
    def pack(original):
        def packed(t, bits):
            data = bytearray(original(t, bits))
            width = rm.type_bits(t)
            used = len(bits) * width % 8
            if width < 8 and used:
                data[-1] |= (0xFF >> used) if width == 1 else 0xF0
            return bytes(data)
        return packed
    return wrap("pack", pack)


# ---------------------------------------------------------------- section 7.1: values

@mutant("7.1.1", "negative integers stored as sign and magnitude")
def sign_magnitude():
    def bits(original):
        def value_bits(type_name, value):
            kind = rm.TYPES[type_name][1]
            number = int(value) if isinstance(value, (int, float, str)) and not isinstance(
                value, bool) and kind == "int" else None
            if number is not None and number < 0:
                width = rm.type_bits(type_name)
                return (1 << (width - 1)) | -number
            return original(type_name, value)
        return value_bits
    return wrap("value_bits", bits)


@mutant("7.1.2", "a boolean number must be written 0 or 1 (1.0, 1e0, -0 refused)")
def boolean_plain_numbers():
    def bits(original):
        def value_bits(type_name, value):
            if type_name == "boolean" and isinstance(value, float):
                raise rm.FormatError("boolean %r" % value)
            return original(type_name, value)
        return value_bits
    return wrap("value_bits", bits)


@mutant("7.1.2", "true is the byte 0xFF")
def true_all_ones():
    def bits(original):
        def value_bits(type_name, value):
            b = original(type_name, value)
            return 0xFF if type_name == "boolean" and b == 1 else b
        return value_bits
    return wrap("value_bits", bits)


def min_normal(type_name):
    exponent_bits, fraction_bits = rm.FLOAT_FORMATS[type_name]
    bias = (1 << (exponent_bits - 1)) - 1
    return 2.0 ** (1 - bias)


@mutant("7.1.3", "subnormal numbers flushed to zero")
def flush_subnormals():
    def bits(original):
        def float_bits(type_name, number):
            x = float(number)
            if x != 0 and abs(x) < min_normal(type_name):
                x = math.copysign(0.0, x)
            return original(type_name, x)
        return float_bits
    return wrap("float_bits", bits)


@mutant("7.1.3", "-0 and -0.0 lose their sign")
def negative_zero_positive():
    def bits(original):
        return lambda t, number: original(t, 0.0 if float(number) == 0 else number)
    return wrap("float_bits", bits)


@mutant("7.1.3", "the number -0 read as the integer 0 (a reader whose integers have no sign of zero)")
def minus_zero_token():
    def load(original):
        def read(path):
            with open(path, encoding="utf-8") as f:
                return json.load(f)
        return read
    return wrap("load_case_file", load)


@mutant("7.1.3", "an integer in a float tensor must be exact (no rounding to binary64)")
def integers_exact():
    def bits(original):
        def float_bits(type_name, number):
            if isinstance(number, int) and float(number) != number:
                raise rm.FormatError("%d is not exact" % number)
            return original(type_name, number)
        return float_bits
    return wrap("float_bits", bits)


@mutant("7.1.3", "f64 numbers read through binary32")
def f64_through_f32():
    def bits(original):
        def float_bits(type_name, number):
            x = float(number)
            if type_name == "f64" and math.isfinite(x) and abs(x) < 3.4e38:
                x = struct.unpack("<f", struct.pack("<f", x))[0]
            return original(type_name, x)
        return float_bits
    return wrap("float_bits", bits)


@mutant("7.1.5", "bf16 laid out as f16")
def bf16_as_f16():
    def bits(original):
        return lambda t, number: original("f16" if t == "bf16" else t, number)
    return wrap("float_bits", bits)


@mutant("7.1.5", "f8e4m3 read as IEEE-like (exponent 15 reserved for inf and NaN)")
def e4m3_ieee():
    def value(original):
        def float_value(type_name, raw):
            if type_name == "f8e4m3" and (raw >> 3) & 0xF == 0xF:
                return math.nan
            return original(type_name, raw)
        return float_value
    return wrap("float_value", value)


def special_mutant(break_special):
    def strings(original):
        return lambda t, text: break_special(t, text, original(t, text))
    return wrap("float_string_bits", strings)


@mutant("7.1.4", "\"-inf\" loses its sign")
def minus_inf_positive():
    exponent_sign = {t: 1 << sum(f) for t, f in rm.FLOAT_FORMATS.items()}
    return special_mutant(lambda t, text, b: b & ~exponent_sign[t] if text == "-inf" else b)


@mutant("7.1.4", "\"nan\" has every fraction bit set")
def nan_all_ones():
    def all_ones(t, text, b):
        if "nan" not in text:
            return b
        return b | ((1 << rm.FLOAT_FORMATS[t][1]) - 1)
    return special_mutant(all_ones)


@mutant("7.1.4", "\"nan\" is the smallest NaN (fraction 1, signalling)")
def nan_signalling():
    def signalling(t, text, b):
        if "nan" not in text or t == "f8e4m3":
            return b
        fraction = (1 << rm.FLOAT_FORMATS[t][1]) - 1
        return (b & ~fraction) | 1
    return special_mutant(signalling)


@mutant("7.1.4", "\"-nan\" loses its sign")
def minus_nan_positive():
    sign = {t: 1 << sum(f) for t, f in rm.FLOAT_FORMATS.items()}
    return special_mutant(lambda t, text, b: b & ~sign[t] if text == "-nan" else b)


# ---------------------------------------------------------------- sections 7.2, 7.3: hex, base64

@mutant("7.2", "each hex byte written low nibble first")
def hex_low_first():
    return rewriting("hex", lambda text: "".join(
        text[i + 1] + text[i] for i in range(0, len(text), 2)))


@mutant("7.2", "upper-case hex digits refused")
def hex_lower_only():
    return refusing(lambda desc: "hex" in desc and desc["hex"] != desc["hex"].lower(),
                    "upper-case hex")


@mutant("7.3", "base64 '+' and '/' swapped (alphabet positions 62 and 63)")
def base64_swapped():
    return rewriting("base64", lambda text: text.translate(str.maketrans("+/", "/+")))


@mutant("7.3", "a final base64 group with padding is dropped")
def base64_no_padding():
    return rewriting("base64", lambda text: text[:-4] if "=" in text else text)


# ---------------------------------------------------------------- section 7.4: fill

def fill_mutant(kind, break_fill):
    def fill(original):
        def fill_bits(type_name, spec, count):
            if list(spec) == [kind]:
                return break_fill(type_name, spec[kind], count, original)
            return original(type_name, spec, count)
        return fill_bits
    return wrap("fill_bits", fill)


@mutant("7.4.1", "iota gives bit patterns (a counter), not values")
def iota_as_counter():
    return fill_mutant("iota", lambda t, s, n, original: original(t, {"counter": s}, n))


@mutant("7.4.1", "iota over floats converted through binary32")
def iota_through_f32():
    def through_f32(t, s, n, original):
        if not float_kind(t):
            return original(t, {"iota": s}, n)
        return [rm.float_bits(t, struct.unpack("<f", struct.pack("<f", float(int(s) + i)))[0])
                for i in range(n)]
    return fill_mutant("iota", through_f32)


@mutant("7.4.2", "counter gives values (an iota), not bit patterns")
def counter_as_iota():
    return fill_mutant("counter", lambda t, s, n, original: original(t, {"iota": s}, n))


@mutant("7.4.2", "counter saturates at the type's range instead of wrapping")
def counter_saturates():
    def saturate(t, s, n, original):
        top = (1 << rm.type_bits(t)) - 1
        return [min(max(int(s) + i, 0), top) for i in range(n)]
    return fill_mutant("counter", saturate)


@mutant("7.4.2", "counter start reduced to the type's width, but start + i not wrapped past the largest pattern")
def counter_sum_unwrapped():
    def unwrapped(t, s, n, original):
        width = rm.type_bits(t)
        start = int(s) % (1 << width)
        return [(start + i) if start + i < (1 << width) else (1 << width) - 1 for i in range(n)]
    return fill_mutant("counter", unwrapped)


@mutant("7.4.3", "prng output number i instead of i + 1")
def prng_off_by_one():
    def splitmix(original):
        return lambda seed, index: original(seed, index - 1) if index else original(seed, 0) ^ 1
    return wrap("splitmix64", splitmix)


@mutant("7.4.3", "prng keeps the high bits instead of the low bits")
def prng_high_bits():
    def high(t, spec, n, original):
        width = rm.type_bits(t)
        return [rm.splitmix64(int(spec["seed"]), i) >> (64 - width) for i in range(n)]
    return fill_mutant("prng", high)


# ---------------------------------------------------------------- section 7.5 and 8

@mutant("7.5", "a digest in upper-case hex never matches")
def sha256_case_sensitive():
    def matches(original):
        def tensor_matches_json(tensor, desc):
            if "sha256" in desc and desc["sha256"] != desc["sha256"].lower():
                return False
            return original(tensor, desc)
        return tensor_matches_json
    return wrap("tensor_matches_json", matches)


@mutant("8", "an integer-list attribute of more than 8 values refused")
def short_lists():
    def run_case(original):
        def run(op, case):
            for value in case.get("attributes", {}).values():
                if isinstance(value, list) and len(value) > 8:
                    raise rm.FormatError("a list of %d values" % len(value))
            return original(op, case)
        return run
    return wrap("run_case", run_case)


# ---------------------------------------------------------------- running

def failing_cases(files):
    """How many cases of files the (possibly broken) reader gets wrong; a
    file it cannot read fails all its cases."""
    failed = 0
    for path in files:
        try:
            doc = rm.load_case_file(path)
        except (rm.FormatError, ValueError):
            with open(path, encoding="utf-8") as f:
                failed += len(json.load(f)["cases"])
            continue
        for case in doc["cases"]:
            try:
                failed += rm.check_case(doc["op"], case) is not None
            except (rm.FormatError, ValueError, KeyError, OverflowError, struct.error):
                failed += 1
    return failed


def broken(break_rule):
    """The context in which break_rule's rule is broken."""
    if break_rule.__code__.co_flags & 0x20:  # a generator: it yields inside its patches
        return contextlib.contextmanager(break_rule)()
    return break_rule()


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    files = rm.case_files_under([argv[1]])
    total = sum(len(rm.load_case_file(p)["cases"]) for p in files)
    baseline = failing_cases(files)
    print("unbroken reader: %d of %d format cases fail" % (baseline, total))
    status = 0 if baseline == 0 and total else 1
    for section, rule, break_rule in MUTANTS:
        with broken(break_rule):
            failed = failing_cases(files)
        verdict = "caught" if failed else "NOT CAUGHT"
        print("%-6s %-10s %3d failing  %s" % (section, verdict, failed, rule))
        if not failed:
            status = 1
    print("%d rules broken one at a time; %s" % (
        len(MUTANTS), "each fails at least one case" if status == 0 else "see above"))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
