// CUDA kernels of the ufunc groups "muldiv" and "intdiv" (see NUMCU_UFUNCS).
#define NUMCU_IN_GROUP_muldiv NUMCU_DEFINE_UFUNC_CUDA_FULL
#define NUMCU_IN_GROUP_intdiv NUMCU_DEFINE_UFUNC_CUDA_LEAN

#include "cuda_instantiate.cuh"

NUMCU_UFUNCS(NUMCU_SELECT_GROUP)
