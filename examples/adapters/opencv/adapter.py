#!/usr/bin/python3
"""A movconf process adapter over OpenCV's DNN module (cv2.dnn), through its
ONNX importer.

    movconf run --impl exec:'exec /usr/bin/python3 examples/adapters/opencv/adapter.py'

It speaks spec/adapter-protocol.md on stdin/stdout (logs go to stderr). Each
request becomes a one-node ONNX model, built with the onnx package for the
request's exact input shape (OpenCV's importer turns SpaceToDepth and
DepthToSpace into Reshape, Permute, Reshape layers sized from the model's
input shape, so a model with symbolic dimensions does not import), read by
cv2.dnn.readNetFromONNX and run with the default backend on the CPU:

  SpaceToDepth-1 blocks_first, 4-D   ONNX SpaceToDepth
  DepthToSpace-1 blocks_first, 4-D   ONNX DepthToSpace mode DCR
  DepthToSpace-1 depth_first, 4-D    ONNX DepthToSpace mode CRD
  ShuffleChannels-1 axis 1, 4-D      a node of type ShuffleChannel, attribute
                                     group: no ONNX operator, so the importer
                                     makes the DNN layer of that name
  Slice-8, positive steps, rank >= 2 ONNX Slice, starts/ends/axes/steps int64
                                     initializers (the importer needs constants)
  Transpose-1, rank 2 or >= 4        ONNX Transpose, perm = input_order
  Pad-12 constant/edge/reflect,      ONNX Pad (Pad-13), pads and constant_value
    rank 2 or >= 4                   as initializers

  Gather-8, one index, batch_dims 0,  ONNX Gather, axis attribute = the axis
    output rank 2 or more              input, indices an int64 initializer
                                       (the importer takes constant indices
                                       of one element only: indexMat.total()
                                       == 1)

OpenCV's DNN computes in float32: f32 is the one element type claimed.
Validation is OpenCV's: attribute values go into the model as they are, and
a cv2.error becomes an error reply without an error name.
examples/adapters/opencv/README.md documents the mapping.

Options:
    --detect           print OpenCV's and onnx's versions and exit 0; exit 1
                       if either cannot be imported
    --mode-experiment  run the specification's worked examples through the
                       three ONNX operators and print which OpenVINO mode each
                       computes; exit 0 when that is the mapping above

Needs Debian's python3-opencv and python3-onnx (apt-get install
python3-opencv python3-onnx), which /usr/bin/python3 sees.
"""

import base64
import os
import sys
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from movconf_adapter import (  # noqa: E402
    BrokenResult, Rejected, Unsupported, check_output_size, element_count, handshake, logger,
    raw_bytes, serve, side_input_values, tensor_reply)

log = logger("opencv-adapter")

D2S, S2D, SHUFFLE, SLICE = "DepthToSpace-1", "SpaceToDepth-1", "ShuffleChannels-1", "Slice-8"
TRANSPOSE, PAD, GATHER = "Transpose-1", "Pad-12", "Gather-8"
# Pad-12's modes that ONNX Pad has (symmetric has none).
PAD_MODES = {"constant": "constant", "edge": "edge", "reflect": "reflect"}
ONNX_MODES = {"blocks_first": "DCR", "depth_first": "CRD"}
OPSET = 13  # DepthToSpace's mode attribute exists since opset 11
INT_MAX = (1 << 31) - 1
INT64_MAX = (1 << 63) - 1
# Slice-8's side inputs and the ONNX Slice inputs they become, in ONNX's order.
SLICE_INPUTS = (("start", "starts"), ("stop", "ends"), ("axes", "axes"), ("step", "steps"))


def detect():
    try:
        import cv2
        import onnx
    except ImportError as e:
        print(f"OpenCV or onnx is not installed for {sys.executable}: {e}", file=sys.stderr)
        return 1
    print(f"opencv {cv2.__version__}, onnx {onnx.__version__}")
    return 0


class OpenCvOps:
    """The mapping of movconf requests onto one-node ONNX models run by cv2.dnn."""

    def __init__(self):
        import cv2
        import numpy
        import onnx
        self.cv2, self.np, self.onnx = cv2, numpy, onnx
        self.run = {D2S: self.depth_to_space, S2D: self.space_to_depth,
                    SHUFFLE: self.shuffle_channels, SLICE: self.slice,
                    TRANSPOSE: self.transpose, PAD: self.pad, GATHER: self.gather}

    def model(self, op_type, attributes, shape, constants=()):
        """A serialized ModelProto: one node op_type(x, *constants) -> y, x of
        the given float32 shape, each constant (name, values) an int64
        initializer of rank 1 (or a TensorProto, as it is); y's
        shape is left to the importer (an empty shape record, which OpenCV's
        importer requires to be present)."""
        helper, proto = self.onnx.helper, self.onnx.TensorProto
        node = helper.make_node(op_type, ["x"] + [name for name, _ in constants], ["y"],
                                **attributes)
        initializers = [values if isinstance(values, proto) else
                        helper.make_tensor(name, proto.INT64, [len(values)], values)
                        for name, values in constants]
        graph = helper.make_graph(
            [node], "movconf", [helper.make_tensor_value_info("x", proto.FLOAT, shape)],
            [helper.make_tensor_value_info("y", proto.FLOAT, [])], initializer=initializers)
        model = helper.make_model(graph, producer_name="movconf",
                                  opset_imports=[helper.make_opsetid("", OPSET)])
        return model.SerializeToString()

    def forward(self, op_type, attributes, data, constants=()):
        """OpenCV's output for one node on the request's data (float32)."""
        raw = raw_bytes(data)
        shape = data["shape"]
        if max(shape, default=0) > INT_MAX:
            raise Unsupported(f"data shape {shape}: cv::Mat dimensions are int")
        x = self.np.frombuffer(raw, dtype="<f4").reshape(shape)
        try:
            net = self.cv2.dnn.readNetFromONNX(
                self.np.frombuffer(self.model(op_type, attributes, shape, constants),
                                   self.np.uint8))
            net.setInput(x)
            return net.forward()
        except (self.cv2.error, ValueError, OverflowError) as e:
            raise Rejected(None, f"OpenCV {op_type}: {type(e).__name__}: {e}")

    def depth_request(self, request, op_type):
        """The ONNX attributes of a 4-D request; ranks from 3 up other than 4
        are unsupported (ONNX's operators are 4-D), lower ones go to OpenCV."""
        rank = len(request["inputs"]["data"]["shape"])
        if rank >= 3 and rank != 4:
            raise Unsupported(f"ONNX {op_type} is 4-D only (data rank {rank})")
        # OpenVINO's default block_size, 1, written out (ONNX requires one).
        return {"blocksize": request["attributes"].get("block_size", 1)}

    def space_to_depth(self, request):
        mode = request["attributes"].get("mode")
        if mode != "blocks_first":
            raise Unsupported(f"mode {mode!r}: ONNX SpaceToDepth has no mode, it computes "
                              "blocks_first only")
        attributes = self.depth_request(request, "SpaceToDepth")
        return self.forward("SpaceToDepth", attributes, request["inputs"]["data"])

    def depth_to_space(self, request):
        """blocks_first is DCR, depth_first CRD (--mode-experiment). An absent
        mode stays absent (ONNX then defaults to DCR where OpenVINO rejects);
        any other string goes to OpenCV."""
        attributes = self.depth_request(request, "DepthToSpace")
        mode = request["attributes"].get("mode")
        if mode is not None:
            attributes["mode"] = ONNX_MODES.get(mode, mode)
        return self.forward("DepthToSpace", attributes, request["inputs"]["data"])

    def shuffle_channels(self, request):
        """ONNX has no channel shuffle, but OpenCV's importer makes a node of
        an unknown type into the DNN layer of that type, with the node's
        attributes as its parameters: ShuffleChannel (from Caffe) takes a
        4-D blob and shuffles axis 1 (it has no axis parameter and ignores
        one). group goes in as it is, OpenVINO's default 1 written out."""
        attributes = request["attributes"]
        rank = len(request["inputs"]["data"]["shape"])
        axis = attributes.get("axis", 1)
        if rank != 4 or axis not in (1, -3):
            raise Unsupported(f"axis {axis} of rank {rank}: OpenCV's ShuffleChannel layer "
                              "shuffles axis 1 of a 4-D blob")
        return self.forward("ShuffleChannel", {"group": attributes.get("group", 1)},
                            request["inputs"]["data"])

    def slice(self, request):
        """ONNX Slice (Slice-13) with its starts, ends, axes and steps as int64
        initializers, each value as it is: the importer reads constants only,
        and OpenCV's Slice layer does the clamping and the checks. What the
        importer or the layer cannot express is unsupported (README.md):
        data of rank 1 (a cv::Mat has two dimensions at least: its output
        comes back N x 1) or 3 (cv2 reads a 3-D numpy array as a 2-D image
        whose last axis is its channels), a negative step (the layer asserts step >= 1),
        axes that are not consecutive and ascending (the importer asserts
        axes[i] == axes[i-1] + 1), side inputs an int64 initializer cannot
        hold. Absent axes are written out as 0 .. n-1, ONNX's and OpenVINO's
        default: the importer fails on an omitted input before steps."""
        inputs = request["inputs"]
        rank = len(inputs["data"]["shape"])
        if rank == 1:
            raise Unsupported("data of rank 1: OpenCV 4.6's blobs have two dimensions at least")
        if rank == 3:
            raise Unsupported("data of rank 3: cv2 reads a 3-D array as an image of channels")
        values = {ours: self.slice_values(inputs, ours) for ours, _ in SLICE_INPUTS
                  if ours in inputs}
        if any(s < 0 for s in values["step"]):
            raise Unsupported(f"steps {values['step']}: OpenCV's Slice layer asserts step >= 1")
        axes = values.setdefault("axes", list(range(len(values["start"]))))
        if any(b != a + 1 for a, b in zip(axes, axes[1:])):
            raise Unsupported(f"axes {axes}: OpenCV's importer takes consecutive ascending "
                              "axes only")
        constants = [(theirs, values[ours]) for ours, theirs in SLICE_INPUTS]
        return self.forward("Slice", {}, inputs["data"], constants)

    def blob_rank(self, request):
        """The data's rank, when a cv::Mat blob holds it as it is (see slice)."""
        rank = len(request["inputs"]["data"]["shape"])
        if rank in (0, 1, 3):
            raise Unsupported(f"data of rank {rank}: OpenCV 4.6's blobs have two dimensions at "
                              "least, and cv2 reads a 3-D array as an image of channels")
        return rank

    def transpose(self, request):
        """ONNX Transpose (OpenCV's Permute layer), perm = input_order as it
        is; an empty input_order leaves perm out, which ONNX reads as the
        reversal, OpenVINO's meaning too."""
        self.blob_rank(request)
        order = self.slice_values(request["inputs"], "input_order")
        attributes = {"perm": order} if order else {}
        return self.forward("Transpose", attributes, request["inputs"]["data"])

    def pad(self, request):
        """ONNX Pad (Pad-13): pads = pads_begin ++ pads_end as an int64
        initializer, pad_value as a float32 scalar initializer with its bits,
        mode constant, edge or reflect; symmetric has no ONNX mode."""
        inputs = request["inputs"]
        mode = PAD_MODES.get(request["attributes"].get("pad_mode"))
        if mode is None:
            raise Unsupported(f"pad_mode {request['attributes'].get('pad_mode')!r}: ONNX Pad has "
                              "constant, edge and reflect")
        self.blob_rank(request)
        pads = self.slice_values(inputs, "pads_begin") + self.slice_values(inputs, "pads_end")
        constants = [("pads", pads)]
        if "pad_value" in inputs and mode == "constant":
            value = inputs["pad_value"]
            if value["type"] != "f32" or value["shape"] != []:
                raise Unsupported(f"pad_value {value['type']}{value['shape']}: the model holds "
                                  "a float32 scalar")
            constants.append(("constant_value", self.onnx.helper.make_tensor(
                "constant_value", self.onnx.TensorProto.FLOAT, [], raw_bytes(value), raw=True)))
        return self.forward("Pad", {"mode": mode}, inputs["data"], constants)

    def gather(self, request):
        """ONNX Gather (Gather-13): the axis input's one value as the axis
        attribute, the indices as an int64 initializer of their shape, each
        value as it is. OpenCV 4.6's importer takes constant indices of one
        element only (it asserts indexMat.total() == 1) and turns the node
        into its Slice layer and a reshape: other indices are unsupported.
        ONNX Gather has no batch_dims: only a batch_dims that means 0 (0, or
        minus the indices' rank) is claimed. An output of rank 1 has no
        OpenCV 4.6 blob (two dimensions at least): unsupported."""
        inputs = request["inputs"]
        rank = self.blob_rank(request)
        indices = inputs["indices"]
        index_rank = len(indices["shape"])
        batch_dims = request["attributes"].get("batch_dims", 0)
        if batch_dims not in (0, -index_rank):
            raise Unsupported(f"batch_dims {batch_dims}: ONNX Gather has none (0 only)")
        values = side_input_values(indices)
        if values is None or len(values) != 1:
            raise Unsupported(f"indices of shape {indices['shape']}: OpenCV 4.6's importer takes "
                              "one index only (indexMat.total() == 1)")
        if rank - 1 + index_rank < 2:
            raise Unsupported("an output of rank 1: OpenCV 4.6's blobs have two dimensions at "
                              "least")
        axis = side_input_values(inputs["axis"])
        if axis is None or len(axis) != 1 or values[0] > INT64_MAX or axis[0] > INT64_MAX:
            raise Unsupported("an axis or index the model cannot hold as one int64")
        initializer = self.onnx.helper.make_tensor("indices", self.onnx.TensorProto.INT64,
                                                   indices["shape"], values)
        return self.forward("Gather", {"axis": axis[0]}, inputs["data"],
                            [("indices", initializer)])

    @staticmethod
    def slice_values(inputs, name):
        tensor = inputs[name]
        values = side_input_values(tensor)
        if values is None or len(tensor["shape"]) != 1:
            raise Unsupported(f"{name} ({tensor['type']}, rank {len(tensor['shape'])}): "
                              "the model holds it as a 1-D int64 initializer")
        if any(v > INT64_MAX for v in values):
            raise Unsupported(f"{name} {values}: an int64 initializer cannot hold values "
                              "above INT64_MAX")
        return values

    def tensor_out(self, y, cap):
        shape = [int(d) for d in y.shape]
        if y.dtype != self.np.float32 or min(shape, default=0) < 0:
            raise BrokenResult(f"OpenCV returned a {y.dtype} array of shape {shape}")
        check_output_size("f32", shape, cap)
        bits = self.np.ascontiguousarray(y).astype("<f4", copy=False).tobytes()
        return tensor_reply("f32", shape, bits if element_count(shape) else b"")


# spec/space_to_depth_1.md's worked example: [1,2,2,4] holding 0..15, block 2,
# and what each mode makes of it; DepthToSpace of a mode takes that back.
S2D_OUT = {"blocks_first": [0, 2, 8, 10, 1, 3, 9, 11, 4, 6, 12, 14, 5, 7, 13, 15],
           "depth_first": [0, 2, 1, 3, 4, 6, 5, 7, 8, 10, 9, 11, 12, 14, 13, 15]}


def mode_experiment():
    ops = OpenCvOps()
    iota = list(range(16))

    def run(op_type, attributes, values, shape):
        data = {"type": "f32", "shape": shape,
                "base64": base64.b64encode(ops.np.array(values, dtype="<f4").tobytes()).decode()}
        return [float(v) for v in ops.forward(op_type, attributes, data).flatten()]

    expected = [("SpaceToDepth", {}, "blocks_first"),
                ("DepthToSpace", {"mode": "DCR"}, "blocks_first"),
                ("DepthToSpace", {"mode": "CRD"}, "depth_first")]
    ok = True
    for op_type, extra, want in expected:
        attributes = {"blocksize": 2, **extra}
        modes = [m for m in S2D_OUT
                 if (run(op_type, attributes, iota, [1, 2, 2, 4]) == S2D_OUT[m]
                     if op_type == "SpaceToDepth"
                     else run(op_type, attributes, S2D_OUT[m], [1, 8, 1, 2]) == iota)]
        label = f"ONNX {op_type}" + (f" mode {extra['mode']}" if extra else "")
        print(f"{label} in OpenCV: matches OpenVINO {', '.join(modes) or 'no mode'}")
        ok = ok and modes == [want]
    return 0 if ok else 1


def main(argv):
    if argv == ["--detect"]:
        return detect()
    if argv == ["--mode-experiment"]:
        return mode_experiment()
    if argv:
        print(__doc__, file=sys.stderr)
        return 2
    import cv2
    ops = OpenCvOps()

    def answer(request):
        op = request["op"]
        if op not in ops.run:
            raise Unsupported(f"operation {op}: OpenCV's ONNX importer has no such operator")
        try:
            y = ops.run[op](request)
            return ops.tensor_out(y, request["max_output_bytes"])
        except (Rejected, Unsupported, BrokenResult):
            raise
        except Exception as e:  # a bug of this adapter must not pass as a rejection
            log(traceback.format_exc())
            raise BrokenResult(f"the adapter failed: {e!r}")

    hello = handshake("opencv-dnn", f"opencv {cv2.__version__}",
                      {op: ["f32"] for op in (D2S, S2D, SHUFFLE, SLICE, TRANSPOSE, PAD,
                                                        GATHER)})
    return serve(hello, answer, log)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
