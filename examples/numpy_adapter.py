#!/usr/bin/python3
"""A movconf process adapter written with numpy.

Run it through movconf:

    movconf run --impl exec:'/usr/bin/python3 examples/numpy_adapter.py'

It speaks the protocol of spec/adapter-protocol.md on stdin/stdout: one
handshake line, then one reply line per request line, until stdin ends.
Logs go to stderr.

The operations are written as the specification's steps with numpy's
reshape, transpose, pad and strided slicing: a second implementation,
independent of movconf's C oracle. Elements are never interpreted: a tensor
of a byte-sized type is viewed as unsigned integers of its width, and a
packed tensor (u1, u4, i4) is unpacked to one uint8 per element, moved,
then packed again. So every element type is handled, bit for bit.

Options:
    --skip-types T,T,...   declare these element types unsupported (to see
                           how movconf reports what an adapter leaves out)

Needs numpy (Debian: apt-get install python3-numpy).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "adapters", "common"))
from movconf_adapter import (  # noqa: E402
    BITS, DEFAULT_MAX_OUTPUT_BYTES, INT64_MAX, MAX_RANK, Rejected, Unsupported,
    check_output_size, element_count, handshake, inputs_match, logger, raw_bytes, representable,
    serve, tensor_reply)

log = logger("numpy_adapter")

# Byte-sized types move as unsigned integers of their width.
UNSIGNED_VIEW = {8: "<u1", 16: "<u2", 32: "<u4", 64: "<u8"}
# Side inputs are read as numbers, so they need their real dtype.
SIDE_DTYPES = {"i8": "<i1", "i16": "<i2", "i32": "<i4", "i64": "<i8",
               "u8": "<u1", "u16": "<u2", "u32": "<u4", "u64": "<u8"}
MODES = ("blocks_first", "depth_first")
AUTO_PADS = ("valid", "same_upper", "same_lower")


# ---- tensors ----

def elements(tensor):
    """The tensor as a numpy array of raw element bits, in its shape."""
    type_name, shape = tensor["type"], tensor["shape"]
    raw = raw_bytes(tensor)
    count = element_count(shape)
    bits = BITS[type_name]
    packed = np.frombuffer(raw, dtype=np.uint8)
    if bits >= 8:
        flat = np.frombuffer(raw, dtype=UNSIGNED_VIEW[bits])
    elif bits == 4:
        flat = np.empty(2 * len(packed), dtype=np.uint8)
        flat[0::2] = packed & 0x0F  # element 0 in the low nibble
        flat[1::2] = packed >> 4
        flat = flat[:count]
    else:
        flat = np.unpackbits(packed, bitorder="big")[:count]  # element 0 in bit 7
    return flat.reshape(shape)


def packed_bytes(type_name, array):
    bits = BITS[type_name]
    flat = np.ascontiguousarray(array).reshape(-1)
    if bits >= 8:
        return flat.astype(UNSIGNED_VIEW[bits]).tobytes()
    if bits == 4:
        if len(flat) % 2:
            flat = np.append(flat, np.uint8(0))
        return (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8).tobytes()
    return np.packbits(flat, bitorder="big").tobytes()  # unused bits stay 0


def output(type_name, shape, array):
    raw = b"" if element_count(shape) == 0 else packed_bytes(type_name, array)
    return tensor_reply(type_name, shape, raw)



# ---- checks shared by the operations (spec/common.md, check-order.md) ----

def check_common(inputs):
    data = inputs["data"]
    if data["type"] not in BITS:
        raise Rejected("unsupported_type", f"{data['type']}")
    for name, tensor in inputs.items():
        if len(tensor["shape"]) > MAX_RANK:
            raise Rejected("rank_limit", f"{name} has rank {len(tensor['shape'])}")

def side_checks(inputs, names, lengths):
    """V2 (types), V3 (ranks), V4 (lengths: each against lengths(name)),
    in input order for each check; returns the values as exact integers."""
    for name in names:
        if inputs[name]["type"] not in SIDE_DTYPES:
            raise Rejected("side_input_type", f"{name} is {inputs[name]['type']}")
    for name in names:
        if len(inputs[name]["shape"]) != 1:
            raise Rejected("side_input_rank", f"{name} has rank {len(inputs[name]['shape'])}")
    for name in names:
        if inputs[name]["shape"][0] != lengths(name):
            raise Rejected("side_input_length", f"{name} has {inputs[name]['shape'][0]} "
                           f"values, {lengths(name)} expected")
    values = []
    for name in names:
        tensor = inputs[name]
        vals = np.frombuffer(raw_bytes(tensor), dtype=SIDE_DTYPES[tensor["type"]]).tolist()
        if len(vals) != tensor["shape"][0]:
            raise Rejected("invalid_argument", f"{name} payload does not match its shape")
        values.append(vals)
    return values


def side_values(inputs, names, rank):
    """V2 (types), V3 (ranks), V4 (lengths), then MC-L2 on the values."""
    values = side_checks(inputs, names, lambda name: rank)
    for name, vals in zip(names, values):
        for v in vals:
            if v > INT64_MAX:
                raise Rejected("value_out_of_range", f"{name} holds {v}")
    return values


# ---- BatchToSpace-2 ----

def batch_to_space(inputs, attrs, cap):
    data = inputs["data"]
    shape = data["shape"]
    n = len(shape)
    if n < 2:
        raise Rejected("data_rank", "BatchToSpace-2 needs rank >= 2")
    block, begin, end = side_values(inputs, ("block_shape", "crops_begin", "crops_end"), n)
    if any(b < 1 for b in block):
        raise Rejected("block_below_one")
    if block[0] != 1:
        raise Rejected("block_first_not_one")
    if any(c < 0 for c in begin + end):
        raise Rejected("crop_negative")
    if begin[0] != 0 or end[0] != 0:
        raise Rejected("crop_first_not_zero")
    cells = representable(element_count(block), "prod(block_shape)")
    if shape[0] % cells:
        raise Rejected("batch_not_divisible", f"batch {shape[0]} by {cells}")
    for i in range(1, n):
        grown = representable(shape[i] * block[i], f"D_{i} * B_{i}")
        if begin[i] + end[i] > grown:
            raise Rejected("crop_exceeds", f"axis {i}")
    batch = shape[0] // cells
    out_shape = [batch] + [shape[i] * block[i] - begin[i] - end[i] for i in range(1, n)]
    check_output_size(data["type"], out_shape, cap)
    if element_count(out_shape) == 0:
        return output(data["type"], out_shape, None)
    x = elements(data)
    # S1: the grid cell is the outer part of the batch index.
    x = x.reshape(block[1:] + [batch] + shape[1:])
    # S2: batch' first, then each spatial axis followed by its block axis.
    perm = [n - 1]
    for i in range(1, n):
        perm += [n - 1 + i, i - 1]
    x = x.transpose(perm)
    # S3: merge each (D_i, B_i) pair.
    x = x.reshape([batch] + [shape[i] * block[i] for i in range(1, n)])
    # S4: crop.
    x = x[(slice(None),) + tuple(slice(begin[i], shape[i] * block[i] - end[i])
                                 for i in range(1, n))]
    return output(data["type"], out_shape, x)


# ---- SpaceToBatch-2 ----

def space_to_batch(inputs, attrs, cap):
    data = inputs["data"]
    shape = data["shape"]
    n = len(shape)
    if n < 2:
        raise Rejected("data_rank", "SpaceToBatch-2 needs rank >= 2")
    block, begin, end = side_values(inputs, ("block_shape", "pads_begin", "pads_end"), n)
    if any(b < 1 for b in block):
        raise Rejected("block_below_one")
    if block[0] != 1:
        raise Rejected("block_first_not_one")
    if any(p < 0 for p in begin + end):
        raise Rejected("pad_negative")
    if begin[0] != 0 or end[0] != 0:
        raise Rejected("pad_first_not_zero")
    padded = [shape[0]]
    for i in range(1, n):
        padded.append(representable(shape[i] + begin[i] + end[i], f"padded D_{i}"))
        if padded[i] % block[i]:
            raise Rejected("padded_not_divisible", f"axis {i}")
    out_batch = representable(shape[0] * element_count(block[1:]), "output batch")
    out_shape = [out_batch] + [padded[i] // block[i] for i in range(1, n)]
    check_output_size(data["type"], out_shape, cap)
    if element_count(out_shape) == 0:
        return output(data["type"], out_shape, None)
    # S1: zero padding (all bits zero in the unsigned view).
    x = np.pad(elements(data), [(begin[i], end[i]) for i in range(n)], mode="constant")
    # S2: split each padded axis into (count, block).
    split = [shape[0]]
    for i in range(1, n):
        split += [padded[i] // block[i], block[i]]
    x = x.reshape(split)
    # S3: block axes first, then batch, then the block counts.
    perm = [2 * i for i in range(1, n)] + [0] + [2 * i - 1 for i in range(1, n)]
    x = x.transpose(perm)
    # S4
    return output(data["type"], out_shape, x.reshape(out_shape))


# ---- SpaceToDepth-1 and DepthToSpace-1 ----

def depth_attributes(shape, attrs, op):
    if len(shape) < 3:
        raise Rejected("data_rank", f"{op} needs rank >= 3")
    if "mode" not in attrs:
        raise Rejected("mode_missing")
    if attrs["mode"] not in MODES:
        raise Rejected("mode_invalid", f"{attrs['mode']!r}")
    bs = attrs.get("block_size", 1)
    if bs < 1:
        raise Rejected("block_size_below_one")
    return attrs["mode"], bs


def space_to_depth(inputs, attrs, cap):
    data = inputs["data"]
    shape = data["shape"]
    mode, bs = depth_attributes(shape, attrs, "SpaceToDepth-1")
    k = len(shape) - 2
    for i in range(2, len(shape)):
        if shape[i] % bs:
            raise Rejected("spatial_not_divisible", f"axis {i}")
    cells = representable(bs ** k, "block_size^K")
    depth = representable(shape[1] * cells, "C * block_size^K")
    out_shape = [shape[0], depth] + [d // bs for d in shape[2:]]
    check_output_size(data["type"], out_shape, cap)
    if element_count(out_shape) == 0:
        return output(data["type"], out_shape, None)
    # S1: [N, C, D_1/bs, bs, ..., D_K/bs, bs]
    split = shape[:2]
    for d in shape[2:]:
        split += [d // bs, bs]
    x = elements(data).reshape(split)
    # S2
    blocks = [2 * i + 1 for i in range(1, k + 1)]
    spatial = [2 * i for i in range(1, k + 1)]
    perm = [0] + blocks + [1] + spatial if mode == "blocks_first" else [0, 1] + blocks + spatial
    # S3
    return output(data["type"], out_shape, x.transpose(perm).reshape(out_shape))


def depth_to_space(inputs, attrs, cap):
    data = inputs["data"]
    shape = data["shape"]
    mode, bs = depth_attributes(shape, attrs, "DepthToSpace-1")
    k = len(shape) - 2
    cells = representable(bs ** k, "block_size^K")
    if shape[1] % cells:
        raise Rejected("depth_not_divisible", f"C = {shape[1]}, block_size^K = {cells}")
    grown = [representable(d * bs, "D_i * block_size") for d in shape[2:]]
    depth = shape[1] // cells
    out_shape = [shape[0], depth] + grown
    check_output_size(data["type"], out_shape, cap)
    if element_count(out_shape) == 0:
        return output(data["type"], out_shape, None)
    x = elements(data)
    # S1 and S2: pair each spatial axis (K+1+i) with its block axis.
    if mode == "blocks_first":
        x = x.reshape([shape[0]] + [bs] * k + [depth] + shape[2:])
        perm = [0, k + 1]
        for i in range(1, k + 1):
            perm += [k + 1 + i, i]
    else:
        x = x.reshape([shape[0], depth] + [bs] * k + shape[2:])
        perm = [0, 1]
        for i in range(1, k + 1):
            perm += [k + 1 + i, i + 1]
    # S3
    return output(data["type"], out_shape, x.transpose(perm).reshape(out_shape))


# ---- ExtractImagePatches-3 ----

def patch_attributes(attrs):
    names = ("sizes", "strides", "rates")
    for name in names + ("auto_pad",):
        if name not in attrs:
            raise Rejected("attribute_missing", f"{name}")
    for name in names:
        if len(attrs[name]) != 2:
            raise Rejected("attribute_length", f"{name} has {len(attrs[name])} values")
    for name in names:
        if any(v < 1 for v in attrs[name]):
            raise Rejected(f"{name}_below_one", f"{name} = {attrs[name]}")
    if attrs["auto_pad"] not in AUTO_PADS:
        raise Rejected("auto_pad_invalid", f"{attrs['auto_pad']!r}")
    return attrs["sizes"], attrs["strides"], attrs["rates"], attrs["auto_pad"]


def window_axis(size, stride, rate, size_in, auto_pad):
    """S1 to S3 for one axis: (out, pad_begin)."""
    eff = representable((size - 1) * rate + 1, "effective patch size")
    if auto_pad == "valid":
        return ((size_in - eff) // stride + 1 if size_in >= eff else 0), 0
    out = -(-size_in // stride)
    pad = max(0, (out - 1) * stride + eff - size_in) if out else 0
    representable(pad, "padding")
    return out, (pad // 2 if auto_pad == "same_upper" else pad - pad // 2)


def extract_image_patches(inputs, attrs, cap):
    data = inputs["data"]
    shape = data["shape"]
    if len(shape) != 4:
        raise Rejected("data_rank", "ExtractImagePatches-3 needs rank 4")
    sizes, strides, rates, auto_pad = patch_attributes(attrs)
    out_r, begin_r = window_axis(sizes[0], strides[0], rates[0], shape[2], auto_pad)
    out_c, begin_c = window_axis(sizes[1], strides[1], rates[1], shape[3], auto_pad)
    depth = representable(shape[1] * sizes[0] * sizes[1], "output depth")
    out_shape = [shape[0], depth, out_r, out_c]
    check_output_size(data["type"], out_shape, cap)
    if element_count(out_shape) == 0:
        return output(data["type"], out_shape, None)
    x = elements(data)
    # S3 and S4: every window sample (r, c) is one strided slice of the
    # padded image. The padding is never built (with a large rate it can be
    # far larger than the output): y starts as all-zero elements, and each
    # slice copies only the positions that fall inside the image.
    y = np.zeros([shape[0], sizes[0], sizes[1], shape[1], out_r, out_c], dtype=x.dtype)
    for r in range(sizes[0]):
        i0, i1, top = inside(out_r, strides[0], r * rates[0], begin_r, shape[2])
        for c in range(sizes[1]):
            j0, j1, left = inside(out_c, strides[1], c * rates[1], begin_c, shape[3])
            if i1 > i0 and j1 > j0:
                y[:, r, c, :, i0:i1, j0:j1] = x[
                    :, :, top:top + (i1 - i0 - 1) * strides[0] + 1:strides[0],
                    left:left + (j1 - j0 - 1) * strides[1] + 1:strides[1]]
    # [batch, rows, cols, depth, ...] -> depth index (r * size_cols + c) * depth + d
    return output(data["type"], out_shape, y.reshape(out_shape))


def inside(out, stride, offset, pad_begin, size_in):
    """The window positions i0 <= i < i1 whose sample, at padded position
    offset + i * stride, lies inside the image, and the image position of
    the first one."""
    # image position p = offset + i * stride - pad_begin, 0 <= p < size_in
    i0 = max(0, -(-(pad_begin - offset) // stride))
    i1 = min(out, (size_in - 1 - offset + pad_begin) // stride + 1)
    if i1 <= i0:
        return 0, 0, 0
    return i0, i1, offset + i0 * stride - pad_begin


# ---- ShuffleChannels-1 ----

def shuffle_attributes(shape, attrs):
    """V1 (rank >= 1), V2 (axis in range), V3 (group >= 1), V4 (divides)."""
    rank = len(shape)
    if rank < 1:
        raise Rejected("data_rank", "ShuffleChannels-1 needs rank >= 1")
    axis = attrs.get("axis", 1)
    if not -rank <= axis < rank:
        raise Rejected("axis_out_of_range", f"axis {axis} for rank {rank}")
    axis %= rank
    group = attrs.get("group", 1)
    if group < 1:
        raise Rejected("group_below_one", f"group {group}")
    if shape[axis] % group:
        raise Rejected("channel_not_divisible", f"group {group}, data_shape[{axis}] = {shape[axis]}")
    return axis, group


def shuffle_channels(inputs, attrs, cap):
    data = inputs["data"]
    shape = data["shape"]
    axis, group = shuffle_attributes(shape, attrs)
    check_output_size(data["type"], shape, cap)
    if element_count(shape) == 0:
        return output(data["type"], shape, None)
    # S1: [outer, group, C / group, inner]; S2: transpose [0, 2, 1, 3];
    # S3: back to the input's shape.
    view = [element_count(shape[:axis]), group, shape[axis] // group,
            element_count(shape[axis + 1:])]
    x = elements(data).reshape(view).transpose(0, 2, 1, 3)
    return output(data["type"], shape, x.reshape(shape))


# ---- Slice-8 ----

def slice_arguments(inputs, shape):
    """SL-V1 to SL-V7: the per-axis (start, stop, step) of the named axes."""
    rank = len(shape)
    if rank < 1:
        raise Rejected("data_rank", "Slice-8 needs rank >= 1")
    names = [n for n in ("start", "stop", "step", "axes") if n in inputs]
    values = side_checks(inputs, names, lambda name: inputs["start"]["shape"][0])
    start, stop, step = values[:3]
    if 0 in step:
        raise Rejected("step_zero", f"step {step}")
    axes = values[3] if "axes" in inputs else list(range(len(start)))
    for a in axes:
        if not -rank <= a < rank:
            raise Rejected("axis_out_of_range", f"axis {a} for rank {rank}")
    axes = [a % rank for a in axes]
    if len(set(axes)) != len(axes):
        raise Rejected("axes_not_unique", f"axes {axes}")
    # Every dimension fits in int64, so a u64 value above INT64_MAX clamps
    # as INT64_MAX does (errata E34); numpy's slices then stay in int64.
    clamp = [[min(v, INT64_MAX) for v in vals] for vals in (start, stop, step)]
    return {a: (b, e, s) for a, b, e, s in zip(axes, *clamp)}


def slice_8(inputs, attrs, cap):
    data = inputs["data"]
    shape = data["shape"]
    named = slice_arguments(inputs, shape)
    # Python's own slice rule, per axis (SL-S2): slice.indices clamps.
    index = tuple(slice(*named[k]) if k in named else slice(None) for k in range(len(shape)))
    out_shape = [len(range(*index[k].indices(d))) for k, d in enumerate(shape)]
    check_output_size(data["type"], out_shape, cap)
    if element_count(out_shape) == 0:
        return output(data["type"], out_shape, None)
    return output(data["type"], out_shape, elements(data)[index])


# ---- StridedSlice-1 ----

SS_MASKS = ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask")


def strided_slice_index(inputs, attrs, shape):
    """SS-V1 to SS-V8: numpy's index tuple of the entries."""
    names = [n for n in ("begin", "end", "stride") if n in inputs]
    values = side_checks(inputs, names, lambda name: inputs["begin"]["shape"][0])
    begin, end = ([min(v, INT64_MAX) for v in vals] for vals in values[:2])
    stride = [min(v, INT64_MAX) for v in values[2]] if "stride" in inputs else [1] * len(begin)
    masks = {k: list(attrs.get(k) or []) for k in SS_MASKS}
    bad = [k for k in SS_MASKS if any(v not in (0, 1) for v in masks[k])]
    if bad:
        raise Rejected("mask_invalid", f"{bad[0]} {masks[bad[0]]}")
    bit = {k: masks[k][:len(begin)] + [0] * (len(begin) - len(masks[k])) for k in SS_MASKS}
    if sum(bit["ellipsis_mask"]) > 1:
        raise Rejected("mask_invalid", "more than one ellipsis bit")
    if 0 in stride:
        raise Rejected("step_zero", f"stride {stride}")
    index = []
    for i, (b, e, s) in enumerate(zip(begin, end, stride)):
        if bit["ellipsis_mask"][i]:
            index.append(Ellipsis)
        elif bit["new_axis_mask"][i]:
            index.append(np.newaxis)
        elif bit["shrink_axis_mask"][i]:
            index.append(b)
        else:
            index.append(slice(None if bit["begin_mask"][i] else b,
                               None if bit["end_mask"][i] else e, s))
    indexing = [x for x in index if x is not Ellipsis and x is not None]
    if len(indexing) > len(shape):
        raise Rejected("too_many_indices", f"{len(indexing)} entries, rank {len(shape)}")
    return index


def strided_slice_1(inputs, attrs, cap):
    data = inputs["data"]
    shape = data["shape"]
    index = strided_slice_index(inputs, attrs, shape)
    # SS-V8 on the axis each shrink entry reaches, SS-V9 on the rank.
    dims = [1 if x is None else 0 for x in index]
    if Ellipsis not in index:
        index.append(Ellipsis)
    taken = sum(1 for x in index if x is not Ellipsis and x is not None)
    axis = 0
    for x in index:
        if x is Ellipsis:
            axis += len(shape) - taken
        elif isinstance(x, int):
            if not -shape[axis] <= x < shape[axis]:
                raise Rejected("index_out_of_range", f"index {x} of {shape[axis]}")
            axis += 1
        elif x is not None:
            axis += 1
    x = elements(data).reshape(shape)
    probe = np.empty(shape, dtype=np.uint8)  # the output shape without copying the data
    out_rank = len(shape) - sum(isinstance(v, int) for v in index) + dims.count(1)
    if out_rank > MAX_RANK:
        raise Rejected("rank_limit", f"output rank {out_rank}")
    out_shape = list(probe[tuple(index)].shape)
    check_output_size(data["type"], out_shape, cap)
    if element_count(out_shape) == 0:
        return output(data["type"], out_shape, None)
    return output(data["type"], out_shape, x[tuple(index)])


# ---- Transpose-1 ----

def transpose_1(inputs, attrs, cap):
    data = inputs["data"]
    shape = data["shape"]
    rank = len(shape)
    # TR-V1 to TR-V3: an integer 1-D order of r values, or none.
    given = inputs["input_order"]["shape"]
    (order,) = side_checks(inputs, ["input_order"],
                           lambda name: 0 if len(given) == 1 and given[0] == 0 else rank)
    for v in order:
        if not 0 <= v < rank:
            raise Rejected("axis_out_of_range", f"order value {v} for rank {rank}")
    if len(set(order)) != len(order):
        raise Rejected("axes_not_unique", f"order {order}")
    order = order or list(range(rank))[::-1]
    out_shape = [shape[p] for p in order]
    check_output_size(data["type"], out_shape, cap)
    if element_count(out_shape) == 0:
        return output(data["type"], out_shape, None)
    return output(data["type"], out_shape, np.transpose(elements(data), order))
# ---- Pad-12 ----

PAD_MODES = ("constant", "edge", "reflect", "symmetric")


def pad_arguments(inputs, attrs, shape):
    """PAD-V1 to PAD-V9 in check order: the mode and the pads."""
    rank = len(shape)
    if rank < 1:
        raise Rejected("data_rank", "Pad-12 needs rank >= 1")
    mode = attrs.get("pad_mode")
    if mode is None:
        raise Rejected("mode_missing", "no pad_mode")
    if mode not in PAD_MODES:
        raise Rejected("mode_invalid", f"pad_mode {mode!r}")
    begin, end = side_values(inputs, ("pads_begin", "pads_end"), rank)
    value = inputs.get("pad_value")
    if mode == "constant" and value is not None:
        if value["type"] != inputs["data"]["type"]:
            raise Rejected("side_input_type", f"pad_value is {value['type']}")
        if value["shape"] != []:
            raise Rejected("side_input_rank", f"pad_value has shape {value['shape']}")
    if mode != "constant":
        for pads in (begin, end):
            for p, d in zip(pads, shape):
                room = {"edge": p if d > 0 else 0, "reflect": d - 1, "symmetric": d}[mode]
                if p > 0 and p > room:
                    raise Rejected("pad_too_large", f"pad {p} on an axis of {d} ({mode})")
    return mode, begin, end


def pad_positions(mode, d, b, n):
    """The data position of each of the n output positions of one axis, -1
    for pad_value. Constant and edge: position j - b, outside the data the
    value or the nearer edge (any distance: the pads may be near int64's
    limits). Reflect and symmetric (pads at most d): np.pad of the positions
    0..d-1 by the positive pads, then the window the negative pads leave."""
    if mode in ("constant", "edge"):
        if -b >= d:  # every position past the data's end
            i = np.full(n, d, dtype=np.int64)
        else:
            i = np.arange(n, dtype=np.int64) - b
        inside = (i >= 0) & (i < d)
        outside = -1 if mode == "constant" else np.where(i < 0, 0, d - 1)
        return np.where(inside, i, outside)
    before, start = max(b, 0), max(-b, 0)
    after = max(0, start + n - before - d)
    return np.pad(np.arange(d, dtype=np.int64), (before, after), mode=mode)[start:start + n]


def pad_12(inputs, attrs, cap):
    data = inputs["data"]
    shape = data["shape"]
    mode, begin, end = pad_arguments(inputs, attrs, shape)
    out_shape = []
    for b, d, e in zip(begin, shape, end):
        if b + d + e > INT64_MAX:
            raise Rejected("shape_overflow", "pads_begin + dim + pads_end")
        out_shape.append(max(b + d + e, 0))
    check_output_size(data["type"], out_shape, cap)
    if element_count(out_shape) == 0:
        return output(data["type"], out_shape, None)
    axes = [pad_positions(mode, d, b, n) for d, b, n in zip(shape, begin, out_shape)]
    x = elements(data)
    safe = np.ix_(*[np.maximum(p, 0) for p in axes])
    y = x[safe] if x.size else np.zeros(out_shape, dtype=x.dtype)
    outside = np.zeros(out_shape, dtype=bool)
    for k, p in enumerate(axes):
        outside |= (p < 0).reshape([-1 if a == k else 1 for a in range(len(axes))])
    fill = 0
    if mode == "constant" and "pad_value" in inputs:
        fill = elements(inputs["pad_value"]).reshape(-1)[0]
    y = np.where(outside, fill, y).astype(x.dtype)
    return output(data["type"], out_shape, y)


# ---- Gather-8 ----

def gather_8(inputs, attrs, cap):
    data, ind, ax = inputs["data"], inputs["indices"], inputs["axis"]
    shape, ishape = data["shape"], ind["shape"]
    r, q = len(shape), len(ishape)
    for name in ("indices", "axis"):
        if inputs[name]["type"] not in SIDE_DTYPES:
            raise Rejected("side_input_type", f"{name} is {inputs[name]['type']}")
    if len(ax["shape"]) > 1:
        raise Rejected("side_input_rank", f"axis has shape {ax['shape']}")
    if ax["shape"] and ax["shape"][0] != 1:
        raise Rejected("side_input_length", f"axis has {ax['shape'][0]} values")
    x = int(np.frombuffer(raw_bytes(ax), dtype=SIDE_DTYPES[ax["type"]])[0])
    if not -r <= x < r:
        raise Rejected("axis_out_of_range", f"axis {x} for rank {r}")
    a = x % r
    c = int(attrs.get("batch_dims", 0))
    if not -q <= c <= q:
        raise Rejected("axis_out_of_range", f"batch_dims {c} for indices rank {q}")
    b = c + q if c < 0 else c
    if b > a:
        raise Rejected("axis_out_of_range", f"batch_dims {b} above axis {a}")
    if list(shape[:b]) != list(ishape[:b]):
        raise Rejected("batch_mismatch", f"{shape[:b]} and {ishape[:b]}")
    if r - 1 + q - b > MAX_RANK:
        raise Rejected("rank_limit", f"output rank {r - 1 + q - b}")
    out_shape = list(shape[:a]) + list(ishape[b:]) + list(shape[a + 1:])
    check_output_size(data["type"], out_shape, cap)
    if element_count(out_shape) == 0:
        return output(data["type"], out_shape, None)
    d = shape[a]
    raw = np.frombuffer(raw_bytes(ind), dtype=SIDE_DTYPES[ind["type"]])
    big = raw > INT64_MAX if ind["type"] == "u64" else np.zeros(raw.shape, dtype=bool)
    v = np.where(big, 0, raw).astype(np.int64)
    v = np.where(v < 0, v + d, v)
    ok = ~big & (v >= 0) & (v < d)
    batch = element_count(shape[:b])
    pre = element_count(shape[b:a])
    x3 = elements(data).reshape(batch, pre, d, element_count(shape[a + 1:]))
    safe = np.where(ok, v, 0).reshape(batch, -1)
    y = np.take_along_axis(x3, safe[:, None, :, None], axis=2) if d else \
        np.zeros((batch, pre, safe.shape[1], x3.shape[3]), dtype=x3.dtype)
    y = np.where(ok.reshape(batch, 1, -1, 1), y, 0).astype(x3.dtype)
    return output(data["type"], out_shape, y)


# ---- the protocol ----

RUN = {
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


def answer(request, types):
    op = request["op"]
    inputs = request["inputs"]
    if op not in RUN:
        raise Unsupported(f"unknown operation {op}")
    if inputs["data"]["type"] not in types:
        raise Unsupported(f"element type {inputs['data']['type']}")
    if not inputs_match(op, inputs):
        raise Rejected("invalid_argument", f"inputs {sorted(inputs)}")
    check_common(inputs)
    cap = request.get("max_output_bytes", DEFAULT_MAX_OUTPUT_BYTES)
    return RUN[op](inputs, request.get("attributes", {}), cap)


def main(argv):
    types = set(BITS)
    if len(argv) == 3 and argv[1] == "--skip-types":
        types -= set(argv[2].split(","))
    elif len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    hello = handshake("numpy-adapter", f"1.0 (numpy {np.__version__})",
                      {op: types for op in RUN})
    return serve(hello, lambda request: answer(request, types), log)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
