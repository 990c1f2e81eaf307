// Assignment through index arrays: numcu._core._scatter (assign.cpp).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>

#include "numcu/indexing.hpp"

namespace numcu::python {

class Call;

// `p` run as a gather (scatter: false) or a scatter on the call's backend: the position of the
// first out-of-bounds index the CPU meets, or -1 (the GPU, which the host does not wait for,
// reads or writes the nearest element instead).
std::int64_t run_indexed(Call& call, const GatherPlan& p, bool scatter);

namespace py = pybind11;

// numcu._core._scatter(x, indices, values, stream=None): x[i_0, ..., i_{k-1}] = values in place.
void bind_assign(py::module_& m);

}  // namespace numcu::python
