// CUDA kernels of the ufunc group "trig" (see NUMCU_UFUNCS).
#define NUMCU_IN_GROUP_trig NUMCU_DEFINE_UFUNC_CUDA_LEAN

#include "cuda_instantiate.cuh"

NUMCU_UFUNCS(NUMCU_SELECT_GROUP)
