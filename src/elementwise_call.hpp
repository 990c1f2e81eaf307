// The elementwise calls: intake, then the plan (result dtype, broadcast shape, placement,
// output), then one run on the chosen backend.
#pragma once

#include <pybind11/pybind11.h>

#include <initializer_list>

#include "intake.hpp"
#include "numcu/array_view.hpp"
#include "numcu/backend.hpp"
#include "numcu/ops.hpp"

namespace numcu::python {

namespace py = pybind11;

// Where the caller asked an operation to run.
struct DeviceRequest {
  enum class Kind { automatic, cpu, cuda } kind = Kind::automatic;
  int device = -1;  // with Kind::cuda: the device index, -1 for the current device
  bool sync = false;
  bool has_stream = false;  // stream= given; else the current stream
  Stream stream = nullptr;
};

// Reads numcu's `device=` and `stream=` together with NumCu's `dev_id=` and `sync=`.
DeviceRequest parse_device(py::handle device, py::handle dev_id, py::handle sync, const char* fname,
                           py::handle stream = py::none());

// A CUDA stream from Python: an int handle (0 or 1: the legacy default stream, 2: the
// per-thread default), numcu.cuda.Stream, anything with __cuda_stream__, CuPy's (.ptr) and
// PyTorch's (.cuda_stream) streams.
Stream stream_from_python(py::handle stream, const char* fname);

// out = op(inputs...) with NumPy's semantics: intake, dtypes (NEP 50 promotion, then the
// ufunc's loop), broadcasting, placement, input casts, one kernel, and the result back.
py::object ufunc_call(Ufunc op, std::initializer_list<py::handle> inputs, py::handle out,
                      const DeviceRequest& request, const OpParams& params = {});

// numcu.astype: `obj` converted to `dtype` (any pair of dtypes, unsafe casting as NumPy's
// astype), on the side where it is: a NumPy array for host data, a numcu.ndarray for device data.
py::object astype(py::handle obj, py::handle dtype);

// dst = src (with a dtype conversion where they differ), both on the GPU, queued on `stream`.
void copy_into(const ArrayView& dst, const ArrayView& src, Stream stream, const char* fname);

// NumPy 2's result dtype of operands, Python scalars weak (NEP 50).
DType result_dtype(const Operand* const* operands, int count);

// NumPy 2 refuses a Python integer that an integer dtype cannot hold (OverflowError).
void check_weak_int(const Operand& x, DType dtype, const char* fname);

// A numcu dtype from anything numpy.dtype() takes.
DType dtype_from_python(py::handle dtype, const char* fname);

}  // namespace numcu::python
