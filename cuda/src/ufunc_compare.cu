// CUDA kernels of the ufunc groups "compare" and "round" (see NUMCU_UFUNCS).
#define NUMCU_IN_GROUP_compare NUMCU_DEFINE_UFUNC_CUDA_LEAN
#define NUMCU_IN_GROUP_round NUMCU_DEFINE_UFUNC_CUDA_LEAN

#include "cuda_instantiate.cuh"

NUMCU_UFUNCS(NUMCU_SELECT_GROUP)
