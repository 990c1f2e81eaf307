#include <algorithm>
#include <cstring>
#include <string>

#include "numcu/elementwise.hpp"
#include "numcu/errors.hpp"

namespace numcu {

template <int N>
ElementwisePlan<N> make_plan(const ArrayView* const* views, const bool* is_scalar,
                             const void* const* scalar_values, const char* fname) {
  ElementwisePlan<N> plan;
  const ArrayView& out = *views[0];
  plan.size = out.size();
  bool dense = out.ndim > 0 && plan.size > 0;  // every array operand C-contiguous, out's shape
  for (int i = 0; i < N; ++i) {
    if (is_scalar[i]) {
      plan.scalar_mask |= 1u << i;
      std::memcpy(plan.scalars[i], scalar_values[i], itemsize(views[i]->dtype));
    } else {
      const ArrayView& v = *views[i];
      plan.data[i] = v.data;
      // C-contiguous with out's shape, in one pass (out has no zero extent here).
      std::int64_t expected = itemsize(v.dtype);
      dense = dense && v.ndim == out.ndim;
      for (int d = v.ndim - 1; d >= 0 && dense; --d) {
        dense = v.shape[d] == out.shape[d] && (v.shape[d] == 1 || v.strides[d] == expected);
        expected *= v.shape[d];
      }
    }
  }
  // The common call, one dense run: what the walk below gives it (one dimension, each array's
  // item size as its stride), without the walk.
  if (dense) {
    plan.ndim = 1;
    plan.shape[0] = plan.size;
    for (int i = 0; i < N; ++i) {
      if (!is_scalar[i]) plan.strides[i][0] = itemsize(views[i]->dtype);
    }
    plan.contiguous = true;
    return plan;
  }

  // Right-align every operand to the output, keep dimensions longer than 1, and turn
  // dimensions the output walks backwards around (elementwise order does not matter).
  int dims[kMaxDims];
  std::int64_t strides[N][kMaxDims];
  int nd = 0;
  for (int d = 0; d < out.ndim; ++d) {
    if (out.shape[d] == 1) continue;
    const bool flip = out.strides[d] < 0;
    for (int i = 0; i < N; ++i) {
      const ArrayView& v = *views[i];
      const int vd = d - (out.ndim - v.ndim);
      std::int64_t s = 0;
      if (!is_scalar[i] && vd >= 0 && v.shape[vd] != 1) s = v.strides[vd];
      if (flip) {
        if (!is_scalar[i]) plan.data[i] += (out.shape[d] - 1) * s;
        s = -s;
      }
      strides[i][nd] = s;
    }
    dims[nd++] = d;
  }

  // Order dimensions by the output's strides, largest first, so that the innermost loop
  // writes the output contiguously (NumPy's order='K').
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

  // Merge neighbours that every operand walks as one run.
  std::int64_t shape[kMaxDims];
  std::int64_t merged[N][kMaxDims];
  int m = 0;
  for (int k = 0; k < nd; ++k) {
    const int src = order[k];
    const std::int64_t extent = out.shape[dims[src]];
    bool mergeable = m > 0;
    for (int i = 0; i < N && mergeable; ++i) {
      mergeable = merged[i][m - 1] == strides[i][src] * extent;
    }
    if (mergeable) {
      shape[m - 1] *= extent;
      for (int i = 0; i < N; ++i) merged[i][m - 1] = strides[i][src];
    } else {
      shape[m] = extent;
      for (int i = 0; i < N; ++i) merged[i][m] = strides[i][src];
      ++m;
    }
  }
  if (m > kMaxKernelDims) {
    throw_value_error(std::string(fname) + ": the operands' strides leave " + std::to_string(m) +
                      " dimensions that cannot be merged; numcu kernels take at most " +
                      std::to_string(kMaxKernelDims) + " (make a contiguous copy first)");
  }
  plan.ndim = m;
  for (int k = 0; k < m; ++k) {
    plan.shape[k] = shape[k];
    for (int i = 0; i < N; ++i) plan.strides[i][k] = merged[i][k];
  }
  plan.contiguous = m <= 1;
  for (int i = 0; i < N && plan.contiguous && m == 1; ++i) {
    if (!is_scalar[i]) plan.contiguous = merged[i][0] == itemsize(views[i]->dtype);
  }
  return plan;
}

template ElementwisePlan<2> make_plan<2>(const ArrayView* const*, const bool*, const void* const*,
                                         const char*);
template ElementwisePlan<3> make_plan<3>(const ArrayView* const*, const bool*, const void* const*,
                                         const char*);
template ElementwisePlan<4> make_plan<4>(const ArrayView* const*, const bool*, const void* const*,
                                         const char*);

}  // namespace numcu
