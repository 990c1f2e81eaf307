// The CUDA backend's one switch over the ufuncs and one over cast targets; the kernels are
// instantiated in the ufunc_*.cu files of their groups (NUMCU_UFUNCS' `group`) and in cast.cu.
// Plain C++: it only calls them.
#include <string>

#include "cast_cuda.hpp"
#include "numcu/backend.hpp"
#include "numcu/errors.hpp"
#include "ufunc_dispatch.hpp"

namespace numcu {

template <int N>
void ufunc_cuda(Ufunc op, DType loop, const ElementwisePlan<N>& plan, const OpParams& params,
                Stream stream) {
  switch (op) {
#define NUMCU_CASE(e, F, group, cost, doc)                                              \
  case Ufunc::e:                                                                        \
    if constexpr (F::arity + 1 == N) return ufunc_cuda_##e(loop, plan, params, stream); \
    break;
    NUMCU_UFUNCS(NUMCU_CASE)
#undef NUMCU_CASE
  }
  throw_value_error(std::string(ufunc_info(op).fname) + ": called with " + std::to_string(N - 1) +
                    " inputs");
}

template void ufunc_cuda<2>(Ufunc, DType, const ElementwisePlan<2>&, const OpParams&, Stream);
template void ufunc_cuda<3>(Ufunc, DType, const ElementwisePlan<3>&, const OpParams&, Stream);
template void ufunc_cuda<4>(Ufunc, DType, const ElementwisePlan<4>&, const OpParams&, Stream);

void cast_cuda(DType to, DType from, const ElementwisePlan<2>& plan, Stream stream) {
  switch (to) {
#define NUMCU_CASE(e, T, name, kind, size) \
  case DType::e:                           \
    return cast_cuda_to_##e(from, plan, stream);
    NUMCU_DTYPES(NUMCU_CASE)
#undef NUMCU_CASE
  }
}

}  // namespace numcu
