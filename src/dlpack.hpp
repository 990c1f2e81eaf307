// DLPack, both ways: numcu takes any __dlpack__ producer (JAX, PyTorch, CuPy, NumPy) and
// numcu.ndarray exports itself through __dlpack__ / __dlpack_device__.
//
// The structs below follow the DLPack 1.x specification's ABI (dlpack.h), which every
// producer and consumer shares; numcu uses only the parts the Python specification needs.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>

#include "intake.hpp"
#include "ndarray.hpp"

namespace numcu::python {

namespace dl {

enum DeviceType : std::int32_t {
  kCPU = 1,
  kCUDA = 2,
  kCUDAHost = 3,
  kCUDAManaged = 13,
};

enum TypeCode : std::uint8_t {
  kInt = 0,
  kUInt = 1,
  kFloat = 2,
  kBfloat = 4,
  kComplex = 5,
  kBool = 6,
};

struct Device {
  std::int32_t device_type;
  std::int32_t device_id;
};

struct DataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};

struct Tensor {
  void* data;
  Device device;
  std::int32_t ndim;
  DataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; null means C-contiguous
  std::uint64_t byte_offset;
};

struct ManagedTensor {
  Tensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(ManagedTensor* self);
};

struct PackVersion {
  std::uint32_t major;
  std::uint32_t minor;
};

constexpr std::uint64_t kFlagReadOnly = 1ull << 0;
constexpr std::uint64_t kFlagIsCopied = 1ull << 1;

struct ManagedTensorVersioned {
  PackVersion version;
  void* manager_ctx;
  void (*deleter)(ManagedTensorVersioned* self);
  std::uint64_t flags;
  Tensor dl_tensor;
};

}  // namespace dl

// Takes obj through its __dlpack__ (asking for `stream`'s ordering on CUDA) into op.
// False if obj has no __dlpack__.
bool intake_dlpack(py::handle obj, const char* fname, Role role, Operand& op);

// ndarray.__dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None).
py::object export_dlpack(const NdArray& a, py::handle stream, py::handle max_version,
                         py::handle dl_device, py::handle copy);

}  // namespace numcu::python
