// Module functions on CPython's vectorcall convention. The elementwise entry points are called
// in tight loops on small device arrays, where pybind11's general argument machinery would
// cost more than the kernel launch; these parse positional and keyword arguments directly.
#pragma once

#include <pybind11/pybind11.h>

#include "numcu/errors.hpp"

namespace numcu::python {

namespace py = pybind11;

struct ArgSpec {
  static constexpr int kMaxParameters = 16;
  const char* fname;         // "numcu.add", for error messages
  const char* const* names;  // every parameter, in order
  int count;                 // how many parameters
  int positional_only;       // the first ones that cannot be keywords
  int max_positional;        // how many may be given positionally
  int required;              // the first ones that must be given
  // The names as interned str, made at the first call with keywords and kept for the life of
  // the process (every ArgSpec is a function's static): keyword names at a call site are
  // interned, so a keyword is found by identity, not by comparing text.
  mutable PyObject* keys[kMaxParameters] = {};
  mutable bool interned = false;
};

// Fills values[0..count) with borrowed references, nullptr for parameters not given; raises
// TypeError (as a C++ exception) for unknown, repeated or missing arguments.
void parse_fastcall(const ArgSpec& spec, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                    PyObject** values);

// A parameter's value from parse_fastcall: None where it was not given.
inline py::handle given(PyObject* value) { return value != nullptr ? value : Py_None; }

// Sets the Python error for a numcu::Error (defined with the module's exception types).
void set_python_error(const Error& e);

using FastFunction = PyObject* (*)(PyObject*, PyObject* const*, Py_ssize_t, PyObject*);

// Adds fn to m as `name`. `doc` starts with the text signature: "name(a, b, /)\n--\n\n...".
void def_fastcall(py::module_& m, const char* name, FastFunction fn, const char* doc);

// Runs body and turns any exception into the Python error it stands for: false when one was set.
template <class Body>
bool python_errors(Body&& body) noexcept {
  try {
    body();
    return true;
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const py::builtin_exception& e) {
    e.set_error();
  } catch (const Error& e) {
    set_python_error(e);
  } catch (const std::bad_alloc&) {
    PyErr_SetString(PyExc_MemoryError, "numcu: out of host memory");
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return false;
}

// Runs body (returning py::object) and turns any exception into a Python error and nullptr.
template <class Body>
PyObject* guarded(Body&& body) noexcept {
  PyObject* result = nullptr;
  python_errors([&] { result = body().release().ptr(); });
  return result;
}

// An entry point's frame: the arguments parsed by `spec` (values[i] nullptr where parameter i
// was not given) and body(values) run, any exception turned into its Python error and nullptr.
template <class Body>
PyObject* run_fastcall(const ArgSpec& spec, PyObject* const* args, Py_ssize_t nargs,
                       PyObject* kwnames, Body&& body) noexcept {
  return guarded([&]() -> py::object {
    PyObject* values[ArgSpec::kMaxParameters];
    parse_fastcall(spec, args, nargs, kwnames, values);
    return body(static_cast<PyObject* const*>(values));
  });
}

}  // namespace numcu::python
