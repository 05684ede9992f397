#!/usr/bin/env python3
"""Builds the conformance case files under conformance/ (format movconf-cases/1).

Every case is one small named function returning a declarative description:
inputs, attributes, the clauses it exercises and what is expected:

  Typed(tensor)      the expected output typed in by hand (from the printed
                     specification or from reasoning written in "origin");
                     the generator fails loudly unless tools/reference_model.py
                     computes exactly the same tensor.
  Computed(form)     the expected output computed by the reference model
                     (printed_shape, when given, is asserted).
  Rejected(error)    the error name; the generator fails unless the model
                     rejects the inputs with that name.

  python3 tools/make_cases.py            write conformance/*/*.json
  python3 tools/make_cases.py --check    fail if a committed file differs
  python3 tools/make_cases.py --list     print the case ids per file

Standard library only; output is deterministic (same bytes every run).
"""

import argparse
import hashlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_model as model  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORMAT = "movconf-cases/1"
JSON_SAFE = 1 << 53
SHA256_ABOVE = 4096  # outputs with more elements are stored as a digest
WIDTH = 100

B2S, S2B, S2D, D2S, EIP = ("BatchToSpace-2", "SpaceToBatch-2", "SpaceToDepth-1",
                           "DepthToSpace-1", "ExtractImagePatches-3")

MODEL_ORIGIN = "tools/reference_model.py (direct index formulas, independent of the C oracle)"
CROSS_CHECK = "cross-checked against tools/reference_model.py"

FILE_DESCRIPTIONS = {
    "spec_examples": "The examples printed in the specification.",
    "hand": "Small cases whose expected output was worked out by hand (reasoning in origin), "
            "cross-checked against tools/reference_model.py.",
    "types": "Element-type coverage: the same movement on every element type, as raw bit "
             "patterns; expected outputs computed by tools/reference_model.py.",
    "invalid": "Inputs the operation must reject: each breaks one validity clause (or pins "
               "the check order between two) and expects that clause's error name.",
    "libraries": "Minimal reproductions of bugs the conformance matrix found in other "
                 "libraries (docs/conformance-matrix.md); origin names the library and version.",

    "mutation": "Cases added because a deliberate fault of the optimized kernels "
                "(docs/mutation.md) passed every other case; expected results by hand, "
                "cross-checked against tools/reference_model.py.",
}

# ---------------------------------------------------------------- expectations


class Typed:
    def __init__(self, tensor):
        self.tensor = tensor


class Computed:
    def __init__(self, form="auto", printed_shape=None):
        self.form = form
        self.printed_shape = printed_shape


class Rejected:
    def __init__(self, error):
        self.error = error


REGISTRY = []  # (op, file stem, function) in definition order


def case(op, stem):
    def register(function):
        REGISTRY.append((op, stem, function))
        return function
    return register


# ---------------------------------------------------------------- tensor helpers


def json_int(v):
    """Integers beyond 2^53 are written as decimal strings (exact)."""
    return str(v) if abs(v) > JSON_SAFE else v


def shape_json(shape):
    return [json_int(d) for d in shape]


def tensor(type_name, shape, values):
    return {"type": type_name, "shape": shape_json(shape), "values": [
        json_int(v) if isinstance(v, int) and not isinstance(v, bool) else v for v in values]}


def iota(type_name, shape, start=0):
    return {"type": type_name, "shape": shape_json(shape), "fill": {"iota": start}}


def counter(type_name, shape, start=0):
    return {"type": type_name, "shape": shape_json(shape), "fill": {"counter": start}}


def hexed(type_name, shape, bits):
    return {"type": type_name, "shape": shape_json(shape), "hex": model.pack(type_name, bits).hex()}


def side(values, type_name="i64", shape=None):
    return tensor(type_name, [len(values)] if shape is None else shape, values)


def empty(type_name, shape):
    return tensor(type_name, shape, [])


def noise_bits(type_name, count, seed):
    """Deterministic pseudo-random raw bits (sha256 of seed and index)."""
    width = model.type_bits(type_name)
    out = []
    for i in range(count):
        digest = hashlib.sha256(("%s/%d" % (seed, i)).encode()).digest()
        out.append(int.from_bytes(digest[:8], "little") % (1 << width))
    return out


def tensor_from_model(t, form):
    count = len(t.bits)
    if form == "auto":
        if count > SHA256_ABOVE:
            form = "sha256"
        else:
            form = "values" if values_lossless(t) else "hex"
    if form == "sha256":
        return {"type": t.type, "shape": shape_json(t.shape), "sha256": model.sha256_hex(t)}
    if form == "hex":
        return hexed(t.type, t.shape, t.bits)
    if not values_lossless(t):
        raise SystemExit("values cannot hold %s bits exactly" % t.type)
    kind = model.TYPES[t.type][1]
    if kind == "float":
        values = []
        for raw in t.bits:
            v = model.float_value(t.type, raw)
            values.append(int(v) if v == int(v) and not (v == 0 and raw != 0) else v)
        return tensor(t.type, t.shape, values)
    return tensor(t.type, t.shape, [model.bits_value(t.type, raw) for raw in t.bits])


def values_lossless(t):
    """Values can carry every bit of t: no NaN, no infinities, no -0.0."""
    if model.TYPES[t.type][1] != "float":
        return True
    for raw in t.bits:
        v = model.float_value(t.type, raw)
        if v != v or v in (float("inf"), float("-inf")) or (v == 0 and raw != 0):
            return False
    return True


# ---------------------------------------------------------------- clause lists

B2S_STEPS = ["B2S-S1", "B2S-S2", "B2S-S3", "B2S-S4", "B2S-O1"]
S2B_STEPS = ["S2B-S1", "S2B-S2", "S2B-S3", "S2B-S4", "S2B-O1"]
S2D_STEPS = ["S2D-S1", "S2D-S2", "S2D-S3", "S2D-O1"]
D2S_STEPS = ["D2S-S1", "D2S-S2", "D2S-S3", "D2S-O1"]
EIP_STEPS = ["EIP-S1", "EIP-S2", "EIP-S3", "EIP-S4", "EIP-O1"]


def b2s_inputs(data, block, crops_begin, crops_end, side_type="i64"):
    return {"data": data, "block_shape": side(block, side_type),
            "crops_begin": side(crops_begin, side_type), "crops_end": side(crops_end, side_type)}


def s2b_inputs(data, block, pads_begin, pads_end, side_type="i64"):
    return {"data": data, "block_shape": side(block, side_type),
            "pads_begin": side(pads_begin, side_type), "pads_end": side(pads_end, side_type)}


def eip_attrs(sizes, strides, rates, auto_pad):
    return {"sizes": sizes, "strides": strides, "rates": rates, "auto_pad": auto_pad}


# =============================================================== spec examples

SPEC_SHAPE_ORIGIN = ("shape printed in the specification; values computed by " + MODEL_ORIGIN)


@case(B2S, "spec_examples")
def b2s_spec_2d():
    return dict(
        id="b2s/spec/2d", origin="specification example '2D input tensor data' (block_shape "
        "[1, 5], crops_begin [0, 2], crops_end [0, 0]): " + SPEC_SHAPE_ORIGIN
        + "; data is iota from 0",
        clauses=B2S_STEPS,
        inputs=b2s_inputs(iota("f32", [10, 2]), [1, 5], [0, 2], [0, 0]),
        expect=Computed(printed_shape=[2, 8]))


@case(B2S, "spec_examples")
def b2s_spec_5d():
    return dict(
        id="b2s/spec/5d", origin="specification example '5D input tensor data' (block_shape "
        "[1, 2, 4, 3, 1], crops [0, 0, 1, 0, 0] / [0, 0, 1, 0, 0]): " + SPEC_SHAPE_ORIGIN
        + "; data is iota from 0",
        clauses=B2S_STEPS,
        inputs=b2s_inputs(iota("f32", [48, 3, 3, 1, 3]), [1, 2, 4, 3, 1], [0, 0, 1, 0, 0],
                          [0, 0, 1, 0, 0]),
        expect=Computed(printed_shape=[2, 6, 10, 3, 3]))


@case(S2D, "spec_examples")
def s2d_spec_5x7x4x6():
    return dict(
        id="s2d/spec/5x7x4x6", origin="specification example (block_size 2, blocks_first): "
        + SPEC_SHAPE_ORIGIN + "; data is iota from 0",
        clauses=S2D_STEPS,
        inputs={"data": iota("f32", [5, 7, 4, 6])},
        attributes={"block_size": 2, "mode": "blocks_first"},
        expect=Computed(printed_shape=[5, 28, 2, 3]))


@case(EIP, "spec_examples")
def eip_spec_xml_64x3x10x10():
    return dict(
        id="eip/spec/xml-64x3x10x10", origin="specification XML example (sizes 3,3 strides 5,5 "
        "rates 1,1 valid, f32): " + SPEC_SHAPE_ORIGIN + "; data is iota from 1; output stored "
        "as sha256",
        clauses=EIP_STEPS,
        inputs={"data": iota("f32", [64, 3, 10, 10], 1)},
        attributes=eip_attrs([3, 3], [5, 5], [1, 1], "valid"),
        expect=Computed(printed_shape=[64, 27, 2, 2]))


PAGE_ORIGIN = ("shape printed in the example of OpenVINO's %s page (no seed; see spec/%s.md); "
               "values computed by " + MODEL_ORIGIN + "; data is iota from 0")


@case(S2B, "spec_examples")
def s2b_spec_5d():
    return dict(
        id="s2b/spec/5d", origin=PAGE_ORIGIN % ("SpaceToBatch-2", "space_to_batch_2")
        + "; block_shape [1, 2, 4, 3, 1], pads [0, 0, 1, 0, 0] / [0, 0, 1, 0, 0], the 5-D "
        "BatchToSpace-2 example run backwards",
        clauses=S2B_STEPS + ["MC-S2"],
        inputs=s2b_inputs(iota("f32", [2, 6, 10, 3, 3]), [1, 2, 4, 3, 1], [0, 0, 1, 0, 0],
                          [0, 0, 1, 0, 0]),
        expect=Computed(printed_shape=[48, 3, 3, 1, 3]))


@case(D2S, "spec_examples")
def d2s_spec_5x28x2x3():
    return dict(
        id="d2s/spec/5x28x2x3", origin=PAGE_ORIGIN % ("DepthToSpace-1", "depth_to_space_1")
        + "; block_size 2, blocks_first",
        clauses=D2S_STEPS,
        inputs={"data": iota("f32", [5, 28, 2, 3])},
        attributes={"block_size": 2, "mode": "blocks_first"},
        expect=Computed(printed_shape=[5, 7, 4, 6]))


def printed(n):
    return ("output typed in from the printed example %d of the specification; " % n) + CROSS_CHECK


@case(EIP, "spec_examples")
def eip_spec_example_1():
    return dict(
        id="eip/spec/example-1", origin=printed(1) + "; input 1x1x10x10 holds 1..100",
        clauses=EIP_STEPS,
        inputs={"data": iota("f32", [1, 1, 10, 10], 1)},
        attributes=eip_attrs([3, 3], [5, 5], [1, 1], "valid"),
        expect=Typed(tensor("f32", [1, 9, 2, 2], [
            1, 6, 51, 56,
            2, 7, 52, 57,
            3, 8, 53, 58,
            11, 16, 61, 66,
            12, 17, 62, 67,
            13, 18, 63, 68,
            21, 26, 71, 76,
            22, 27, 72, 77,
            23, 28, 73, 78])))


@case(EIP, "spec_examples")
def eip_spec_example_2():
    return dict(
        id="eip/spec/example-2", origin=printed(2) + "; input 1x1x10x10 holds 1..100",
        clauses=EIP_STEPS,
        inputs={"data": iota("f32", [1, 1, 10, 10], 1)},
        attributes=eip_attrs([4, 4], [8, 8], [1, 1], "valid"),
        expect=Typed(tensor("f32", [1, 16, 1, 1], [
            1, 2, 3, 4, 11, 12, 13, 14, 21, 22, 23, 24, 31, 32, 33, 34])))


@case(EIP, "spec_examples")
def eip_spec_example_3():
    return dict(
        id="eip/spec/example-3", origin=printed(3) + "; input 1x1x10x10 holds 1..100; same_upper: "
        "pad 3 per axis, 1 before and 2 after",
        clauses=EIP_STEPS + ["MC-S2"],
        inputs={"data": iota("f32", [1, 1, 10, 10], 1)},
        attributes=eip_attrs([4, 4], [9, 9], [1, 1], "same_upper"),
        expect=Typed(tensor("f32", [1, 16, 2, 2], [
            0, 0, 0, 89,
            0, 0, 81, 90,
            0, 0, 82, 0,
            0, 0, 83, 0,
            0, 9, 0, 99,
            1, 10, 91, 100,
            2, 0, 92, 0,
            3, 0, 93, 0,
            0, 19, 0, 0,
            11, 20, 0, 0,
            12, 0, 0, 0,
            13, 0, 0, 0,
            0, 29, 0, 0,
            21, 30, 0, 0,
            22, 0, 0, 0,
            23, 0, 0, 0])))


@case(EIP, "spec_examples")
def eip_spec_example_4():
    return dict(
        id="eip/spec/example-4", origin=printed(4) + "; input 1x1x10x10 holds 1..100",
        clauses=EIP_STEPS,
        inputs={"data": iota("f32", [1, 1, 10, 10], 1)},
        attributes=eip_attrs([3, 3], [5, 5], [2, 2], "valid"),
        expect=Typed(tensor("f32", [1, 9, 2, 2], [
            1, 6, 51, 56,
            3, 8, 53, 58,
            5, 10, 55, 60,
            21, 26, 71, 76,
            23, 28, 73, 78,
            25, 30, 75, 80,
            41, 46, 91, 96,
            43, 48, 93, 98,
            45, 50, 95, 100])))


@case(EIP, "spec_examples")
def eip_spec_example_5():
    return dict(
        id="eip/spec/example-5", origin=printed(5) + "; input 1x2x5x5 holds 1..50 (two feature "
        "maps): depth is the fastest part of the output channel",
        clauses=EIP_STEPS,
        inputs={"data": iota("i32", [1, 2, 5, 5], 1)},
        attributes=eip_attrs([2, 2], [3, 3], [1, 1], "valid"),
        expect=Typed(tensor("i32", [1, 8, 2, 2], [
            1, 4, 16, 19,
            26, 29, 41, 44,
            2, 5, 17, 20,
            27, 30, 42, 45,
            6, 9, 21, 24,
            31, 34, 46, 49,
            7, 10, 22, 25,
            32, 35, 47, 50])))


# =============================================================== hand cases

def by_hand(text):
    return "by hand: " + text + "; " + CROSS_CHECK


@case(B2S, "hand")
def b2s_hand_2d_block2():
    return dict(
        id="b2s/hand/2d-block2",
        origin=by_hand("batch 4 = block 2 x sub-batch 2; batch k = o*2 + b, so output row b "
                       "interleaves rows b and b+2: [1,2]+[5,6] -> [1,5,2,6], "
                       "[3,4]+[7,8] -> [3,7,4,8]"),
        clauses=B2S_STEPS,
        inputs=b2s_inputs(tensor("i32", [4, 2], [1, 2, 3, 4, 5, 6, 7, 8]), [1, 2], [0, 0], [0, 0]),
        expect=Typed(tensor("i32", [2, 4], [1, 5, 2, 6, 3, 7, 4, 8])))


@case(B2S, "hand")
def b2s_hand_3d_block2x2():
    return dict(
        id="b2s/hand/3d-block2x2",
        origin=by_hand("4 batches of 1x2 ([1,2],[3,4],[5,6],[7,8]), batch = o1*2 + o2; uncropped "
                       "2x4 grid is row 0 [1,3,2,4] (batches 0,1), row 1 [5,7,6,8] (batches 2,3); "
                       "cropping one column at each end leaves [3,2],[7,6]"),
        clauses=B2S_STEPS,
        inputs=b2s_inputs(tensor("i32", [4, 1, 2], [1, 2, 3, 4, 5, 6, 7, 8]), [1, 2, 2], [0, 0, 1],
                          [0, 0, 1]),
        expect=Typed(tensor("i32", [1, 2, 2], [3, 2, 7, 6])))


@case(B2S, "hand")
def b2s_hand_crop_to_empty():
    return dict(
        id="b2s/hand/crop-to-empty",
        origin=by_hand("D_1*B_1 = 2 and crops 1 + 1 = 2 is allowed (<=): axis 1 becomes empty, "
                       "output [1, 0]"),
        clauses=B2S_STEPS + ["B2S-V10"],
        inputs=b2s_inputs(tensor("f32", [2, 1], [7, 9]), [1, 2], [0, 1], [0, 1]),
        expect=Typed(empty("f32", [1, 0])))


@case(B2S, "hand")
def b2s_hand_zero_batch():
    return dict(
        id="b2s/hand/zero-batch",
        origin=by_hand("batch 0 is divisible by 3; output [0, 3*3 - 1 - 2] = [0, 6], no elements"),
        clauses=B2S_STEPS + ["B2S-V9"],
        inputs=b2s_inputs(empty("u8", [0, 3]), [1, 3], [0, 1], [0, 2]),
        expect=Typed(empty("u8", [0, 6])))


@case(B2S, "hand")
def b2s_hand_side_inputs_u8():
    return dict(
        id="b2s/hand/side-inputs-u8",
        origin=by_hand("side inputs of type u8; batches [1,-2],[3,-4] interleave to [1,3,-2,-4], "
                       "crops_begin 1 drops the first"),
        clauses=B2S_STEPS + ["B2S-V2"],
        inputs=b2s_inputs(tensor("i8", [2, 2], [1, -2, 3, -4]), [1, 2], [0, 1], [0, 0], "u8"),
        expect=Typed(tensor("i8", [1, 3], [3, -2, -4])))


@case(B2S, "hand")
def b2s_hand_mixed_side_types():
    inputs = b2s_inputs(tensor("u16", [2, 3], [10, 11, 12, 20, 21, 22]), [1, 2], [0, 0], [0, 3])
    inputs["block_shape"] = side([1, 2], "u64")
    inputs["crops_begin"] = side([0, 0], "i8")
    inputs["crops_end"] = side([0, 3], "u32")
    return dict(
        id="b2s/hand/side-inputs-mixed",
        origin=by_hand("block u64, crops_begin i8, crops_end u32 in one request; rows interleave "
                       "to [10,20,11,21,12,22], crops_end 3 keeps [10,20,11]"),
        clauses=B2S_STEPS + ["B2S-V2"],
        inputs=inputs,
        expect=Typed(tensor("u16", [1, 3], [10, 20, 11])))


@case(B2S, "hand")
def b2s_hand_block_one_identity():
    return dict(
        id="b2s/hand/block-one-crop-only",
        origin=by_hand("all blocks 1: only the crop acts; 3x3 rows [1..3],[4..6],[7..9] cropped "
                       "1 row at the start and 1 column at the end -> [4,5],[7,8]"),
        clauses=B2S_STEPS,
        inputs=b2s_inputs(tensor("i16", [1, 3, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9]), [1, 1, 1],
                          [0, 1, 0], [0, 0, 1]),
        expect=Typed(tensor("i16", [1, 2, 2], [4, 5, 7, 8])))


@case(B2S, "hand")
def b2s_hand_zero_batch_huge_block():
    return dict(
        id="b2s/hand/zero-batch-huge-block",
        origin=by_hand("block 2^31-1 with batch 0: 0 is divisible, D_1*B_1 = 2^31-1 fits; "
                       "output [0, 2147483647, 2] has no elements and must not be allocated"),
        clauses=B2S_STEPS + ["B2S-V9", "MC-L3"],
        inputs=b2s_inputs(empty("f32", [0, 1, 2]), [1, 2147483647, 1], [0, 0, 0], [0, 0, 0]),
        expect=Typed(empty("f32", [0, 2147483647, 2])))


@case(S2B, "hand")
def s2b_hand_2d_block2():
    return dict(
        id="s2b/hand/2d-block2",
        origin=by_hand("inverse of b2s/hand/2d-block2: output batch = o*2 + b takes the o-th "
                       "element of every pair of row b: row 0 [1,5,2,6] gives [1,2] (o=0) and "
                       "[5,6] (o=1), row 1 [3,7,4,8] gives [3,4] and [7,8]"),
        clauses=S2B_STEPS,
        inputs=s2b_inputs(tensor("i32", [2, 4], [1, 5, 2, 6, 3, 7, 4, 8]), [1, 2], [0, 0], [0, 0]),
        expect=Typed(tensor("i32", [4, 2], [1, 2, 3, 4, 5, 6, 7, 8])))


@case(S2B, "hand")
def s2b_hand_3d_block2x2_pad():
    return dict(
        id="s2b/hand/3d-block2x2-pad",
        origin=by_hand("[[1,2,3],[4,5,6]] padded with one zero column in front is "
                       "[[0,1,2,3],[0,4,5,6]]; output batch o1*2+o2 takes row o1, columns o2 and "
                       "o2+2: [0,2],[1,3],[0,5],[4,6]"),
        clauses=S2B_STEPS + ["MC-S2"],
        inputs=s2b_inputs(tensor("i32", [1, 2, 3], [1, 2, 3, 4, 5, 6]), [1, 2, 2], [0, 0, 1],
                          [0, 0, 0]),
        expect=Typed(tensor("i32", [4, 1, 2], [0, 2, 1, 3, 0, 5, 4, 6])))


@case(S2B, "hand")
def s2b_hand_zero_spatial():
    return dict(
        id="s2b/hand/zero-spatial",
        origin=by_hand("an empty input axis padded to 3 (0 + 0 + 3): every output element is "
                       "padding, output [2*3, 1] of zeros"),
        clauses=S2B_STEPS + ["MC-S2"],
        inputs=s2b_inputs(empty("f32", [2, 0]), [1, 3], [0, 0], [0, 3]),
        expect=Typed(tensor("f32", [6, 1], [0, 0, 0, 0, 0, 0])))


@case(S2B, "hand")
def s2b_hand_zero_batch_huge_padded():
    return dict(
        id="s2b/hand/zero-batch-huge-padded",
        origin=by_hand("batch 0: the output [0, 2^31+2, 2^31] has no elements; the padded "
                       "spatial extent (2^31+2) * 2^32 is beyond int64, but only the output's "
                       "sizes are checked (errata E25)"),
        clauses=S2B_STEPS + ["MC-L3"],
        inputs=s2b_inputs(empty("boolean", [0, 2147483647, 4294967296]), [1, 1, 2], [0, 1, 0],
                          [0, 2, 0]),
        expect=Typed(empty("boolean", [0, 2147483650, 2147483648])))


@case(S2B, "hand")
def s2b_hand_zero_batch():
    return dict(
        id="s2b/hand/zero-batch",
        origin=by_hand("batch 0 times block product 4 is 0; output [0, 2, 1], no elements"),
        clauses=S2B_STEPS,
        inputs=s2b_inputs(empty("u16", [0, 4, 2]), [1, 2, 2], [0, 0, 0], [0, 0, 0]),
        expect=Typed(empty("u16", [0, 2, 1])))


@case(S2B, "hand")
def s2b_hand_pad_both_ends_u8_sides():
    return dict(
        id="s2b/hand/pad-both-ends-u8-sides",
        origin=by_hand("u8 side inputs; [7,8,9] padded 1 before and 2 after is [0,7,8,9,0,0]; "
                       "block 3 splits it into o=0: [0,9], o=1: [7,0], o=2: [8,0]"),
        clauses=S2B_STEPS + ["MC-S2", "S2B-V2"],
        inputs=s2b_inputs(tensor("i8", [1, 3], [7, 8, 9]), [1, 3], [0, 1], [0, 2], "u8"),
        expect=Typed(tensor("i8", [3, 2], [0, 9, 7, 0, 8, 0])))


@case(S2B, "hand")
def s2b_hand_side_inputs_mixed():
    inputs = s2b_inputs(tensor("u32", [1, 4], [10, 11, 12, 13]), [1, 2], [0, 0], [0, 0])
    inputs["block_shape"] = side([1, 2], "i16")
    inputs["pads_begin"] = side([0, 2], "u64")
    inputs["pads_end"] = side([0, 0], "i8")
    return dict(
        id="s2b/hand/side-inputs-mixed",
        origin=by_hand("block i16, pads_begin u64, pads_end i8 in one request (errata E18); "
                       "[10,11,12,13] padded 2 in front is [0,0,10,11,12,13]; block 2: o=0 takes "
                       "[0,10,12], o=1 takes [0,11,13]"),
        clauses=S2B_STEPS + ["MC-S2", "S2B-V2"],
        inputs=inputs,
        expect=Typed(tensor("u32", [2, 3], [0, 10, 12, 0, 11, 13])))


@case(S2B, "hand")
def s2b_hand_spec_worked_example():
    return dict(
        id="s2b/hand/2d-pad-begin",
        origin=by_hand("the worked example of spec/space_to_batch_2.md: [[1,2,3],[4,5,6]] padded "
                       "to [[0,1,2,3],[0,4,5,6]], block 2: batch k*2 + b takes columns k, k+2 of "
                       "row b: [0,2],[0,5],[1,3],[4,6]"),
        clauses=S2B_STEPS + ["MC-S2"],
        inputs=s2b_inputs(tensor("i32", [2, 3], [1, 2, 3, 4, 5, 6]), [1, 2], [0, 1], [0, 0]),
        expect=Typed(tensor("i32", [4, 2], [0, 2, 0, 5, 1, 3, 4, 6])))


@case(S2D, "hand")
def s2d_hand_4d_blocks_first():
    return dict(
        id="s2d/hand/4d-blocks-first",
        origin=by_hand("channels [[1,2,3,4],[5,6,7,8]] and [[9..12],[13..16]], block 2: "
                       "output channel = offset*2 + c with offset = o1*2+o2, each holding "
                       "columns o2 and o2+2 of row o1: [1,3],[9,11],[2,4],[10,12],[5,7],[13,15],"
                       "[6,8],[14,16]"),
        clauses=S2D_STEPS,
        inputs={"data": iota("i32", [1, 2, 2, 4], 1)},
        attributes={"block_size": 2, "mode": "blocks_first"},
        expect=Typed(tensor("i32", [1, 8, 1, 2], [1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15,
                                                  6, 8, 14, 16])))


@case(S2D, "hand")
def s2d_hand_4d_depth_first():
    return dict(
        id="s2d/hand/4d-depth-first",
        origin=by_hand("same input as s2d/hand/4d-blocks-first; output channel = c*4 + offset: "
                       "channel 0 gives [1,3],[2,4],[5,7],[6,8], channel 1 gives [9,11],[10,12],"
                       "[13,15],[14,16]"),
        clauses=S2D_STEPS,
        inputs={"data": iota("i32", [1, 2, 2, 4], 1)},
        attributes={"block_size": 2, "mode": "depth_first"},
        expect=Typed(tensor("i32", [1, 8, 1, 2], [1, 3, 2, 4, 5, 7, 6, 8, 9, 11, 10, 12,
                                                  13, 15, 14, 16])))


@case(S2D, "hand")
def s2d_hand_depth_not_multiple():
    return dict(
        id="s2d/hand/depth-not-multiple",
        origin=by_hand("C = 3 is not a multiple of block_size^2 = 4 and that is fine (only the "
                       "spatial axes must divide); blocks_first channel = offset*3 + c: "
                       "[1,5,9],[2,6,10],[3,7,11],[4,8,12]"),
        clauses=S2D_STEPS + ["S2D-V5"],
        inputs={"data": iota("u8", [1, 3, 2, 2], 1)},
        attributes={"block_size": 2, "mode": "blocks_first"},
        expect=Typed(tensor("u8", [1, 12, 1, 1], [1, 5, 9, 2, 6, 10, 3, 7, 11, 4, 8, 12])))


@case(S2D, "hand")
def s2d_hand_default_block_size():
    return dict(
        id="s2d/hand/default-block-size",
        origin=by_hand("no block_size attribute: the default 1 makes the operation the identity"),
        clauses=S2D_STEPS + ["S2D-V4"],
        inputs={"data": tensor("i16", [1, 2, 1, 3], [-3, -2, -1, 1, 2, 3])},
        attributes={"mode": "depth_first"},
        expect=Typed(tensor("i16", [1, 2, 1, 3], [-3, -2, -1, 1, 2, 3])))


@case(S2D, "hand")
def s2d_hand_zero_spatial():
    return dict(
        id="s2d/hand/zero-spatial",
        origin=by_hand("0 and 4 are divisible by 2: output [2, 3*4, 0, 2], no elements"),
        clauses=S2D_STEPS + ["S2D-V5"],
        inputs={"data": empty("f32", [2, 3, 0, 4])},
        attributes={"block_size": 2, "mode": "blocks_first"},
        expect=Typed(empty("f32", [2, 12, 0, 2])))


@case(S2D, "hand")
def s2d_hand_3d_k1():
    return dict(
        id="s2d/hand/3d-k1",
        origin=by_hand("one spatial axis, channels [1,2,3,4] and [5,6,7,8], block 2 "
                       "blocks_first: channel o*2 + c holds elements o and o+2 of c: "
                       "[1,3],[5,7],[2,4],[6,8]"),
        clauses=S2D_STEPS,
        inputs={"data": iota("i32", [1, 2, 4], 1)},
        attributes={"block_size": 2, "mode": "blocks_first"},
        expect=Typed(tensor("i32", [1, 4, 2], [1, 3, 5, 7, 2, 4, 6, 8])))


@case(S2D, "hand")
def s2d_hand_5d_one_block():
    return dict(
        id="s2d/hand/5d-one-block",
        origin=by_hand("C = 1 and a 2x2x2 volume that is one block: output channel = row-major "
                       "offset (o1,o2,o3), i.e. the input order 1..8"),
        clauses=S2D_STEPS,
        inputs={"data": iota("i32", [1, 1, 2, 2, 2], 1)},
        attributes={"block_size": 2, "mode": "depth_first"},
        expect=Typed(tensor("i32", [1, 8, 1, 1, 1], [1, 2, 3, 4, 5, 6, 7, 8])))


@case(S2D, "hand")
def s2d_hand_huge_block_zero_spatial():
    return dict(
        id="s2d/hand/huge-block-zero-spatial",
        origin=by_hand("block_size 2^31-1 on an empty axis: 0 is divisible, C*bs = 2^31-1 fits; "
                       "output [1, 2147483647, 0], no elements"),
        clauses=S2D_STEPS + ["S2D-V5", "MC-L3"],
        inputs={"data": empty("u8", [1, 1, 0])},
        attributes={"block_size": 2147483647, "mode": "depth_first"},
        expect=Typed(empty("u8", [1, 2147483647, 0])))


@case(D2S, "hand")
def d2s_hand_4d_blocks_first():
    return dict(
        id="d2s/hand/4d-blocks-first",
        origin=by_hand("8 channels of 1x2 ([1,2],[3,4],...,[15,16]), block 2, blocks_first: "
                       "output channel c at (y1,y2) reads channel offset*2 + c, offset = "
                       "(y1%2)*2 + y2%2, column y2//2; c=0: [1,5,2,6],[9,13,10,14]; "
                       "c=1: [3,7,4,8],[11,15,12,16]"),
        clauses=D2S_STEPS,
        inputs={"data": iota("i32", [1, 8, 1, 2], 1)},
        attributes={"block_size": 2, "mode": "blocks_first"},
        expect=Typed(tensor("i32", [1, 2, 2, 4], [1, 5, 2, 6, 9, 13, 10, 14,
                                                  3, 7, 4, 8, 11, 15, 12, 16])))


@case(D2S, "hand")
def d2s_hand_4d_depth_first():
    return dict(
        id="d2s/hand/4d-depth-first",
        origin=by_hand("same input as d2s/hand/4d-blocks-first, depth_first: input channel "
                       "c*4 + offset; c=0: [1,3,2,4],[5,7,6,8]; c=1: [9,11,10,12],[13,15,14,16]"),
        clauses=D2S_STEPS,
        inputs={"data": iota("i32", [1, 8, 1, 2], 1)},
        attributes={"block_size": 2, "mode": "depth_first"},
        expect=Typed(tensor("i32", [1, 2, 2, 4], [1, 3, 2, 4, 5, 7, 6, 8,
                                                  9, 11, 10, 12, 13, 15, 14, 16])))


@case(D2S, "hand")
def d2s_hand_zero_depth():
    return dict(
        id="d2s/hand/zero-depth",
        origin=by_hand("C = 0 is divisible by 4: output [1, 0, 4, 4], no elements"),
        clauses=D2S_STEPS + ["D2S-V5"],
        inputs={"data": empty("f32", [1, 0, 2, 2])},
        attributes={"block_size": 2, "mode": "blocks_first"},
        expect=Typed(empty("f32", [1, 0, 4, 4])))


@case(D2S, "hand")
def d2s_hand_3d_k1():
    return dict(
        id="d2s/hand/3d-k1",
        origin=by_hand("one spatial axis, channels [1,2],[3,4],[5,6],[7,8], block 2, depth_first: "
                       "output channel c reads channels 2c (even y) and 2c+1 (odd y): "
                       "[1,3,2,4],[5,7,6,8]"),
        clauses=D2S_STEPS,
        inputs={"data": iota("i32", [1, 4, 2], 1)},
        attributes={"block_size": 2, "mode": "depth_first"},
        expect=Typed(tensor("i32", [1, 2, 4], [1, 3, 2, 4, 5, 7, 6, 8])))


@case(D2S, "hand")
def d2s_hand_default_block_size():
    return dict(
        id="d2s/hand/default-block-size",
        origin=by_hand("no block_size attribute: the default 1 makes the operation the identity"),
        clauses=D2S_STEPS + ["D2S-V4"],
        inputs={"data": tensor("u8", [2, 3, 1], [1, 2, 3, 4, 5, 6])},
        attributes={"mode": "blocks_first"},
        expect=Typed(tensor("u8", [2, 3, 1], [1, 2, 3, 4, 5, 6])))


@case(D2S, "hand")
def d2s_hand_blocks_first_3d_k1():
    return dict(
        id="d2s/hand/3d-k1-blocks-first",
        origin=by_hand("input of d2s/hand/3d-k1 with blocks_first: output channel c reads "
                       "channels c (even y) and c+2 (odd y): [1,5,2,6],[3,7,4,8]"),
        clauses=D2S_STEPS,
        inputs={"data": iota("i32", [1, 4, 2], 1)},
        attributes={"block_size": 2, "mode": "blocks_first"},
        expect=Typed(tensor("i32", [1, 2, 4], [1, 5, 2, 6, 3, 7, 4, 8])))


@case(EIP, "hand")
def eip_hand_valid_patch_larger_than_input():
    return dict(
        id="eip/hand/valid-patch-larger-than-input",
        origin=by_hand("valid with a 5x5 patch on a 3x3 image: no patch fits, 0 rows and 0 "
                       "columns; depth is still 5*5*2 = 50: output [1, 50, 0, 0]"),
        clauses=EIP_STEPS,
        inputs={"data": iota("f32", [1, 2, 3, 3], 1)},
        attributes=eip_attrs([5, 5], [4, 4], [1, 1], "valid"),
        expect=Typed(empty("f32", [1, 50, 0, 0])))


@case(EIP, "hand")
def eip_hand_zero_rows():
    return dict(
        id="eip/hand/zero-rows",
        origin=by_hand("same_upper on 0 rows: ceil(0/1) = 0 output rows, ceil(3/1) = 3 columns; "
                       "output [1, 2*2*1, 0, 3], no elements"),
        clauses=EIP_STEPS,
        inputs={"data": empty("i32", [1, 1, 0, 3])},
        attributes=eip_attrs([2, 2], [1, 1], [1, 1], "same_upper"),
        expect=Typed(empty("i32", [1, 4, 0, 3])))


@case(EIP, "hand")
def eip_hand_same_huge_rows():
    return dict(
        id="eip/hand/same-huge-rows",
        origin=by_hand("INT64_MAX rows, size 2, stride 3, same_lower: ceil(INT64_MAX/3) = "
                       "3074457345618258603 windows; (out-1)*3 + 2 is beyond int64 but the pad "
                       "2 - (INT64_MAX - (out-1)*3) = 1 is not; batch 0, so no elements "
                       "(errata E25)"),
        clauses=EIP_STEPS + ["MC-L3"],
        inputs={"data": empty("i16", [0, 1, 9223372036854775807, 1])},
        attributes=eip_attrs([2, 1], [3, 3], [1, 1], "same_lower"),
        expect=Typed(empty("i16", [0, 2, 3074457345618258603, 1])))


@case(EIP, "hand")
def eip_hand_same_huge_rate():
    return dict(
        id="eip/hand/same-huge-rate",
        origin=by_hand("rate 2^63-2 on 3 rows, size 2, same_upper: eff = 2^63-1, 3 windows, pad "
                       "2^63-2, of which 2^62-1 before; the row sampled is i + r*rate - (2^62-1), "
                       "below 0 for r = 0 and beyond the 3 rows for r = 1: every element is "
                       "padding, although i + r*rate itself exceeds int64 (errata E25)"),
        clauses=EIP_STEPS + ["MC-S2"],
        inputs={"data": tensor("i32", [1, 1, 3, 1], [1, 2, 3])},
        attributes=eip_attrs([2, 1], [1, 1], [9223372036854775806, 1], "same_upper"),
        expect=Typed(tensor("i32", [1, 2, 3, 1], [0, 0, 0, 0, 0, 0])))


@case(EIP, "hand")
def eip_hand_same_lower():
    return dict(
        id="eip/hand/same-lower",
        origin=by_hand("3x3 image 1..9, 2x2 patches, stride 2: out ceil(3/2) = 2, pad "
                       "(2-1)*2+2-3 = 1, same_lower puts it before (top, left); patch (r,c) at "
                       "(i,j) reads (2i+r-1, 2j+c-1): (0,0) [0,0,0,5], (0,1) [0,0,4,6], "
                       "(1,0) [0,2,0,8], (1,1) [1,3,7,9]"),
        clauses=EIP_STEPS + ["MC-S2"],
        inputs={"data": iota("f32", [1, 1, 3, 3], 1)},
        attributes=eip_attrs([2, 2], [2, 2], [1, 1], "same_lower"),
        expect=Typed(tensor("f32", [1, 4, 2, 2], [0, 0, 0, 5, 0, 0, 4, 6, 0, 2, 0, 8,
                                                  1, 3, 7, 9])))


@case(EIP, "hand")
def eip_hand_same_upper():
    return dict(
        id="eip/hand/same-upper",
        origin=by_hand("input and geometry of eip/hand/same-lower, same_upper puts the pad after: "
                       "patch (r,c) at (i,j) reads (2i+r, 2j+c): (0,0) [1,3,7,9], (0,1) [2,0,8,0], "
                       "(1,0) [4,6,0,0], (1,1) [5,0,0,0]"),
        clauses=EIP_STEPS + ["MC-S2"],
        inputs={"data": iota("f32", [1, 1, 3, 3], 1)},
        attributes=eip_attrs([2, 2], [2, 2], [1, 1], "same_upper"),
        expect=Typed(tensor("f32", [1, 4, 2, 2], [1, 3, 7, 9, 2, 0, 8, 0, 4, 6, 0, 0,
                                                  5, 0, 0, 0])))


@case(EIP, "hand")
def eip_hand_rates_and_strides():
    return dict(
        id="eip/hand/rates-and-strides",
        origin=by_hand("4x5 image 1..20, sizes 2x2, strides [1,2], rates [2,1], valid: eff rows 3, "
                       "out rows (4-3)/1+1 = 2, out cols (5-2)/2+1 = 2; patch (r,c) at (i,j) reads "
                       "(i+2r, 2j+c): [1,3,6,8], [2,4,7,9], [11,13,16,18], [12,14,17,19]"),
        clauses=EIP_STEPS,
        inputs={"data": iota("i32", [1, 1, 4, 5], 1)},
        attributes=eip_attrs([2, 2], [1, 2], [2, 1], "valid"),
        expect=Typed(tensor("i32", [1, 4, 2, 2], [1, 3, 6, 8, 2, 4, 7, 9, 11, 13, 16, 18,
                                                  12, 14, 17, 19])))


@case(EIP, "hand")
def eip_hand_batch2_depth_fastest():
    return dict(
        id="eip/hand/batch2-depth-fastest",
        origin=by_hand("two batches of two 1x2 maps, one 1x2 patch: channel (c*2 + d) reads map d "
                       "column c; batch 0 maps [1,2],[3,4] -> [1,3,2,4], batch 1 [5,6],[7,8] -> "
                       "[5,7,6,8]"),
        clauses=EIP_STEPS,
        inputs={"data": iota("u16", [2, 2, 1, 2], 1)},
        attributes=eip_attrs([1, 2], [1, 1], [1, 1], "valid"),
        expect=Typed(tensor("u16", [2, 4, 1, 1], [1, 3, 2, 4, 5, 7, 6, 8])))


# =============================================================== element-type coverage

ALL_TYPES = ["boolean", "u8", "i8", "u16", "i16", "f16", "bf16", "u32", "i32", "f32", "u64",
             "i64", "f64", "f8e4m3", "f8e5m2", "u1", "u4", "i4"]

# Bit patterns a copy must keep: NaN payloads (quiet and signalling, both
# signs), -0.0, the smallest and largest denormals, infinities, extremes.
SPECIAL_BITS = {
    "f16": [0x7E01, 0x7C01, 0xFE00, 0xFD55, 0x8000, 0x0000, 0x0001, 0x03FF, 0x8001, 0x7C00,
            0xFC00, 0x7BFF],
    "bf16": [0x7FC1, 0x7F81, 0xFFC0, 0xFFA5, 0x8000, 0x0001, 0x007F, 0x807F, 0x7F80, 0xFF80,
             0x7F7F],
    "f32": [0x7FC00001, 0x7F800001, 0xFFC00000, 0xFFBADBAD, 0x80000000, 0x00000001, 0x007FFFFF,
            0x7F800000, 0xFF800000, 0x7F7FFFFF],
    "f64": [0x7FF0000000000001, 0x7FF8000000000123, 0xFFF8DEAD0000BEEF, 0x8000000000000000,
            0x0000000000000001, 0x000FFFFFFFFFFFFF, 0x7FF0000000000000, 0xFFF0000000000000],
    "f8e4m3": [0x7F, 0xFF, 0x80, 0x00, 0x01, 0x07, 0x87, 0x7E, 0xFE, 0x78],
    "f8e5m2": [0x7D, 0x7E, 0x7F, 0xFD, 0x7C, 0xFC, 0x80, 0x01, 0x03, 0x7B],
    "u64": [(1 << 64) - 1, 1 << 63, (1 << 63) + 1, (1 << 53) + 1, 0x0123456789ABCDEF, 0],
    "i64": [1 << 63, (1 << 63) - 1, (1 << 64) - 1, (1 << 53) + 1, 0],
    "u32": [0xFFFFFFFF, 0x80000000, 0],
    "i32": [0x80000000, 0x7FFFFFFF, 0xFFFFFFFF],
}

TYPE_NOTES = {
    "f16": "NaN payloads, -0.0, denormals and infinities",
    "bf16": "NaN payloads, -0.0, denormals and infinities",
    "f32": "NaN payloads, -0.0, denormals and infinities",
    "f64": "NaN payloads, -0.0, denormals and infinities",
    "f8e4m3": "both NaNs, -0.0, denormals, +-448",
    "f8e5m2": "NaN payloads, infinities, -0.0, denormals",
    "u64": "values above 2^63 and 2^53 (decimal strings)",
    "i64": "INT64_MIN, INT64_MAX, -1, 2^53+1 (decimal strings)",
    "u1": "packed 8 per byte, element 0 in bit 7; odd count, trailing bits zero",
    "u4": "packed 2 per byte, element 0 in the low nibble; odd count",
    "i4": "packed 2 per byte, element 0 in the low nibble, negative values; odd count",
    "boolean": "true/false",
}


def type_input(type_name, shape, seed):
    """A data tensor exercising type_name: specials first, then noise.

    Payload forms vary so that the loader's packing is tested both ways:
    u4 inputs are values (outputs hex), i4 inputs are hex (outputs values),
    u1 uses hex for both, floats hex, other integers and boolean values."""
    count = model.element_count(shape)
    if type_name == "boolean":
        return tensor("boolean", shape, [bool(b) for b in noise_bits("u1", count, seed)])
    bits = (SPECIAL_BITS.get(type_name, []) + noise_bits(type_name, count, seed))[:count]
    kind = model.TYPES[type_name][1]
    if kind == "float" or type_name in ("u1", "i4"):
        return hexed(type_name, shape, bits)
    return tensor_from_model(model.Tensor(type_name, shape, bits), "values")


def type_output_form(type_name):
    """Which payload form an expected output uses, so that both forms get used."""
    if type_name == "boolean":
        return "values"
    if type_name in ("u1", "u4"):
        return "hex"
    if type_name == "i4":
        return "values"
    return "hex" if model.TYPES[type_name][1] == "float" else "values"


def type_origin(type_name):
    note = TYPE_NOTES.get(type_name, "")
    return ("element-type coverage for %s%s: input bits are the type's special patterns (if "
            "any) followed by sha256-derived noise; expected output computed by %s"
            % (type_name, " (" + note + ")" if note else "", MODEL_ORIGIN))


def type_clauses(type_name, steps, pads=False):
    clauses = steps + ["MC-T1", "MC-S1"]  # each accepts one type of MC-T1's list
    if pads:
        clauses.append("MC-S2")
    if type_name in ("u1", "u4", "i4"):
        clauses.append("MC-S3")
    return clauses


def b2s_types(type_name):
    return dict(
        id="b2s/types/" + type_name, origin=type_origin(type_name),
        clauses=type_clauses(type_name, B2S_STEPS),
        inputs=b2s_inputs(type_input(type_name, [3, 3, 5], "b2s/" + type_name), [1, 3, 1],
                          [0, 1, 1], [0, 1, 1]),
        expect=Computed(type_output_form(type_name)))


def s2b_types(type_name):
    return dict(
        id="s2b/types/" + type_name, origin=type_origin(type_name),
        clauses=type_clauses(type_name, S2B_STEPS, pads=True),
        inputs=s2b_inputs(type_input(type_name, [1, 3, 5], "s2b/" + type_name), [1, 3, 1],
                          [0, 0, 1], [0, 0, 1]),
        expect=Computed(type_output_form(type_name)))


def s2d_types(type_name):
    return dict(
        id="s2d/types/" + type_name, origin=type_origin(type_name),
        clauses=type_clauses(type_name, S2D_STEPS),
        inputs={"data": type_input(type_name, [1, 3, 3, 9], "s2d/" + type_name)},
        attributes={"block_size": 3, "mode": "blocks_first"},
        expect=Computed(type_output_form(type_name)))


def d2s_types(type_name):
    return dict(
        id="d2s/types/" + type_name, origin=type_origin(type_name),
        clauses=type_clauses(type_name, D2S_STEPS),
        inputs={"data": type_input(type_name, [1, 27, 1, 3], "d2s/" + type_name)},
        attributes={"block_size": 3, "mode": "depth_first"},
        expect=Computed(type_output_form(type_name)))


def eip_types(type_name):
    return dict(
        id="eip/types/" + type_name, origin=type_origin(type_name),
        clauses=type_clauses(type_name, EIP_STEPS, pads=True),
        inputs={"data": type_input(type_name, [1, 3, 5, 5], "eip/" + type_name)},
        attributes=eip_attrs([1, 3], [2, 2], [1, 1], "same_lower"),
        expect=Computed(type_output_form(type_name)))


for _op, _builder in ((B2S, b2s_types), (S2B, s2b_types), (S2D, s2d_types), (D2S, d2s_types),
                      (EIP, eip_types)):
    for _type in ALL_TYPES:
        REGISTRY.append((_op, "types", (lambda b, t: lambda: b(t))(_builder, _type)))


# =============================================================== invalid cases

def rejected(text):
    return "by construction: " + text


def b2s_base(**changes):
    """A valid BatchToSpace request ([4,1,2] -> [1,2,4]) with some inputs replaced."""
    inputs = b2s_inputs(iota("f32", [4, 1, 2]), [1, 2, 2], [0, 0, 0], [0, 0, 0])
    inputs.update(changes)
    return inputs


def s2b_base(**changes):
    """A valid SpaceToBatch request ([1,2,4] -> [4,1,2]) with some inputs replaced."""
    inputs = s2b_inputs(iota("f32", [1, 2, 4]), [1, 2, 2], [0, 0, 0], [0, 0, 0])
    inputs.update(changes)
    return inputs


def invalid(case_id, text, clauses, inputs, error, attributes=None):
    out = dict(id=case_id, origin=rejected(text), clauses=clauses, inputs=inputs,
               expect=Rejected(error))
    if attributes is not None:
        out["attributes"] = attributes
    return out


RANK17 = [1] * 17

# ---- BatchToSpace-2


@case(B2S, "invalid")
def b2s_invalid_rank_17():
    return invalid("b2s/invalid/rank-17", "data of rank 17 (side inputs of length 17) exceeds "
                   "the suite limit of 16", ["MC-L1"],
                   b2s_inputs(iota("u8", RANK17), RANK17, [0] * 17, [0] * 17), "rank_limit")


@case(B2S, "invalid")
def b2s_invalid_side_rank_17():
    return invalid("b2s/invalid/side-input-rank-17", "block_shape of rank 17: MC-L1 covers every "
                   "tensor and comes before V3", ["MC-L1", "B2S-V3"],
                   b2s_base(block_shape=side([1], "i64", RANK17)), "rank_limit")


@case(B2S, "invalid")
def b2s_invalid_rank_1():
    return invalid("b2s/invalid/rank-1-data", "data of rank 1 (side inputs of length 1, all "
                   "otherwise valid)", ["B2S-V1"],
                   b2s_inputs(iota("f32", [4]), [1], [0], [0]), "data_rank")


@case(B2S, "invalid")
def b2s_invalid_rank_0():
    return invalid("b2s/invalid/rank-0-data", "a scalar data tensor (side inputs of length 0)",
                   ["B2S-V1"], b2s_inputs(tensor("f32", [], [1]), [], [], []), "data_rank")


@case(B2S, "invalid")
def b2s_invalid_block_shape_f32():
    return invalid("b2s/invalid/block-shape-f32", "block_shape of type f32 holding [1, 2, 2]",
                   ["B2S-V2"], b2s_base(block_shape=side([1, 2, 2], "f32")), "side_input_type")


@case(B2S, "invalid")
def b2s_invalid_block_shape_boolean():
    return invalid("b2s/invalid/block-shape-boolean", "block_shape of type boolean "
                   "[true, true, true]: boolean is not an integer type", ["B2S-V2"],
                   b2s_base(block_shape=side([True, True, True], "boolean")), "side_input_type")


@case(B2S, "invalid")
def b2s_invalid_crops_end_i4():
    return invalid("b2s/invalid/crops-end-i4", "crops_end of the packed type i4: side inputs "
                   "accept i8..i64 and u8..u64 only", ["B2S-V2"],
                   b2s_base(crops_end=side([0, 0, 0], "i4")), "side_input_type")


@case(B2S, "invalid")
def b2s_invalid_crops_begin_u1():
    return invalid("b2s/invalid/crops-begin-u1", "crops_begin of the packed type u1",
                   ["B2S-V2"], b2s_base(crops_begin=side([0, 0, 0], "u1")), "side_input_type")


@case(B2S, "invalid")
def b2s_invalid_block_shape_2d():
    return invalid("b2s/invalid/block-shape-2d", "block_shape of shape [1, 3]", ["B2S-V3"],
                   b2s_base(block_shape=side([1, 2, 2], "i64", [1, 3])), "side_input_rank")


@case(B2S, "invalid")
def b2s_invalid_crops_begin_scalar():
    return invalid("b2s/invalid/crops-begin-scalar", "crops_begin is a scalar (rank 0)",
                   ["B2S-V3"], b2s_base(crops_begin=side([0], "i64", [])), "side_input_rank")


@case(B2S, "invalid")
def b2s_invalid_crops_end_length():
    return invalid("b2s/invalid/crops-end-length-2", "crops_end has 2 elements, data rank 3",
                   ["B2S-V4"], b2s_base(crops_end=side([0, 0])), "side_input_length")


@case(B2S, "invalid")
def b2s_invalid_block_shape_length():
    return invalid("b2s/invalid/block-shape-length-4", "block_shape has 4 elements, data rank 3",
                   ["B2S-V4"], b2s_base(block_shape=side([1, 2, 2, 1])), "side_input_length")


@case(B2S, "invalid")
def b2s_invalid_u64_above_int64():
    return invalid("b2s/invalid/block-shape-u64-above-int64", "block_shape u64 holding "
                   "2^64-1, above INT64_MAX", ["MC-L2"],
                   b2s_base(block_shape=side([1, (1 << 64) - 1, 1], "u64")), "value_out_of_range")


@case(B2S, "invalid")
def b2s_invalid_crops_u64_above_int64():
    return invalid("b2s/invalid/crops-end-u64-2pow63", "crops_end u64 holding 2^63 (INT64_MAX+1)",
                   ["MC-L2"], b2s_base(crops_end=side([0, 0, 1 << 63], "u64")),
                   "value_out_of_range")


@case(B2S, "invalid")
def b2s_invalid_block_zero():
    return invalid("b2s/invalid/block-zero", "block_shape [1, 0, 2]", ["B2S-V5"],
                   b2s_base(block_shape=side([1, 0, 2])), "block_below_one")


@case(B2S, "invalid")
def b2s_invalid_block_negative_i8():
    return invalid("b2s/invalid/block-negative-i8", "block_shape i8 [1, -1, 2]", ["B2S-V5"],
                   b2s_base(block_shape=side([1, -1, 2], "i8")), "block_below_one")


@case(B2S, "invalid")
def b2s_invalid_block_int64_min():
    return invalid("b2s/invalid/block-int64-min", "block_shape i64 [1, INT64_MIN, 1]",
                   ["B2S-V5"], b2s_base(block_shape=side([1, -(1 << 63), 1])), "block_below_one")


@case(B2S, "invalid")
def b2s_invalid_block_first_not_one():
    return invalid("b2s/invalid/block-first-not-one", "block_shape [2, 1, 2]: product 4 still "
                   "divides batch 4, only V6 fails", ["B2S-V6"],
                   b2s_base(block_shape=side([2, 1, 2])), "block_first_not_one")


@case(B2S, "invalid")
def b2s_invalid_crops_begin_negative():
    return invalid("b2s/invalid/crops-begin-negative-i32", "crops_begin i32 [0, -1, 0]",
                   ["B2S-V7"], b2s_inputs(iota("f32", [4, 1, 2]), [1, 2, 2], [0, -1, 0],
                                          [0, 0, 0], "i32"), "crop_negative")


@case(B2S, "invalid")
def b2s_invalid_crops_end_negative():
    return invalid("b2s/invalid/crops-end-int64-min", "crops_end i64 [0, 0, INT64_MIN]",
                   ["B2S-V7"], b2s_base(crops_end=side([0, 0, -(1 << 63)])), "crop_negative")


@case(B2S, "invalid")
def b2s_invalid_crops_begin_first_nonzero():
    return invalid("b2s/invalid/crops-begin-first-nonzero", "crops_begin [1, 0, 0]",
                   ["B2S-V8"], b2s_base(crops_begin=side([1, 0, 0])), "crop_first_not_zero")


@case(B2S, "invalid")
def b2s_invalid_crops_end_first_nonzero():
    return invalid("b2s/invalid/crops-end-first-nonzero", "crops_end [1, 0, 0]",
                   ["B2S-V8"], b2s_base(crops_end=side([1, 0, 0])), "crop_first_not_zero")


@case(B2S, "invalid")
def b2s_invalid_batch_not_divisible():
    return invalid("b2s/invalid/batch-not-divisible", "batch 4, block_shape [1, 3, 1] "
                   "(product 3)", ["B2S-V9"], b2s_base(block_shape=side([1, 3, 1])),
                   "batch_not_divisible")


@case(B2S, "invalid")
def b2s_invalid_block_int32_max():
    return invalid("b2s/invalid/block-int32-max", "block_shape [1, 2^31-1, 1] with batch 4",
                   ["B2S-V9"], b2s_base(block_shape=side([1, 2147483647, 1])),
                   "batch_not_divisible")


@case(B2S, "invalid")
def b2s_invalid_crop_exceeds():
    return invalid("b2s/invalid/crop-exceeds", "axis 1: D_1*B_1 = 2 < crops 1 + 2", ["B2S-V10"],
                   b2s_base(crops_begin=side([0, 1, 0]), crops_end=side([0, 2, 0])),
                   "crop_exceeds")


@case(B2S, "invalid")
def b2s_invalid_crop_exceeds_huge():
    return invalid("b2s/invalid/crop-exceeds-huge", "crops_begin 2^62 on an axis of 4 (the sum "
                   "of crops does not overflow)", ["B2S-V10"],
                   b2s_base(crops_begin=side([0, 0, 1 << 62])), "crop_exceeds")


@case(B2S, "invalid")
def b2s_invalid_crop_sum_beyond_int64():
    return invalid("b2s/invalid/crop-sum-beyond-int64", "crops 2^63-1 + 1 on axis 2: each crop "
                   "fits int64, their sum does not; the comparison is exact, so this is "
                   "crop_exceeds, not shape_overflow (errata E19)", ["B2S-V10"],
                   b2s_base(crops_begin=side([0, 0, (1 << 63) - 1]), crops_end=side([0, 0, 1])),
                   "crop_exceeds")


@case(B2S, "invalid")
def b2s_invalid_order_block_before_divisible():
    return invalid("b2s/invalid/order-block-before-divisible", "block_shape [1, 0, 3] breaks "
                   "V5 and (product 0 or 3) V9: V5 is checked first", ["B2S-V5", "B2S-V9"],
                   b2s_base(block_shape=side([1, 0, 3])), "block_below_one")


@case(B2S, "invalid")
def b2s_invalid_order_zero_first_block():
    return invalid("b2s/invalid/order-block-zero-first", "block_shape [0, 2, 2] breaks V5 and "
                   "V6: V5 is checked first", ["B2S-V5", "B2S-V6"],
                   b2s_base(block_shape=side([0, 2, 2])), "block_below_one")


@case(B2S, "invalid")
def b2s_invalid_order_type_before_rank():
    return invalid("b2s/invalid/order-type-before-rank", "crops_end of type f32 and shape "
                   "[1, 3] breaks V2 and V3: V2 first", ["B2S-V2", "B2S-V3"],
                   b2s_base(crops_end=side([0, 0, 0], "f32", [1, 3])), "side_input_type")


@case(B2S, "invalid")
def b2s_invalid_order_clause_before_input():
    return invalid("b2s/invalid/order-clause-before-input", "block_shape has the wrong length "
                   "(V4) and the later crops_end is 2-D (V3): clauses go in number order "
                   "before input order", ["B2S-V3", "B2S-V4"],
                   b2s_base(block_shape=side([1, 2]), crops_end=side([0, 0, 0], "i64", [3, 1])),
                   "side_input_rank")


@case(B2S, "invalid")
def b2s_invalid_order_length_before_range():
    return invalid("b2s/invalid/order-length-before-range", "block_shape u64 holds 2^63 and "
                   "crops_end has 2 elements: V4 comes before MC-L2", ["B2S-V4", "MC-L2"],
                   b2s_base(block_shape=side([1, 1 << 63, 1], "u64"), crops_end=side([0, 0])),
                   "side_input_length")


@case(B2S, "invalid")
def b2s_invalid_order_range_before_block():
    return invalid("b2s/invalid/order-range-before-block", "block_shape u64 [1, 0, 2^64-1]: "
                   "MC-L2 (right after V4) comes before V5", ["MC-L2", "B2S-V5"],
                   b2s_base(block_shape=side([1, 0, (1 << 64) - 1], "u64")), "value_out_of_range")


@case(B2S, "invalid")
def b2s_invalid_block_product_overflow():
    return invalid("b2s/invalid/block-product-overflow", "block_shape [1, 2^32, 2^32]: the "
                   "product 2^64 is computed (and overflows) before the V9 divisibility check "
                   "that batch 1 would fail", ["MC-L3", "B2S-V9"],
                   b2s_inputs(iota("f32", [1, 1, 1]), [1, 1 << 32, 1 << 32], [0, 0, 0], [0, 0, 0]),
                   "shape_overflow")


@case(B2S, "invalid")
def b2s_invalid_block_product_overflow_zero_batch():
    return invalid("b2s/invalid/block-product-overflow-zero-batch", "batch 0 is divisible by "
                   "anything, but the block product 2^32 * 2^32 must itself be formed first and "
                   "overflows; SpaceToBatch of the same empty tensor is valid (its output batch "
                   "0 * B_1 * B_2 never overflows), so here the round trip is undefined "
                   "(found by the roundtrip fuzz target, input c9ed9c75cb99)", ["MC-L3", "B2S-V9"],
                   b2s_inputs(empty("f32", [0, 0, 0]), [1, 1 << 32, 1 << 32], [0, 0, 0], [0, 0, 0]),
                   "shape_overflow")


@case(B2S, "invalid")
def b2s_invalid_stretched_axis_overflow():
    return invalid("b2s/invalid/axis-times-block-overflow", "batch 0 (divisible), D_1 = 2, "
                   "B_1 = 2^62: D_1*B_1 = 2^63 overflows", ["MC-L3"],
                   b2s_inputs(empty("f32", [0, 2]), [1, 1 << 62], [0, 0], [0, 0]),
                   "shape_overflow")


@case(B2S, "invalid")
def b2s_invalid_output_count_overflow():
    return invalid("b2s/invalid/output-count-overflow-zero-batch", "batch 0, each D_i*B_i = "
                   "2^32 fits, but the output [0, 2^32, 2^32] has a non-zero part 2^64: "
                   "an overflow, not an empty tensor", ["MC-L3"],
                   b2s_inputs(empty("f32", [0, 2, 2]), [1, 1 << 31, 1 << 31], [0, 0, 0],
                              [0, 0, 0]), "shape_overflow")


# ---- SpaceToBatch-2


@case(S2B, "invalid")
def s2b_invalid_rank_17():
    return invalid("s2b/invalid/rank-17", "data of rank 17 (side inputs of length 17)",
                   ["MC-L1"], s2b_inputs(iota("u8", RANK17), RANK17, [0] * 17, [0] * 17),
                   "rank_limit")


@case(S2B, "invalid")
def s2b_invalid_rank_1():
    return invalid("s2b/invalid/rank-1-data", "data of rank 1 (side inputs of length 1)",
                   ["S2B-V1"], s2b_inputs(iota("f32", [4]), [1], [0], [0]), "data_rank")


@case(S2B, "invalid")
def s2b_invalid_block_shape_f16():
    return invalid("s2b/invalid/block-shape-f16", "block_shape of type f16", ["S2B-V2"],
                   s2b_base(block_shape=side([1, 2, 2], "f16")), "side_input_type")


@case(S2B, "invalid")
def s2b_invalid_pads_boolean():
    return invalid("s2b/invalid/pads-end-boolean", "pads_end of type boolean", ["S2B-V2"],
                   s2b_base(pads_end=side([False, False, False], "boolean")), "side_input_type")


@case(S2B, "invalid")
def s2b_invalid_pads_begin_2d():
    return invalid("s2b/invalid/pads-begin-2d", "pads_begin of shape [3, 1]", ["S2B-V3"],
                   s2b_base(pads_begin=side([0, 0, 0], "i64", [3, 1])), "side_input_rank")


@case(S2B, "invalid")
def s2b_invalid_pads_end_length():
    return invalid("s2b/invalid/pads-end-length-4", "pads_end has 4 elements, data rank 3",
                   ["S2B-V4"], s2b_base(pads_end=side([0, 0, 0, 0])), "side_input_length")


@case(S2B, "invalid")
def s2b_invalid_u64_above_int64():
    return invalid("s2b/invalid/pads-begin-u64-above-int64", "pads_begin u64 holding 2^64-1",
                   ["MC-L2"], s2b_base(pads_begin=side([0, 0, (1 << 64) - 1], "u64")),
                   "value_out_of_range")


@case(S2B, "invalid")
def s2b_invalid_block_zero():
    return invalid("s2b/invalid/block-zero", "block_shape u16 [1, 0, 2]", ["S2B-V5"],
                   s2b_base(block_shape=side([1, 0, 2], "u16")), "block_below_one")


@case(S2B, "invalid")
def s2b_invalid_block_first_not_one():
    return invalid("s2b/invalid/block-first-not-one", "block_shape [2, 2, 2]: every padded axis "
                   "still divides, only V6 fails", ["S2B-V6"],
                   s2b_base(block_shape=side([2, 2, 2])), "block_first_not_one")


@case(S2B, "invalid")
def s2b_invalid_pads_negative():
    return invalid("s2b/invalid/pads-begin-negative-i16", "pads_begin i16 [0, -2, 0] (the "
                   "padded size 0 would even divide)", ["S2B-V7"],
                   s2b_inputs(iota("f32", [1, 2, 4]), [1, 2, 2], [0, -2, 0], [0, 0, 0], "i16"),
                   "pad_negative")


@case(S2B, "invalid")
def s2b_invalid_pads_end_negative():
    return invalid("s2b/invalid/pads-end-negative-i8", "pads_end i8 [0, 0, -128]", ["S2B-V7"],
                   s2b_inputs(iota("f32", [1, 2, 4]), [1, 2, 2], [0, 0, 0], [0, 0, -128], "i8"),
                   "pad_negative")


@case(S2B, "invalid")
def s2b_invalid_pads_begin_first_nonzero():
    return invalid("s2b/invalid/pads-begin-first-nonzero", "pads_begin [1, 0, 0]", ["S2B-V8"],
                   s2b_base(pads_begin=side([1, 0, 0])), "pad_first_not_zero")


@case(S2B, "invalid")
def s2b_invalid_pads_end_first_nonzero():
    return invalid("s2b/invalid/pads-end-first-nonzero", "pads_end [2, 0, 0]", ["S2B-V8"],
                   s2b_base(pads_end=side([2, 0, 0])), "pad_first_not_zero")


@case(S2B, "invalid")
def s2b_invalid_padded_not_divisible():
    return invalid("s2b/invalid/padded-not-divisible", "axis 2: 4 + 0 + 1 = 5 is not divisible "
                   "by 2", ["S2B-V9"], s2b_base(pads_end=side([0, 0, 1])), "padded_not_divisible")


@case(S2B, "invalid")
def s2b_invalid_order_block_before_divisible():
    return invalid("s2b/invalid/order-block-before-divisible", "block_shape [1, 0, 3] breaks V5 "
                   "and V9: V5 first", ["S2B-V5", "S2B-V9"], s2b_base(block_shape=side([1, 0, 3])),
                   "block_below_one")


@case(S2B, "invalid")
def s2b_invalid_padded_overflow():
    return invalid("s2b/invalid/padded-size-overflow", "pads 2^62 + 2^62 on axis 2: "
                   "D_2 + pads overflows int64 (checked before V9)", ["MC-L3", "S2B-V9"],
                   s2b_base(pads_begin=side([0, 0, 1 << 62]), pads_end=side([0, 0, 1 << 62])),
                   "shape_overflow")


@case(S2B, "invalid")
def s2b_invalid_batch_product_overflow():
    return invalid("s2b/invalid/batch-times-blocks-overflow", "empty axes (0 divides), "
                   "block_shape [1, 2^31, 2^32]: batch 2 * 2^63 overflows", ["MC-L3"],
                   s2b_inputs(empty("f32", [2, 0, 0]), [1, 1 << 31, 1 << 32], [0, 0, 0], [0, 0, 0]),
                   "shape_overflow")


@case(S2B, "invalid")
def s2b_invalid_order_divisible_before_product():
    return invalid("s2b/invalid/order-divisible-before-product", "axis 1 of size 1 is not "
                   "divisible by 2^31 (V9) and batch*prod(B) would overflow: V9 comes first",
                   ["S2B-V9", "MC-L3"],
                   s2b_inputs(empty("f32", [2, 1, 0]), [1, 1 << 31, 1 << 32], [0, 0, 0], [0, 0, 0]),
                   "padded_not_divisible")


@case(S2B, "invalid")
def s2b_invalid_output_count_overflow():
    return invalid("s2b/invalid/output-count-overflow", "pads_end 2^32 on two empty axes: "
                   "output [1, 2^32, 2^32] has 2^64 elements", ["MC-L3"],
                   s2b_inputs(empty("u8", [1, 0, 0]), [1, 1, 1], [0, 0, 0], [0, 1 << 32, 1 << 32]),
                   "shape_overflow")


@case(S2B, "invalid")
def s2b_invalid_output_too_large():
    return invalid("s2b/invalid/output-too-large", "one u8 element padded by 2^31 at the end: "
                   "output [1, 2^31+1] u8 is above the 1 GiB default cap", ["MC-L4"],
                   s2b_inputs(tensor("u8", [1, 1], [5]), [1, 1], [0, 0], [0, 1 << 31]),
                   "output_too_large")


# ---- SpaceToDepth-1 and DepthToSpace-1

def depth_invalid_common(prefix, op_slug, valid_shape):
    """Cases both depth operations share: (function name, builder)."""
    p = prefix
    s = op_slug
    return [
        lambda: invalid(s + "/invalid/rank-17", "data of rank 17", ["MC-L1"],
                        {"data": iota("u8", RANK17)}, "rank_limit",
                        {"block_size": 1, "mode": "blocks_first"}),
        lambda: invalid(s + "/invalid/rank-2-data", "data of rank 2 [2, 4]", [p + "-V1"],
                        {"data": iota("f32", [2, 4])}, "data_rank",
                        {"block_size": 2, "mode": "blocks_first"}),
        lambda: invalid(s + "/invalid/mode-missing", "no mode attribute (it has no default)",
                        [p + "-V2"], {"data": iota("f32", valid_shape)}, "mode_missing",
                        {"block_size": 2}),
        lambda: invalid(s + "/invalid/mode-uppercase", "mode \"BLOCKS_FIRST\": names are "
                        "case-sensitive", [p + "-V3"], {"data": iota("f32", valid_shape)},
                        "mode_invalid", {"block_size": 2, "mode": "BLOCKS_FIRST"}),
        lambda: invalid(s + "/invalid/mode-empty", "mode \"\"", [p + "-V3"],
                        {"data": iota("f32", valid_shape)}, "mode_invalid",
                        {"block_size": 2, "mode": ""}),
        lambda: invalid(s + "/invalid/block-size-zero", "block_size 0", [p + "-V4"],
                        {"data": iota("f32", valid_shape)}, "block_size_below_one",
                        {"block_size": 0, "mode": "depth_first"}),
        lambda: invalid(s + "/invalid/block-size-negative", "block_size -2", [p + "-V4"],
                        {"data": iota("f32", valid_shape)}, "block_size_below_one",
                        {"block_size": -2, "mode": "depth_first"}),
        lambda: invalid(s + "/invalid/order-mode-before-block-size", "mode missing and "
                        "block_size 0: V2 first", [p + "-V2", p + "-V4"],
                        {"data": iota("f32", valid_shape)}, "mode_missing", {"block_size": 0}),
        lambda: invalid(s + "/invalid/order-rank-before-mode", "rank-2 data and no mode: "
                        "V1 first", [p + "-V1", p + "-V2"], {"data": iota("f32", [2, 4])},
                        "data_rank", {"block_size": 2}),
        lambda: invalid(s + "/invalid/order-invalid-mode-before-block-size", "mode \"foo\" and "
                        "block_size -1: V3 first", [p + "-V3", p + "-V4"],
                        {"data": iota("f32", valid_shape)}, "mode_invalid",
                        {"block_size": -1, "mode": "foo"}),
    ]


for _maker in depth_invalid_common("S2D", "s2d", [1, 2, 4, 4]):
    REGISTRY.append((S2D, "invalid", _maker))


@case(S2D, "invalid")
def s2d_invalid_spatial_not_divisible():
    return invalid("s2d/invalid/spatial-not-divisible", "D_2 = 3 with block_size 2 (D_1 = 4 "
                   "divides)", ["S2D-V5"], {"data": iota("f32", [1, 1, 4, 3])},
                   "spatial_not_divisible", {"block_size": 2, "mode": "blocks_first"})


@case(S2D, "invalid")
def s2d_invalid_order_block_size_before_divisible():
    return invalid("s2d/invalid/order-block-size-before-divisible", "block_size 0 (V4); "
                   "divisibility by 0 is never reached", ["S2D-V4", "S2D-V5"],
                   {"data": iota("f32", [1, 1, 3, 3])}, "block_size_below_one",
                   {"block_size": 0, "mode": "blocks_first"})


@case(S2D, "invalid")
def s2d_invalid_block_power_overflow():
    return invalid("s2d/invalid/block-power-overflow", "block_size 2^32 with K = 2 on empty "
                   "axes (0 divides): block_size^2 = 2^64 overflows", ["MC-L3"],
                   {"data": empty("f32", [1, 1, 0, 0])}, "shape_overflow",
                   {"block_size": 1 << 32, "mode": "blocks_first"})


@case(S2D, "invalid")
def s2d_invalid_depth_product_overflow():
    return invalid("s2d/invalid/depth-times-block-overflow", "C = 2^32, block_size 2^16, K = 2: "
                   "C * 2^32 = 2^64 overflows", ["MC-L3"],
                   {"data": empty("f32", [1, 1 << 32, 0, 0])}, "shape_overflow",
                   {"block_size": 1 << 16, "mode": "depth_first"})


@case(S2D, "invalid")
def s2d_invalid_output_count_overflow():
    return invalid("s2d/invalid/output-count-overflow", "N = 2^32, C*bs^K = 2^32: output "
                   "[2^32, 2^32, 0, 0] has a non-zero part 2^64", ["MC-L3"],
                   {"data": empty("f32", [1 << 32, 1, 0, 0])}, "shape_overflow",
                   {"block_size": 1 << 16, "mode": "blocks_first"})


for _maker in depth_invalid_common("D2S", "d2s", [1, 8, 2, 2]):
    REGISTRY.append((D2S, "invalid", _maker))


@case(D2S, "invalid")
def d2s_invalid_depth_not_divisible():
    return invalid("d2s/invalid/depth-not-divisible", "C = 6 with block_size^2 = 4",
                   ["D2S-V5"], {"data": iota("f32", [1, 6, 1, 1])}, "depth_not_divisible",
                   {"block_size": 2, "mode": "depth_first"})


@case(D2S, "invalid")
def d2s_invalid_depth_not_divisible_k1():
    return invalid("d2s/invalid/depth-not-divisible-k1", "C = 3 with block_size 2 and one "
                   "spatial axis", ["D2S-V5"], {"data": iota("f32", [1, 3, 2])},
                   "depth_not_divisible", {"block_size": 2, "mode": "blocks_first"})


@case(D2S, "invalid")
def d2s_invalid_block_power_overflow():
    return invalid("d2s/invalid/block-power-overflow", "block_size 2^32 with K = 2: "
                   "bs^2 = 2^64 overflows, and that is checked before V5 (C = 1 would fail it)",
                   ["MC-L3", "D2S-V5"], {"data": iota("f32", [1, 1, 1, 1])}, "shape_overflow",
                   {"block_size": 1 << 32, "mode": "depth_first"})


@case(D2S, "invalid")
def d2s_invalid_axis_overflow():
    return invalid("d2s/invalid/axis-times-block-overflow", "C = 0 (divisible), D_1 = 4, "
                   "block_size 2^62: D_1 * bs = 2^64 overflows", ["MC-L3"],
                   {"data": empty("f32", [1, 0, 4])}, "shape_overflow",
                   {"block_size": 1 << 62, "mode": "blocks_first"})


@case(D2S, "invalid")
def d2s_invalid_output_count_overflow():
    return invalid("d2s/invalid/output-count-overflow", "C = 0, block_size 2^31, K = 2: each "
                   "D_i*bs = 2^32 fits but output [1, 0, 2^32, 2^32] has a non-zero part 2^64",
                   ["MC-L3"], {"data": empty("f32", [1, 0, 2, 2])}, "shape_overflow",
                   {"block_size": 1 << 31, "mode": "blocks_first"})


# ---- ExtractImagePatches-3

EIP_OK = dict(sizes=[2, 2], strides=[1, 1], rates=[1, 1], auto_pad="valid")


def eip_invalid(case_id, text, clauses, error, data=None, **changes):
    attrs = dict(EIP_OK)
    attrs.update(changes)
    attrs = {k: v for k, v in attrs.items() if v is not None}
    return invalid(case_id, text, clauses, {"data": data or iota("f32", [1, 1, 4, 4])}, error,
                   attrs)


@case(EIP, "invalid")
def eip_invalid_rank_17():
    return eip_invalid("eip/invalid/rank-17", "data of rank 17", ["MC-L1"], "rank_limit",
                       data=iota("u8", RANK17))


@case(EIP, "invalid")
def eip_invalid_rank_3():
    return eip_invalid("eip/invalid/rank-3-data", "data of rank 3", ["EIP-V1"], "data_rank",
                       data=iota("f32", [1, 4, 4]))


@case(EIP, "invalid")
def eip_invalid_rank_5():
    return eip_invalid("eip/invalid/rank-5-data", "data of rank 5", ["EIP-V1"], "data_rank",
                       data=iota("f32", [1, 1, 1, 4, 4]))


@case(EIP, "invalid")
def eip_invalid_sizes_missing():
    return eip_invalid("eip/invalid/sizes-missing", "no sizes attribute", ["EIP-V2"],
                       "attribute_missing", sizes=None)


@case(EIP, "invalid")
def eip_invalid_strides_missing():
    return eip_invalid("eip/invalid/strides-missing", "no strides attribute", ["EIP-V2"],
                       "attribute_missing", strides=None)


@case(EIP, "invalid")
def eip_invalid_rates_missing():
    return eip_invalid("eip/invalid/rates-missing", "no rates attribute", ["EIP-V2"],
                       "attribute_missing", rates=None)


@case(EIP, "invalid")
def eip_invalid_auto_pad_missing():
    return eip_invalid("eip/invalid/auto-pad-missing", "no auto_pad attribute (it has no "
                       "default)", ["EIP-V2"], "attribute_missing", auto_pad=None)


@case(EIP, "invalid")
def eip_invalid_sizes_length_3():
    return eip_invalid("eip/invalid/sizes-length-3", "sizes [2, 2, 2]", ["EIP-V3"],
                       "attribute_length", sizes=[2, 2, 2])


@case(EIP, "invalid")
def eip_invalid_strides_length_1():
    return eip_invalid("eip/invalid/strides-length-1", "strides [1]", ["EIP-V3"],
                       "attribute_length", strides=[1])


@case(EIP, "invalid")
def eip_invalid_rates_length_3():
    return eip_invalid("eip/invalid/rates-length-3", "rates [1, 1, 1]", ["EIP-V3"],
                       "attribute_length", rates=[1, 1, 1])


@case(EIP, "invalid")
def eip_invalid_rates_empty():
    return eip_invalid("eip/invalid/rates-empty", "rates []", ["EIP-V3"], "attribute_length",
                       rates=[])


@case(EIP, "invalid")
def eip_invalid_sizes_length_9():
    return eip_invalid("eip/invalid/sizes-length-9", "sizes with 9 values (more than an "
                       "implementation may keep)", ["EIP-V3"], "attribute_length", sizes=[1] * 9)


@case(EIP, "invalid")
def eip_invalid_sizes_zero():
    return eip_invalid("eip/invalid/sizes-zero", "sizes [0, 2] (the seed's 'non-negative' range "
                       "would allow it; a patch needs >= 1)", ["EIP-V4"], "sizes_below_one",
                       sizes=[0, 2])


@case(EIP, "invalid")
def eip_invalid_sizes_negative():
    return eip_invalid("eip/invalid/sizes-negative", "sizes [2, -1]", ["EIP-V4"],
                       "sizes_below_one", sizes=[2, -1])


@case(EIP, "invalid")
def eip_invalid_strides_zero():
    return eip_invalid("eip/invalid/strides-zero", "strides [1, 0]", ["EIP-V5"],
                       "strides_below_one", strides=[1, 0])


@case(EIP, "invalid")
def eip_invalid_rates_zero():
    return eip_invalid("eip/invalid/rates-zero", "rates [0, 1]", ["EIP-V6"], "rates_below_one",
                       rates=[0, 1])


@case(EIP, "invalid")
def eip_invalid_auto_pad_uppercase():
    return eip_invalid("eip/invalid/auto-pad-uppercase", "auto_pad \"SAME_UPPER\"", ["EIP-V7"],
                       "auto_pad_invalid", auto_pad="SAME_UPPER")


@case(EIP, "invalid")
def eip_invalid_auto_pad_explicit():
    return eip_invalid("eip/invalid/auto-pad-explicit", "auto_pad \"explicit\" (not one of "
                       "valid, same_upper, same_lower)", ["EIP-V7"], "auto_pad_invalid",
                       auto_pad="explicit")


@case(EIP, "invalid")
def eip_invalid_order_length_before_value():
    return eip_invalid("eip/invalid/order-length-before-value", "sizes [0]: wrong length (V3) "
                       "and a value below one (V4); V3 first", ["EIP-V3", "EIP-V4"],
                       "attribute_length", sizes=[0])


@case(EIP, "invalid")
def eip_invalid_order_missing_before_length():
    return eip_invalid("eip/invalid/order-missing-before-length", "strides [1, 1, 1] and no "
                       "auto_pad: V2 first", ["EIP-V2", "EIP-V3"], "attribute_missing",
                       strides=[1, 1, 1], auto_pad=None)


@case(EIP, "invalid")
def eip_invalid_order_sizes_before_strides():
    return eip_invalid("eip/invalid/order-sizes-before-strides", "sizes [0, 1] and strides "
                       "[0, 1]: V4 first", ["EIP-V4", "EIP-V5"], "sizes_below_one",
                       sizes=[0, 1], strides=[0, 1])


@case(EIP, "invalid")
def eip_invalid_order_rates_before_auto_pad():
    return eip_invalid("eip/invalid/order-rates-before-auto-pad", "rates [1, 0] and auto_pad "
                       "\"bad\": V6 first", ["EIP-V6", "EIP-V7"], "rates_below_one",
                       rates=[1, 0], auto_pad="bad")


@case(EIP, "invalid")
def eip_invalid_order_rank_before_attributes():
    return eip_invalid("eip/invalid/order-rank-before-attributes", "rank-3 data and no sizes: "
                       "V1 first", ["EIP-V1", "EIP-V2"], "data_rank", data=iota("f32", [1, 4, 4]),
                       sizes=None)


@case(EIP, "invalid")
def eip_invalid_order_rank_limit_before_attributes():
    return eip_invalid("eip/invalid/order-rank-limit-before-attributes", "rank-17 u4 data and no "
                       "sizes: MC-L1 comes before V1 and V2", ["MC-L1", "EIP-V1", "EIP-V2"],
                       "rank_limit", data=counter("u4", RANK17, 7), sizes=None)


@case(EIP, "invalid")
def eip_invalid_depth_overflow():
    return eip_invalid("eip/invalid/patch-depth-overflow", "sizes [2^32, 2^32]: the output depth "
                       "2^64 * C overflows (valid mode gives 0 rows, which does not help)",
                       ["MC-L3"], "shape_overflow", sizes=[1 << 32, 1 << 32])


@case(EIP, "invalid")
def eip_invalid_depth_times_channels_overflow():
    return eip_invalid("eip/invalid/patch-depth-times-channels-overflow", "sizes [2^31, 2^31] "
                       "fit (2^62) but times C = 2 overflows", ["MC-L3"], "shape_overflow",
                       data=iota("f32", [1, 2, 4, 4]), sizes=[1 << 31, 1 << 31])


@case(EIP, "invalid")
def eip_invalid_effective_size_overflow():
    return eip_invalid("eip/invalid/effective-size-overflow", "sizes [2^32, 1] and rates "
                       "[2^32, 1]: (size-1)*rate+1 overflows", ["MC-L3"], "shape_overflow",
                       sizes=[1 << 32, 1], rates=[1 << 32, 1])


@case(EIP, "invalid")
def eip_invalid_output_too_large():
    return eip_invalid("eip/invalid/output-too-large", "one f32 pixel, same_upper, sizes "
                       "[2^16, 2^16]: output [1, 2^32, 1, 1] f32 is 16 GiB, above the 1 GiB cap",
                       ["MC-L4"], "output_too_large", data=iota("f32", [1, 1, 1, 1]),
                       sizes=[1 << 16, 1 << 16], auto_pad="same_upper")


# =============================================================== third-party findings
# Bugs that runs against other libraries found (examples/adapters/), each as the
# smallest readable case, with the library and its version in origin.

TORCH = "PyTorch 1.13.1 (Debian python3-torch 1.13.1+dfsg-4; torch.__version__ 1.13.0a0)"


def third_party(library, what):
    return "bug found in %s by examples/adapters: %s" % (library, what)


@case(D2S, "libraries")
def d2s_third_party_pytorch_shuffle_block_square_overflow():
    return dict(
        id="d2s/libraries/pytorch-pixel-shuffle-block-square-overflow",
        origin=third_party(TORCH, "pixel_shuffle(x, 2**32) dies of SIGFPE: upscale_factor^2 = "
                           "2^64 wraps to 0 and the divisibility check divides by it; block_size^2 "
                           "does not fit in int64, so the expected error is shape_overflow (MC-L3), "
                           "by construction"),
        clauses=["MC-L3", "D2S-V5"], inputs={"data": iota("f32", [1, 1, 1, 1])},
        attributes={"block_size": 1 << 32, "mode": "depth_first"},
        expect=Rejected("shape_overflow"))


@case(S2D, "libraries")
def s2d_third_party_pytorch_unshuffle_block_square_overflow():
    return dict(
        id="s2d/libraries/pytorch-pixel-unshuffle-block-square-overflow",
        origin=third_party(TORCH, "pixel_unshuffle(x, 2**32) on an empty [1, 1, 0, 0] returns "
                           "shape [1, 1, 0, 0] instead of failing: C * downscale_factor^2 = 2^64 "
                           "wraps silently; block_size^2 does not fit in int64, so the expected "
                           "error is shape_overflow (MC-L3), by construction"),
        clauses=["MC-L3"], inputs={"data": empty("f32", [1, 1, 0, 0])},
        attributes={"block_size": 1 << 32, "mode": "depth_first"},
        expect=Rejected("shape_overflow"))


@case(S2D, "libraries")
def s2d_third_party_pytorch_unshuffle_empty_batch():
    return dict(
        id="s2d/libraries/pytorch-pixel-unshuffle-empty-batch",
        origin=third_party(TORCH, "pixel_unshuffle on a zero-element input returns it unchanged "
                           "([0, 1, 2, 2] stays [0, 1, 2, 2]); by hand: S2D-O1 gives [N, C * bs^2, "
                           "H / bs, W / bs] = [0, 4, 1, 1], with no elements; " + CROSS_CHECK),
        clauses=S2D_STEPS, inputs={"data": empty("f32", [0, 1, 2, 2])},
        attributes={"block_size": 2, "mode": "depth_first"},
        expect=Typed(empty("f32", [0, 4, 1, 1])))


@case(EIP, "libraries")
def eip_third_party_pytorch_unfold_kernel_overflow():
    return dict(
        id="eip/libraries/pytorch-unfold-kernel-overflow",
        origin=third_party(TORCH, "unfold(x, kernel_size=(2**32, 2**32)) on [1, 1, 1, 1] returns a "
                           "tensor of shape [1, 0, -17179869180] (a negative dimension) instead of "
                           "failing; the output depth C * 2^32 * 2^32 does not fit in int64, so the "
                           "expected error is shape_overflow (MC-L3), by construction"),
        clauses=["MC-L3"], inputs={"data": iota("f32", [1, 1, 1, 1])},
        attributes=eip_attrs([1 << 32, 1 << 32], [1, 1], [1, 1], "valid"),
        expect=Rejected("shape_overflow"))


# =============================================================== library bugs
# One minimal case per real bug that docs/conformance-matrix.md lists, named
# <op>/libraries/<library>-<what>. The expected results follow from the
# specification (worked out in origin) and are checked against
# tools/reference_model.py like every other case.

def library_bug(library, text):
    return "library bug: %s; expected result by hand: %s; %s" % (library, text, CROSS_CHECK)


ORT = "onnxruntime-node 1.30.0 (ONNX Runtime CPU)"
TFJS = "@tensorflow/tfjs-backend-cpu 4.22.0"
# float16 NaNs with payloads, quiet and signaling, and a denormal.
F16_NANS = [0x7E01, 0xFD55, 0x7C01, 0x0001]


@case(S2D, "libraries")
def s2d_library_ort_f16_nan_payload():
    return dict(
        id="s2d/libraries/onnxruntime-f16-nan-payload",
        origin=library_bug(ORT + ", SpaceToDepth float16 returns every NaN as 0x7E00/0xFE00",
                           "one 2x2 block of a single channel becomes 4 channels in the same "
                           "order, bit for bit"),
        clauses=S2D_STEPS + ["MC-S1"],
        inputs={"data": hexed("f16", [1, 1, 2, 2], F16_NANS)},
        attributes={"block_size": 2, "mode": "blocks_first"},
        expect=Typed(hexed("f16", [1, 4, 1, 1], F16_NANS)))


@case(D2S, "libraries")
def d2s_library_ort_f16_nan_payload():
    return dict(
        id="d2s/libraries/onnxruntime-f16-nan-payload",
        origin=library_bug(ORT + ", DepthToSpace float16 (DCR and CRD) returns every NaN as "
                           "0x7E00/0xFE00", "4 channels of one pixel become one 2x2 block in "
                           "the same order, bit for bit"),
        clauses=D2S_STEPS + ["MC-S1"],
        inputs={"data": hexed("f16", [1, 4, 1, 1], F16_NANS)},
        attributes={"block_size": 2, "mode": "depth_first"},
        expect=Typed(hexed("f16", [1, 1, 2, 2], F16_NANS)))


# float32 signaling NaNs (quiet bit clear, payload set), then two ordinary values.
F32_SNANS = [0x7F800001, 0xFFBADBAD, 0x3F800000, 0x00000001]


def tfjs_snan_case(op, case_id, kernel, inputs, out_shape, text):
    """Batch/space interleaving of F32_SNANS whose output order is a c b d."""
    steps = S2B_STEPS if op == S2B else B2S_STEPS
    return dict(
        id=case_id,
        origin=library_bug(TFJS + ", %s copies float32 elements through JavaScript numbers, "
                           "which sets the quiet bit of signaling NaNs" % kernel, text),
        clauses=steps + ["MC-S1"],
        inputs=inputs,
        expect=Typed(hexed("f32", out_shape, [F32_SNANS[i] for i in (0, 2, 1, 3)])))


@case(S2B, "libraries")
def s2b_library_tfjs_f32_snan():
    return tfjs_snan_case(S2B, "s2b/libraries/tfjs-f32-signaling-nan", "spaceToBatchND",
                          s2b_inputs(hexed("f32", [1, 4], F32_SNANS), [1, 2], [0, 0], [0, 0]),
                          [2, 2], "[1,4] block [1,2]: batch k takes columns k, k+2: "
                          "[[a,c],[b,d]] -> rows a c / b d")


@case(B2S, "libraries")
def b2s_library_tfjs_f32_snan():
    return tfjs_snan_case(B2S, "b2s/libraries/tfjs-f32-signaling-nan", "batchToSpaceND",
                          b2s_inputs(hexed("f32", [2, 2], F32_SNANS), [1, 2], [0, 0], [0, 0]),
                          [1, 4], "[2,2] block [1,2]: output row interleaves batch 0 and 1: "
                          "a c b d")


@case(B2S, "libraries")
def b2s_library_tfjs_crop_exceeds():
    return dict(
        id="b2s/libraries/tfjs-crop-exceeds",
        origin="library bug: " + TFJS + ", batchToSpaceND does not check crops against the "
               "interleaved axis (its documentation requires crop_start + crop_end <= "
               "block_shape * size) and returns [1,2] data; by construction: D_1*B_1 = 2 < "
               "crops 0 + 3",
        clauses=["B2S-V10"],
        inputs=b2s_inputs(tensor("f32", [2, 1], [1, 2]), [1, 2], [0, 0], [0, 3]),
        expect=Rejected("crop_exceeds"))


@case(S2B, "libraries")
def s2b_library_tfjs_negative_pad():
    return dict(
        id="s2b/libraries/tfjs-negative-pad",
        origin="library bug: " + TFJS + ", spaceToBatchND accepts a negative padding (its "
               "documentation requires paddings >= 0) and crops instead, returning [2,1]; "
               "by construction: pads_begin[1] = -2",
        clauses=["S2B-V7"],
        inputs=s2b_inputs(tensor("f32", [1, 4], [1, 2, 3, 4]), [1, 2], [0, -2], [0, 0]),
        expect=Rejected("pad_negative"))


@case(D2S, "libraries")
def d2s_library_tfjs_empty_huge_block():
    return dict(
        id="d2s/libraries/tfjs-empty-output-huge-block",
        origin=library_bug(TFJS + ", depthToSpace visits every output pixel even when the depth "
                           "is 0: 2^34 iterations here, minutes instead of microseconds",
                           "C = 0 is divisible by bs^2 = 2^34; output [1, 0, 2^17, 2^17], "
                           "no elements"),
        clauses=D2S_STEPS + ["D2S-V5"],
        inputs={"data": empty("f32", [1, 0, 1, 1])},
        attributes={"block_size": 1 << 17, "mode": "blocks_first"},
        expect=Typed(empty("f32", [1, 0, 1 << 17, 1 << 17])))

# =============================================================== mutation cases
# Each closes a gap that a mutant of src/optimized/mutants.h (docs/mutation.md)
# went through; the mutant is named in origin.

def for_mutant(mutant, text):
    return by_hand(text) + "; kills mutant " + mutant


@case(B2S, "mutation")
def b2s_mutation_wide_block_crops():
    data = [100 + k for k in range(130)]  # batch o, position d holds 100 + 2*o + d
    return dict(
        id="b2s/mutation/wide-block-crops",
        origin=for_mutant("b2s_wide_crop_sign", "block 65 on the last axis (beyond 64 ways) "
                          "with crops 1 and 2: batch' = 1, so batch o holds block offset o; "
                          "uncropped position x = d*65 + o holds 100 + 2*(x % 65) + x // 65; "
                          "crops keep x in [1, 128)"),
        clauses=B2S_STEPS,
        inputs=b2s_inputs(tensor("i32", [65, 2], data), [1, 65], [0, 1], [0, 2]),
        expect=Typed(tensor("i32", [1, 127], [100 + 2 * (x % 65) + x // 65
                                              for x in range(1, 128)])))


@case(S2B, "mutation")
def s2b_mutation_wide_block_pads():
    return dict(
        id="s2b/mutation/wide-block-pads",
        origin=for_mutant("b2s_wide_crop_sign (the inverse direction)", "block 65 on the last "
                          "axis (beyond 64 ways), pads 1 and 2: padded row [0, 101..162, 0, 0] of "
                          "65 elements; output batch o takes padded position o"),
        clauses=S2B_STEPS + ["MC-S2"],
        inputs=s2b_inputs(tensor("i32", [1, 62], list(range(101, 163))), [1, 65], [0, 1], [0, 2]),
        expect=Typed(tensor("i32", [65, 1], [0] + list(range(101, 163)) + [0, 0])))


@case(B2S, "mutation")
def b2s_mutation_rank_16():
    shape = [2] + [1] * 15
    return dict(
        id="b2s/mutation/rank-16",
        origin=for_mutant("rank_limit_off_by_one", "rank 16 is the largest rank allowed (MC-L1); "
                          "block 2 on the last axis interleaves batches [5] and [7] into [5, 7]"),
        clauses=B2S_STEPS + ["MC-L1"],
        inputs=b2s_inputs(tensor("i32", shape, [5, 7]), [1] * 15 + [2], [0] * 16, [0] * 16),
        expect=Typed(tensor("i32", [1] * 15 + [2], [5, 7])))


@case(B2S, "mutation")
def b2s_mutation_u8_four_ways_one_vector():
    return dict(
        id="b2s/mutation/u8-four-ways-one-vector",
        origin=for_mutant("avx2_weave4_quarters_swapped", "block 4 on the last axis of u8 data "
                          "with 16 positions per batch: one whole 16-byte vector per row for "
                          "the AVX2 kernels' 4-way unpacks; batch o position d holds 16*o + d, "
                          "and output x = 4*d + o holds 16*(x % 4) + x // 4"),
        clauses=B2S_STEPS,
        inputs=b2s_inputs(tensor("u8", [4, 16], list(range(64))), [1, 4], [0, 0], [0, 0]),
        expect=Typed(tensor("u8", [1, 64], [16 * (x % 4) + x // 4 for x in range(64)])))


@case(S2D, "mutation")
def s2d_mutation_first_spatial_not_divisible():
    return invalid("s2d/mutation/first-spatial-not-divisible", "D_1 = 3 with block_size 2, the "
                   "last axis D_2 = 4 divides: every spatial axis is checked, not only the last; "
                   "kills mutant s2d_divisibility_last_axis_only", ["S2D-V5"],
                   {"data": iota("f32", [1, 1, 3, 4])}, "spatial_not_divisible",
                   {"block_size": 2, "mode": "blocks_first"})


# =============================================================== building files

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9/_.+-]*$")


def known_clauses():
    """Clause ids of src/common/clauses.c, or None when it is not there."""
    path = os.path.join(REPO, "src", "common", "clauses.c")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return set(re.findall(r'\{"([A-Z0-9]+-[A-Z][0-9]+)"', f.read()))


def build_case(op, description):
    """Checks one description against the model; returns the case-file dict."""
    d = dict(description)
    expect = d.pop("expect")
    if "attributes" in d:
        d["attributes"] = {k: [json_int(x) for x in v] if isinstance(v, list) else
                           json_int(v) if isinstance(v, int) else v
                           for k, v in d["attributes"].items()}
    kind, result = model.run_case(op, d)
    where = d["id"]
    if isinstance(expect, Rejected):
        if (kind, result if kind == "error" else None) != ("error", expect.error):
            raise SystemExit("%s: declared error %s, reference model says %s %s"
                             % (where, expect.error, kind, result if kind == "error" else
                                result.shape))
        d["expect"] = {"error": expect.error}
    elif kind == "error":
        raise SystemExit("%s: reference model rejects the inputs with %s" % (where, result))
    elif isinstance(expect, Typed):
        if not model.tensor_matches_json(result, expect.tensor):
            raise SystemExit("%s: typed-in output disagrees with the reference model\n"
                             "  typed: %s\n  model: %s %s"
                             % (where, expect.tensor, result.shape,
                                tensor_from_model(result, "auto")))
        d["expect"] = {"output": expect.tensor}
    else:
        if expect.printed_shape is not None and result.shape != expect.printed_shape:
            raise SystemExit("%s: model output shape %s, specification prints %s"
                             % (where, result.shape, expect.printed_shape))
        d["expect"] = {"output": tensor_from_model(result, expect.form)}
    ordered = {k: d[k] for k in ("id", "origin", "clauses", "inputs", "attributes", "expect")
               if k in d}
    unknown = set(d) - set(ordered)
    if unknown:
        raise SystemExit("%s: unknown keys %s" % (where, sorted(unknown)))
    return ordered


def check_case_metadata(op, c, seen, clauses):
    prefix = model.OPS[op][1] + "/"
    where = c["id"]
    if not ID_PATTERN.match(where) or not where.startswith(prefix):
        raise SystemExit("%s: id must match %s and start with %s" % (where, ID_PATTERN.pattern,
                                                                     prefix))
    if where in seen:
        raise SystemExit("%s: duplicate id" % where)
    seen.add(where)
    if not c["clauses"]:
        raise SystemExit("%s: no clauses" % where)
    own = model.OPS[op][2] + "-"
    for clause in c["clauses"]:
        if not (clause.startswith(own) or clause.startswith("MC-")):
            raise SystemExit("%s: clause %s belongs to another operation" % (where, clause))
        if clauses is not None and clause not in clauses:
            raise SystemExit("%s: clause %s is not in src/common/clauses.c" % (where, clause))


def build_files():
    """{relative path: file text} for every case file."""
    clauses = known_clauses()
    grouped = {}
    for op, stem, function in REGISTRY:
        grouped.setdefault((op, stem), []).append(function)
    seen = set()
    files = {}
    for (op, stem), functions in grouped.items():
        cases = []
        for function in functions:
            c = build_case(op, function())
            check_case_metadata(op, c, seen, clauses)
            cases.append(c)
        document = {"format": FORMAT, "op": op, "description": FILE_DESCRIPTIONS[stem],
                    "cases": cases}
        text = render(document) + "\n"
        json.loads(text)  # the renderer must produce valid JSON
        files[os.path.join("conformance", model.OPS[op][0], stem + ".json")] = text
    return files


# ---------------------------------------------------------------- JSON rendering

def render(obj, indent=0, used=0):
    """JSON with 2-space indent; anything that fits on its line stays on one line,
    long lists of numbers wrap several to a line."""
    compact = json.dumps(obj, separators=(", ", ": "), ensure_ascii=False)
    if indent + used + len(compact) <= WIDTH:
        return compact
    pad = " " * indent
    inner = " " * (indent + 2)
    if isinstance(obj, dict):
        items = []
        for key, value in obj.items():
            head = json.dumps(key, ensure_ascii=False) + ": "
            items.append(inner + head + render(value, indent + 2, len(head)))
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list):
        if all(not isinstance(v, (dict, list)) for v in obj):
            lines, line = [], ""
            for v in obj:
                piece = json.dumps(v, ensure_ascii=False)
                if line and len(inner) + len(line) + len(piece) + 2 > WIDTH:
                    lines.append(inner + line + ",")
                    line = piece
                else:
                    line = line + ", " + piece if line else piece
            lines.append(inner + line)
            return "[\n" + "\n".join(lines) + "\n" + pad + "]"
        return "[\n" + ",\n".join(inner + render(v, indent + 2) for v in obj) + "\n" + pad + "]"
    return compact


# ---------------------------------------------------------------- main

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the files on disk instead of writing them")
    parser.add_argument("--list", action="store_true", help="print case ids per file")
    parser.add_argument("--root", default=REPO, help="repository root (default: this checkout)")
    args = parser.parse_args()
    files = build_files()
    if args.list:
        for path, text in sorted(files.items()):
            ids = [c["id"] for c in json.loads(text)["cases"]]
            print("%s: %d cases" % (path, len(ids)))
            for i in ids:
                print("  " + i)
        return 0
    stale = []
    for path, text in sorted(files.items()):
        full = os.path.join(args.root, path)
        if args.check:
            try:
                with open(full, encoding="utf-8") as f:
                    if f.read() != text:
                        stale.append(path)
            except FileNotFoundError:
                stale.append(path)
        else:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
    if args.check:
        if stale:
            print("out of date (run tools/make_cases.py): " + ", ".join(stale), file=sys.stderr)
            return 1
        print("%d case files up to date" % len(files))
        return 0
    total = sum(len(json.loads(t)["cases"]) for t in files.values())
    print("wrote %d case files, %d cases" % (len(files), total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
