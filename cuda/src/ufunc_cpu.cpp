// The CPU backend's one switch over the ufuncs; the loops are in ufunc_cpu_*.cpp.
#include "ufunc_dispatch.hpp"

namespace numcu {

template <int N>
void ufunc_cpu(Ufunc op, DType loop, const ElementwisePlan<N>& plan, const OpParams& params) {
  switch (op) {
#define NUMCU_CASE(e, F, group, doc)                                           \
  case Ufunc::e:                                                               \
    if constexpr (F::arity + 1 == N) return ufunc_cpu_##e(loop, plan, params); \
    break;
    NUMCU_UFUNCS(NUMCU_CASE)
#undef NUMCU_CASE
  }
  throw_value_error(std::string(ufunc_info(op).fname) + ": called with " + std::to_string(N - 1) +
                    " inputs");
}

template void ufunc_cpu<2>(Ufunc, DType, const ElementwisePlan<2>&, const OpParams&);
template void ufunc_cpu<3>(Ufunc, DType, const ElementwisePlan<3>&, const OpParams&);
template void ufunc_cpu<4>(Ufunc, DType, const ElementwisePlan<4>&, const OpParams&);

}  // namespace numcu
