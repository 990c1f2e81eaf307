#include "reduce_cuda.cuh"

NUMCU_DEFINE_REDUCE_CUDA(argmin, ArgMin)
NUMCU_DEFINE_REDUCE_CUDA(argmax, ArgMax)
