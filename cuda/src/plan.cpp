#include <algorithm>
#include <cstring>
#include <string>

#include "collapse_dims.hpp"
#include "numcu/elementwise.hpp"

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

  std::int64_t strides[N][kMaxDims];
  std::int64_t merged[N][kMaxDims];
  const int m = collapse_dims(views, N, is_scalar, plan.data, strides, merged, plan.shape,
                              plan.strides, fname);
  plan.ndim = m;
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
