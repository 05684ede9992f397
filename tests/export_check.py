#!/usr/bin/env python3
"""Reads back what `movconf export` wrote with readers movconf does not
contain and compares every tensor with the case files' payloads, decoded by
reference/reference_model.py (which shares no code with src/):

  export_check.py onnx DIR CASE_PATHS...  onnx.checker (full check) accepts
      every model.onnx; onnx.numpy_helper reads every input_N.pb and
      output_0.pb back to the case's bytes (an expected output given as a
      digest: to bytes of that SHA-256); the model names its case.
  export_check.py npy DIR CASE_PATHS...   numpy.load reads every .npy back
      to the case's bytes, stored as docs/export.md says; each desc.json says
      what its case says; every case of CASE_PATHS has its folder (but
      those with a list attribute of more than 40 values, docs/export.md).

Exit status 0 when all agree, 1 otherwise, 77 when onnx or numpy is missing
(Debian's python3-onnx, python3-numpy)."""
import base64
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import reference_model as rm  # noqa: E402

try:
    import numpy as np
except ImportError:
    print("skipped: numpy is not installed (python3-numpy)")
    sys.exit(77)

# What docs/export.md says each type is stored as in a .npy file.
NPY_DESCR = {"boolean": "|b1", "u8": "|u1", "i8": "|i1", "u16": "<u2", "i16": "<i2",
             "f16": "<f2", "bf16": "<u2", "u32": "<u4", "i32": "<i4", "f32": "<f4",
             "u64": "<u8", "i64": "<i8", "f64": "<f8", "f8e4m3": "|u1", "f8e5m2": "|u1",
             "u1": "|u1", "u4": "|u1", "i4": "|u1"}
PACKED = ("u1", "u4", "i4")
# ONNX Slice-13's input names -> Slice-8's.
# The case input of each ONNX input name: Slice's renamed ones, Pad's
# constant_value (its pads are pads_begin and pads_end, checked together).
INPUT_NAMES = {"data": "data", "starts": "start", "ends": "stop", "axes": "axes", "steps": "step",
               "constant_value": "pad_value"}


def load_cases(paths):
    cases = {}
    for path in rm.case_files_under(paths):
        doc = rm.load_case_file(path)
        for case in doc["cases"]:
            cases[case["id"]] = (doc["op"], case)
    return cases


def numpy_fill_bits(type_name, fill, count):
    """A counter or prng fill's element bits, as reference_model.fill_bits
    computes them, with numpy (large fills take seconds element by element);
    None for other fills. The first elements are checked against the
    reference model's, which stays the authority on the formula."""
    width = rm.type_bits(type_name)
    index = np.arange(count, dtype=np.uint64)
    if list(fill) == ["counter"]:
        start = np.uint64(int(fill["counter"]) % (1 << 64))
        bits = start + index
    elif list(fill) == ["prng"] and list(fill["prng"]) == ["seed"]:
        with np.errstate(over="ignore"):
            z = np.uint64(int(fill["prng"]["seed"]) % (1 << 64)) + (index + np.uint64(1)) * np.uint64(
                0x9E3779B97F4A7C15)
            z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            bits = z ^ (z >> np.uint64(31))
    else:
        return None
    if width < 64:
        bits &= np.uint64((1 << width) - 1)
    head = min(count, 16)
    if [int(b) for b in bits[:head]] != rm.fill_bits(type_name, fill, head):
        raise AssertionError("numpy's fill differs from the reference model's")
    return bits


def payload_bytes(desc):
    """The bytes of a case-file tensor: hex and base64 as given (check-cases
    holds them to their type and shape), large fills through numpy, the rest
    through reference/reference_model.py."""
    if "hex" in desc:
        return bytes.fromhex(desc["hex"])
    if "base64" in desc:
        return base64.b64decode(desc["base64"], validate=True)
    type_name, width = desc["type"], rm.type_bits(desc["type"])
    count = rm.element_count([int(d) for d in desc["shape"]])
    if "fill" in desc and width >= 8 and count > 64:
        bits = numpy_fill_bits(type_name, desc["fill"], count)
        if bits is not None:
            return bits.astype("<u%d" % (width // 8)).tobytes()
    tensor = rm.tensor_from_json(desc)
    return rm.pack(tensor.type, tensor.bits)


def same_bytes(data, desc):
    """data (bytes) is the tensor desc describes: its payload or its digest."""
    if "sha256" in desc:
        return hashlib.sha256(data).hexdigest() == desc["sha256"].lower()
    return data == payload_bytes(desc)


def side_values_int64(desc):
    """A side input's values as ONNX gets them: int64, a u64 above INT64_MAX
    as INT64_MAX (docs/export.md)."""
    tensor = rm.tensor_from_json(desc)
    values = [rm.bits_value(tensor.type, b) for b in tensor.bits]
    return [min(int(v), (1 << 63) - 1) for v in values]


class Problems:
    def __init__(self):
        self.count = 0

    def __call__(self, where, what):
        self.count += 1
        if self.count <= 50:
            print("%s: %s" % (where, what))


# Empty tensors whose other dimensions multiply past what numpy can shape
# (d2s/gen/huge-block/0005-f32: [1, 2^62, 0, 0]): numpy refuses them
# ("array is too big"), so their bytes, none, are read from raw_data.
UNSHAPEABLE_EMPTY = []


def onnx_tensor_bytes(numpy_helper, proto):
    try:
        array = numpy_helper.to_array(proto)
    except ValueError:
        if 0 not in proto.dims:
            raise
        UNSHAPEABLE_EMPTY.append(proto.name)
        return bytes(proto.raw_data)
    if proto.data_type == 16:  # BFLOAT16 comes back as float32: its high halves
        return (np.ascontiguousarray(array).view(np.uint32) >> 16).astype("<u2").tobytes()
    return np.ascontiguousarray(array).tobytes()


def check_onnx_folder(folder, cases, problem):
    import onnx
    from onnx import numpy_helper
    model = onnx.load(os.path.join(folder, "model.onnx"))
    onnx.checker.check_model(model, full_check=True)
    meta = {p.key: p.value for p in model.metadata_props}
    case_id = meta.get("movconf.case")
    if case_id not in cases:
        return problem(folder, "names no case of the case files (%r)" % case_id)
    op, case = cases[case_id]
    if meta.get("movconf.origin") != case["origin"] or meta.get("movconf.operation") != op:
        problem(folder, "its operation or origin is not the case's")
    data_dir = os.path.join(folder, "test_data_set_0")
    for i, value in enumerate(model.graph.input):
        proto = onnx.TensorProto()
        with open(os.path.join(data_dir, "input_%d.pb" % i), "rb") as f:
            proto.ParseFromString(f.read())
        if value.name == "pads":  # Pad: every begin, then every end, as int64
            if (numpy_helper.to_array(proto).astype(np.int64).tolist() !=
                    side_values_int64(case["inputs"]["pads_begin"]) +
                    side_values_int64(case["inputs"]["pads_end"])):
                problem(folder, "input_%d.pb: pads differ from the case's" % i)
            continue
        desc = case["inputs"][INPUT_NAMES.get(value.name, value.name)]
        if list(proto.dims) != [int(d) for d in desc["shape"]] or proto.name != value.name:
            problem(folder, "input_%d.pb: name or shape differs from the case's" % i)
        elif value.name in ("data", "constant_value"):
            if not same_bytes(onnx_tensor_bytes(numpy_helper, proto), desc):
                problem(folder, "input_%d.pb: bytes differ from the case's" % i)
        elif numpy_helper.to_array(proto).astype(np.int64).ravel().tolist() != side_values_int64(desc):
            problem(folder, "input_%d.pb: values differ from the case's" % i)
    proto = onnx.TensorProto()
    with open(os.path.join(data_dir, "output_0.pb"), "rb") as f:
        proto.ParseFromString(f.read())
    expected = case["expect"].get("output")
    if expected is None:
        return problem(folder, "the case expects an error")
    if list(proto.dims) != [int(d) for d in expected["shape"]]:
        problem(folder, "output_0.pb: shape differs from the case's")
    elif not same_bytes(onnx_tensor_bytes(numpy_helper, proto), expected):
        problem(folder, "output_0.pb: bytes differ from the case's")


def check_onnx(out_dir, cases):
    try:
        import onnx  # noqa: F401
    except ImportError:
        print("skipped: onnx is not installed (python3-onnx)")
        sys.exit(77)
    problem = Problems()
    folders = sorted(d for d in os.listdir(out_dir) if d.startswith("test_"))
    for name in folders:
        try:
            check_onnx_folder(os.path.join(out_dir, name), cases, problem)
        except Exception as err:  # a checker's refusal, a missing file
            problem(name, "%s: %s" % (type(err).__name__, err))
    print("onnx: %d models checked (onnx.checker full check, every tensor read back), "
          "%d problems; %d empty tensors too large for numpy's shapes read from raw_data"
          % (len(folders), problem.count, len(UNSHAPEABLE_EMPTY)))
    return len(folders) > 0 and problem.count == 0


def load_npy(path):
    """numpy.load; an empty array whose other dimensions multiply past what
    numpy can shape (s2d/gen/huge-block/0005-f32) is refused by it, so its
    header is read by numpy's own format reader and its data, none, checked
    empty: (dtype string, shape, bytes)."""
    try:
        array = np.load(path, allow_pickle=False)
        return array.dtype.str, list(array.shape), array.tobytes()
    except ValueError:
        with open(path, "rb") as f:
            version = np.lib.format.read_magic(f)
            shape, _, dtype = np.lib.format._read_array_header(f, version)
            if 0 not in shape:
                raise
            UNSHAPEABLE_EMPTY.append(path)
            return dtype.str, list(shape), f.read()


def check_npy_file(path, desc):
    dtype, array_shape, data = load_npy(path)
    if dtype != NPY_DESCR[desc["type"]]:
        return "dtype %s, not %s" % (dtype, NPY_DESCR[desc["type"]])
    shape = [len(data)] if desc["type"] in PACKED else [int(d) for d in desc["shape"]]
    if array_shape != shape:
        return "shape %s, not %s" % (array_shape, shape)
    return None if same_bytes(data, desc) else "bytes differ from the case's"


def same_value(written, given):
    """desc.json's value is the case file's, whose integers past 2^53 are
    decimal strings (spec/case-format.md section 5) where desc.json has
    numbers."""
    if isinstance(written, list) and isinstance(given, list):
        return len(written) == len(given) and all(map(same_value, written, given))
    if isinstance(written, dict) and isinstance(given, dict):
        return written.keys() == given.keys() and all(same_value(written[k], given[k])
                                                      for k in written)
    if isinstance(written, int) and isinstance(given, str):
        return given.lstrip("-").isdigit() and written == int(given)
    return type(written) is type(given) and written == given


def has_long_list(case):
    """A list attribute of more than 40 values (MC_MAX_ATTR_LEN): not exported
    (docs/export.md)."""
    return any(isinstance(v, list) and len(v) > 40 for v in case.get("attributes", {}).values())


def check_npy_folder(folder, cases, problem):
    with open(os.path.join(folder, "desc.json"), encoding="utf-8") as f:
        desc = json.load(f)
    if desc["id"] not in cases:
        return problem(folder, "names no case of the case files")
    op, case = cases[desc["id"]]
    if (desc["operation"] != op or desc["origin"] != case["origin"]
            or desc["clauses"] != case["clauses"]
            or not same_value(desc["attributes"], case.get("attributes", {}))):
        problem(folder, "desc.json: operation, origin, clauses or attributes differ")
    if sorted(desc["inputs"]) != sorted(case["inputs"]):
        problem(folder, "desc.json: not the case's inputs")
    tensors = [(entry, case["inputs"].get(name)) for name, entry in desc["inputs"].items()]
    if "error" in case["expect"]:
        if desc["expect"] != {"error": case["expect"]["error"]}:
            problem(folder, "desc.json: not the case's expected error")
    else:
        tensors.append((desc["expect"]["output"], case["expect"]["output"]))
    for entry, case_desc in tensors:
        if case_desc is None or entry["type"] != case_desc["type"] \
                or entry["shape"] != [int(d) for d in case_desc["shape"]]:
            problem(folder, "%s: type or shape differs from the case's" % entry["file"])
            continue
        wrong = check_npy_file(os.path.join(folder, entry["file"]), case_desc)
        if wrong:
            problem(folder, "%s: %s" % (entry["file"], wrong))


def check_npy(out_dir, cases):
    problem = Problems()
    folders = sorted(os.listdir(out_dir))
    for name in folders:
        try:
            check_npy_folder(os.path.join(out_dir, name), cases, problem)
        except Exception as err:
            problem(name, "%s: %s" % (type(err).__name__, err))
    exported = sum(1 for _, case in cases.values() if not has_long_list(case))
    if len(folders) != exported:
        problem(out_dir, "%d folders for %d cases" % (len(folders), exported))
    print("npy: %d cases checked (numpy.load, every file read back), %d problems; "
          "%d empty arrays too large for numpy's shapes read by numpy's header reader"
          % (len(folders), problem.count, len(UNSHAPEABLE_EMPTY)))
    return problem.count == 0


def main(argv):
    if len(argv) < 3 or argv[0] not in ("onnx", "npy"):
        print(__doc__, file=sys.stderr)
        return 2
    cases = load_cases(argv[2:])
    ok = (check_onnx if argv[0] == "onnx" else check_npy)(argv[1], cases)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
