// The walk that elementwise plans (plan.cpp) and fused programs' layouts (fused_plan.cpp) share:
// from the operands' views to the fewest dimensions and the strides every operand walks them by.
#pragma once

#include <cstdint>
#include <string>

#include "numcu/array_view.hpp"
#include "numcu/config.hpp"
#include "numcu/elementwise.hpp"
#include "numcu/errors.hpp"

namespace numcu {

// Rows of per-dimension byte strides, one row an operand (held by the caller: make_plan's on
// its stack, the fused layout's of any number of operands on the heap).
using StrideRows = std::int64_t (*)[kMaxDims];

// views[0] is the output, whose shape is the iteration shape; the others broadcast to it. Every
// operand is right-aligned to the output, dimensions of extent 1 are dropped, dimensions the
// output walks backwards are turned around (elementwise order does not matter; data[i] moves to
// the other end), the rest are ordered by the output's strides, largest first (NumPy's
// order='K'), and neighbours that every operand walks as one run are merged. Writes the merged
// extents to shape and each operand's strides to out_strides[i] (both kMaxKernelDims long),
// returns how many dimensions remain, and throws value_error naming `fname` if more than
// kMaxKernelDims do. Operands with is_scalar[i] set (is_scalar may be null: none) keep stride 0
// and their data. `strides` and `merged` are scratch of n rows. Inline: make_plan's N is a
// constant here, and its loops unroll as they did when this walk was written in it.
template <class OutRows>
inline int collapse_dims(const ArrayView* const* views, int n, const bool* is_scalar, char** data,
                         StrideRows strides, StrideRows merged, std::int64_t* shape,
                         OutRows& out_strides, const char* fname) {
  const ArrayView& out = *views[0];
  int dims[kMaxDims];
  int nd = 0;
  for (int d = 0; d < out.ndim; ++d) {
    if (out.shape[d] == 1) continue;
    const bool flip = out.strides[d] < 0;
    for (int i = 0; i < n; ++i) {
      const bool scalar = is_scalar != nullptr && is_scalar[i];
      const ArrayView& v = *views[i];
      const int vd = d - (out.ndim - v.ndim);
      std::int64_t s = 0;
      if (!scalar && vd >= 0 && v.shape[vd] != 1) s = v.strides[vd];
      if (flip) {
        if (!scalar) data[i] += (out.shape[d] - 1) * s;
        s = -s;
      }
      strides[i][nd] = s;
    }
    dims[nd++] = d;
  }

  // An insertion sort: stable, and with no heap buffer (std::stable_sort allocates one per call,
  // a cost every small operation would pay).
  int order[kMaxDims];
  for (int k = 0; k < nd; ++k) {
    int j = k;
    while (j > 0 && strides[0][order[j - 1]] < strides[0][k]) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = k;
  }

  std::int64_t extents[kMaxDims];
  int m = 0;
  for (int k = 0; k < nd; ++k) {
    const int src = order[k];
    const std::int64_t extent = out.shape[dims[src]];
    bool mergeable = m > 0;
    for (int i = 0; i < n && mergeable; ++i) {
      mergeable = merged[i][m - 1] == strides[i][src] * extent;
    }
    if (mergeable) {
      extents[m - 1] *= extent;
      for (int i = 0; i < n; ++i) merged[i][m - 1] = strides[i][src];
    } else {
      extents[m] = extent;
      for (int i = 0; i < n; ++i) merged[i][m] = strides[i][src];
      ++m;
    }
  }
  if (m > kMaxKernelDims) {
    throw_value_error(std::string(fname) + ": the operands' strides leave " + std::to_string(m) +
                      " dimensions that cannot be merged; numcu kernels take at most " +
                      std::to_string(kMaxKernelDims) + " (make a contiguous copy first)");
  }
  for (int k = 0; k < m; ++k) {
    shape[k] = extents[k];
    for (int i = 0; i < n; ++i) out_strides[i][k] = merged[i][k];
  }
  return m;
}

}  // namespace numcu
