// CUDA kernels of the ufunc groups "exp" and "log" (see NUMCU_UFUNCS).
#define NUMCU_IN_GROUP_exp NUMCU_DEFINE_UFUNC_CUDA_LEAN
#define NUMCU_IN_GROUP_log NUMCU_DEFINE_UFUNC_CUDA_LEAN

#include "cuda_instantiate.cuh"

NUMCU_UFUNCS(NUMCU_SELECT_GROUP)
