// Where output o of a reduction or scan plan starts, for the kernels of both (reduce_cuda.cuh,
// scan.cu).
#pragma once

#include <cstdint>

#include "numcu/reduce.hpp"

namespace numcu::kernels {

// Output o's first input element and its output byte offset: o divided down the kept
// dimensions, in C order.
__device__ __forceinline__ void output_position(const ReducePlan& p, std::int64_t o,
                                                const char*& in, std::int64_t& out_offset) {
#pragma unroll 1
  for (int d = p.out_ndim - 1; d >= 0; --d) {
    const std::int64_t q = o / p.out_shape[d];
    const std::int64_t i = o - q * p.out_shape[d];
    o = q;
    in += i * p.out_in_strides[d];
    out_offset += i * p.out_strides[d];
  }
}

}  // namespace numcu::kernels
