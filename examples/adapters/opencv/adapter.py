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
    raw_bytes, serve, tensor_reply)

log = logger("opencv-adapter")

D2S, S2D, SHUFFLE = "DepthToSpace-1", "SpaceToDepth-1", "ShuffleChannels-1"
ONNX_MODES = {"blocks_first": "DCR", "depth_first": "CRD"}
OPSET = 13  # DepthToSpace's mode attribute exists since opset 11
INT_MAX = (1 << 31) - 1


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
                    SHUFFLE: self.shuffle_channels}

    def model(self, op_type, attributes, shape):
        """A serialized ModelProto: one node op_type(x) -> y, x of the given
        float32 shape; y's shape is left to the importer (an empty shape
        record, which OpenCV's importer requires to be present)."""
        helper, proto = self.onnx.helper, self.onnx.TensorProto
        node = helper.make_node(op_type, ["x"], ["y"], **attributes)
        graph = helper.make_graph(
            [node], "movconf", [helper.make_tensor_value_info("x", proto.FLOAT, shape)],
            [helper.make_tensor_value_info("y", proto.FLOAT, [])])
        model = helper.make_model(graph, producer_name="movconf",
                                  opset_imports=[helper.make_opsetid("", OPSET)])
        return model.SerializeToString()

    def forward(self, op_type, attributes, data):
        """OpenCV's output for one node on the request's data (float32)."""
        raw = raw_bytes(data)
        shape = data["shape"]
        if max(shape, default=0) > INT_MAX:
            raise Unsupported(f"data shape {shape}: cv::Mat dimensions are int")
        x = self.np.frombuffer(raw, dtype="<f4").reshape(shape)
        try:
            net = self.cv2.dnn.readNetFromONNX(
                self.np.frombuffer(self.model(op_type, attributes, shape), self.np.uint8))
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
                      {D2S: ["f32"], S2D: ["f32"], SHUFFLE: ["f32"]})
    return serve(hello, answer, log)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
