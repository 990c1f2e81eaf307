// The Array API standard's operations with kernels of their own, and numcu.ndarray's protocol
// methods (array_api.cpp).
#pragma once

#include <pybind11/pybind11.h>

namespace numcu::python {

namespace py = pybind11;

// numcu/_array_api.py's function `name`: what numcu does in Python (protocol methods, composed
// operations such as unique of complex numbers, array fill values, lists of device arrays).
py::object glue(const char* name);

// sort, argsort, unique, searchsorted, nonzero, take, take_along_axis, matmul's GPU path, and
// ndarray's __array_ufunc__, __array_function__, __array_namespace__, to_device, mT, @.
void bind_array_api(py::module_& m);

// a[key] for keys with arrays in them (integer or boolean), handed to numcu/_array_api.py; a
// null object for keys of integers, slices, None and Ellipsis only (views, done in C++).
py::object advanced_getitem(py::handle a, py::handle key);

// a[key] = value for keys with arrays in them; false (nothing done) for basic keys.
bool advanced_setitem(py::handle a, py::handle key, py::handle value);

}  // namespace numcu::python
