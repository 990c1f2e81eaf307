// Elementwise plans: operands reduced to the fewest dimensions that describe them, ready for a
// CUDA kernel or the CPU backend. Operand 0 is the output.
#pragma once

#include <cstdint>

#include "numcu/array_view.hpp"
#include "numcu/config.hpp"
#include "numcu/dtype.hpp"

namespace numcu {

// Dimensions a kernel takes after collapsing; real arrays collapse to far fewer.
constexpr int kMaxKernelDims = 12;

template <int N>
struct ElementwisePlan {
  static constexpr int num_operands = N;
  std::int64_t size = 0;  // elements of the output
  int ndim = 0;
  std::int64_t shape[kMaxKernelDims] = {};
  char* data[N] = {};
  std::int64_t strides[N][kMaxKernelDims] = {};  // bytes
  // Bit i set: operand i is a scalar held by value in scalars[i], already of its kernel type.
  unsigned scalar_mask = 0;
  // Every operand that is not a scalar is one dense run of `size` elements in C order.
  bool contiguous = false;
  alignas(16) unsigned char scalars[N][16] = {};
};

// Builds a plan over `views` (operand 0 the output, whose shape is the iteration shape; the
// others broadcast to it). An operand with is_scalar[i] set is taken by value from
// scalar_values[i]. Dimensions of size 1 are dropped, dimensions every operand walks
// contiguously are merged, and the dimensions are ordered so that the output's innermost
// stride comes last. Throws value_error if more than kMaxKernelDims dimensions remain.
template <int N>
ElementwisePlan<N> make_plan(const ArrayView* const* views, const bool* is_scalar,
                             const void* const* scalar_values, const char* fname);

extern template ElementwisePlan<2> make_plan<2>(const ArrayView* const*, const bool*,
                                                const void* const*, const char*);
extern template ElementwisePlan<3> make_plan<3>(const ArrayView* const*, const bool*,
                                                const void* const*, const char*);
extern template ElementwisePlan<4> make_plan<4>(const ArrayView* const*, const bool*,
                                                const void* const*, const char*);

}  // namespace numcu
