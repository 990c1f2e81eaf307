// CUDA kernels of the ufunc groups "addsub" and "select" (see NUMCU_UFUNCS).
#define NUMCU_IN_GROUP_addsub NUMCU_DEFINE_UFUNC_CUDA_FULL
#define NUMCU_IN_GROUP_select NUMCU_DEFINE_UFUNC_CUDA_LEAN

#include "cuda_instantiate.cuh"

NUMCU_UFUNCS(NUMCU_SELECT_GROUP)
