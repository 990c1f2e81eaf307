// Reductions (sum, mean, argmax, ...) and scans (cumsum, cumprod): intake, then the plan
// (axes, dtypes, output shape, placement, output), then one run on the chosen backend.
#pragma once

#include <pybind11/pybind11.h>

namespace numcu::python {

namespace py = pybind11;

// Whether `name` is one of the reduction table's functions, and one of the scan table's.
bool is_reduction_name(const char* name);
bool is_scan_name(const char* name);

// Defines numcu.sum, numcu.mean, ..., numcu.cumsum and numcu.cumprod on `m`.
void bind_reductions(py::module_& m);

}  // namespace numcu::python
