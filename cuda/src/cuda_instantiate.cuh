// Definitions the .cu files instantiate: one file per group of ufuncs (or per group of cast
// targets) so that the build compiles them in parallel.
#pragma once

#include <cstdint>
#include <type_traits>

#include "cast_cuda.hpp"
#include "numcu/backend.hpp"
#include "numcu/elementwise.cuh"
#include "ufunc_dispatch.hpp"

namespace numcu {

// The unsigned integer of Size bytes, and its dtype.
template <int Size>
using bits_t = std::conditional_t<
    Size == 1, std::uint8_t,
    std::conditional_t<Size == 2, std::uint16_t,
                       std::conditional_t<Size == 4, std::uint32_t, std::uint64_t>>>;

// Casts that only move bits share kernels, the unsigned targets' (cast_to_integer.cu): a copy
// within one dtype of up to 8 bytes copies unsigned integers of its size, an integer cast to a
// narrower or equally wide integer truncates the same bits whatever the signs (a widening one
// depends on the source's sign only), and bool becomes 0 or 1 of any integer type alike: 77 of the
// 196 dtype pairs run on the kernels of 26 type pairs.
template <class To, class From>
constexpr bool moves_bits =
    sizeof(To) <= 8 && (std::is_same_v<To, From> ||
                        (is_integer_v<To> && (is_integer_v<From> || std::is_same_v<From, bool>)));

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

template <class To>
void launch_cast(DType from, const ElementwisePlan<2>& plan, Stream stream) {
  constexpr DType to = dtype_of_v<To>;
  constexpr int size = static_cast<int>(sizeof(To));
  if constexpr (!std::is_same_v<To, bits_t<size>> && size <= 8) {
    const char kind = dtype_kind(from);
    if (from == to || (is_integer_v<To> && (kind == 'i' || kind == 'u' || kind == 'b'))) {
      cast_cuda_to_bits(size, from == to ? dtype_of_v<bits_t<size>> : from, plan, stream);
      return;
    }
  }
  visit_dtype(from, [&](auto tag) {
    using From = typename decltype(tag)::type;
    if constexpr (moves_bits<To, From>) {
      if constexpr (std::is_same_v<To, bits_t<sizeof(To)>>) {
        constexpr bool truncates =
            std::is_same_v<To, From> || (is_integer_v<From> && sizeof(From) >= sizeof(To));
        using Source = std::conditional_t<truncates, bits_t<sizeof(From)>, From>;
        kernels::launch_elementwise_variants<kernels::Variants::lean, ops::Copy, To, Source>(
            ops::Copy{}, plan, static_cast<cudaStream_t>(stream));
      }
    } else {
      kernels::launch_elementwise_variants<kernels::Variants::lean, ops::Copy, To, From>(
          ops::Copy{}, plan, static_cast<cudaStream_t>(stream));
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
