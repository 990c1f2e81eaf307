// The per-target cast entry points, defined in cast.cu.
#pragma once

#include "numcu/backend.hpp"

namespace numcu {

#define NUMCU_DECLARE_CAST_CUDA(e, T, name, kind, size) \
  void cast_cuda_to_##e(DType from, const ElementwisePlan<2>& plan, Stream stream);
NUMCU_DTYPES(NUMCU_DECLARE_CAST_CUDA)
#undef NUMCU_DECLARE_CAST_CUDA

}  // namespace numcu
