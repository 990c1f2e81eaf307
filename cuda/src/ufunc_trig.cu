// CUDA kernels of the ufunc groups "trig" and "atrig" (see NUMCU_UFUNCS).
#define NUMCU_IN_GROUP_trig NUMCU_DEFINE_UFUNC_CUDA_LEAN
#define NUMCU_IN_GROUP_atrig NUMCU_DEFINE_UFUNC_CUDA_LEAN

#include "cuda_instantiate.cuh"

NUMCU_UFUNCS(NUMCU_SELECT_GROUP)
