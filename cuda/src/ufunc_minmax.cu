// CUDA kernels of the ufunc group "minmax" (see NUMCU_UFUNCS).
#define NUMCU_IN_GROUP_minmax NUMCU_DEFINE_UFUNC_CUDA_FULL

#include "cuda_instantiate.cuh"

NUMCU_UFUNCS(NUMCU_SELECT_GROUP)
