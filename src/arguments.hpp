// Arguments every operation shares: where to run (device=, stream=, and AMYPAD NumCu's dev_id=
// and sync=) and dtypes given as Python objects.
#pragma once

#include <pybind11/pybind11.h>

#include "numcu/backend.hpp"
#include "numcu/dtype.hpp"

namespace numcu::python {

namespace py = pybind11;

// Where the caller asked an operation to run.
struct DeviceRequest {
  enum class Kind : unsigned char { automatic, cpu, cuda } kind = Kind::automatic;
  bool sync = false;
  bool has_stream = false;  // stream= given; else the current stream
  int device = -1;          // with Kind::cuda: the device index, -1 for the current device
  Stream stream = nullptr;
  // stream= as the object given (borrowed: the caller's arguments hold it for the call), null
  // for an int handle or no stream=: a Call asks stream_object_keeper for its keeper.
  PyObject* stream_object = nullptr;
};

// Reads numcu's `device=` and `stream=` together with NumCu's `dev_id=` and `sync=`.
DeviceRequest parse_device(py::handle device, py::handle dev_id, py::handle sync, const char* fname,
                           py::handle stream = py::none());
// `device=` and `stream=` of a function without NumCu's two, as parse_fastcall leaves them
// (nullptr: not given).
inline DeviceRequest parse_device(PyObject* device, PyObject* stream, const char* fname) {
  const auto given = [](PyObject* p) { return p != nullptr ? py::handle(p) : py::handle(Py_None); };
  return parse_device(given(device), py::none(), py::none(), fname, given(stream));
}

// A CUDA stream from Python: an int handle (0 or 1: the legacy default stream, 2: the
// per-thread default), numcu.cuda.Stream, anything with __cuda_stream__, CuPy's (.ptr) and
// PyTorch's (.cuda_stream) streams.
Stream stream_from_python(py::handle stream, const char* fname);

// Raises NumPy's AxisError (numpy.exceptions.AxisError, numpy.AxisError before NumPy 1.25).
[[noreturn]] void axis_error(const char* fname, long long axis, int ndim);

// One axis given as an integer (negative counts from the end) for `ndim` dimensions, in
// [0, ndim); AxisError out of range, TypeError for a non-integer.
int normalize_axis(py::handle item, int ndim, const char* fname);

// A numcu dtype from anything numpy.dtype() takes.
DType dtype_from_python(py::handle dtype, const char* fname);

}  // namespace numcu::python
