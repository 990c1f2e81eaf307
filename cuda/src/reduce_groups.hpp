// One entry point per reduction and backend, each defined in the source files of the reduction's
// group (NUMCU_REDUCTIONS' `group`), so that the groups compile in parallel: reduce_sum.cu and
// reduce_cpu_sum.cpp, reduce_extreme.cu (groups extreme and arg) and reduce_cpu_minmax.cpp
// (extreme), reduce_cpu_arg.cpp (arg). A nan-function's group should be its plain reducer's:
// on integers and bool it runs that reducer's loops, compiled once where both are in one file.
#pragma once

#include <string>

#include "numcu/errors.hpp"
#include "numcu/reduce.hpp"
#include "numcu/reducers.hpp"

namespace numcu {

#define NUMCU_DECLARE_REDUCE(e, R, group, form, result, summary, returns)               \
  void reduce_cpu_##e(DType dtype, const ReducePlan& plan, const ReduceParams& params); \
  void reduce_cuda_##e(DType dtype, const ReducePlan& plan, const ReduceParams& params, \
                       Stream stream);
NUMCU_REDUCTIONS(NUMCU_DECLARE_REDUCE)
#undef NUMCU_DECLARE_REDUCE

// Calls f(r) with r the reducer R runs for input dtype `dtype` (reduce::loop_t), its parameters
// set; a TypeError naming numcu.<name> where there is no loop.
template <template <class> class R, class F>
void visit_reducer(const char* name, DType dtype, const ReduceParams& params, F&& f) {
  visit_dtype(dtype, [&](auto tag) {
    using L = reduce::loop_t<R, typename decltype(tag)::type>;
    if constexpr (L::template supports<typename L::In>) {
      L r;
      r.p = params;
      f(r);
    } else {
      throw_type_error(std::string("numcu.") + name + ": no loop for dtype " + dtype_name(dtype));
    }
  });
}

}  // namespace numcu

// A group's source file defines NUMCU_REDUCE_IN_GROUP_<group>(e, R) for the groups it
// instantiates and then expands NUMCU_REDUCTIONS(NUMCU_REDUCE_SELECT_GROUP); the other groups
// expand to nothing.
#define NUMCU_REDUCE_SELECT_GROUP(e, R, group, form, result, summary, returns) \
  NUMCU_REDUCE_IN_GROUP_##group(e, R)
#ifndef NUMCU_REDUCE_IN_GROUP_sum
#define NUMCU_REDUCE_IN_GROUP_sum(e, R)
#endif
#ifndef NUMCU_REDUCE_IN_GROUP_extreme
#define NUMCU_REDUCE_IN_GROUP_extreme(e, R)
#endif
#ifndef NUMCU_REDUCE_IN_GROUP_arg
#define NUMCU_REDUCE_IN_GROUP_arg(e, R)
#endif
