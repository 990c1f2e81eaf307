#include "bfloat16.hpp"

#include <string>

#include "numcu/errors.hpp"

namespace numcu::python {

bool is_ml_bfloat16(py::handle dtype) {
  PyObject* ml = PyDict_GetItemString(PyImport_GetModuleDict(), "ml_dtypes");
  if (ml == nullptr) return false;
  PyObject* scalar_type = PyObject_GetAttrString(ml, "bfloat16");
  if (scalar_type == nullptr) {
    PyErr_Clear();
    return false;
  }
  PyObject* type = PyObject_GetAttrString(dtype.ptr(), "type");
  if (type == nullptr) PyErr_Clear();
  const bool same = type != nullptr && type == scalar_type;
  Py_XDECREF(type);
  Py_DECREF(scalar_type);
  return same;
}

py::object ml_bfloat16_dtype(const char* fname) {
  py::object ml;
  try {
    ml = py::module_::import("ml_dtypes");
  } catch (const py::error_already_set&) {
    throw_type_error(std::string(fname) +
                     ": bfloat16 arrays on the host are NumPy arrays of ml_dtypes.bfloat16, and "
                     "the ml_dtypes package is not installed (pip install ml_dtypes)");
  }
  return py::module_::import("numpy").attr("dtype")(ml.attr("bfloat16"));
}

py::object bfloat16_bits(py::handle obj) {
  PyObject* dtype = PyObject_GetAttrString(obj.ptr(), "dtype");
  if (dtype == nullptr) {
    PyErr_Clear();
    return py::none();
  }
  const py::object d = py::reinterpret_steal<py::object>(dtype);
  if (!is_ml_bfloat16(d)) return py::none();
  // A NumPy scalar has no view(): make it a 0-d array first.
  py::object arr = py::module_::import("numpy").attr("asanyarray")(obj);
  return arr.attr("view")(py::module_::import("numpy").attr("uint16"));
}

}  // namespace numcu::python
