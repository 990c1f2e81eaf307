// What the bindings' docstrings share: text kept for the module's life, and the dtypes line that
// a function's loops decide.
#pragma once

#include <functional>
#include <string>

#include "numcu/dtype.hpp"

namespace numcu::python {

// `text` kept as long as the module (CPython keeps pointers to docstrings).
const char* keep(std::string text);

// The dtypes for which `has_loop` holds, for a docstring: "all 15 of numcu.dtypes" or their
// names ("float16, float32, ...").
std::string dtypes_line(const std::function<bool(DType)>& has_loop);

}  // namespace numcu::python
