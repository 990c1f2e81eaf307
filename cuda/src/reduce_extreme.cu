// CUDA kernels of the reduction groups "extreme" and "arg" (see NUMCU_REDUCTIONS;
// reduce_families.hpp for the kernels their reductions share).
#define NUMCU_REDUCE_IN_GROUP_extreme NUMCU_DEFINE_REDUCE_CUDA
#define NUMCU_REDUCE_IN_GROUP_arg NUMCU_DEFINE_REDUCE_CUDA

#include "reduce_cuda.cuh"

NUMCU_REDUCTIONS(NUMCU_REDUCE_SELECT_GROUP)
