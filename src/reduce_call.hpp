// Reductions (sum, mean, argmax, ...) and scans (cumsum, cumprod): intake, then the plan
// (axes, dtypes, output shape, placement, output), then one run on the chosen backend.
#pragma once

#include <pybind11/pybind11.h>

namespace numcu::python {

namespace py = pybind11;

// Defines numcu.sum, numcu.mean, ..., numcu.cumsum and numcu.cumprod on `m`.
void bind_reductions(py::module_& m);

}  // namespace numcu::python
