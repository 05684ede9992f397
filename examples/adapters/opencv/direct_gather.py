#!/usr/bin/python3
"""Confirms the OpenCV Gather findings outside movconf: one ONNX Gather node
(onnx.helper, nothing of adapter.py) read by cv2.dnn.readNetFromONNX and run
on a float32 [2, 2, 2, 2] holding 0 .. 15; prints the output shape and
values, or OpenCV's error. A heap corruption aborts the process.

    /usr/bin/python3 examples/adapters/opencv/direct_gather.py CASE

  axis-dropped   indices [1] of shape [1], axis 0: OpenVINO [1, 2, 2, 2], 8 .. 15
  negative-axis  index 1 (a scalar), axis -1: [2, 2, 2], 1, 3, .., 15
  minus-one      index -1, axis 0: [2, 2, 2], 8 .. 15
  past-axis      index 2, axis 0: [2, 2, 2] of zeros (Gather-8's out of range)
"""
import sys

import cv2
import numpy as np
from onnx import TensorProto, helper

CASES = {"axis-dropped": ([1], [1], 0), "negative-axis": ([], [1], -1),
         "minus-one": ([], [-1], 0), "past-axis": ([], [2], 0)}


def main(name):
    shape, values, axis = CASES[name]
    node = helper.make_node("Gather", ["x", "indices"], ["y"], axis=axis)
    graph = helper.make_graph(
        [node], "direct", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2, 2, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [])],
        initializer=[helper.make_tensor("indices", TensorProto.INT64, shape, values)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    try:
        net = cv2.dnn.readNetFromONNX(np.frombuffer(model.SerializeToString(), np.uint8))
        net.setInput(np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2))
        y = net.forward()
        print(f"OpenCV {cv2.__version__}: shape {list(y.shape)}, values {y.flatten().tolist()}")
    except cv2.error as e:
        print(f"OpenCV {cv2.__version__}: cv2.error: {' '.join(str(e).split())}")


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
