// Definitions the .cu files instantiate: one file per group of ufuncs (or per group of cast
// targets) so that the build compiles them in parallel.
#pragma once

#include "numcu/backend.hpp"
#include "numcu/elementwise.cuh"
#include "ufunc_dispatch.hpp"

namespace numcu {

#define NUMCU_DECLARE_CAST_CUDA(e, T, name, kind, size) \
  void cast_cuda_to_##e(DType from, const ElementwisePlan<2>& plan, Stream stream);
NUMCU_DTYPES(NUMCU_DECLARE_CAST_CUDA)
#undef NUMCU_DECLARE_CAST_CUDA

template <class To>
void launch_cast(DType from, const ElementwisePlan<2>& plan, Stream stream) {
  visit_dtype(from, [&](auto tag) {
    using From = typename decltype(tag)::type;
    kernels::launch_elementwise_variants<kernels::Variants::lean, ops::Copy, To, From>(
        ops::Copy{}, plan, static_cast<cudaStream_t>(stream));
  });
}

}  // namespace numcu

#define NUMCU_DEFINE_UFUNC_CUDA(e, F, kinds)                                         \
  void numcu::ufunc_cuda_##e(DType loop, const ElementwisePlan<F::arity + 1>& plan,  \
                             const OpParams& params, Stream stream) {                \
    run_loop<F>(loop, plan, params,                                                  \
                ::numcu::kernels::Runner<kinds>{static_cast<cudaStream_t>(stream)}); \
  }
// Hot arithmetic (add, subtract, multiply, divide, maximum, minimum, fmax, fmin) gets every kernel
// variant; the rest, comparisons included, the lean set (see Variants), which keeps the module
// small.
#define NUMCU_DEFINE_UFUNC_CUDA_FULL(e, F) \
  NUMCU_DEFINE_UFUNC_CUDA(e, F, ::numcu::kernels::Variants::full)
#define NUMCU_DEFINE_UFUNC_CUDA_LEAN(e, F) \
  NUMCU_DEFINE_UFUNC_CUDA(e, F, ::numcu::kernels::Variants::lean)

#define NUMCU_DEFINE_CAST_CUDA(e, T)                                                        \
  void numcu::cast_cuda_to_##e(DType from, const ElementwisePlan<2>& plan, Stream stream) { \
    launch_cast<T>(from, plan, stream);                                                     \
  }
