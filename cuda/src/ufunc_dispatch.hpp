// What the CPU and CUDA backends share to run a ufunc: the per-ufunc entry points (defined by
// the group source files), the one place that turns a loop dtype into element types, and the
// selection of a file's groups from NUMCU_UFUNCS.
#pragma once

#include <string>
#include <utility>

#include "numcu/backend.hpp"
#include "numcu/errors.hpp"
#include "numcu/ops.hpp"

namespace numcu {

#define NUMCU_DECLARE_UFUNC(e, F, group, doc)                                \
  void ufunc_cpu_##e(DType loop, const ElementwisePlan<F::arity + 1>& plan,  \
                     const OpParams& params);                                \
  void ufunc_cuda_##e(DType loop, const ElementwisePlan<F::arity + 1>& plan, \
                      const OpParams& params, Stream stream);
NUMCU_UFUNCS(NUMCU_DECLARE_UFUNC)
#undef NUMCU_DECLARE_UFUNC

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
#define NUMCU_SELECT_GROUP(e, F, group, doc) NUMCU_IN_GROUP_##group(e, F)
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
