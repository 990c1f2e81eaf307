// DLPack, both ways: numcu takes any __dlpack__ producer (JAX, PyTorch, CuPy, NumPy) and
// numcu.ndarray exports itself through __dlpack__ / __dlpack_device__. Both sides also speak
// DLPack 1.3's C exchange API (type(x).__dlpack_c_exchange_api__), where a tensor crosses in one
// C call instead of Python method calls and a capsule.
//
// The structs below are written from the DLPack 1.x specification's ABI (dlpack.h), which every
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

// The C exchange table (DLPack 1.3). A producer type publishes it as the class attribute
// __dlpack_c_exchange_api__, a capsule named kExchangeCapsuleName that lives as long as the
// process. Every function returns 0, or -1 with a Python error set; the GIL is held. None of them
// orders streams: the consumer asks current_work_stream for the producer's stream.
constexpr const char* kExchangeCapsuleName = "dlpack_exchange_api";

struct ExchangeAPIHeader {
  PackVersion version;
  ExchangeAPIHeader* prev_api;  // an older table, for consumers of an older major version
};

struct ExchangeAPI {
  ExchangeAPIHeader header;
  // A new tensor of the prototype's dtype, shape and device, owned by the producer.
  int (*managed_tensor_allocator)(Tensor* prototype, ManagedTensorVersioned** out, void* error_ctx,
                                  void (*set_error)(void* error_ctx, const char* kind,
                                                    const char* message));
  // An owning export of a Python object of the producer's type.
  int (*managed_tensor_from_py_object_no_sync)(void* py_object, ManagedTensorVersioned** out);
  // A Python object of the producer's type taking over a tensor (ownership passes on every
  // outcome).
  int (*managed_tensor_to_py_object_no_sync)(ManagedTensorVersioned* tensor, void** out_py_object);
  // A non-owning view, valid while the object lives unchanged; may be null.
  int (*dltensor_from_py_object_no_sync)(void* py_object, Tensor* out);
  // The stream the producer queues work on for a device (null: the legacy default stream).
  int (*current_work_stream)(std::int32_t device_type, std::int32_t device_id, void** out_stream);
};

}  // namespace dl

// Takes obj through its __dlpack__ (asking for `stream`'s ordering on CUDA) into op.
// False if obj has no __dlpack__.
bool intake_dlpack(py::handle obj, const char* fname, Role role, Operand& op);

// The exchange table in `capsule` (a type's __dlpack_c_exchange_api__) when numcu can use it: a
// capsule named "dlpack_exchange_api" holding a version 1.x table, or one whose chain of older
// tables has one, with the functions a consumer needs. Null for anything else, with no Python
// error set: such a type is taken through its other interfaces.
const dl::ExchangeAPI* usable_exchange_api(PyObject* capsule);

// Takes obj through the producer's exchange table: a non-owning view for the call (an owning
// export where the producer has no view function), on the producer's current stream, which the
// work joins. False, with no Python error set, when the producer declines the object (the caller
// takes another route); ValueError/TypeError naming `fname` for a tensor numcu cannot use.
// `memo` (may be null) keeps the producer's stream for the call's other operands.
bool intake_exchange(const dl::ExchangeAPI* api, py::handle obj, const char* fname, Role role,
                     Operand& op, IntakeMemo* memo = nullptr);

// numcu.ndarray's own exchange table, as the capsule its type publishes.
py::object exchange_api_capsule();

// How many tensors numcu's exchange table has handed out (views and owning exports) and taken in:
// lets tests see which consumers use it.
struct ExchangeCounts {
  std::uint64_t views = 0;
  std::uint64_t exports = 0;
  std::uint64_t imports = 0;
  std::uint64_t allocations = 0;
};
const ExchangeCounts& exchange_counts();

// ndarray.__dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None).
py::object export_dlpack(const NdArray& a, py::handle stream, py::handle max_version,
                         py::handle dl_device, py::handle copy);

}  // namespace numcu::python
