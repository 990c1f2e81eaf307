// The Array API standard's operations with kernels of their own, and numcu.ndarray's protocol
// methods (array_api.cpp).
#pragma once

#include <pybind11/pybind11.h>

namespace numcu::python {

namespace py = pybind11;

// What numcu's Python layer composes from numcu's operations and hands down once, at import
// (numcu._core._register_composition, from numcu/_array_api.py): the calls C++ passes an argument
// on to when it needs more than a kernel. The compiled module never imports numcu's Python
// modules; data flows down.
enum class Composition {
  getitem,               // a[key] with integer or boolean arrays in key
  setitem,               // a[key] = value with a boolean mask in key
  full_from_array,       // numcu.full with an array as the fill value
  full_like_from_array,  // numcu.full_like with an array as the fill value
  asarray_nested,        // numcu.asarray of a list or tuple holding device arrays
  unique_complex,        // unique of complex numbers (no sort keys: argsorts of their parts)
};
// The registered callable; RuntimeError where numcu's Python layer has not registered it.
py::handle composition(Composition which);

// sort, argsort, unique, searchsorted, nonzero, take, take_along_axis, matmul's GPU path, and
// _register_composition. numcu.ndarray's protocol methods written in Python (__array_ufunc__,
// __array_function__, __array_namespace__, to_device, mT, @, __index__) are set on the class by
// numcu/_array_api.py.
void bind_array_api(py::module_& m);

// a[key] for keys with arrays in them (integer or boolean), handed to Composition::getitem; a
// null object for keys of integers, slices, None and Ellipsis only (views, done in C++).
py::object advanced_getitem(py::handle a, py::handle key);

// a[key] = value for keys with arrays in them; false (nothing done) for basic keys.
bool advanced_setitem(py::handle a, py::handle key, py::handle value);

}  // namespace numcu::python
