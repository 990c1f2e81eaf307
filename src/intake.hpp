// Intake: every argument an operation takes becomes one Operand, whoever produced it.
#pragma once

#include <pybind11/pybind11.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "numcu/array_view.hpp"
#include "numcu/backend.hpp"

namespace numcu::python {

namespace py = pybind11;

struct BufferRelease {
  void operator()(Py_buffer* b) const {
    PyBuffer_Release(b);
    delete b;
  }
};

struct Operand {
  enum class Kind { scalar, host, device };
  Kind kind = Kind::host;
  ArrayView view;
  // Python bool/int/float/complex: a "weak" scalar in NumPy 2's promotion (NEP 50), whose
  // value is held in `value` as bool/int64/uint64/float64/complex128 (view.dtype says which).
  bool weak = false;
  alignas(16) unsigned char value[16] = {};
  // CAI v3 producers: the stream the data was written on (nullptr: none to wait for).
  Stream producer_stream = nullptr;
  bool has_producer_stream = false;
  py::object keepalive;
  // Host data whose elements were not aligned to their item size: an aligned copy, which `view`
  // describes (keepalive still holds the original).
  py::object aligned_copy;
  std::unique_ptr<Py_buffer, BufferRelease> buffer;
  // numcu.ndarray operands: their allocation, whose last stream orders work across streams.
  std::shared_ptr<class DeviceAllocation> allocation;

  Operand() = default;
  // Inlined into Call's destructor, which destroys four of them in every call.
  [[gnu::always_inline]] ~Operand() = default;
  Operand(Operand&& other) noexcept { *this = std::move(other); }
  // A scalar's view points at its own `value`: a moved operand points at its new home.
  Operand& operator=(Operand&& other) noexcept {
    kind = other.kind;
    view = other.view;
    weak = other.weak;
    std::memcpy(value, other.value, sizeof value);
    if (other.view.data == reinterpret_cast<char*>(other.value)) {
      view.data = reinterpret_cast<char*>(value);
    }
    producer_stream = other.producer_stream;
    has_producer_stream = other.has_producer_stream;
    keepalive = std::move(other.keepalive);
    aligned_copy = std::move(other.aligned_copy);
    buffer = std::move(other.buffer);
    allocation = std::move(other.allocation);
    return *this;
  }
};

enum class Role { input, output };

// What intake asks a producer library once per call instead of once per operand: its current
// stream, which an operand's data is ready on (CuPy's, or a DLPack exchange table's for one
// device). The operands of a call are taken one after another on one thread; a route that may
// run arbitrary Python code in between (an interface property, numpy.asarray) forgets it.
struct IntakeMemo {
  int cupy_device = -1;  // the device whose CuPy stream is held; -1: none
  unsigned long long cupy_stream = 0;
  const void* exchange_api = nullptr;  // the table whose stream is held; null: none
  std::int32_t exchange_device_type = 0;
  std::int32_t exchange_device_id = 0;
  void* exchange_stream = nullptr;
};

// Turns `obj` into an Operand: numcu.ndarray, then Python scalars, then (NumPy arrays aside)
// __cuda_array_interface__ and __dlpack__, then the buffer protocol, then anything
// numpy.asarray takes. `fname` names the calling
// function in error messages ("numcu.add"). An output must be an array and writable.
Operand intake(py::handle obj, const char* fname, Role role = Role::input);
// The same into a fresh (default-constructed) Operand, with no Operand moved. Types are routed
// by a per-type decision: numpy.ndarray to the buffer protocol, a type with a usable DLPack C
// exchange table through it, others through their interfaces.
void intake_into(Operand& op, py::handle obj, const char* fname, Role role = Role::input,
                 IntakeMemo* memo = nullptr);

// numcu._core._intake_info and _exchange_counts (for tests).
void bind_intake(py::module_& m);

// Host data (a buffer, a CPU DLPack tensor) whose elements are not aligned to their item size,
// which numcu's loops need (fields of packed NumPy records; complex128 at 8 bytes past a 16-byte
// boundary, which NumPy allows): an input is copied, byte by byte, into an aligned array that
// op.view then describes; an output is refused (ValueError).
void align_host_elements(Operand& op, const char* fname, Role role);

// A host scalar argument (a Python or NumPy number, or a 0-d host array), such as a fill value;
// ValueError for anything else.
Operand scalar_operand(py::handle obj, const char* fname);

// A shape argument: an int or a sequence of ints (TypeError otherwise), at most kMaxDims long;
// negative extents are the caller's to check.
std::vector<std::int64_t> shape_from(py::handle shape, const char* fname);
// The same into `out` (kMaxDims extents); returns the number of dimensions.
int shape_into(py::handle shape, const char* fname, std::int64_t* out);

// "(3, 4)" for error messages.
std::string shape_str(const std::int64_t* shape, int ndim);
// "cpu" or "cuda:N".
std::string device_str(int device);

// A library's type and, where `function_path` is not empty, one of its functions (attributes
// from the module down, dotted), looked up once the library is imported (numcu never imports
// it) and kept for the life of the process. False until then, or where either is missing.
struct LibraryHook {
  PyObject* type = nullptr;
  PyObject* function = nullptr;
};
bool find_hook(LibraryHook& hook, const char* module, const char* type_name,
               const std::string& function_path);

}  // namespace numcu::python
