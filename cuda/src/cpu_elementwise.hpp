// The CPU backend's elementwise loops over the same plans and functors as the CUDA kernels,
// split over threads and vectorised (cpu_parallel.hpp says how). Every element is computed by
// the same functor call whatever the split, so results do not depend on the number of threads.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cpu_parallel.hpp"
#include "cpu_vector_math.hpp"
#include "numcu/backend.hpp"
#include "numcu/elementwise.hpp"
#include "numcu/errors.hpp"
#include "numcu/launch_check.hpp"
#include "numcu/ops.hpp"
#include "numcu/types.hpp"
#include "ufunc_dispatch.hpp"

namespace numcu::cpu {

template <class T, int N>
T scalar_value(const ElementwisePlan<N>& p, int i) {
  T value;
  std::memcpy(static_cast<void*>(&value), p.scalars[i], sizeof(T));
  return value;
}

template <class... In, int N, std::size_t... I>
std::tuple<In...> plan_scalars(const ElementwisePlan<N>& p, std::index_sequence<I...>) {
  return std::tuple<In...>{scalar_value<In>(p, static_cast<int>(I) + 1)...};
}

// Loops whose elements cost far more than their loads and stores (float functions, integer
// division, complex division) are split from smaller sizes than memory-bound ones.
template <class Op, class Out, class... In>
constexpr bool is_costly() {
  constexpr bool any_complex = is_complex_v<Out> || (is_complex_v<In> || ...);
  return std::is_base_of_v<ops::FloatLoop, Op> ||
         is_any_of_v<Op, ops::Power, ops::FloorDivide, ops::Remainder> ||
         (any_complex && std::is_base_of_v<ops::Divide, Op>);
}

template <class Op, class Out, class... In>
constexpr std::int64_t elementwise_grain() {
  if constexpr (!is_costly<Op, Out, In...>()) {
    return kGrainElementwise;
  } else if constexpr (std::is_base_of_v<ops::FloatLoop, Op> && sizeof...(In) == 1) {
    if constexpr ((is_complex_v<In> || ...)) return kGrainComplexFunction;
    if constexpr (((is_floating_v<In> && sizeof(In) <= 4) && ...)) return kGrainSingleFunction;
    return kGrainCostly;
  } else {
    return kGrainCostly;
  }
}

// The fixed grid of parallel_for_elements for loops that may call glibc's vector math (the
// float functions, power): 0 for the others, whose vector and scalar code round alike.
template <class Op, class Out, class... In>
constexpr std::int64_t elementwise_block() {
  constexpr bool any_float = is_floating_v<Out> || (is_floating_v<In> || ...);
  return is_costly<Op, Out, In...>() && any_float ? std::int64_t{4096} : 0;
}

// How many copies of a dense loop to compile: 0, one for every CPU; 2, for AVX2 and the
// baseline; 3, for AVX-512 too. Complex arithmetic, integer division and powers do not
// vectorise, and a loop whose inputs are all constant is a fill. Cheap loops are bound by
// memory bandwidth once their arrays leave the caches, where AVX-512 gains nothing; float32
// and float64 arithmetic also takes it for arrays the caches hold (the small calls of NumPy
// code), whose loads and stores it halves.
template <unsigned Mask, class Op, class Out, class... In>
constexpr int clone_count() {
  constexpr bool any_complex = is_complex_v<Out> || (is_complex_v<In> || ...);
  constexpr bool integer_division =
      is_any_of_v<Op, ops::FloorDivide, ops::Remainder, ops::Power> && !(is_floating_v<In> || ...);
  if (any_complex || integer_division || Mask + 1 == (1u << sizeof...(In))) return 0;
  constexpr bool float_arithmetic =
      is_any_of_v<Op, ops::Add, ops::Subtract, ops::Multiply, ops::Divide> &&
      is_any_of_v<Out, float, double> && (is_any_of_v<In, float, double> && ...);
  return is_costly<Op, Out, In...>() || float_arithmetic ? 3 : 2;
}

template <bool Constant, class T>
NUMCU_FORCEINLINE T operand(const T* p, const T& value, std::int64_t k) {
  if constexpr (Constant) {
    return value;
  } else {
    return p[k];
  }
}

// out[k] = op(in...[k]) for k < n over dense operands; input i is the constant values[i] where
// bit i of Mask is set (a scalar, or an operand that does not move along a row). Pointers and
// constants are parameters, not loaded through references, so that a store through `out` (a
// char type for bool results) cannot be taken to change them.
template <unsigned Mask, class Op, class Out, class... In, std::size_t... I>
NUMCU_FORCEINLINE void dense_loop(Op op, Out* out, std::tuple<const In*...> in,
                                  std::tuple<In...> values, std::int64_t n,
                                  std::index_sequence<I...>) {
  const auto element = [=](std::int64_t k) __attribute__((always_inline)) {
    out[k] = convert<Out>(op(convert<compute_t<In>>(
        operand<((Mask >> I) & 1u) != 0>(std::get<I>(in), std::get<I>(values), k))...));
  };
  if constexpr (is_costly<Op, Out, In...>()) {
    for (std::int64_t k = 0; k < n; ++k) element(k);
  } else {
    // Cheap elements: four vectors an iteration, so that the loop's own count, compare and
    // branch do not add a third to a one-instruction body (a tenth of an add of 1024 float32
    // elements on one thread). Costly bodies gain nothing from it but code size.
#pragma GCC unroll 4
    for (std::int64_t k = 0; k < n; ++k) element(k);
  }
}

template <unsigned Mask, class Op, class Out, class... In>
NUMCU_CPU_CLONES void dense_kernel_avx512(Op op, Out* out, std::tuple<const In*...> in,
                                          std::tuple<In...> values, std::int64_t n) {
  dense_loop<Mask>(op, out, in, values, n, std::index_sequence_for<In...>{});
}

template <unsigned Mask, class Op, class Out, class... In>
NUMCU_CPU_CLONES_AVX2 void dense_kernel_avx2(Op op, Out* out, std::tuple<const In*...> in,
                                             std::tuple<In...> values, std::int64_t n) {
  dense_loop<Mask>(op, out, in, values, n, std::index_sequence_for<In...>{});
}

template <unsigned Mask, class Op, class Out, class... In>
void dense_kernel_plain(Op op, Out* out, std::tuple<const In*...> in, std::tuple<In...> values,
                        std::int64_t n) {
  dense_loop<Mask>(op, out, in, values, n, std::index_sequence_for<In...>{});
}

template <unsigned Mask, class Op, class Out, class... In>
void dense_kernel(const Op& op, Out* out, const std::tuple<const In*...>& in,
                  const std::tuple<In...>& values, std::int64_t n) {
  constexpr int clones = clone_count<Mask, Op, Out, In...>();
  if constexpr (clones == 3) {
    dense_kernel_avx512<Mask, Op, Out, In...>(op, out, in, values, n);
  } else if constexpr (clones == 2) {
    dense_kernel_avx2<Mask, Op, Out, In...>(op, out, in, values, n);
  } else {
    dense_kernel_plain<Mask, Op, Out, In...>(op, out, in, values, n);
  }
}

template <class Op, class Out, class... In, unsigned... M>
void dense_dispatch(unsigned mask, const Op& op, Out* out, const std::tuple<const In*...>& in,
                    const std::tuple<In...>& values, std::int64_t n,
                    std::integer_sequence<unsigned, M...>) {
  ((mask == M ? dense_kernel<M, Op, Out, In...>(op, out, in, values, n) : void()), ...);
}

// bfloat16 loops take one plain loop that tests the constant inputs as it goes, instead of a
// vectorised loop per pattern of constant inputs: they are the fifteenth dtype's share of the
// module, and GCC 12 also fails to vectorise some of them (an internal compiler error on float
// bits taken apart right after being put together from bfloat16's).
#if defined(__GNUC__) && !defined(__clang__)
#define NUMCU_NO_VECTORIZE __attribute__((noinline, optimize("no-tree-vectorize")))
#else
#define NUMCU_NO_VECTORIZE __attribute__((noinline))
#endif
template <class Op, class Out, class... In, std::size_t... I>
NUMCU_NO_VECTORIZE void dense_any_mask(unsigned mask, Op op, Out* out, std::tuple<const In*...> in,
                                       std::tuple<In...> values, std::int64_t n,
                                       std::index_sequence<I...>) {
  for (std::int64_t k = 0; k < n; ++k) {
    out[k] = convert<Out>(op(
        convert<compute_t<In>>(((mask >> I) & 1u) ? std::get<I>(values) : std::get<I>(in)[k])...));
  }
}

// Out of line: one copy per loop, which the contiguous path and the strided path's dense rows
// share (a call per row costs nothing a row of kMinDenseRow or more elements would notice).
template <class Op, class Out, class... In>
__attribute__((noinline)) void dense(unsigned mask, const Op& op, Out* out,
                                     const std::tuple<const In*...>& in,
                                     const std::tuple<In...>& values, std::int64_t n) {
  if constexpr (is_bfloat16_v<Out> || (is_bfloat16_v<In> || ...)) {
    dense_any_mask<Op, Out, In...>(mask, op, out, in, values, n, std::index_sequence_for<In...>{});
  } else {
    dense_dispatch<Op, Out, In...>(mask, op, out, in, values, n,
                                   std::make_integer_sequence<unsigned, (1u << sizeof...(In))>{});
  }
}

// Contiguous operands: elements [begin, end).
template <class Op, class Out, class... In, std::size_t... I>
void contiguous_range(const Op& op, const ElementwisePlan<1 + sizeof...(In)>& p,
                      const std::tuple<In...>& values, std::int64_t begin, std::int64_t end,
                      std::index_sequence<I...>) {
  const unsigned mask = p.scalar_mask >> 1;
  // A scalar's data pointer may be null: it is never offset or read.
  const std::tuple<const In*...> in{
      ((mask >> I) & 1u) ? nullptr : reinterpret_cast<const In*>(p.data[I + 1]) + begin...};
  dense<Op, Out, In...>(mask, op, reinterpret_cast<Out*>(p.data[0]) + begin, in, values,
                        end - begin);
}

// Rows shorter than this run element by element even when dense: the dispatch would cost more.
constexpr std::int64_t kMinDenseRow = 16;

// A strided loop's rows, walked by walk_rows: fn(body, at, count) for each piece of a row in
// [begin, end) of the plan's C order, at[i] the address of operand i at the piece's first
// element (a scalar input's, its value in the plan). Compiled once per operand count
// (cpu_rows.cpp), so that the walk over the outer dimensions is not repeated in every loop.
using RowFn = void (*)(const void* body, char* const* at, std::int64_t count);
template <int N>
void walk_rows(const ElementwisePlan<N>& p, std::int64_t begin, std::int64_t end, RowFn fn,
               const void* body);
extern template void walk_rows<2>(const ElementwisePlan<2>&, std::int64_t, std::int64_t, RowFn,
                                  const void*);
extern template void walk_rows<3>(const ElementwisePlan<3>&, std::int64_t, std::int64_t, RowFn,
                                  const void*);
extern template void walk_rows<4>(const ElementwisePlan<4>&, std::int64_t, std::int64_t, RowFn,
                                  const void*);

// Any strides: elements [begin, end) of the plan's C order, a row (the innermost dimension) at
// a time. A row along which every operand is dense or constant runs as a dense loop; other rows
// run element by element.
template <class Op, class Out, class... In, std::size_t... I>
void strided_range(const Op& op, const ElementwisePlan<1 + sizeof...(In)>& p, std::int64_t begin,
                   std::int64_t end, std::index_sequence<I...>) {
  constexpr int N = 1 + sizeof...(In);
  constexpr std::int64_t kSizes[N] = {static_cast<std::int64_t>(sizeof(Out)),
                                      static_cast<std::int64_t>(sizeof(In))...};
  struct Rows {
    const Op* op;
    std::int64_t step[N];  // bytes from an element to the next along a row
    unsigned constant;     // bit i: input i does not move along a row (a scalar's strides are 0)
    bool dense;            // the output and every moving input step by their item size
  };
  const int last = p.ndim - 1;
  Rows rows{&op, {}, 0, p.shape[last] >= kMinDenseRow};
  for (int i = 0; i < N; ++i) {
    const std::int64_t s = p.strides[i][last];
    rows.step[i] = s;
    if (i > 0 && s == 0) {
      rows.constant |= 1u << (i - 1);
    } else if (s != kSizes[i]) {
      rows.dense = false;
    }
  }
  walk_rows<N>(
      p, begin, end,
      [](const void* body, char* const* at, std::int64_t count) {
        const Rows& r = *static_cast<const Rows*>(body);
        if (r.dense) {
          const std::tuple<const In*...> in{
              ((r.constant >> I) & 1u) ? nullptr : reinterpret_cast<const In*>(at[I + 1])...};
          const std::tuple<In...> values{
              ((r.constant >> I) & 1u) ? *reinterpret_cast<const In*>(at[I + 1]) : In()...};
          dense<Op, Out, In...>(r.constant, *r.op, reinterpret_cast<Out*>(at[0]), in, values,
                                count);
          return;
        }
        for (std::int64_t k = 0; k < count; ++k) {
          *reinterpret_cast<Out*>(at[0] + k * r.step[0]) =
              convert<Out>((*r.op)(convert<compute_t<In>>(
                  *reinterpret_cast<const In*>(at[I + 1] + k * r.step[I + 1]))...));
        }
      },
      &rows);
}

template <class Op, class Out, class... In>
void run_elementwise(const Op& op, const ElementwisePlan<1 + sizeof...(In)>& p) {
  constexpr int kItemSizes[] = {static_cast<int>(sizeof(Out)), static_cast<int>(sizeof(In))...};
  check_launch(p, kItemSizes, nullptr);
  if (p.size == 0) return;
  using Seq = std::index_sequence_for<In...>;
  constexpr std::int64_t grain = elementwise_grain<Op, Out, In...>();
  constexpr std::int64_t block = elementwise_block<Op, Out, In...>();
  if (p.contiguous) {
    const std::tuple<In...> scalars = plan_scalars<In...>(p, Seq{});
    parallel_for_elements<block>(p.size, grain, [&](std::int64_t begin, std::int64_t end) {
      contiguous_range<Op, Out, In...>(op, p, scalars, begin, end, Seq{});
    });
  } else {
    parallel_for_elements<block>(p.size, grain, [&](std::int64_t begin, std::int64_t end) {
      strided_range<Op, Out, In...>(op, p, begin, end, Seq{});
    });
  }
}

// The CPU backend as ufunc_dispatch.hpp's run_loop calls it.
// bfloat16 ufuncs never get here: ufunc_cpu runs them on float32 copies (ufunc_cpu.cpp), so the
// module holds no CPU loop of its own for them.
struct Runner {
  template <class Op, class Out, class... In>
  void run(const Op& op, const ElementwisePlan<1 + sizeof...(In)>& p) const {
    if constexpr (is_bfloat16_v<Out> || (is_bfloat16_v<In> || ...)) {
      throw_value_error(std::string(ufunc_name<Op>::fname) +
                        ": bfloat16 runs on the float32 loop on the CPU");
    } else {
      run_shared<Runner, Op, Out, In...>(*this, op, p);
    }
  }
  template <class Op, class Out, class... In>
  void loop(const Op& op, const ElementwisePlan<1 + sizeof...(In)>& p) const {
    run_elementwise<Op, Out, In...>(op, p);
  }
  void copy(DType dtype, const ElementwisePlan<2>& p) const { cast_cpu(dtype, dtype, p); }
};

}  // namespace numcu::cpu
