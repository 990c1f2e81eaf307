#include "fastcall.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace numcu::python {

void parse_fastcall(const ArgSpec& spec, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                    PyObject** values) {
  if (nargs > spec.max_positional) {
    throw py::type_error(std::string(spec.fname) + "() takes at most " +
                         std::to_string(spec.max_positional) + " positional arguments (" +
                         std::to_string(nargs) + " given)");
  }
  const int positional = static_cast<int>(std::min<Py_ssize_t>(nargs, spec.count));
  for (int i = 0; i < positional; ++i) values[i] = args[i];
  for (int i = positional; i < spec.count; ++i) values[i] = nullptr;
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (nkw > 0 && !spec.interned) {
    if (spec.count > ArgSpec::kMaxParameters) {
      throw std::logic_error(std::string(spec.fname) + ": too many parameters for ArgSpec");
    }
    // Kept for the life of the process, as the module's functions are.
    for (int i = spec.positional_only; i < spec.count; ++i) {
      spec.keys[i] = PyUnicode_InternFromString(spec.names[i]);
      if (spec.keys[i] == nullptr) throw py::error_already_set();
    }
    spec.interned = true;
  }
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    int found = -1;
    for (int i = spec.positional_only; i < spec.count; ++i) {
      if (key == spec.keys[i]) {
        found = i;
        break;
      }
    }
    // A name built at run time (f(**{name: value})) need not be the interned object.
    for (int i = spec.positional_only; found < 0 && i < spec.count; ++i) {
      if (PyUnicode_CompareWithASCIIString(key, spec.names[i]) == 0) found = i;
    }
    auto name = [key] { return py::reinterpret_borrow<py::str>(key).cast<std::string>(); };
    if (found < 0) {
      throw py::type_error(std::string(spec.fname) + "() got an unexpected keyword argument '" +
                           name() + "'");
    }
    if (values[found] != nullptr) {
      throw py::type_error(std::string(spec.fname) + "() got multiple values for argument '" +
                           name() + "'");
    }
    values[found] = args[nargs + k];
  }
  for (int i = 0; i < spec.required; ++i) {
    if (values[i] == nullptr) {
      throw py::type_error(std::string(spec.fname) + "() missing required argument '" +
                           spec.names[i] + "'");
    }
  }
}

void def_fastcall(py::module_& m, const char* name, FastFunction fn, const char* doc) {
  // Lives as long as the module: CPython keeps a pointer to it.
  auto* def = new PyMethodDef{name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fn)),
                              METH_FASTCALL | METH_KEYWORDS, doc};
  py::object module_name = m.attr("__name__");
  PyObject* f = PyCFunction_NewEx(def, nullptr, module_name.ptr());
  if (f == nullptr) throw py::error_already_set();
  m.attr(name) = py::reinterpret_steal<py::object>(f);
}

}  // namespace numcu::python
