// bfloat16 on the Python side: NumPy knows it only through the optional ml_dtypes package, whose
// dtype the buffer protocol cannot describe. numcu runs without ml_dtypes; only bfloat16 arrays
// on the host need it.
#pragma once

#include <pybind11/pybind11.h>

namespace numcu::python {

namespace py = pybind11;

// Whether `dtype` (a numpy.dtype) is ml_dtypes' bfloat16. Never imports ml_dtypes: an array of
// that dtype can only exist once it has been imported.
bool is_ml_bfloat16(py::handle dtype);

// numpy.dtype(ml_dtypes.bfloat16); a TypeError naming `fname` when ml_dtypes is not installed.
py::object ml_bfloat16_dtype(const char* fname);

// For a NumPy array (or NumPy scalar) of ml_dtypes' bfloat16: a uint16 view of the same memory,
// which the buffer protocol can describe; otherwise None.
py::object bfloat16_bits(py::handle obj);

}  // namespace numcu::python
