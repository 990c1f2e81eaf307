// CUDA kernels of the reduction group "sum" (see NUMCU_REDUCTIONS; reduce_families.hpp for the
// kernels its reductions share).
#define NUMCU_REDUCE_IN_GROUP_sum NUMCU_DEFINE_REDUCE_CUDA

#include "reduce_cuda.cuh"

NUMCU_REDUCTIONS(NUMCU_REDUCE_SELECT_GROUP)
