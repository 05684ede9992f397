// Confirms the Arm NN StridedSlice findings outside movconf: one StridedSlice
// layer on CpuRef (input -> StridedSlice -> output, u8 data as QAsymmU8 with
// scale 1), built straight from Arm NN's API, nothing of the plugin.
//   g++ -std=c++14 strided_slice.cpp -larmnn -o strided_slice
//   ./strided_slice empty|short|new-axis|ellipsis|shrink-end|shrink-range
// Each prints Arm NN's output shape and values, or its exception; the crashes
// kill the process (the shell shows the signal).
//   empty     [2, 3] with no entries (begin = end = stride = []): OpenVINO
//             gives the input unchanged.
//   short     [3, 4, 5] by begin [0, 1], end [3, 3], stride [1, 1] (axis 2
//             whole): [3, 2, 5].
//   new-axis  [2, 3] by [0:2, new axis] (new_axis_mask bit 1): [2, 1, 3].
//   ellipsis  [2, 3] by [..., 1:3] (ellipsis_mask bit 0): [2, 2] = 1 2 4 5.
//   shrink-end [3, 4] by [2 (shrink, end 0), 0:4]: row 2, [4] = 8 9 10 11.
//   shrink-range [3, 4] by [0:3, 5 (shrink, end 6)]: index 5 is out of range
//             on an axis of 4, OpenVINO refuses it.
#include <armnn/ArmNN.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Slice {
  std::vector<unsigned int> shape;
  std::vector<int> begin, end, stride;
  int new_axis = 0, ellipsis = 0, shrink = 0;
};

Slice sliceOf(const std::string &name) {
  if (name == "empty")
    return {{2, 3}, {}, {}, {}};
  if (name == "short")
    return {{3, 4, 5}, {0, 1}, {3, 3}, {1, 1}};
  if (name == "new-axis")
    return {{2, 3}, {0, 0}, {2, 3}, {1, 1}, 2};
  if (name == "ellipsis")
    return {{2, 3}, {0, 1}, {0, 3}, {1, 1}, 0, 1};
  if (name == "shrink-range")
    return {{3, 4}, {0, 5}, {3, 6}, {1, 1}, 0, 0, 2};
  return {{3, 4}, {2, 0}, {0, 4}, {1, 1}, 0, 0, 1};
}

int run(const Slice &s) {
  armnn::StridedSliceDescriptor d(s.begin, s.end, s.stride);
  d.m_NewAxisMask = s.new_axis;
  d.m_EllipsisMask = s.ellipsis;
  d.m_ShrinkAxisMask = s.shrink;
  armnn::INetworkPtr net = armnn::INetwork::Create();
  armnn::IConnectableLayer *in = net->AddInputLayer(0);
  armnn::IConnectableLayer *op = net->AddStridedSliceLayer(d);
  armnn::IConnectableLayer *out = net->AddOutputLayer(0);
  armnn::TensorShape shape(static_cast<unsigned int>(s.shape.size()), s.shape.data());
  armnn::TensorInfo in_info(shape, armnn::DataType::QAsymmU8, 1.0f, 0);
  in->GetOutputSlot(0).SetTensorInfo(in_info);
  in->GetOutputSlot(0).Connect(op->GetInputSlot(0));
  op->GetOutputSlot(0).Connect(out->GetInputSlot(0));
  armnn::TensorShape out_shape = op->InferOutputShapes({shape}).at(0);
  armnn::TensorInfo out_info(out_shape, armnn::DataType::QAsymmU8, 1.0f, 0);
  op->GetOutputSlot(0).SetTensorInfo(out_info);
  std::printf("output shape [");
  for (unsigned int i = 0; i < out_shape.GetNumDimensions(); i++)
    std::printf(i ? ", %u" : "%u", out_shape[i]);
  std::printf("]\n");
  armnn::IRuntimePtr rt = armnn::IRuntime::Create(armnn::IRuntime::CreationOptions());
  armnn::IOptimizedNetworkPtr opt =
      armnn::Optimize(*net, {armnn::Compute::CpuRef}, rt->GetDeviceSpec());
  armnn::NetworkId id;
  std::string error;
  armnn::INetworkProperties properties;
  if (rt->LoadNetwork(id, std::move(opt), error, properties) != armnn::Status::Success) {
    std::printf("LoadNetwork: %s\n", error.c_str());
    return 1;
  }
  std::vector<unsigned char> x(in_info.GetNumElements()), y(out_info.GetNumElements() + 1);
  for (size_t i = 0; i < x.size(); i++)
    x[i] = static_cast<unsigned char>(i);
  armnn::InputTensors inputs{{0, armnn::ConstTensor(rt->GetInputTensorInfo(id, 0), x.data())}};
  armnn::OutputTensors outputs{{0, armnn::Tensor(rt->GetOutputTensorInfo(id, 0), y.data())}};
  rt->EnqueueWorkload(id, inputs, outputs);
  std::printf("values");
  for (unsigned int i = 0; i < out_info.GetNumElements(); i++)
    std::printf(" %d", y[i]);
  std::printf("\n");
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s empty|short|new-axis|ellipsis|shrink-end|shrink-range\n",
                 argv[0]);
    return 2;
  }
  try {
    return run(sliceOf(argv[1]));
  } catch (const armnn::Exception &e) {
    std::printf("armnn::Exception: %s\n", e.what());
    return 1;
  }
}
