// What the CPU and CUDA backends share to run a ufunc: the per-ufunc entry points (defined by
// the group source files), the one place that turns a loop dtype into element types, and the
// selection of a file's groups from NUMCU_UFUNCS.
#pragma once

#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "numcu/backend.hpp"
#include "numcu/errors.hpp"
#include "numcu/ops.hpp"
#include "numcu/types.hpp"

namespace numcu {

#define NUMCU_DECLARE_UFUNC(e, F, group, cost, doc)                          \
  void ufunc_cpu_##e(DType loop, const ElementwisePlan<F::arity + 1>& plan,  \
                     const OpParams& params);                                \
  void ufunc_cuda_##e(DType loop, const ElementwisePlan<F::arity + 1>& plan, \
                      const OpParams& params, Stream stream);
NUMCU_UFUNCS(NUMCU_DECLARE_UFUNC)
#undef NUMCU_DECLARE_UFUNC

// Functions that share loops, on both backends. Sign-blind functions give results whose bits do
// not depend on the signs of their integer operands (wrapping arithmetic, bitwise logic, left
// shifts, equality, truth tests, classification): on signed integers they run the unsigned loops
// of their size. greater and greater_equal are less and less_equal with the operands exchanged;
// fmax and fmin are maximum and minimum on dtypes without NaN; positive, and absolute of unsigned
// integers and bool, are the copies casts make.
template <class Op>
constexpr bool sign_blind =
    is_any_of_v<Op, ops::Add, ops::Subtract, ops::Multiply, ops::Negative, ops::Square, ops::Invert,
                ops::BitwiseAnd, ops::BitwiseOr, ops::BitwiseXor, ops::LeftShift, ops::Equal,
                ops::NotEqual, ops::LogicalAnd, ops::LogicalOr, ops::LogicalXor, ops::LogicalNot,
                ops::IsNan, ops::IsInf, ops::IsFinite>;

template <class T>
using blind_t = typename std::conditional_t<is_integer_v<T> && std::is_signed_v<T>,
                                            std::make_unsigned<T>, std::common_type<T>>::type;

// The plan with its two inputs exchanged.
inline ElementwisePlan<3> exchange_inputs(const ElementwisePlan<3>& p) {
  ElementwisePlan<3> q = p;
  std::swap(q.data[1], q.data[2]);
  for (int d = 0; d < kMaxKernelDims; ++d) std::swap(q.strides[1][d], q.strides[2][d]);
  const unsigned first = (p.scalar_mask >> 1) & 1u, second = (p.scalar_mask >> 2) & 1u;
  q.scalar_mask = (p.scalar_mask & ~6u) | (first << 2) | (second << 1);
  std::memcpy(q.scalars[1], p.scalars[2], sizeof(q.scalars[1]));
  std::memcpy(q.scalars[2], p.scalars[1], sizeof(q.scalars[2]));
  return q;
}

// Runs op over the plan on the loop that computes it, by the rules above: backend.copy(dtype,
// plan) for the copies, backend.template loop<Op, Out, In...>(op, plan) for the rest.
template <class Backend, class Op, class Out, class... In>
void run_shared(const Backend& backend, const Op& op, const ElementwisePlan<1 + sizeof...(In)>& p) {
  if constexpr (std::is_same_v<Op, ops::Positive> ||
                (std::is_same_v<Op, ops::Absolute> && (std::is_same_v<Out, In> && ...) &&
                 !std::is_signed_v<Out> && !is_inexact_v<Out>)) {
    backend.copy(dtype_of_v<Out>, p);
  } else if constexpr (std::is_same_v<Op, ops::Greater>) {
    run_shared<Backend, ops::Less, Out, In...>(backend, ops::Less{}, exchange_inputs(p));
  } else if constexpr (std::is_same_v<Op, ops::GreaterEqual>) {
    run_shared<Backend, ops::LessEqual, Out, In...>(backend, ops::LessEqual{}, exchange_inputs(p));
  } else if constexpr (std::is_same_v<Op, ops::Fmax> && !is_inexact_v<Out>) {
    run_shared<Backend, ops::Maximum, Out, In...>(backend, ops::Maximum{}, p);
  } else if constexpr (std::is_same_v<Op, ops::Fmin> && !is_inexact_v<Out>) {
    run_shared<Backend, ops::Minimum, Out, In...>(backend, ops::Minimum{}, p);
  } else if constexpr (sign_blind<Op> && (is_integer_v<In> && ...) &&
                       (std::is_same_v<Out, bool> || (std::is_same_v<Out, In> && ...))) {
    backend.template loop<Op, blind_t<Out>, blind_t<In>...>(op, p);
  } else {
    backend.template loop<Op, Out, In...>(op, p);
  }
}

// Calls runner.run<F, Out, In...>(op, plan) with the element types of F's loop on `loop`.
template <class F, class Runner, std::size_t... I>
void run_loop(DType loop, const ElementwisePlan<F::arity + 1>& plan, const OpParams& params,
              const Runner& runner, std::index_sequence<I...>) {
  visit_dtype(loop, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (F::template supports<T>) {
      runner.template run<F, typename F::template out_t<T>, ops::input_t<F, T, I>...>(
          ops::make_op<F>(params), plan);
    } else {
      throw_type_error(std::string(ufunc_name<F>::fname) + ": no loop for dtype " +
                       dtype_name(loop));
    }
  });
}

template <class F, class Runner>
void run_loop(DType loop, const ElementwisePlan<F::arity + 1>& plan, const OpParams& params,
              const Runner& runner) {
  run_loop<F>(loop, plan, params, runner, std::make_index_sequence<F::arity>{});
}

}  // namespace numcu

// A group source file defines NUMCU_IN_GROUP_<group>(e, F) for the groups it instantiates and
// then expands NUMCU_UFUNCS(NUMCU_SELECT_GROUP); the other groups expand to nothing.
#define NUMCU_SELECT_GROUP(e, F, group, cost, doc) NUMCU_IN_GROUP_##group(e, F)
#ifndef NUMCU_IN_GROUP_addsub
#define NUMCU_IN_GROUP_addsub(e, F)
#endif
#ifndef NUMCU_IN_GROUP_arith
#define NUMCU_IN_GROUP_arith(e, F)
#endif
#ifndef NUMCU_IN_GROUP_atrig
#define NUMCU_IN_GROUP_atrig(e, F)
#endif
#ifndef NUMCU_IN_GROUP_compare
#define NUMCU_IN_GROUP_compare(e, F)
#endif
#ifndef NUMCU_IN_GROUP_exp
#define NUMCU_IN_GROUP_exp(e, F)
#endif
#ifndef NUMCU_IN_GROUP_hyp
#define NUMCU_IN_GROUP_hyp(e, F)
#endif
#ifndef NUMCU_IN_GROUP_intdiv
#define NUMCU_IN_GROUP_intdiv(e, F)
#endif
#ifndef NUMCU_IN_GROUP_log
#define NUMCU_IN_GROUP_log(e, F)
#endif
#ifndef NUMCU_IN_GROUP_logic
#define NUMCU_IN_GROUP_logic(e, F)
#endif
#ifndef NUMCU_IN_GROUP_minmax
#define NUMCU_IN_GROUP_minmax(e, F)
#endif
#ifndef NUMCU_IN_GROUP_muldiv
#define NUMCU_IN_GROUP_muldiv(e, F)
#endif
#ifndef NUMCU_IN_GROUP_round
#define NUMCU_IN_GROUP_round(e, F)
#endif
#ifndef NUMCU_IN_GROUP_select
#define NUMCU_IN_GROUP_select(e, F)
#endif
#ifndef NUMCU_IN_GROUP_trig
#define NUMCU_IN_GROUP_trig(e, F)
#endif

#define NUMCU_DEFINE_UFUNC_CPU(e, F)                                               \
  void numcu::ufunc_cpu_##e(DType loop, const ElementwisePlan<F::arity + 1>& plan, \
                            const OpParams& params) {                              \
    run_loop<F>(loop, plan, params, ::numcu::cpu::Runner{});                       \
  }
