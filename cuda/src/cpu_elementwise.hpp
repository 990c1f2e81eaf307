// The CPU backend's elementwise loops over the same plans and functors as the CUDA kernels.
#pragma once

#include <cstdint>
#include <cstring>
#include <tuple>
#include <utility>

#include "numcu/elementwise.hpp"
#include "numcu/launch_check.hpp"
#include "numcu/types.hpp"

namespace numcu::cpu {

template <class T, int N>
T scalar_value(const ElementwisePlan<N>& p, int i) {
  T value;
  std::memcpy(&value, p.scalars[i], sizeof(T));
  return value;
}

// Contiguous operands; Mask (bit i: input i is a scalar) is a template parameter so that the
// compiler sees plain array loops it can vectorise.
template <unsigned Mask, class Op, class Out, class... In, std::size_t... I>
void contiguous_loop(const Op& op, const ElementwisePlan<1 + sizeof...(In)>& p,
                     std::index_sequence<I...>) {
  Out* out = reinterpret_cast<Out*>(p.data[0]);
  const std::tuple<const In*...> in{reinterpret_cast<const In*>(p.data[I + 1])...};
  const std::tuple<In...> scalars{scalar_value<In>(p, static_cast<int>(I) + 1)...};
  const std::int64_t n = p.size;
  for (std::int64_t k = 0; k < n; ++k) {
    out[k] = convert<Out>(op(
        convert<compute_t<In>>(((Mask >> I) & 1u) ? std::get<I>(scalars) : std::get<I>(in)[k])...));
  }
}

template <class Op, class Out, class... In, std::size_t... M>
void contiguous_dispatch(const Op& op, const ElementwisePlan<1 + sizeof...(In)>& p,
                         std::index_sequence<M...>) {
  const unsigned mask = p.scalar_mask >> 1;
  ((mask == M ? contiguous_loop<M, Op, Out, In...>(op, p, std::index_sequence_for<In...>{})
              : void()),
   ...);
}

template <class Op, class Out, class... In, std::size_t... I>
void strided_loop(const Op& op, const ElementwisePlan<1 + sizeof...(In)>& p,
                  std::index_sequence<I...>) {
  constexpr int N = 1 + sizeof...(In);
  const std::tuple<In...> scalars{scalar_value<In>(p, static_cast<int>(I) + 1)...};
  const int last = p.ndim - 1;
  const std::int64_t inner = p.shape[last];
  std::int64_t index[kMaxKernelDims] = {};
  char* ptr[N];
  for (int i = 0; i < N; ++i) ptr[i] = p.data[i];
  for (std::int64_t done = 0; done < p.size; done += inner) {
    for (std::int64_t k = 0; k < inner; ++k) {
      *reinterpret_cast<Out*>(ptr[0] + k * p.strides[0][last]) =
          convert<Out>(op(convert<compute_t<In>>(
              ((p.scalar_mask >> (I + 1)) & 1u)
                  ? std::get<I>(scalars)
                  : *reinterpret_cast<const In*>(ptr[I + 1] + k * p.strides[I + 1][last]))...));
    }
    // Step the outer dimensions like an odometer.
    for (int d = last - 1; d >= 0; --d) {
      for (int i = 0; i < N; ++i) ptr[i] += p.strides[i][d];
      if (++index[d] < p.shape[d]) break;
      for (int i = 0; i < N; ++i) ptr[i] -= p.strides[i][d] * p.shape[d];
      index[d] = 0;
    }
  }
}

template <class Op, class Out, class... In>
void run_elementwise(const Op& op, const ElementwisePlan<1 + sizeof...(In)>& p) {
  constexpr int kItemSizes[] = {static_cast<int>(sizeof(Out)), static_cast<int>(sizeof(In))...};
  check_launch(p, kItemSizes, nullptr);
  if (p.size == 0) return;
  if (p.contiguous) {
    contiguous_dispatch<Op, Out, In...>(op, p, std::make_index_sequence<(1u << sizeof...(In))>{});
  } else {
    strided_loop<Op, Out, In...>(op, p, std::index_sequence_for<In...>{});
  }
}

// The CPU backend as ufunc_dispatch.hpp's run_loop calls it.
struct Runner {
  template <class Op, class Out, class... In>
  void run(const Op& op, const ElementwisePlan<1 + sizeof...(In)>& p) const {
    run_elementwise<Op, Out, In...>(op, p);
  }
};

}  // namespace numcu::cpu
