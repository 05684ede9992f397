#!/usr/bin/python3
"""A movconf process adapter over PyTorch's own kernels.

    movconf run --impl exec:'exec /usr/bin/python3 examples/adapters/pytorch/adapter.py'

It speaks spec/adapter-protocol.md on stdin/stdout (logs go to stderr) and
maps each request onto one PyTorch operator, called on a tensor of the
element type's real dtype:

  DepthToSpace-1 depth_first, 4-D   torch.nn.functional.pixel_shuffle
  SpaceToDepth-1 depth_first, 4-D   torch.nn.functional.pixel_unshuffle
  ShuffleChannels-1 axis 1, rank >= 3  torch.nn.functional.channel_shuffle
  Slice-8, positive steps           indexing with Python slices, x[start:stop:step, ...]
  Transpose-1                       x.permute(input_order)
  Pad-12 constant, edge, reflect    torch.nn.functional.pad (constant, replicate, reflect)
  StridedSlice-1, positive strides  indexing with Ellipsis, None, ints and Python slices
  Gather-8, batch_dims 0            advanced indexing, x[:, ..., :, indices]

With --composite it also claims ExtractImagePatches-3, which PyTorch has no
single operator for: explicit zero padding (torch.nn.functional.pad, or
unfold's own symmetric padding), torch.nn.functional.unfold, then a channel
reorder (unfold orders the output depth channel-major, OpenVINO patch-major);
and ShuffleChannels-1 on every axis and rank: channel_shuffle shuffles axis 1
only, so the axis is moved to the front (movedim, which checks it), the
tensor viewed as [1, C, rest], shuffled and moved back; and Slice-8 with
negative steps, which PyTorch's slicing refuses: torch.flip of those axes,
then x[~start:~stop:-step] (index i of an axis is index ~i = -1 - i of its
reverse, for raw and clamped values alike, so PyTorch still clamps), and
StridedSlice-1 with negative strides, flipped the same way; and Gather-8
with batch_dims above 0, its batch axes indexed by aranges.
Results of --composite test a composite, not one kernel: keep them apart.

Validation is the library's: attribute values go to PyTorch as they are,
and a PyTorch exception becomes an error reply without an error name. What
PyTorch cannot express (blocks_first, a missing or unknown mode or auto_pad,
ranks whose meaning differs, a shuffle axis other than 1 without
--composite) is replied unsupported. The element types
claimed per operation are the ones PyTorch's kernel accepts, probed at
start-up. examples/adapters/pytorch/README.md documents the mapping.

Options:
    --threads N    PyTorch's intra-op thread count (default 1; inter-op: 1)
    --composite    also claim ExtractImagePatches-3, ShuffleChannels-1 on
                   every axis and Slice-8 with negative steps (see above)
    --detect       print PyTorch's version and exit 0; exit 1 if PyTorch
                   cannot be imported
    --help         this text

Needs Debian's python3-torch (apt-get install python3-torch), which
/usr/bin/python3 sees.
"""

import argparse
import math
import os
import resource
import struct
import sys
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from movconf_adapter import (  # noqa: E402
    INT64_MAX, BrokenResult, Rejected, Unsupported, check_output_size, element_count, handshake,
    logger, raw_bytes, serve, side_input_values, tensor_reply)

log = logger("pytorch-adapter")

D2S, S2D, EIP = "DepthToSpace-1", "SpaceToDepth-1", "ExtractImagePatches-3"
SHUFFLE = "ShuffleChannels-1"
SLICE = "Slice-8"
TRANSPOSE = "Transpose-1"
PAD = "Pad-12"
STRIDED = "StridedSlice-1"
GATHER = "Gather-8"
# Pad-12's modes that F.pad has, by F.pad's name; symmetric has none
# (circular is not Pad-12's).
PAD_MODES = {"constant": "constant", "edge": "replicate", "reflect": "reflect"}
# The pad_value types read as a Python number F.pad takes exactly.
PAD_VALUE_FORMATS = {"boolean": "?", "u8": "B", "i8": "b", "i16": "<h", "i32": "<i",
                     "i64": "<q", "f16": "<e", "f32": "<f", "f64": "<d"}
STRIDED_MASKS = ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask",
                 "ellipsis_mask")
# Head room for PyTorch's own allocations: a request that needs more fails
# with an allocation error (an error reply) instead of exhausting memory.
MEMORY_HEADROOM = 4 << 30


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="movconf process adapter over PyTorch's pixel_shuffle, pixel_unshuffle, "
        "channel_shuffle, slicing and (with --composite) unfold and flip; see "
        "examples/adapters/pytorch/README.md")
    parser.add_argument("--threads", type=int, default=1,
                        help="PyTorch intra-op threads (default 1)")
    parser.add_argument("--composite", action="store_true",
                        help="also claim ExtractImagePatches-3 (pad + unfold + reorder), "
                        "ShuffleChannels-1 on every axis (movedim + channel_shuffle) and Slice-8 "
                        "with negative steps (flip + slice)")
    parser.add_argument("--detect", action="store_true",
                        help="print PyTorch's version; exit 1 if it is not installed")
    args = parser.parse_args(argv)
    if args.threads < 1:
        parser.error("--threads must be at least 1")
    return args


def detect():
    try:
        import torch
    except ImportError as e:
        print(f"PyTorch is not installed for {sys.executable}: {e}", file=sys.stderr)
        return 1
    print(f"torch {torch.__version__}")
    return 0


class TorchOps:
    """The mapping of movconf requests onto PyTorch calls."""

    def __init__(self, torch, composite):
        self.torch = torch
        self.F = torch.nn.functional
        self.dtypes = {
            "boolean": torch.bool, "u8": torch.uint8, "i8": torch.int8, "i16": torch.int16,
            "i32": torch.int32, "i64": torch.int64, "f16": torch.float16,
            "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64,
        }
        # Outputs are read back through an integer view of the same width.
        self.same_width = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}
        self.composite = composite
        self.run = {D2S: self.depth_to_space, S2D: self.space_to_depth,
                    SHUFFLE: self.shuffle_channels, SLICE: self.slice,
                    TRANSPOSE: self.transpose, PAD: self.pad, STRIDED: self.strided_slice,
                    GATHER: self.gather}
        probes = {D2S: lambda x: self.F.pixel_shuffle(x, 2),
                  S2D: lambda x: self.F.pixel_unshuffle(x, 2),
                  SHUFFLE: lambda x: self.F.channel_shuffle(x, 2),
                  SLICE: lambda x: x[:, 1:3:2].contiguous(),
                  TRANSPOSE: lambda x: x.permute(0, 2, 3, 1).contiguous(),
                  STRIDED: lambda x: x[None, 0, ..., 1:2:1].contiguous(),
                  GATHER: lambda x: x[:, self.torch.tensor([[-1, 0]])]}
        if composite:
            self.run[EIP] = self.extract_image_patches
            probes[EIP] = lambda x: self.F.unfold(self.F.pad(x, (1, 0, 0, 1)), (2, 2))
        self.types = {op: self.probe(probe) for op, probe in probes.items()}
        # Each F.pad mode has its own kernel and dtypes: claimed is the union,
        # a mode without the request's dtype is unsupported.
        self.pad_types = {mode: self.probe(lambda x, m=mode: self.F.pad(x, (1, 1), mode=m))
                          for mode in PAD_MODES.values()}
        self.types[PAD] = sorted(set().union(*self.pad_types.values()))

    def probe(self, call):
        """The element types whose dtype the operator accepts."""
        accepted = []
        for name, dtype in self.dtypes.items():
            try:
                call(self.torch.zeros(1, 4, 2, 2, dtype=dtype))
                accepted.append(name)
            except RuntimeError:
                pass
        return accepted

    # ---- tensors ----

    def tensor_in(self, tensor):
        raw = raw_bytes(tensor)
        dtype = self.dtypes[tensor["type"]]
        if element_count(tensor["shape"]) == 0:
            return self.torch.empty(tensor["shape"], dtype=dtype)
        return self.torch.frombuffer(bytearray(raw), dtype=dtype).reshape(tensor["shape"])

    def tensor_out(self, type_name, y, cap):
        shape = list(y.shape)
        if min(shape, default=0) < 0:
            raise BrokenResult(f"PyTorch returned a tensor of shape {shape}")
        check_output_size(type_name, shape, cap)
        # Viewed as integers before the copy that makes it contiguous: a
        # copy of a strided torch.bool writes every non-zero byte as 1, and
        # the adapter must not change bits the library returned.
        y = y.view(self.same_width[y.element_size()]).contiguous()
        bits = y.numpy().tobytes()
        return tensor_reply(type_name, shape, bits if element_count(shape) else b"")

    # ---- the operations ----

    def depth_pair(self, request):
        """(data tensor, block size) of a depth_first 4-D request; the rest
        is unsupported, since PyTorch's operators have no mode and treat
        every axis before the last three as a batch axis."""
        attrs = request["attributes"]
        mode = attrs.get("mode")
        if mode != "depth_first":
            raise Unsupported(f"mode {mode!r}: PyTorch's operator is depth_first only")
        data = request["inputs"]["data"]
        rank = len(data["shape"])
        if rank >= 3 and rank != 4:
            raise Unsupported(f"rank {rank}: PyTorch reads axes before the last three as batch")
        # OpenVINO's default block_size, 1, passed explicitly (PyTorch has none).
        return self.tensor_in(data), attrs.get("block_size", 1)

    def depth_to_space(self, request):
        x, block = self.depth_pair(request)
        return library(self.F.pixel_shuffle, x, block)

    def space_to_depth(self, request):
        x, block = self.depth_pair(request)
        return library(self.F.pixel_unshuffle, x, block)

    def extract_image_patches(self, request):
        attrs = request["attributes"]
        auto_pad = attrs.get("auto_pad")
        if auto_pad not in ("valid", "same_upper", "same_lower"):
            raise Unsupported(f"auto_pad {auto_pad!r}: unfold takes padding amounts, not modes")
        x = self.tensor_in(request["inputs"]["data"])
        keywords = {}
        for ours, theirs in (("sizes", "kernel_size"), ("strides", "stride"),
                             ("rates", "dilation")):
            if ours in attrs:  # absent: PyTorch's own default, or its error
                keywords[theirs] = attrs[ours]
        pads = same_padding(x.shape, attrs, auto_pad)
        if pads is None:  # nothing to pad, or attributes unfold will reject anyway
            y = library(self.F.unfold, x, **keywords)
            return reorder(y, x.shape, attrs, (0, 0, 0, 0))
        top, bottom, left, right = pads
        if top == bottom and left == right:  # unfold pads symmetrically itself
            y = library(self.F.unfold, x, padding=(top, left), **keywords)
            return reorder(y, x.shape, attrs, pads)
        padded_bytes = x.element_size() * element_count(
            [x.shape[0], x.shape[1], x.shape[2] + top + bottom, x.shape[3] + left + right])
        if padded_bytes > request["max_output_bytes"]:
            raise Unsupported(f"the padded intermediate would take {padded_bytes} bytes")
        x = library(self.F.pad, x, (left, right, top, bottom))
        return reorder(library(self.F.unfold, x, **keywords), x.shape, attrs, (0, 0, 0, 0))

    def shuffle_channels(self, request):
        """channel_shuffle(x, group) shuffles axis 1 of a tensor of rank 3 or
        more; group goes to it as it is (OpenVINO's default 1 written out).
        Other axes and ranks are unsupported, or with --composite moved to
        axis 1 of a [1, C, rest] view and back."""
        attrs = request["attributes"]
        axis, group = attrs.get("axis", 1), attrs.get("group", 1)
        x = self.tensor_in(request["inputs"]["data"])
        rank = x.dim()
        if rank >= 3 and axis in (1, 1 - rank):
            return library(self.F.channel_shuffle, x, group)
        if not self.composite:
            raise Unsupported(f"axis {axis} of rank {rank}: channel_shuffle shuffles axis 1 of "
                              "a rank of 3 or more (--composite moves the axis)")
        if rank == 0:  # no axis to move: channel_shuffle judges the scalar itself
            return library(self.F.channel_shuffle, x, group)
        front = library(self.torch.movedim, x, axis, 0)
        rest = element_count(front.shape[1:])
        y = library(self.F.channel_shuffle, front.reshape(1, front.shape[0], rest), group)
        return y.reshape(front.shape).movedim(0, axis)

    def slice(self, request):
        """x[s_0, ..., s_{r-1}] with one Python slice per axis, the values as
        they are: PyTorch (and CPython's slice object) normalise and clamp
        them. Without axes the slices cover the first axes (PyTorch rejects
        more slices than axes); with axes each goes to its axis, the others
        whole. PyTorch's slicing has no negative step: unsupported, or with
        --composite a flip (see the module's text)."""
        inputs = request["inputs"]
        x = self.tensor_in(inputs["data"])
        rank = x.dim()
        start, stop, step = (slice_values(inputs, name) for name in ("start", "stop", "step"))
        if not len(start) == len(stop) == len(step):
            raise Unsupported(f"start, stop, step of lengths {len(start)}, {len(stop)}, "
                              f"{len(step)}: PyTorch's slices take one of each per axis")
        if "axes" in inputs:
            axes = [a + rank if a < 0 else a for a in slice_values(inputs, "axes")]
            if (len(axes) != len(start) or len(set(axes)) != len(axes)
                    or any(not 0 <= a < rank for a in axes)):
                raise Unsupported(f"axes {axes} of rank {rank}: indexing has no axes to check, "
                                  "each slice goes to its axis")
        else:
            axes = list(range(len(start)))
        reversed_axes = [a for a, s in zip(axes, step) if s < 0]
        if reversed_axes and not self.composite:
            raise Unsupported(f"steps {step}: PyTorch's slicing refuses negative steps "
                              "(--composite flips the axis)")
        if reversed_axes:
            x = library(self.torch.flip, x, reversed_axes)
        index = [builtin_slice(None)] * (max(axes, default=-1) + 1)
        for a, b, e, s in zip(axes, start, stop, step):
            index[a] = builtin_slice(b, e, s) if s >= 0 else builtin_slice(~b, ~e, -s)
        return library(x.__getitem__, tuple(index))


    def transpose(self, request):
        """x.permute(*input_order), the values as they are: PyTorch checks
        them itself. An empty input_order is OpenVINO's reversal of the axes,
        which permute has no spelling for: it gets the reversal written out."""
        inputs = request["inputs"]
        x = self.tensor_in(inputs["data"])
        order = slice_values(inputs, "input_order")
        if not order:
            order = list(range(x.dim() - 1, -1, -1))
        return library(x.permute, order)


    def pad(self, request):
        """F.pad(x, pairs, mode), the pairs last axis first as F.pad reads
        them, pads_begin and pads_end as they are (negative ones crop):
        constant with every rank and pad_value as value; edge (replicate)
        and reflect pad at most the last three axes of a batch, so the axes
        before the first padded one are flattened into a leading batch axis
        of a [N, 1, ...] view. What F.pad cannot be told is unsupported:
        symmetric and unknown modes, pads of a length other than the rank,
        a pad_value F.pad would receive converted or not at all, more than
        three padded axes in edge and reflect, a mode without the dtype."""
        inputs, attrs = request["inputs"], request["attributes"]
        mode = PAD_MODES.get(attrs.get("pad_mode"))
        if mode is None:
            raise Unsupported(f"pad_mode {attrs.get('pad_mode')!r}: F.pad has constant, "
                              "replicate and reflect (circular is not Pad-12's)")
        data = inputs["data"]
        if data["type"] not in self.pad_types[mode]:
            raise Unsupported(f"F.pad mode {mode} has no kernel for {data['type']}")
        rank = len(data["shape"])
        begin, end = (pad_values(inputs, name, rank) for name in ("pads_begin", "pads_end"))
        x = self.tensor_in(data)
        pairs = [v for a in reversed(range(rank)) for v in (begin[a], end[a])]
        if mode == "constant":
            return library(self.F.pad, x, pairs, value=pad_value(inputs, data["type"]))
        padded = [a for a in range(rank) if begin[a] or end[a]]
        first = min(padded, default=rank - 1)
        if rank - first > 3:
            raise Unsupported(f"{mode} pads axes {padded}: F.pad pads at most the last three")
        batch = x.reshape([-1, 1] + list(x.shape[first:])) if rank else x
        y = library(self.F.pad, batch, pairs[:2 * (rank - first)], mode=mode)
        return y.reshape(list(x.shape[:first]) + list(y.shape[2:]))

    def strided_slice(self, request):
        """x[s_0, s_1, ...], one index expression per entry, the kind by
        SS-S1's order of the masks: Ellipsis, None, an int (shrink) or a
        Python slice (begin or end None where its mask bit is set); PyTorch
        normalises, clamps and checks them (a second Ellipsis, too many
        indices, a shrink index out of range, a stride of 0). What the
        index cannot carry is unsupported: mask values other than 0 and 1,
        a stride of 0 where the entry has no slice, side inputs that are
        not 1-D integer tensors of one length; negative strides (PyTorch's
        slicing refuses them) unless --composite, which flips those axes."""
        inputs, attrs = request["inputs"], request["attributes"]
        begin, end = slice_values(inputs, "begin"), slice_values(inputs, "end")
        stride = slice_values(inputs, "stride") if "stride" in inputs else [1] * len(begin)
        if not len(begin) == len(end) == len(stride):
            raise Unsupported(f"begin, end, stride of lengths {len(begin)}, {len(end)}, "
                              f"{len(stride)}: one index expression takes one of each")
        kinds = entry_kinds(attrs, len(begin))
        if any(k != "slice" and s == 0 for k, s in zip(kinds, stride)):
            raise Unsupported("a stride of 0 on an entry that is no slice: the index has no "
                              "place for it")
        x = self.tensor_in(inputs["data"])
        index, flipped = [], []
        axis = 0  # the data axis of the entry, counted for --composite's flips
        for i, kind in enumerate(kinds):
            if kind == "ellipsis":
                index.append(Ellipsis)
                axis = x.dim() - sum(k in ("shrink", "slice") for k in kinds[i + 1:])
            elif kind == "new":
                index.append(None)
            elif kind == "shrink":
                index.append(begin[i])
                axis += 1
            else:
                b = None if mask_bit(attrs, "begin_mask", i) else begin[i]
                e = None if mask_bit(attrs, "end_mask", i) else end[i]
                if stride[i] < 0:
                    if not self.composite:
                        raise Unsupported(f"stride {stride[i]}: PyTorch's slicing refuses "
                                          "negative steps (--composite flips the axis)")
                    flipped.append(axis)
                    b, e = (None if v is None else ~v for v in (b, e))
                index.append(builtin_slice(b, e, abs(stride[i])))
                axis += 1
        if flipped and index.count(Ellipsis) <= 1 and axis <= x.dim():
            x = library(self.torch.flip, x, flipped)  # else the index is rejected unflipped
        return library(x.__getitem__, tuple(index))

    def gather(self, request):
        """x[:, ..., :, indices] with indices in position axis, PyTorch's
        advanced indexing: indices count from the end when negative, and
        the output shape is data.shape[:axis] + indices.shape +
        data.shape[axis+1:], Gather-8's with batch_dims 0. x.size(axis)
        checks the axis. Unsupported: batch_dims other than 0 (or -q),
        index values beyond int64, side inputs of other types or ranks."""
        inputs = request["inputs"]
        axis_tensor, indices = inputs["axis"], inputs["indices"]
        axis = side_input_values(axis_tensor)
        if axis is None or len(axis) != 1 or len(axis_tensor["shape"]) > 1:
            raise Unsupported(f"axis {axis_tensor['type']}{axis_tensor['shape']}: "
                              "one integer is one axis")
        values = side_input_values(indices)
        if values is None or any(v > INT64_MAX for v in values):
            raise Unsupported(f"indices ({indices['type']}): advanced indexing takes int64")
        q = len(indices["shape"])
        batch_dims = request["attributes"].get("batch_dims", 0)
        if batch_dims not in (0, -q) and not self.composite:
            raise Unsupported(f"batch_dims {batch_dims}: advanced indexing has no batch axes "
                              "(--composite indexes them with aranges)")
        x = self.tensor_in(inputs["data"])
        library(x.size, axis[0])
        a = axis[0] % x.dim()
        where = self.torch.tensor(values, dtype=self.torch.int64).reshape(indices["shape"])
        b = batch_dims + q if batch_dims < 0 else batch_dims
        if b == 0:
            return library(x.__getitem__, (builtin_slice(None),) * a + (where,))
        if not 0 < b <= min(q, a) or list(x.shape[:b]) != indices["shape"][:b]:
            raise Unsupported(f"batch_dims {batch_dims} of indices {indices['shape']}, data "
                              f"{list(x.shape)}, axis {a}: aranges would broadcast, not check")
        return self.batched_gather(x, where, a, b)

    def batched_gather(self, x, where, a, b):
        """--composite's Gather with b batch axes: x[r_0, ..., r_{b-1}, :, ...,
        indices], r_i an arange of axis i shaped to broadcast against the
        indices; with slices between them (a > b) PyTorch puts the indexed
        axes first, so the indices' own axes are moved back after the
        sliced ones (movedim, a view)."""
        q = where.dim()
        ranges = tuple(self.torch.arange(x.shape[i]).reshape([-1] + [1] * (q - 1 - i))
                       for i in range(b))
        y = library(x.__getitem__, ranges + (builtin_slice(None),) * (a - b) + (where,))
        if a > b:
            y = y.movedim(list(range(b, q)), list(range(a, a + q - b)))
        return y


builtin_slice = slice


def mask_bit(attrs, name, i):
    """Bit i of a StridedSlice mask: its element i, 0 past its end."""
    mask = attrs.get(name, [])
    return i < len(mask) and mask[i] == 1


def entry_kinds(attrs, count):
    """SS-S1's kind of each entry; masks with values other than 0 and 1
    are unsupported (an index has no meaning to give them)."""
    for name in STRIDED_MASKS:
        if any(v not in (0, 1) for v in attrs.get(name, [])):
            raise Unsupported(f"{name} {attrs[name]}: a mask of 0 and 1 only says what an "
                              "index entry is")
    kinds = []
    for i in range(count):
        kinds.append("ellipsis" if mask_bit(attrs, "ellipsis_mask", i)
                     else "new" if mask_bit(attrs, "new_axis_mask", i)
                     else "shrink" if mask_bit(attrs, "shrink_axis_mask", i) else "slice")
    return kinds


def pad_values(inputs, name, rank):
    """pads_begin or pads_end as Python ints, one per axis: F.pad pairs
    them from the last axis, so another length has no Pad-12 meaning."""
    values = slice_values(inputs, name)
    if len(values) != rank:
        raise Unsupported(f"{name} of {len(values)} values for rank {rank}: F.pad's pairs "
                          "go from the last axis, one per axis here")
    return values


def pad_value(inputs, type_name):
    """pad_value as the Python number F.pad's value takes (0 when absent):
    a scalar of the data's type whose number is exact; NaNs (whose bits a
    number does not keep) and other types or shapes are unsupported."""
    if "pad_value" not in inputs:
        return 0
    tensor = inputs["pad_value"]
    if tensor["type"] != type_name or tensor["shape"] != []:
        raise Unsupported(f"pad_value {tensor['type']}{tensor['shape']}: F.pad's value is one "
                          "number, converted to the data's type")
    raw = raw_bytes(tensor)
    if type_name == "bf16":  # the high half of a float32
        value = struct.unpack("<f", b"\0\0" + raw)[0]
    else:
        value = struct.unpack(PAD_VALUE_FORMATS[type_name], raw)[0]
    if isinstance(value, float) and math.isnan(value):
        raise Unsupported("a NaN pad_value: F.pad's value is a number, without NaN bits")
    return value


def slice_values(inputs, name):
    """A Slice-8 side input's values as Python ints: integer types of rank 1
    only, which Python's slices take."""
    tensor = inputs[name]
    values = side_input_values(tensor)
    if values is None or len(tensor["shape"]) != 1:
        raise Unsupported(f"{name} ({tensor['type']}, rank {len(tensor['shape'])}): "
                          "PyTorch's slices take one integer per axis")
    return values


def library(call, *args, **kwargs):
    """A PyTorch call; its exceptions are its rejections of the input."""
    try:
        return call(*args, **kwargs)
    except (RuntimeError, TypeError, ValueError, IndexError) as e:
        raise Rejected(None, f"PyTorch {call.__name__}: {type(e).__name__}: {e}")


def reorder(y, shape, attrs, pads):
    """unfold's [..., C * kh * kw, L], C outermost, as OpenVINO's
    [..., kh * kw * C, out_rows, out_cols], the patch position outermost.
    unfold also takes an unbatched [C, H, W] (no leading axis), which
    OpenVINO rejects: its result is passed on, reordered the same way."""
    batch, c = list(shape[:-3]), shape[-3]
    kh, kw = attrs["sizes"]
    rows = window_count(shape[-2] + pads[0] + pads[1], kh, attrs, 0)
    cols = window_count(shape[-1] + pads[2] + pads[3], kw, attrs, 1)
    if list(y.shape) != batch + [c * kh * kw, rows * cols]:
        raise BrokenResult(f"unfold returned shape {list(y.shape)}, but its documented "
                           f"formulas give {batch + [c * kh * kw, rows * cols]}")
    y = y.reshape(batch + [c, kh * kw, rows * cols]).transpose(-3, -2)
    return y.reshape(batch + [kh * kw * c, rows, cols])


def window_count(size_in, size, attrs, axis):
    """Windows of an unpadded axis as unfold counts them (its documented formula)."""
    stride, rate = attrs.get("strides", [1, 1])[axis], attrs.get("rates", [1, 1])[axis]
    return (size_in - rate * (size - 1) - 1) // stride + 1


def same_padding(shape, attrs, auto_pad):
    """(top, bottom, left, right) of OpenVINO's same_upper/same_lower padding
    (spec/extract_image_patches_3.md, S1 to S3), or None for valid padding or
    when the attributes are not two positive values each (unfold is then called
    unpadded and rejects them itself)."""
    if auto_pad == "valid" or len(shape) != 4:
        return None
    lists = [attrs.get(name) for name in ("sizes", "strides", "rates")]
    if any(v is None or len(v) != 2 or min(v) < 1 for v in lists):
        return None
    pads = []
    for axis in (0, 1):
        size, stride, rate = (v[axis] for v in lists)
        size_in = shape[2 + axis]
        out = -(-size_in // stride)
        total = max(0, (out - 1) * stride + (size - 1) * rate + 1 - size_in) if out else 0
        begin = total // 2 if auto_pad == "same_upper" else total - total // 2
        pads += [begin, total - begin]
    return tuple(pads)


def limit_memory():
    """Caps the address space at what the process uses now plus
    MEMORY_HEADROOM, so that a request that would need more fails inside
    PyTorch with an allocation error."""
    with open("/proc/self/statm") as f:
        used = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (used + MEMORY_HEADROOM, resource.RLIM_INFINITY))


def main(argv):
    args = parse_args(argv)
    if args.detect:
        return detect()
    import torch
    torch.set_num_threads(args.threads)
    torch.set_num_interop_threads(1)
    ops = TorchOps(torch, args.composite)
    limit_memory()

    def answer(request):
        op = request["op"]
        if op not in ops.run:
            raise Unsupported(f"operation {op}")
        try:
            y = ops.run[op](request)
        except (Rejected, Unsupported, BrokenResult):
            raise
        except Exception as e:  # a bug of this adapter must not pass as a rejection
            log(traceback.format_exc())
            raise BrokenResult(f"the adapter failed: {e!r}")
        return ops.tensor_out(request["inputs"]["data"]["type"], y, request["max_output_bytes"])

    name = "pytorch-composite" if args.composite else "pytorch"
    hello = handshake(name, f"torch {torch.__version__}", ops.types)
    return serve(hello, answer, log)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
