#include "docstrings.hpp"

namespace numcu::python {

const char* keep(std::string text) { return (new std::string(std::move(text)))->c_str(); }

std::string dtypes_line(const std::function<bool(DType)>& has_loop) {
  std::string names;
  int count = 0;
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType d = static_cast<DType>(i);
    if (!has_loop(d)) continue;
    names += (count++ > 0 ? ", " : "") + std::string(dtype_name(d));
  }
  return count == kNumDTypes ? "all " + std::to_string(count) + " of numcu.dtypes" : names;
}

}  // namespace numcu::python
