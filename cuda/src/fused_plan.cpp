// The layout of a fused program's operands (fused.hpp): make_plan's collapsing (plan.cpp) for
// any number of operands.
#include <string>

#include "numcu/errors.hpp"
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

  // Right-align every operand to the output, keep dimensions longer than 1, and turn dimensions
  // the output walks backwards around (elementwise order does not matter).
  int dims[kMaxDims];
  std::vector<std::array<std::int64_t, kMaxDims>> strides(n);
  int nd = 0;
  for (int d = 0; d < out.ndim; ++d) {
    if (out.shape[d] == 1) continue;
    const bool flip = out.strides[d] < 0;
    for (int i = 0; i < n; ++i) {
      const ArrayView& v = *views[i];
      const int vd = d - (out.ndim - v.ndim);
      std::int64_t s = 0;
      if (vd >= 0 && v.shape[vd] != 1) s = v.strides[vd];
      if (flip) {
        L.data[i] += (out.shape[d] - 1) * s;
        s = -s;
      }
      strides[i][nd] = s;
    }
    dims[nd++] = d;
  }

  // Dimensions ordered by the output's strides, largest first (NumPy's order='K'): a stable
  // insertion sort.
  int order[kMaxDims];
  for (int k = 0; k < nd; ++k) {
    int j = k;
    while (j > 0 && strides[0][order[j - 1]] < strides[0][k]) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = k;
  }

  // Neighbours every operand walks as one run merged.
  std::int64_t shape[kMaxDims];
  std::vector<std::array<std::int64_t, kMaxDims>> merged(n);
  int m = 0;
  for (int k = 0; k < nd; ++k) {
    const int src = order[k];
    const std::int64_t extent = out.shape[dims[src]];
    bool mergeable = m > 0;
    for (int i = 0; i < n && mergeable; ++i) {
      mergeable = merged[i][m - 1] == strides[i][src] * extent;
    }
    if (mergeable) {
      shape[m - 1] *= extent;
      for (int i = 0; i < n; ++i) merged[i][m - 1] = strides[i][src];
    } else {
      shape[m] = extent;
      for (int i = 0; i < n; ++i) merged[i][m] = strides[i][src];
      ++m;
    }
  }
  if (m > kMaxKernelDims) {
    throw_value_error(std::string(fname) + ": the operands' strides leave " + std::to_string(m) +
                      " dimensions that cannot be merged; numcu kernels take at most " +
                      std::to_string(kMaxKernelDims) + " (make a contiguous copy first)");
  }
  L.ndim = m;
  for (int k = 0; k < m; ++k) {
    L.shape[k] = shape[k];
    for (int i = 0; i < n; ++i) L.strides[i][k] = merged[i][k];
  }
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
