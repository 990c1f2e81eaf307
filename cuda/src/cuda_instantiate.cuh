// Definitions the .cu files instantiate: the ufunc_*.cu files the kernels of one or two ufunc
// groups each (NUMCU_UFUNCS' `group`, so that the build compiles them in parallel), cast.cu
// those of every cast target.
#pragma once

#include <cstdint>
#include <type_traits>

#include "cast_cuda.hpp"
#include "cast_rules.hpp"
#include "numcu/backend.hpp"
#include "numcu/elementwise.cuh"
#include "ufunc_dispatch.hpp"

namespace numcu {

namespace kernels {

// The CUDA backend as ufunc_dispatch.hpp's run_loop calls it.
template <Variants Kinds>
struct Runner {
  cudaStream_t stream;
  template <class Op, class Out, class... In>
  void run(const Op& op, const ElementwisePlan<1 + sizeof...(In)>& p) const {
    run_shared<Runner, Op, Out, In...>(*this, op, p);
  }
  template <class Op, class Out, class... In>
  void loop(const Op& op, const ElementwisePlan<1 + sizeof...(In)>& p) const {
    launch_elementwise_variants<Kinds, Op, Out, In...>(op, p, stream);
  }
  void copy(DType dtype, const ElementwisePlan<2>& p) const { cast_cuda(dtype, dtype, p, stream); }
};

}  // namespace kernels

inline void cast_cuda_to_bits(int size, DType from, const ElementwisePlan<2>& plan, Stream stream) {
  switch (size) {
    case 1:
      return cast_cuda_to_uint8(from, plan, stream);
    case 2:
      return cast_cuda_to_uint16(from, plan, stream);
    case 4:
      return cast_cuda_to_uint32(from, plan, stream);
    default:
      return cast_cuda_to_uint64(from, plan, stream);
  }
}

// The cast to To from `from` (cast_rules.hpp): a cast that runs on another target's loop goes
// to that target's entry point.
template <class To>
void launch_cast(DType from, const ElementwisePlan<2>& plan, Stream stream) {
  const CastLoop loop = cast_loop(dtype_of_v<To>, from);
  if (loop.to != dtype_of_v<To>) {
    cast_cuda_to_bits(itemsize(loop.to), loop.from, plan, stream);
    return;
  }
  visit_dtype(loop.from, [&](auto tag) {
    using From = typename decltype(tag)::type;
    if constexpr (cast_loop_exists<To, From>) {
      kernels::launch_elementwise_variants<kernels::Variants::lean, ops::Copy, To, From>(
          ops::Copy{}, plan, static_cast<cudaStream_t>(stream));
    } else {
      throw_no_cast_loop();
    }
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
