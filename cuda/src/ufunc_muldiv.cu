// CUDA kernels of the ufunc groups "muldiv" and "intdiv" (see NUMCU_UFUNCS). Every file costs nvcc
// about 2 s however little it holds, so groups of a few seconds each share one.
#define NUMCU_IN_GROUP_muldiv NUMCU_DEFINE_UFUNC_CUDA_FULL
#define NUMCU_IN_GROUP_intdiv NUMCU_DEFINE_UFUNC_CUDA_LEAN

#include "cuda_instantiate.cuh"

NUMCU_UFUNCS(NUMCU_SELECT_GROUP)
