// Definitions each operation's .cu file instantiates, one file per operation (or per group of
// cast targets) so that the build compiles them in parallel.
#pragma once

#include <string>

#include "numcu/backend.hpp"
#include "numcu/elementwise.cuh"
#include "numcu/errors.hpp"

namespace numcu {

#define NUMCU_DECLARE_BINARY_CUDA(e, F)                                                     \
  void binary_cuda_##e(DType dtype, const ElementwisePlan<3>& plan, const OpParams& params, \
                       Stream stream);
NUMCU_BINARY_OPS(NUMCU_DECLARE_BINARY_CUDA)
#undef NUMCU_DECLARE_BINARY_CUDA

#define NUMCU_DECLARE_CAST_CUDA(e, T, name, kind, size) \
  void cast_cuda_to_##e(DType from, const ElementwisePlan<2>& plan, Stream stream);
NUMCU_DTYPES(NUMCU_DECLARE_CAST_CUDA)
#undef NUMCU_DECLARE_CAST_CUDA

template <class F>
void launch_binary(DType dtype, const ElementwisePlan<3>& plan, const OpParams& params,
                   Stream stream) {
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (F::template supports<T>) {
      kernels::launch_elementwise<F, T, T, T>(F(params), plan, static_cast<cudaStream_t>(stream));
    } else {
      throw_type_error(std::string("numcu.") + F::name + ": no loop for dtype " + dtype_name(dtype));
    }
  });
}

template <class To>
void launch_cast(DType from, const ElementwisePlan<2>& plan, Stream stream) {
  visit_dtype(from, [&](auto tag) {
    using From = typename decltype(tag)::type;
    kernels::launch_elementwise_variants<kernels::Variants::lean, ops::Copy, To, From>(
        ops::Copy{}, plan, static_cast<cudaStream_t>(stream));
  });
}

}  // namespace numcu

#define NUMCU_DEFINE_BINARY_CUDA(e, F)                                         \
  void numcu::binary_cuda_##e(DType dtype, const ElementwisePlan<3>& plan,     \
                              const OpParams& params, Stream stream) {         \
    launch_binary<F>(dtype, plan, params, stream);                             \
  }

#define NUMCU_DEFINE_CAST_CUDA(e, T)                                                          \
  void numcu::cast_cuda_to_##e(DType from, const ElementwisePlan<2>& plan, Stream stream) { \
    launch_cast<T>(from, plan, stream);                                                       \
  }
