#!/usr/bin/env python3
"""Independent reference model of movconf's operations.

The C oracle (src/oracle/) follows the specification's own steps: reshape,
transpose, reshape, crop. This model does not: every output element is found
with a direct index formula (which input element, or a zero pad, lands at
this output index). Two derivations that agree are the point of having both.

Tensors are raw bit patterns: a list of non-negative ints, one per element,
with the element type's storage width. Data movement copies bits, so the
model never does arithmetic on values; float types exist only as bit
patterns (NaN payloads, -0.0 and denormals survive by construction).

The model also validates inputs in the suite's check order (spec/errata.md,
case-format brief) and raises ModelError with the error name a conforming
implementation reports.

Standard library only. `python3 reference/reference_model.py --self-test`
checks the model against a second, reshape/transpose-based derivation and
against the round-trip properties of the inverse pairs.
`python3 reference/reference_model.py --check-cases PATH...` runs every case of
the case files under the paths through the model and reports each one whose
expected output or error the model does not reproduce (CTest runs it over
the generated cases, whose expectations come from the C oracle).
`--check-cases --only-folder NAME PATH...` checks only the files under a
folder named NAME, `--check-cases --except-folder NAME PATH...` only the
others: CTest splits conformance/ in two so that no case is checked twice.
"""

import base64
import hashlib
import itertools
import json
import math
import os
import struct
import sys

INT64_MAX = (1 << 63) - 1
MAX_RANK = 16
DEFAULT_MAX_OUTPUT_BYTES = 1 << 30

# name: (storage bits, kind); kind is bool, uint, int or float.
TYPES = {
    "boolean": (8, "bool"),
    "u8": (8, "uint"),
    "i8": (8, "int"),
    "u16": (16, "uint"),
    "i16": (16, "int"),
    "f16": (16, "float"),
    "bf16": (16, "float"),
    "u32": (32, "uint"),
    "i32": (32, "int"),
    "f32": (32, "float"),
    "u64": (64, "uint"),
    "i64": (64, "int"),
    "f64": (64, "float"),
    "f8e4m3": (8, "float"),
    "f8e5m2": (8, "float"),
    "u1": (1, "uint"),
    "u4": (4, "uint"),
    "i4": (4, "int"),
}

# Side inputs (block_shape, crops, pads) accept these and nothing else.
SIDE_INTEGER_TYPES = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")

# The operations, from the one list (spec/operations.json, written from
# include/movconf/op_list.h): name -> (slug, case-id prefix, clause prefix,
# input names in order).
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "spec",
                       "operations.json"), encoding="utf-8") as _f:
    _LIST = json.load(_f)["operations"]
OPS = {op["name"]: (op["slug"], op["prefix"].lower(), op["prefix"],
                    tuple(i["name"] for i in op["inputs"])) for op in _LIST}

# Inputs a case may leave out (trailing in the order of OPS).
OPTIONAL_INPUTS = {op["name"]: tuple(i["name"] for i in op["inputs"] if i["optional"])
                   for op in _LIST if any(i["optional"] for i in op["inputs"])}


class ModelError(Exception):
    """An input the operation rejects: name is the case-file error name."""

    def __init__(self, name, clause, message):
        super().__init__("%s (%s): %s" % (name, clause, message))
        self.name = name
        self.clause = clause


class FormatError(Exception):
    """A tensor description the case format does not allow."""


def type_bits(type_name):
    if type_name not in TYPES:
        raise FormatError("unknown element type %r" % (type_name,))
    return TYPES[type_name][0]


class Tensor:
    """A dense row-major tensor of raw element bit patterns."""

    def __init__(self, type_name, shape, bits):
        type_bits(type_name)
        self.type = type_name
        self.shape = [int(d) for d in shape]
        self.bits = list(bits)
        if len(self.bits) != element_count(self.shape):
            raise FormatError("%d elements for shape %s" % (len(self.bits), self.shape))

    def __eq__(self, other):
        return (isinstance(other, Tensor) and self.type == other.type
                and self.shape == other.shape and self.bits == other.bits)

    def __repr__(self):
        return "Tensor(%s, %s, %s)" % (self.type, self.shape, self.bits)


# ---------------------------------------------------------------- shapes

def element_count(shape):
    count = 1
    for d in shape:
        count *= d
    return count


def row_major_strides(shape):
    strides = [1] * len(shape)
    for axis in range(len(shape) - 2, -1, -1):
        strides[axis] = strides[axis + 1] * shape[axis + 1]
    return strides


def all_indices(shape):
    """Every multi-index of shape in row-major order."""
    if element_count(shape) == 0:
        return iter(())  # itertools.product would materialise every range first
    return itertools.product(*[range(d) for d in shape])


def flat_index(index, strides):
    return sum(i * s for i, s in zip(index, strides))


def mixed_radix(digits, radices):
    """Row-major position of digits inside a grid of the given radices."""
    value = 0
    for digit, radix in zip(digits, radices):
        value = value * radix + digit
    return value


def checked(value, what):
    """MC-L3: every size the operation computes must fit in int64."""
    if value > INT64_MAX:
        raise ModelError("shape_overflow", "MC-L3", "%s = %d exceeds int64" % (what, value))
    return value


def check_output_size(type_name, shape, max_bytes):
    """The final MC-L3 / MC-L4 checks on the output shape.

    A shape's count is valid when the product of its non-zero dimensions fits
    in int64 (so [0, 2^32, 2^32] overflows rather than being empty)."""
    nonzero = 1
    for d in shape:
        if d:
            nonzero *= d
    checked(nonzero, "output element count")
    nbytes = storage_bytes(type_name, element_count(shape))
    if nbytes > max_bytes:
        raise ModelError("output_too_large", "MC-L4",
                         "output needs %d bytes, cap %d" % (nbytes, max_bytes))


def storage_bytes(type_name, count):
    return (count * type_bits(type_name) + 7) // 8


# ---------------------------------------------------------------- packing

def pack(type_name, bits):
    """Raw little-endian bytes of a tensor; sub-byte types packed (MC-S3)."""
    width = type_bits(type_name)
    out = bytearray(storage_bytes(type_name, len(bits)))
    if width == 1:
        for i, b in enumerate(bits):
            out[i // 8] |= (b & 1) << (7 - i % 8)  # element 0 in bit 7
    elif width == 4:
        for i, b in enumerate(bits):
            out[i // 2] |= (b & 0xF) << (4 * (i % 2))  # element 0 in the low nibble
    else:
        size = width // 8
        for i, b in enumerate(bits):
            out[i * size:(i + 1) * size] = b.to_bytes(size, "little")
    return bytes(out)


def unpack(type_name, data, count):
    width = type_bits(type_name)
    if len(data) != storage_bytes(type_name, count):
        raise FormatError("%d bytes for %d elements of %s" % (len(data), count, type_name))
    if width == 1:
        bits = [(data[i // 8] >> (7 - i % 8)) & 1 for i in range(count)]
    elif width == 4:
        bits = [(data[i // 2] >> (4 * (i % 2))) & 0xF for i in range(count)]
    else:
        size = width // 8
        bits = [int.from_bytes(data[i * size:(i + 1) * size], "little") for i in range(count)]
    if pack(type_name, bits) != bytes(data):
        raise FormatError("unused trailing bits of a packed %s tensor are not zero" % type_name)
    return bits


def sha256_hex(tensor):
    return hashlib.sha256(pack(tensor.type, tensor.bits)).hexdigest()


# ---------------------------------------------------------------- values <-> bits

def _f8e4m3_value(raw):
    sign = -1.0 if raw & 0x80 else 1.0
    exponent = (raw >> 3) & 0xF
    mantissa = raw & 0x7
    if exponent == 0xF and mantissa == 0x7:
        return math.nan  # E4M3FN: no infinities, one NaN per sign
    if exponent == 0:
        return sign * mantissa / 8.0 * 2.0 ** -6
    return sign * (1.0 + mantissa / 8.0) * 2.0 ** (exponent - 7)


def _f8e5m2_value(raw):
    sign = -1.0 if raw & 0x80 else 1.0
    exponent = (raw >> 2) & 0x1F
    mantissa = raw & 0x3
    if exponent == 0x1F:
        return sign * math.inf if mantissa == 0 else math.nan
    if exponent == 0:
        return sign * mantissa / 4.0 * 2.0 ** -14
    return sign * (1.0 + mantissa / 4.0) * 2.0 ** (exponent - 15)


def float_value(type_name, raw):
    """The number a float bit pattern stands for (NaN payloads collapse)."""
    if type_name == "f16":
        return struct.unpack("<e", raw.to_bytes(2, "little"))[0]
    if type_name == "bf16":
        return struct.unpack("<f", (raw << 16).to_bytes(4, "little"))[0]
    if type_name == "f32":
        return struct.unpack("<f", raw.to_bytes(4, "little"))[0]
    if type_name == "f64":
        return struct.unpack("<d", raw.to_bytes(8, "little"))[0]
    if type_name == "f8e4m3":
        return _f8e4m3_value(raw)
    if type_name == "f8e5m2":
        return _f8e5m2_value(raw)
    raise FormatError("%s is not a float type" % type_name)


def _same_number(a, b):
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def float_bits(type_name, number):
    """Bit pattern of an exactly representable number; FormatError if inexact."""
    # The one rounding: a number is read as the nearest binary64 (Python's
    # float() of an int or of the JSON text rounds to nearest, ties to even).
    try:
        x = float(number)
    except OverflowError:
        raise FormatError("%r overflows binary64" % (number,))
    if math.isnan(x):
        raise FormatError("a NaN value has no defined payload; use hex")
    width = type_bits(type_name)
    candidates = []
    try:
        if type_name == "f16":
            candidates = [int.from_bytes(struct.pack("<e", x), "little")]
        elif type_name in ("f32", "bf16"):
            raw32 = int.from_bytes(struct.pack("<f", x), "little")
            candidates = [raw32 if type_name == "f32" else raw32 >> 16]
        elif type_name == "f64":
            candidates = [int.from_bytes(struct.pack("<d", x), "little")]
        else:
            candidates = [raw for raw in range(1 << width)]
    except (OverflowError, struct.error):
        candidates = []
    for raw in candidates:
        value = float_value(type_name, raw)
        if not math.isnan(value) and _same_number(value, x):
            return raw
    raise FormatError("%r is not exactly representable as %s" % (number, type_name))


# Exponent and fraction widths of the float types (section 7.1's table).
FLOAT_FORMATS = {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23), "f64": (11, 52),
                 "f8e4m3": (4, 3), "f8e5m2": (5, 2)}


def float_string_bits(type_name, text):
    """"inf", "-inf", "nan", "-nan": the infinities and the canonical quiet
    NaN (top fraction bit set; f8e4m3's only NaN has every fraction bit set)."""
    exponent_bits, fraction_bits = FLOAT_FORMATS[type_name]
    negative = text.startswith("-")
    name = text[1:] if negative else text
    sign = (1 << (exponent_bits + fraction_bits)) if negative else 0
    all_ones = ((1 << exponent_bits) - 1) << fraction_bits
    if name == "inf" and type_name != "f8e4m3":
        return sign | all_ones
    if name == "nan":
        fraction = (1 << fraction_bits) - 1 if type_name == "f8e4m3" else 1 << (fraction_bits - 1)
        return sign | all_ones | fraction
    raise FormatError("float value %r for %s" % (text, type_name))


def value_bits(type_name, value):
    """Bits of one element given as a case-file value."""
    bits, kind = TYPES[type_name]
    if kind == "bool":
        # true, false, or a number whose value is 1 or 0 in any notation
        # (1, 1.0, 1e0, 0, -0: section 7.1); never a string.
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, (int, float)) and value in (0, 1):
            return int(value)
        raise FormatError("boolean value %r" % (value,))
    if kind == "float":
        if isinstance(value, str):
            return float_string_bits(type_name, value)
        if isinstance(value, bool):
            raise FormatError("boolean %r for a float type" % (value,))
        return float_bits(type_name, value)
    # Integer types: numbers or decimal strings, two's complement storage.
    if isinstance(value, bool):
        raise FormatError("boolean %r for an integer type" % (value,))
    if isinstance(value, str):
        value = int(value, 10)
    if isinstance(value, float):
        if value != int(value):
            raise FormatError("non-integer %r" % value)
        value = int(value)
    if kind == "uint":
        low, high = 0, (1 << bits) - 1
    else:
        low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if not low <= value <= high:
        raise FormatError("%d does not fit %s" % (value, type_name))
    return value & ((1 << bits) - 1)


def bits_value(type_name, raw):
    """The integer (or bool) an integer/boolean element stands for."""
    bits, kind = TYPES[type_name]
    if kind == "bool":
        return raw != 0
    if kind == "int" and raw >> (bits - 1):
        return raw - (1 << bits)
    if kind in ("int", "uint"):
        return raw
    raise FormatError("%s is not an integer type" % type_name)


# ---------------------------------------------------------------- case-file tensors

def tensor_from_json(desc):
    """Decodes a case-file tensor (values, hex, base64 or fill)."""
    type_name = desc["type"]
    type_bits(type_name)
    shape = [int(d) for d in desc["shape"]]
    count = element_count(shape)
    forms = [k for k in ("values", "hex", "base64", "fill", "sha256") if k in desc]
    if len(forms) != 1:
        raise FormatError("exactly one payload form expected, got %s" % forms)
    form = forms[0]
    if form == "values":
        values = desc["values"]
        if len(values) != count:
            raise FormatError("%d values for %d elements" % (len(values), count))
        return Tensor(type_name, shape, [value_bits(type_name, v) for v in values])
    if form == "hex":
        return Tensor(type_name, shape, unpack(type_name, bytes.fromhex(desc["hex"]), count))
    if form == "base64":
        data = base64.b64decode(desc["base64"], validate=True)
        return Tensor(type_name, shape, unpack(type_name, data, count))
    if form == "fill":
        return Tensor(type_name, shape, fill_bits(type_name, desc["fill"], count))
    raise FormatError("a sha256 tensor has no elements to decode")


def fill_bits(type_name, fill, count):
    if list(fill) == ["iota"]:
        start = int(fill["iota"])
        return [value_bits(type_name, start + i) for i in range(count)]
    if list(fill) == ["counter"]:
        start = int(fill["counter"])
        modulus = 1 << type_bits(type_name)
        return [(start + i) % modulus for i in range(count)]
    if list(fill) == ["prng"] and list(fill["prng"]) == ["seed"]:
        seed = int(fill["prng"]["seed"])
        mask = (1 << type_bits(type_name)) - 1
        return [splitmix64(seed, i) & mask for i in range(count)]
    raise FormatError("fill %r is not implemented by the reference model" % (fill,))


def splitmix64(seed, index):
    """Output number index + 1 of SplitMix64 seeded with seed (case-format.md 7.4)."""
    mask = (1 << 64) - 1
    z = (seed + (index + 1) * 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def tensor_matches_json(tensor, desc):
    """True when tensor is exactly what the case-file description says."""
    if desc["type"] != tensor.type or [int(d) for d in desc["shape"]] != tensor.shape:
        return False
    if "sha256" in desc:
        return desc["sha256"].lower() == sha256_hex(tensor)
    return tensor_from_json(desc) == tensor


# ---------------------------------------------------------------- validation helpers

def check_ranks(inputs, names):
    """MC-L1 over every input tensor, in input order."""
    for name in names:
        if len(inputs[name].shape) > MAX_RANK:
            raise ModelError("rank_limit", "MC-L1",
                             "%s has rank %d" % (name, len(inputs[name].shape)))


def side_values(inputs, names, rank, prefix):
    """V2 (type), V3 (1-D), V4 (length N), then MC-L2 (fits int64)."""
    for name in names:
        if inputs[name].type not in SIDE_INTEGER_TYPES:
            raise ModelError("side_input_type", prefix + "-V2",
                             "%s is %s" % (name, inputs[name].type))
    for name in names:
        if len(inputs[name].shape) != 1:
            raise ModelError("side_input_rank", prefix + "-V3",
                             "%s has rank %d" % (name, len(inputs[name].shape)))
    for name in names:
        if inputs[name].shape[0] != rank:
            raise ModelError("side_input_length", prefix + "-V4",
                             "%s has %d elements, data rank %d"
                             % (name, inputs[name].shape[0], rank))
    values = {}
    for name in names:
        values[name] = [bits_value(inputs[name].type, b) for b in inputs[name].bits]
        if any(v > INT64_MAX for v in values[name]):
            raise ModelError("value_out_of_range", "MC-L2", "%s holds a value above int64" % name)
    return values


def check_blocks(block, prefix):
    if any(b < 1 for b in block):
        raise ModelError("block_below_one", prefix + "-V5", "block_shape %s" % block)
    if block[0] != 1:
        raise ModelError("block_first_not_one", prefix + "-V6", "block_shape[0] = %d" % block[0])


def check_margins(begin, end, negative_error, first_error, prefix):
    """V7 (all >= 0) and V8 (element 0 is 0) for crops or pads."""
    if any(v < 0 for v in begin) or any(v < 0 for v in end):
        raise ModelError(negative_error, prefix + "-V7", "begin %s end %s" % (begin, end))
    if begin[0] != 0 or end[0] != 0:
        raise ModelError(first_error, prefix + "-V8", "begin[0] %d end[0] %d" % (begin[0], end[0]))


def checked_product(values, what):
    product = 1
    for v in values:
        product = checked(product * v, what)
    return product


# ---------------------------------------------------------------- BatchToSpace-2

def batch_to_space(inputs, attrs, max_bytes):
    names = OPS["BatchToSpace-2"][3]
    check_ranks(inputs, names)
    data = inputs["data"]
    rank = len(data.shape)
    if rank < 2:
        raise ModelError("data_rank", "B2S-V1", "data rank %d < 2" % rank)
    side = side_values(inputs, names[1:], rank, "B2S")
    block, crop_begin, crop_end = side["block_shape"], side["crops_begin"], side["crops_end"]
    check_blocks(block, "B2S")
    check_margins(crop_begin, crop_end, "crop_negative", "crop_first_not_zero", "B2S")
    blocks = checked_product(block, "product of block_shape")
    batch, spatial = data.shape[0], data.shape[1:]
    if batch % blocks:
        raise ModelError("batch_not_divisible", "B2S-V9",
                         "batch %d, block product %d" % (batch, blocks))
    out_shape = [batch // blocks]
    for i in range(1, rank):
        stretched = checked(spatial[i - 1] * block[i], "D_%d * B_%d" % (i, i))
        if crop_begin[i] + crop_end[i] > stretched:
            raise ModelError("crop_exceeds", "B2S-V10", "axis %d crops %d + %d > %d"
                             % (i, crop_begin[i], crop_end[i], stretched))
        out_shape.append(stretched - crop_begin[i] - crop_end[i])
    check_output_size(data.type, out_shape, max_bytes)

    # out[b, y_1..y_{N-1}]: x_i = y_i + CB_i lies in block row o_i = x_i % B_i
    # of input cell d_i = x_i // B_i; the block offsets (o_1..o_{N-1}) are the
    # major part of the input batch index, b the minor part.
    in_strides = row_major_strides(data.shape)
    sub_batch = out_shape[0]
    out_bits = []
    for y in all_indices(out_shape):
        x = [y[i] + crop_begin[i] for i in range(1, rank)]
        offsets = [x[i - 1] % block[i] for i in range(1, rank)]
        cells = [x[i - 1] // block[i] for i in range(1, rank)]
        in_batch = mixed_radix(offsets, block[1:]) * sub_batch + y[0]
        out_bits.append(data.bits[flat_index([in_batch] + cells, in_strides)])
    return Tensor(data.type, out_shape, out_bits)


# ---------------------------------------------------------------- SpaceToBatch-2

def space_to_batch(inputs, attrs, max_bytes):
    names = OPS["SpaceToBatch-2"][3]
    check_ranks(inputs, names)
    data = inputs["data"]
    rank = len(data.shape)
    if rank < 2:
        raise ModelError("data_rank", "S2B-V1", "data rank %d < 2" % rank)
    side = side_values(inputs, names[1:], rank, "S2B")
    block, pad_begin, pad_end = side["block_shape"], side["pads_begin"], side["pads_end"]
    check_blocks(block, "S2B")
    check_margins(pad_begin, pad_end, "pad_negative", "pad_first_not_zero", "S2B")
    batch, spatial = data.shape[0], data.shape[1:]
    padded = []
    for i in range(1, rank):
        size = checked(checked(spatial[i - 1] + pad_begin[i], "padded D_%d" % i) + pad_end[i],
                       "padded D_%d" % i)
        if size % block[i]:
            raise ModelError("padded_not_divisible", "S2B-V9",
                             "axis %d: padded size %d, block %d" % (i, size, block[i]))
        padded.append(size)
    # Output batch multiplied left to right (spec/check-order.md): batch * B_1 * ... * B_{N-1}.
    out_shape = [checked_product([batch] + block[1:], "batch * product of block_shape")]
    out_shape += [padded[i - 1] // block[i] for i in range(1, rank)]
    check_output_size(data.type, out_shape, max_bytes)

    # out[ob, z_1..z_{N-1}]: ob = offset(o_1..o_{N-1}) * batch + b reads the
    # padded position x_i = z_i * B_i + o_i, input position x_i - PB_i.
    in_strides = row_major_strides(data.shape)
    out_bits = []
    for z in all_indices(out_shape):
        offset, b = divmod(z[0], batch)
        offsets = []
        for radix in reversed(block[1:]):
            offset, digit = divmod(offset, radix)
            offsets.insert(0, digit)
        source = [b]
        for i in range(1, rank):
            position = z[i] * block[i] + offsets[i - 1] - pad_begin[i]
            source.append(position)
        inside = all(0 <= source[i] < spatial[i - 1] for i in range(1, rank))
        out_bits.append(data.bits[flat_index(source, in_strides)] if inside else 0)
    return Tensor(data.type, out_shape, out_bits)


# ---------------------------------------------------------------- SpaceToDepth-1 / DepthToSpace-1

def depth_attributes(data, attrs, prefix):
    """V1 (rank >= 3), V2 (mode given), V3 (mode known), V4 (block_size >= 1)."""
    rank = len(data.shape)
    if rank < 3:
        raise ModelError("data_rank", prefix + "-V1", "data rank %d < 3" % rank)
    mode = attrs.get("mode")
    if mode is None:
        raise ModelError("mode_missing", prefix + "-V2", "no mode attribute")
    if mode not in ("blocks_first", "depth_first"):
        raise ModelError("mode_invalid", prefix + "-V3", "mode %r" % (mode,))
    block_size = int(attrs.get("block_size", 1))
    if block_size < 1:
        raise ModelError("block_size_below_one", prefix + "-V4", "block_size %d" % block_size)
    return mode, block_size


def space_to_depth(inputs, attrs, max_bytes):
    check_ranks(inputs, ("data",))
    data = inputs["data"]
    mode, bs = depth_attributes(data, attrs, "S2D")
    n, channels, spatial = data.shape[0], data.shape[1], data.shape[2:]
    k = len(spatial)
    for i, d in enumerate(spatial):
        if d % bs:
            raise ModelError("spatial_not_divisible", "S2D-V5",
                             "D_%d = %d, block_size %d" % (i + 1, d, bs))
    block_volume = checked(bs ** k, "block_size ^ K")
    out_channels = checked(channels * block_volume, "C * block_size ^ K")
    out_shape = [n, out_channels] + [d // bs for d in spatial]
    check_output_size(data.type, out_shape, max_bytes)

    # out[n, c', z_1..z_K] with c' = offset * C + c (blocks_first) or
    # c * bs^K + offset (depth_first), offset = row-major (o_1..o_K) in [bs]^K,
    # reads in[n, c, z_i * bs + o_i].
    in_strides = row_major_strides(data.shape)
    out_bits = []
    for index in all_indices(out_shape):
        if mode == "blocks_first":
            offset, c = divmod(index[1], channels)
        else:
            c, offset = divmod(index[1], block_volume)
        offsets = [(offset // bs ** (k - 1 - i)) % bs for i in range(k)]
        source = [index[0], c] + [index[2 + i] * bs + offsets[i] for i in range(k)]
        out_bits.append(data.bits[flat_index(source, in_strides)])
    return Tensor(data.type, out_shape, out_bits)


def depth_to_space(inputs, attrs, max_bytes):
    check_ranks(inputs, ("data",))
    data = inputs["data"]
    mode, bs = depth_attributes(data, attrs, "D2S")
    n, channels, spatial = data.shape[0], data.shape[1], data.shape[2:]
    k = len(spatial)
    block_volume = checked(bs ** k, "block_size ^ K")
    if channels % block_volume:
        raise ModelError("depth_not_divisible", "D2S-V5",
                         "C = %d, block_size ^ K = %d" % (channels, block_volume))
    out_channels = channels // block_volume
    out_shape = [n, out_channels] + [checked(d * bs, "D_i * block_size") for d in spatial]
    check_output_size(data.type, out_shape, max_bytes)

    # out[n, c, y_1..y_K] reads in[n, c_in, y_i // bs] where the block offset
    # (y_i % bs, row-major) joins c as offset * C_out + c (blocks_first) or
    # c * bs^K + offset (depth_first).
    in_strides = row_major_strides(data.shape)
    out_bits = []
    for index in all_indices(out_shape):
        c = index[1]
        offset = mixed_radix([y % bs for y in index[2:]], [bs] * k)
        if mode == "blocks_first":
            in_channel = offset * out_channels + c
        else:
            in_channel = c * block_volume + offset
        source = [index[0], in_channel] + [y // bs for y in index[2:]]
        out_bits.append(data.bits[flat_index(source, in_strides)])
    return Tensor(data.type, out_shape, out_bits)


# ---------------------------------------------------------------- ExtractImagePatches-3

def patch_attributes(attrs):
    """V2 (present), V3 (two values), V4..V6 (>= 1), V7 (auto_pad known)."""
    for name in ("sizes", "strides", "rates", "auto_pad"):
        if attrs.get(name) is None:
            raise ModelError("attribute_missing", "EIP-V2", "no %s attribute" % name)
    for name in ("sizes", "strides", "rates"):
        if len(attrs[name]) != 2:
            raise ModelError("attribute_length", "EIP-V3",
                             "%s has %d values" % (name, len(attrs[name])))
    lists = {name: [int(v) for v in attrs[name]] for name in ("sizes", "strides", "rates")}
    for name, error, clause in (("sizes", "sizes_below_one", "EIP-V4"),
                                ("strides", "strides_below_one", "EIP-V5"),
                                ("rates", "rates_below_one", "EIP-V6")):
        if any(v < 1 for v in lists[name]):
            raise ModelError(error, clause, "%s %s" % (name, lists[name]))
    if attrs["auto_pad"] not in ("valid", "same_upper", "same_lower"):
        raise ModelError("auto_pad_invalid", "EIP-V7", "auto_pad %r" % (attrs["auto_pad"],))
    return lists["sizes"], lists["strides"], lists["rates"], attrs["auto_pad"]


def patch_axis(size_in, size, stride, rate, auto_pad):
    """Output length and leading pad of one spatial axis (EIP-S1..S3)."""
    eff = checked(checked((size - 1) * rate, "(size - 1) * rate") + 1, "effective patch size")
    if auto_pad == "valid":
        return ((size_in - eff) // stride + 1 if size_in >= eff else 0), 0
    out = -(-size_in // stride)  # ceil(in / stride)
    if out == 0:
        return 0, 0  # an empty axis has no windows and no padding (EIP-S3)
    # The pad itself is the size checked (MC-L3); the padded extent it
    # completes is a definition and may exceed int64 (errata E25).
    pad = max(0, checked(eff - (size_in - (out - 1) * stride), "pad"))
    begin = pad // 2 if auto_pad == "same_upper" else pad - pad // 2
    return out, begin


def extract_image_patches(inputs, attrs, max_bytes):
    check_ranks(inputs, ("data",))
    data = inputs["data"]
    if len(data.shape) != 4:
        raise ModelError("data_rank", "EIP-V1", "data rank %d != 4" % len(data.shape))
    sizes, strides, rates, auto_pad = patch_attributes(attrs)
    batch, depth, rows, cols = data.shape
    out_rows, pad_top = patch_axis(rows, sizes[0], strides[0], rates[0], auto_pad)
    out_cols, pad_left = patch_axis(cols, sizes[1], strides[1], rates[1], auto_pad)
    # Output depth multiplied left to right (spec/check-order.md): depth * rows * cols.
    channels = checked(checked(depth * sizes[0], "depth * size_rows") * sizes[1], "output depth")
    out_shape = [batch, channels, out_rows, out_cols]
    check_output_size(data.type, out_shape, max_bytes)

    # out[b, (r * size_cols + c) * depth + d, i, j] =
    #   in[b, d, i*stride_r + r*rate_r - pad_top, j*stride_c + c*rate_c - pad_left], 0 outside.
    in_strides = row_major_strides(data.shape)
    out_bits = []
    for b, channel, i, j in all_indices(out_shape):
        patch_pos, d = divmod(channel, depth)
        r, c = divmod(patch_pos, sizes[1])
        y = i * strides[0] + r * rates[0] - pad_top
        x = j * strides[1] + c * rates[1] - pad_left
        inside = 0 <= y < rows and 0 <= x < cols
        out_bits.append(data.bits[flat_index([b, d, y, x], in_strides)] if inside else 0)
    return Tensor(data.type, out_shape, out_bits)


# ---------------------------------------------------------------- ShuffleChannels-1

def shuffle_attributes(data, attrs):
    """V1 (rank >= 1), V2 (axis in [-rank, rank - 1]), V3 (group >= 1),
    V4 (group divides the channel axis). Returns (axis, group), axis >= 0."""
    rank = len(data.shape)
    if rank < 1:
        raise ModelError("data_rank", "SC-V1", "data rank 0")
    axis = int(attrs.get("axis", 1))
    if not -rank <= axis < rank:
        raise ModelError("axis_out_of_range", "SC-V2", "axis %d, rank %d" % (axis, rank))
    axis = axis + rank if axis < 0 else axis
    group = int(attrs.get("group", 1))
    if group < 1:
        raise ModelError("group_below_one", "SC-V3", "group %d" % group)
    if data.shape[axis] % group:
        raise ModelError("channel_not_divisible", "SC-V4",
                         "group %d, data_shape[%d] = %d" % (group, axis, data.shape[axis]))
    return axis, group


def shuffle_channels(inputs, attrs, max_bytes):
    check_ranks(inputs, ("data",))
    data = inputs["data"]
    axis, group = shuffle_attributes(data, attrs)
    check_output_size(data.type, data.shape, max_bytes)
    if element_count(data.shape) == 0:
        return Tensor(data.type, list(data.shape), [])  # no loop over 2^40 empty rows

    # The channel axis, read as (g, j) with g < group the major digit, is
    # written as (j, g): output channel c = j * group + g reads input channel
    # g * (C / group) + j, for every outer index and every inner run alike.
    # The inner elements after the axis move together, as one row.
    channels = data.shape[axis]
    per_group = channels // group
    inner = element_count(data.shape[axis + 1:])
    outer = element_count(data.shape[:axis])
    out_bits = []
    for o in range(outer):
        for c in range(channels):
            source = (c % group) * per_group + c // group
            start = (o * channels + source) * inner
            out_bits.extend(data.bits[start:start + inner])
    return Tensor(data.type, list(data.shape), out_bits)


# ---------------------------------------------------------------- Slice-8

def slice_side_values(inputs, names):
    """SL-V2 (types), SL-V3 (1-D), SL-V4 (the length of start), each over
    the side inputs present in input order; returns their exact values."""
    for name in names:
        if inputs[name].type not in SIDE_INTEGER_TYPES:
            raise ModelError("side_input_type", "SL-V2", "%s is %s" % (name, inputs[name].type))
    for name in names:
        if len(inputs[name].shape) != 1:
            raise ModelError("side_input_rank", "SL-V3",
                             "%s has rank %d" % (name, len(inputs[name].shape)))
    length = inputs["start"].shape[0]
    for name in names[1:]:
        if inputs[name].shape[0] != length:
            raise ModelError("side_input_length", "SL-V4", "%s has %d elements, start %d"
                             % (name, inputs[name].shape[0], length))
    # Exact integers: no MC-L2 here (errata E34).
    return {name: [bits_value(inputs[name].type, b) for b in inputs[name].bits]
            for name in names}


def slice_axis(start, stop, step, dim):
    """SL-S2 on exact integers: the first index read and the count."""
    if start < 0:
        start += dim
    if stop < 0:
        stop += dim
    if step > 0:
        start, stop = min(max(start, 0), dim), min(max(stop, 0), dim)
        return start, max(0, -(-(stop - start) // step))
    # -1 stands before the first element: nothing is read past it.
    start, stop = min(max(start, -1), dim - 1), min(max(stop, -1), dim - 1)
    return start, max(0, -(-(start - stop) // -step))


def slice_8(inputs, attrs, max_bytes):
    names = [n for n in OPS["Slice-8"][3] if n in inputs]
    check_ranks(inputs, names)
    data = inputs["data"]
    rank = len(data.shape)
    if rank < 1:
        raise ModelError("data_rank", "SL-V1", "data rank 0")
    side = slice_side_values(inputs, names[1:])
    start, stop, step = side["start"], side["stop"], side["step"]
    if any(s == 0 for s in step):
        raise ModelError("step_zero", "SL-V5", "step %s" % step)
    axes = side.get("axes", list(range(len(start))))
    for a in axes:
        if not -rank <= a < rank:
            what = "axis" if "axes" in side else "default axis"
            raise ModelError("axis_out_of_range", "SL-V6", "%s %d, rank %d" % (what, a, rank))
    axes = [a + rank if a < 0 else a for a in axes]
    if len(set(axes)) != len(axes):
        raise ModelError("axes_not_unique", "SL-V7", "normalised axes %s" % axes)

    # SL-S1: axes not named keep start 0, step 1 and the whole dimension.
    first, steps, out_shape = [0] * rank, [1] * rank, list(data.shape)
    for i, axis in enumerate(axes):
        first[axis], out_shape[axis] = slice_axis(start[i], stop[i], step[i], data.shape[axis])
        steps[axis] = step[i]
    check_output_size(data.type, out_shape, max_bytes)
    if element_count(out_shape) == 0:
        return Tensor(data.type, out_shape, [])  # no index list of a huge empty axis

    # SL-S3: output position j on an axis reads input position first + j * step.
    in_strides = row_major_strides(data.shape)
    positions = [[(first[k] + j * steps[k]) * in_strides[k] for j in range(out_shape[k])]
                 for k in range(rank)]
    out_bits = [data.bits[sum(p)] for p in itertools.product(*positions)]
    return Tensor(data.type, out_shape, out_bits)


# ---------------------------------------------------------------- Transpose-1

def transpose_1(inputs, attrs, max_bytes):
    """output[j_0, ..., j_{r-1}] = data[i] with i[p[k]] = j[k] (TR-S2), p the
    order, or r-1 .. 0 when it is empty (TR-S1)."""
    check_ranks(inputs, ("data", "input_order"))
    data, order = inputs["data"], inputs["input_order"]
    rank = len(data.shape)
    if order.type not in SIDE_INTEGER_TYPES:
        raise ModelError("side_input_type", "TR-V1", "input_order is %s" % order.type)
    if len(order.shape) != 1:
        raise ModelError("side_input_rank", "TR-V2", "input_order has rank %d" % len(order.shape))
    if order.shape[0] not in (0, rank):
        raise ModelError("side_input_length", "TR-V3",
                         "input_order has %d elements, rank %d" % (order.shape[0], rank))
    # Exact integers, no MC-L2: a u64 above INT64_MAX is out of range (errata E42).
    perm = [bits_value(order.type, b) for b in order.bits]
    for v in perm:
        if not 0 <= v < rank:
            raise ModelError("axis_out_of_range", "TR-V4", "order value %d, rank %d" % (v, rank))
    if len(set(perm)) != len(perm):
        raise ModelError("axes_not_unique", "TR-V5", "order %s" % perm)
    if not perm:
        perm = list(range(rank - 1, -1, -1))
    out_shape = [data.shape[p] for p in perm]
    check_output_size(data.type, out_shape, max_bytes)
    if element_count(out_shape) == 0:
        return Tensor(data.type, out_shape, [])
    in_strides = row_major_strides(data.shape)
    positions = [[j * in_strides[perm[k]] for j in range(out_shape[k])] for k in range(rank)]
    out_bits = [data.bits[sum(p)] for p in itertools.product(*positions)]
    return Tensor(data.type, out_shape, out_bits)


# ---------------------------------------------------------------- Pad-12

PAD_MODES = ("constant", "edge", "reflect", "symmetric")


def pad_values(inputs, rank):
    """PAD-V4 (types), PAD-V5 (1-D), PAD-V6 (one per axis), MC-L2."""
    names = ("pads_begin", "pads_end")
    for clause, bad, error in (
            ("PAD-V4", lambda t: t.type not in SIDE_INTEGER_TYPES, "side_input_type"),
            ("PAD-V5", lambda t: len(t.shape) != 1, "side_input_rank"),
            ("PAD-V6", lambda t: t.shape[0] != rank, "side_input_length")):
        for name in names:
            if bad(inputs[name]):
                raise ModelError(error, clause, "%s: type %s shape %s"
                                 % (name, inputs[name].type, inputs[name].shape))
    values = [[bits_value(inputs[n].type, b) for b in inputs[n].bits] for n in names]
    for name, vals in zip(names, values):
        if any(v > INT64_MAX for v in vals):
            raise ModelError("value_out_of_range", "MC-L2", "%s holds a value above int64" % name)
    return values


def pad_limit(mode, dim):
    """PAD-V9: the largest positive pad a side of an axis of dim takes."""
    if mode == "edge":
        return INT64_MAX if dim > 0 else 0
    if mode == "reflect":
        return max(dim - 1, 0)
    return dim  # symmetric


def pad_extended_position(mode, e, before, dim):
    """Position e of an axis extended by `before` elements at its start
    (pads_begin when positive) and as many as needed after it: the data
    position it holds, None for pad_value (PAD-S1)."""
    if e < before:  # the begin extension, k-th element from the data's edge
        k = before - e
        return {"constant": None, "edge": 0, "reflect": k, "symmetric": k - 1}[mode]
    if e < before + dim:
        return e - before
    k = e - before - dim + 1  # the end extension, k-th from the edge
    return {"constant": None, "edge": dim - 1, "reflect": dim - 1 - k,
            "symmetric": dim - k}[mode]


def pad_12(inputs, attrs, max_bytes):
    names = [n for n in OPS["Pad-12"][3] if n in inputs]
    check_ranks(inputs, names)
    data = inputs["data"]
    rank = len(data.shape)
    if rank < 1:
        raise ModelError("data_rank", "PAD-V1", "data rank 0")
    mode = attrs.get("pad_mode")
    if mode is None:
        raise ModelError("mode_missing", "PAD-V2", "no pad_mode")
    if mode not in PAD_MODES:
        raise ModelError("mode_invalid", "PAD-V3", "pad_mode %r" % (mode,))
    begin, end = pad_values(inputs, rank)
    fill = 0
    if mode == "constant" and "pad_value" in inputs:
        value = inputs["pad_value"]
        if value.type != data.type:
            raise ModelError("side_input_type", "PAD-V7", "pad_value is %s" % value.type)
        if value.shape != []:
            raise ModelError("side_input_rank", "PAD-V8", "pad_value shape %s" % value.shape)
        fill = value.bits[0]
    if mode != "constant":
        for name, pads in (("pads_begin", begin), ("pads_end", end)):
            for axis, p in enumerate(pads):
                if p > pad_limit(mode, data.shape[axis]):
                    raise ModelError("pad_too_large", "PAD-V9", "%s[%d] = %d, %s, dim %d"
                                     % (name, axis, p, mode, data.shape[axis]))
    out_shape = []
    for axis in range(rank):
        # PAD-O1: exact; only a sum above int64 is an error.
        out_shape.append(max(checked(begin[axis] + data.shape[axis] + end[axis],
                                     "pads_begin + dim + pads_end"), 0))
    check_output_size(data.type, out_shape, max_bytes)
    if element_count(out_shape) == 0:
        return Tensor(data.type, out_shape, [])
    # PAD-S2: the output starts max(-pads_begin, 0) into the extended axis.
    per_axis = [[pad_extended_position(mode, j + max(-begin[a], 0), max(begin[a], 0),
                                       data.shape[a]) for j in range(out_shape[a])]
                for a in range(rank)]
    in_strides = row_major_strides(data.shape)
    out_bits = []
    for index in itertools.product(*per_axis):
        if any(i is None for i in index):
            out_bits.append(fill)
        else:
            out_bits.append(data.bits[sum(i * s for i, s in zip(index, in_strides))])
    return Tensor(data.type, out_shape, out_bits)


# ---------------------------------------------------------------- StridedSlice-1

_SS_MASKS = ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask")


def strided_slice_1(inputs, attrs, max_bytes):
    """numpy's data[idx] (spec/strided_slice_1.md), the index tuple built from
    the entries and each axis read through Python's slice.indices."""
    names = [n for n in OPS["StridedSlice-1"][3] if n in inputs]
    check_ranks(inputs, names)
    data = inputs["data"]
    rank = len(data.shape)
    for name in names[1:]:
        if inputs[name].type not in SIDE_INTEGER_TYPES:
            raise ModelError("side_input_type", "SS-V1", "%s is %s" % (name, inputs[name].type))
    for name in names[1:]:
        if len(inputs[name].shape) != 1:
            raise ModelError("side_input_rank", "SS-V2", "%s is not 1-D" % name)
    m = inputs["begin"].shape[0]
    for name in names[2:]:
        if inputs[name].shape[0] != m:
            raise ModelError("side_input_length", "SS-V3", "%s length" % name)
    val = {n: [min(bits_value(inputs[n].type, b), INT64_MAX) for b in inputs[n].bits]
           for n in names[1:]}
    stride = val.get("stride", [1] * m)
    masks = {k: list(attrs.get(k) or []) for k in _SS_MASKS}
    for k in _SS_MASKS:
        if any(v not in (0, 1) for v in masks[k]):
            raise ModelError("mask_invalid", "SS-V4", "%s %s" % (k, masks[k]))
    bits = {k: [i < len(masks[k]) and masks[k][i] == 1 for i in range(m)] for k in _SS_MASKS}
    if sum(bits["ellipsis_mask"]) > 1:
        raise ModelError("mask_invalid", "SS-V5", "two ellipsis bits")
    if 0 in stride:
        raise ModelError("step_zero", "SS-V6", "stride %s" % stride)
    kinds = ["..." if bits["ellipsis_mask"][i] else "new" if bits["new_axis_mask"][i]
             else "shrink" if bits["shrink_axis_mask"][i] else "slice" for i in range(m)]
    indexing = sum(k in ("shrink", "slice") for k in kinds)
    if indexing > rank:
        raise ModelError("too_many_indices", "SS-V7", "%d entries, rank %d" % (indexing, rank))
    if "..." not in kinds:
        kinds.append("...")  # the axes no entry reaches are kept whole
    per_axis, out_shape, k = [], [], 0  # per data axis: the positions it reads
    for i, kind in enumerate(kinds):
        if kind == "...":
            for _ in range(rank - indexing):
                per_axis.append(range(data.shape[k]))
                out_shape.append(data.shape[k])
                k += 1
        elif kind == "new":
            out_shape.append(1)
        elif kind == "shrink":
            d, b = data.shape[k], val["begin"][i]
            if not -d <= b < d:
                raise ModelError("index_out_of_range", "SS-V8", "index %d of %d" % (b, d))
            per_axis.append([b % d])
            k += 1
        else:
            b = None if bits["begin_mask"][i] else val["begin"][i]
            e = None if bits["end_mask"][i] else val["end"][i]
            r = range(*slice(b, e, stride[i]).indices(data.shape[k]))
            per_axis.append(r)
            out_shape.append(len(r))
            k += 1
    if len(out_shape) > MAX_RANK:
        raise ModelError("rank_limit", "SS-V9", "output rank %d" % len(out_shape))
    check_output_size(data.type, out_shape, max_bytes)
    if element_count(out_shape) == 0:
        return Tensor(data.type, out_shape, [])
    strides = row_major_strides(data.shape)
    offsets = [[p * strides[a] for p in positions] for a, positions in enumerate(per_axis)]
    return Tensor(data.type, out_shape, [data.bits[sum(o)] for o in itertools.product(*offsets)])


# ---------------------------------------------------------------- entry point

# ---------------------------------------------------------------- Gather-8

def gather_8(inputs, attrs, max_bytes):
    """output[P, I, R] = data[P, v', R] with v = indices[P[:b], I] (GA-S2),
    v' = v + d for v in [-d, -1], v for v in [0, d-1], zero otherwise
    (GA-S1); shape data[:a] + indices[b:] + data[a+1:] (GA-O1)."""
    check_ranks(inputs, ("data", "indices", "axis"))
    data, indices, axis = inputs["data"], inputs["indices"], inputs["axis"]
    r, q = len(data.shape), len(indices.shape)
    for clause, t in (("GA-V1", indices), ("GA-V2", axis)):
        if t.type not in SIDE_INTEGER_TYPES:
            raise ModelError("side_input_type", clause, "%s" % t.type)
    if len(axis.shape) > 1:
        raise ModelError("side_input_rank", "GA-V3", "axis has rank %d" % len(axis.shape))
    if len(axis.shape) == 1 and axis.shape[0] != 1:
        raise ModelError("side_input_length", "GA-V4", "axis has %d values" % axis.shape[0])
    # Exact integers, no MC-L2 (errata E80).
    x = bits_value(axis.type, axis.bits[0])
    if not -r <= x <= r - 1:
        raise ModelError("axis_out_of_range", "GA-V5", "axis %d, rank %d" % (x, r))
    a = x + r if x < 0 else x
    c = int(attrs.get("batch_dims", 0))
    if not -q <= c <= q:
        raise ModelError("axis_out_of_range", "GA-V6", "batch_dims %d, indices rank %d" % (c, q))
    b = c + q if c < 0 else c
    if b > a:
        raise ModelError("axis_out_of_range", "GA-V7", "batch_dims %d > axis %d" % (b, a))
    for i in range(b):
        if data.shape[i] != indices.shape[i]:
            raise ModelError("batch_mismatch", "GA-V8", "axis %d" % i)
    if r - 1 + q - b > MAX_RANK:
        raise ModelError("rank_limit", "GA-L1", "output rank %d" % (r - 1 + q - b))
    out_shape = list(data.shape[:a]) + list(indices.shape[b:]) + list(data.shape[a + 1:])
    check_output_size(data.type, out_shape, max_bytes)
    if element_count(out_shape) == 0:
        return Tensor(data.type, out_shape, [])
    d = data.shape[a]
    d_strides, i_strides = row_major_strides(data.shape), row_major_strides(indices.shape)
    out_bits = []
    for o in all_indices(out_shape):
        p, i, rest = o[:a], o[a:a + q - b], o[a + q - b:]
        v = bits_value(indices.type, indices.bits[flat_index(list(p[:b]) + list(i), i_strides)])
        v = v + d if -d <= v <= -1 else v
        if 0 <= v < d:
            out_bits.append(data.bits[flat_index(list(p) + [v] + list(rest), d_strides)])
        else:
            out_bits.append(0)
    return Tensor(data.type, out_shape, out_bits)


_KERNELS = {
    "BatchToSpace-2": batch_to_space,
    "SpaceToBatch-2": space_to_batch,
    "SpaceToDepth-1": space_to_depth,
    "DepthToSpace-1": depth_to_space,
    "ExtractImagePatches-3": extract_image_patches,
    "ShuffleChannels-1": shuffle_channels,
    "Slice-8": slice_8,
    "Transpose-1": transpose_1,
    "Pad-12": pad_12,
    "StridedSlice-1": strided_slice_1,
    "Gather-8": gather_8,
}


def run(op, inputs, attrs=None, max_bytes=DEFAULT_MAX_OUTPUT_BYTES):
    """Runs op on a dict of input name -> Tensor; raises ModelError on rejection."""
    if op not in _KERNELS:
        raise FormatError("unknown operation %r" % (op,))
    expected = set(OPS[op][3])
    required = expected - set(OPTIONAL_INPUTS.get(op, ()))
    if not required <= set(inputs) <= expected:
        raise FormatError("%s takes inputs %s, got %s" % (op, sorted(expected), sorted(inputs)))
    return _KERNELS[op](inputs, dict(attrs or {}), max_bytes)


def run_case(op, case):
    """Runs a case-file case: returns ("output", Tensor) or ("error", name)."""
    inputs = {name: tensor_from_json(desc) for name, desc in case["inputs"].items()}
    # A case may carry the output cap its expectation depends on (MC-L4).
    max_bytes = case.get("max_output_bytes", DEFAULT_MAX_OUTPUT_BYTES)
    try:
        return "output", run(op, inputs, case.get("attributes"), max_bytes)
    except ModelError as err:
        return "error", err.name


# ---------------------------------------------------------------- self-test

def _transpose(shape, bits, perm):
    """A second derivation for the self-test: generic N-D transpose."""
    out_shape = [shape[p] for p in perm]
    strides = row_major_strides(shape)
    out = []
    for index in all_indices(out_shape):
        source = [0] * len(shape)
        for axis, p in enumerate(perm):
            source[p] = index[axis]
        out.append(bits[flat_index(source, strides)])
    return out_shape, out


def _b2s_by_steps(data, block, cb, ce):
    """The specification's steps (with the errata permutation), for the self-test."""
    n = len(data.shape)
    blocks = element_count(block)
    batch, spatial = data.shape[0], data.shape[1:]
    shape1 = list(block[1:]) + [batch // blocks] + spatial
    perm = [n - 1, n, 0]
    for i in range(1, n - 1):
        perm += [n + i, i]
    shape2, bits2 = _transpose(shape1, data.bits, perm)
    shape3 = [batch // blocks] + [spatial[i] * block[i + 1] for i in range(n - 1)]
    out_shape = [shape3[0]] + [shape3[i] - cb[i] - ce[i] for i in range(1, n)]
    strides3 = row_major_strides(shape3)
    out = [bits2[flat_index([y[0]] + [y[i] + cb[i] for i in range(1, n)], strides3)]
           for y in all_indices(out_shape)]
    return out_shape, out


def _s2d_by_steps(data, bs, mode):
    k = len(data.shape) - 2
    n, c = data.shape[:2]
    shape1 = [n, c]
    for d in data.shape[2:]:
        shape1 += [d // bs, bs]
    if mode == "blocks_first":
        perm = [0] + [3 + 2 * i for i in range(k)] + [1] + [2 + 2 * i for i in range(k)]
    else:
        perm = [0, 1] + [3 + 2 * i for i in range(k)] + [2 + 2 * i for i in range(k)]
    _, bits = _transpose(shape1, data.bits, perm)
    return [n, c * bs ** k] + [d // bs for d in data.shape[2:]], bits


def _s2b_by_steps(data, block, pb, pe):
    """Pad, reshape, transpose [2, 4, ..., 2N-2, 0, 1, 3, ..., 2N-3], reshape."""
    n = len(data.shape)
    padded_shape = [data.shape[0]] + [data.shape[i] + pb[i] + pe[i] for i in range(1, n)]
    strides = row_major_strides(data.shape)
    padded = []
    for index in all_indices(padded_shape):
        source = [index[0]] + [index[i] - pb[i] for i in range(1, n)]
        inside = all(0 <= source[i] < data.shape[i] for i in range(1, n))
        padded.append(data.bits[flat_index(source, strides)] if inside else 0)
    shape1 = [padded_shape[0]]
    for i in range(1, n):
        shape1 += [padded_shape[i] // block[i], block[i]]
    perm = [2 * i for i in range(1, n)] + [0] + [2 * i - 1 for i in range(1, n)]
    _, bits = _transpose(shape1, padded, perm)
    out_shape = [padded_shape[0] * element_count(block)]
    out_shape += [padded_shape[i] // block[i] for i in range(1, n)]
    return out_shape, bits


def _eip_by_padding(data, sizes, strides, rates, auto_pad):
    """Materialise the zero-padded image, then gather every patch."""
    batch, depth, rows, cols = data.shape
    geometry = []
    for axis, extent in ((0, rows), (1, cols)):
        eff = (sizes[axis] - 1) * rates[axis] + 1
        if auto_pad == "valid":
            out = (extent - eff) // strides[axis] + 1 if extent >= eff else 0
            before = after = 0
        else:
            out = math.ceil(extent / strides[axis])
            total = max(0, (out - 1) * strides[axis] + eff - extent)
            before = total // 2 if auto_pad == "same_upper" else (total + 1) // 2
            after = total - before
        geometry.append((out, before, extent + before + after))
    (out_r, top, prow), (out_c, left, pcol) = geometry
    strides_in = row_major_strides(data.shape)
    image = {}
    for b, d, y, x in all_indices([batch, depth, prow, pcol]):
        inside = 0 <= y - top < rows and 0 <= x - left < cols
        source = flat_index([b, d, y - top, x - left], strides_in)
        image[b, d, y, x] = data.bits[source] if inside else 0
    out = []
    for b in range(batch):
        for r in range(sizes[0]):
            for c in range(sizes[1]):
                for d in range(depth):
                    for i in range(out_r):
                        for j in range(out_c):
                            out.append(image[b, d, i * strides[0] + r * rates[0],
                                             j * strides[1] + c * rates[1]])
    return [batch, sizes[0] * sizes[1] * depth, out_r, out_c], out


def _sc_by_steps(data, axis, group):
    """The specification's 4-D view [outer, group, C / group, inner] and
    its transpose [0, 2, 1, 3], for the self-test."""
    channels = data.shape[axis]
    view = [element_count(data.shape[:axis]), group, channels // group,
            element_count(data.shape[axis + 1:])]
    return _transpose(view, data.bits, [0, 2, 1, 3])[1]


def _slice_by_python(data, start, stop, step, axes):
    """Python's own slice rule per axis (slice.indices clamps exact integers),
    for the self-test."""
    rank = len(data.shape)
    ranges = [range(d) for d in data.shape]
    for i, axis in enumerate(axes):
        ranges[axis % rank] = range(*slice(start[i], stop[i], step[i]).indices(data.shape[axis % rank]))
    strides = row_major_strides(data.shape)
    bits = [data.bits[flat_index(index, strides)] for index in itertools.product(*ranges)]
    return [len(r) for r in ranges], bits


def _side_typed(type_name, values):
    return Tensor(type_name, [len(values)], [v & ((1 << type_bits(type_name)) - 1) for v in values])


def _side(values):
    return Tensor("i64", [len(values)], [v & ((1 << 64) - 1) for v in values])


def self_test():
    import random
    rng = random.Random(20240531)
    checks = 0
    for _ in range(300):
        n = rng.randint(2, 4)
        block = [1] + [rng.randint(1, 3) for _ in range(n - 1)]
        spatial = [rng.randint(0, 3) for _ in range(n - 1)]
        batch = element_count(block) * rng.randint(0, 2)
        shape = [batch] + spatial
        data = Tensor("u16", shape, [rng.randrange(1 << 16) for _ in range(element_count(shape))])
        cb = [0] + [rng.randint(0, spatial[i] * block[i + 1]) for i in range(n - 1)]
        ce = [0] + [rng.randint(0, spatial[i] * block[i + 1] - cb[i + 1]) for i in range(n - 1)]
        got = run("BatchToSpace-2", {"data": data, "block_shape": _side(block),
                                     "crops_begin": _side(cb), "crops_end": _side(ce)})
        want_shape, want_bits = _b2s_by_steps(data, block, cb, ce)
        assert (got.shape, got.bits) == (want_shape, want_bits), (shape, block, cb, ce)
        # SpaceToBatch undoes BatchToSpace when the crops become pads.
        back = run("SpaceToBatch-2", {"data": got, "block_shape": _side(block),
                                      "pads_begin": _side(cb), "pads_end": _side(ce)})
        if element_count(shape) and not any(cb) and not any(ce):
            assert back == data, (shape, block)
        want_shape, want_bits = _s2b_by_steps(got, block, cb, ce)
        assert (back.shape, back.bits) == (want_shape, want_bits), (shape, block, cb, ce)
        checks += 3
    for _ in range(300):
        k = rng.randint(1, 3)
        bs = rng.randint(1, 3)
        mode = rng.choice(["blocks_first", "depth_first"])
        shape = [rng.randint(1, 2), rng.randint(0, 3)] + [bs * rng.randint(0, 2) for _ in range(k)]
        data = Tensor("u8", shape, [rng.randrange(256) for _ in range(element_count(shape))])
        attrs = {"block_size": bs, "mode": mode}
        got = run("SpaceToDepth-1", {"data": data}, attrs)
        want_shape, want_bits = _s2d_by_steps(data, bs, mode)
        assert (got.shape, got.bits) == (want_shape, want_bits), (shape, bs, mode)
        back = run("DepthToSpace-1", {"data": got}, attrs)
        assert back == data, (shape, bs, mode)
        checks += 2
    for _ in range(300):
        shape = [rng.randint(1, 2), rng.randint(1, 2), rng.randint(0, 6), rng.randint(0, 6)]
        sizes = [rng.randint(1, 3), rng.randint(1, 3)]
        strides = [rng.randint(1, 3), rng.randint(1, 3)]
        rates = [rng.randint(1, 2), rng.randint(1, 2)]
        auto_pad = rng.choice(["valid", "same_upper", "same_lower"])
        count = element_count(shape)
        data = Tensor("i32", shape, [rng.randrange(1, 1 << 32) for _ in range(count)])
        attrs = {"sizes": sizes, "strides": strides, "rates": rates, "auto_pad": auto_pad}
        got = run("ExtractImagePatches-3", {"data": data}, attrs)
        want_shape, want_bits = _eip_by_padding(data, sizes, strides, rates, auto_pad)
        assert (got.shape, got.bits) == (want_shape, want_bits), attrs
        checks += 1
    for _ in range(300):
        rank = rng.randint(1, 6)
        shape = [rng.randint(0 if rng.random() < 0.1 else 1, 3) for _ in range(rank)]
        axis = rng.randrange(-rank, rank)
        # Up to C = 4 a shuffle and its inverse coincide: larger composite C tell them apart.
        shape[axis] = channels = rng.choice([0, 1, 2, 4, 6, 8, 9, 12])
        divisors = [g for g in range(1, channels + 1) if channels % g == 0] or [1]
        group = rng.choice(divisors)
        data = Tensor("u8", shape, [rng.randrange(256) for _ in range(element_count(shape))])
        got = run("ShuffleChannels-1", {"data": data}, {"axis": axis, "group": group})
        assert got.shape == shape and got.bits == _sc_by_steps(data, axis % rank, group), \
            (shape, axis, group)
        # Shuffling C / group groups undoes shuffling group groups.
        if channels:
            back = run("ShuffleChannels-1", {"data": got}, {"axis": axis, "group": channels // group})
            assert back == data, (shape, axis, group)
        checks += 2
    for _ in range(400):
        rank = rng.randint(1, 4)
        shape = [rng.randint(0 if rng.random() < 0.1 else 1, 5) for _ in range(rank)]
        data = Tensor("u8", shape, [rng.randrange(256) for _ in range(element_count(shape))])
        n = rng.randint(0, rank)
        axes = rng.sample(range(rank), n)
        axes = [a - rank if rng.random() < 0.5 else a for a in axes]
        edges = [-(1 << 63), (1 << 63) - 1, -7, -1, 0, 1, 7]
        start = [rng.choice(edges) if rng.random() < 0.3 else rng.randint(-7, 7) for _ in axes]
        stop = [rng.choice(edges) if rng.random() < 0.3 else rng.randint(-7, 7) for _ in axes]
        step = [rng.choice([-(1 << 63), (1 << 63) - 1, -3, -2, -1, 1, 2, 3]) for _ in axes]
        inputs = {"data": data, "start": _side(start), "stop": _side(stop), "step": _side(step)}
        explicit = rng.random() < 0.5 or axes != list(range(n))
        if explicit:
            inputs["axes"] = _side_typed(rng.choice(["i8", "i32", "i64"]), axes)
        got = run("Slice-8", inputs)
        want_shape, want_bits = _slice_by_python(data, start, stop, step, axes)
        assert (got.shape, got.bits) == (want_shape, want_bits), (shape, start, stop, step, axes)
        # u64 side inputs above INT64_MAX clamp as INT64_MAX does (errata E34).
        big = [v if v < (1 << 63) - 1 else (1 << 64) - 1 for v in stop]
        inputs["stop"] = _side_typed("u64", [v if v >= 0 else 0 for v in big])
        clamped = [v if v >= 0 else 0 for v in stop]
        want_shape, want_bits = _slice_by_python(data, start, clamped, step, axes)
        got = run("Slice-8", inputs)
        assert (got.shape, got.bits) == (want_shape, want_bits), (shape, start, big, step, axes)
        checks += 2
    # Packing: u1 element 0 in bit 7, u4 element 0 in the low nibble.
    assert pack("u1", [1, 0, 0, 0, 0, 0, 0, 0, 1]) == bytes([0x80, 0x80])
    assert pack("u4", [0x1, 0x2, 0x3]) == bytes([0x21, 0x03])
    assert unpack("i4", bytes([0xF8]), 2) == [8, 15]
    assert float_bits("f8e4m3", 448) == 0x7E and float_bits("f8e5m2", -0.0) == 0x80
    assert float_bits("bf16", 1.0) == 0x3F80 and float_bits("f16", 65504) == 0x7BFF
    # SplitMix64 test vectors of spec/case-format.md 7.4.
    assert [splitmix64(42, i) for i in range(2)] == [0xbdd732262feb6e95, 0x28efe333b266f103]
    assert splitmix64((1 << 64) - 1, 3) == 0x6d1db36ccba982d2
    assert fill_bits("u4", {"prng": {"seed": 42}}, 4) == [5, 3, 2, 4]
    print("reference_model self-test: %d property checks passed" % (checks + 8))


def load_case_file(path):
    """A case file as Python values; the number -0 stays a negative zero
    (it is -0.0 in a float tensor, 0 anywhere else)."""
    import json
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_int=lambda text: -0.0 if text == "-0" else int(text))


def case_files_under(paths, folder=None, inside=True):
    """Every *.json under the paths (sorted), or the path itself; with a
    folder name, only the files under a folder of that name (inside) or
    only the others (not inside)."""
    import os
    files = []
    for path in paths:
        if os.path.isdir(path):
            for top, dirs, names in os.walk(path):
                dirs.sort()
                files += [os.path.join(top, n) for n in sorted(names) if n.endswith(".json")]
        else:
            files.append(path)
    if folder is None:
        return files
    return [f for f in files if (folder in f.split(os.sep)[:-1]) == inside]


def check_case(op, case):
    """Runs one case through the model: returns None when the model gives
    the expected output or error, otherwise what it gives and what the
    case expects."""
    try:
        kind, result = run_case(op, case)
    except FormatError as err:
        return "a format error (%s)" % err, "a readable case"
    expect = case["expect"]
    if "error" in expect:
        if kind == "error" and result == expect["error"]:
            return None
        got = result if kind == "error" else "an output of shape %s" % result.shape
        return got, expect["error"]
    try:
        if kind == "output" and tensor_matches_json(result, expect["output"]):
            return None
    except FormatError as err:
        return "a format error in the expected output (%s)" % err, "a readable case"
    got = result if kind == "error" else "a different output (shape %s)" % result.shape
    return got, "the expected output"


def check_case_files(paths, quiet=False, folder=None, inside=True):
    """Runs every case of the case files under paths (and folder, as
    case_files_under says) through the model and compares with its
    expectation: the output bit for bit (or its sha256), or the error name.
    Returns the number of disagreements."""
    files = case_files_under(paths, folder, inside)
    cases = disagreements = 0
    for path in files:
        doc = load_case_file(path)
        for case in doc["cases"]:
            cases += 1
            problem = check_case(doc["op"], case)
            if problem:
                disagreements += 1
                if not quiet:
                    print("%s: %s: the model gives %s, the case expects %s"
                          % (path, case["id"], problem[0], problem[1]))
    if not quiet:
        print("reference_model: %d files, %d cases, %d disagreements"
              % (len(files), cases, disagreements))
    return disagreements


def check_cases_command(args):
    """--check-cases [--only-folder NAME | --except-folder NAME] PATH...:
    the exit status (2: usage; 1: a disagreement, or no case file to check)."""
    folder, inside = None, True
    if args[:1] in (["--only-folder"], ["--except-folder"]):
        if len(args) < 2:
            return 2
        folder, inside, args = args[1], args[0] == "--only-folder", args[2:]
    if not args:
        return 2
    if not case_files_under(args, folder, inside):
        print("reference_model: no case file to check under %s" % " ".join(args))
        return 1
    return 1 if check_case_files(args, folder=folder, inside=inside) else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        self_test()
    elif sys.argv[1:2] == ["--check-cases"]:
        status = check_cases_command(sys.argv[2:])
        if status == 2:
            print(__doc__)
        sys.exit(status)
    else:
        print(__doc__)
        sys.exit(0 if not sys.argv[1:] else 2)
