// Assignment through index arrays: numcu._core._scatter (assign.cpp).
#pragma once

#include <pybind11/pybind11.h>

namespace numcu::python {

namespace py = pybind11;

// numcu._core._scatter(x, indices, values, stream=None): x[i_0, ..., i_{k-1}] = values in place.
void bind_assign(py::module_& m);

}  // namespace numcu::python
