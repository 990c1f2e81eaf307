// The layout of a fused program's operands (fused.hpp): make_plan's collapsing (plan.cpp) for
// any number of operands.
#include <memory>

#include "collapse_dims.hpp"
#include "numcu/fused.hpp"

namespace numcu::fused {

Layout make_layout(const ArrayView* const* views, int n, const char* fname) {
  Layout L;
  const ArrayView& out = *views[0];
  L.size = out.size();
  L.noperands = n;
  L.data.resize(n);
  L.strides.assign(n, {});
  L.itemsize.resize(n);
  L.dense.assign(n, false);
  for (int i = 0; i < n; ++i) {
    L.data[i] = views[i]->data;
    L.itemsize[i] = itemsize(views[i]->dtype);
  }

  // Scratch of n rows, for any n.
  const auto strides = std::make_unique<std::int64_t[][kMaxDims]>(n);
  const auto merged = std::make_unique<std::int64_t[][kMaxDims]>(n);
  const int m = collapse_dims(views, n, nullptr, L.data.data(), strides.get(), merged.get(),
                              L.shape, L.strides, fname);
  L.ndim = m;
  // Dense: the operand's strides are the C-contiguous ones of the iteration shape.
  for (int i = 0; i < n; ++i) {
    std::int64_t expected = L.itemsize[i];
    bool dense = true;
    for (int k = m - 1; k >= 0 && dense; --k) {
      dense = L.strides[i][k] == expected;
      expected *= L.shape[k];
    }
    L.dense[i] = dense;
  }
  return L;
}

}  // namespace numcu::fused
