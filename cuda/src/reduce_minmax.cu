#include "reduce_cuda.cuh"

NUMCU_DEFINE_REDUCE_CUDA(min, Min)
NUMCU_DEFINE_REDUCE_CUDA(max, Max)
