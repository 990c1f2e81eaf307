// One entry point per reduction, each defined in the .cu file of its group so that the groups
// compile in parallel.
#pragma once

#include "numcu/reduce.hpp"

namespace numcu {

#define NUMCU_DECLARE_REDUCE_CUDA(e, R)                                                 \
  void reduce_cuda_##e(DType dtype, const ReducePlan& plan, const ReduceParams& params, \
                       Stream stream);
NUMCU_REDUCE_OPS(NUMCU_DECLARE_REDUCE_CUDA)
#undef NUMCU_DECLARE_REDUCE_CUDA

}  // namespace numcu
