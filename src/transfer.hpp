// Moving arrays between the host and the GPU: numcu.asarray (to a GPU, or to the host with
// device='cpu'), numcu.asnumpy / ndarray.get (to the host), and what CUDA knows of an address.
#pragma once

#include <pybind11/pybind11.h>

namespace numcu::python {

namespace py = pybind11;

// numcu.asarray(obj, dtype=None, copy=None, *, device=None, stream=None): `copy` as in NumPy 2
// and the array API (True: always, False: never, raising ValueError where one is needed, None:
// where needed).
py::object asarray(py::handle obj, py::handle dtype, py::handle copy, py::handle device,
                   py::handle stream);

// numcu.asnumpy and ndarray.get: `obj` (any array numcu takes) as a NumPy array; device data is
// copied into `out` (or a new C-ordered array) on `stream` (by default the current one), and
// the call waits for the copy when `blocking`.
py::object asnumpy(py::handle obj, py::handle out, py::handle stream, bool blocking,
                   const char* fname);

// numcu.asarray, numcu.asnumpy, numcu.from_dlpack and numcu.cuda.memory_kind.
void bind_transfer(py::module_& m);

}  // namespace numcu::python
