// CUDA kernels of the ufunc groups "exp" and "log" (see NUMCU_UFUNCS). Every file costs nvcc
// about 2 s however little it holds, so groups of a few seconds each share one.
#define NUMCU_IN_GROUP_exp NUMCU_DEFINE_UFUNC_CUDA_LEAN
#define NUMCU_IN_GROUP_log NUMCU_DEFINE_UFUNC_CUDA_LEAN

#include "cuda_instantiate.cuh"

NUMCU_UFUNCS(NUMCU_SELECT_GROUP)
