#include "reduce_cuda.cuh"

NUMCU_DEFINE_REDUCE_CUDA(sum, Sum)
NUMCU_DEFINE_REDUCE_CUDA(prod, Prod)
NUMCU_DEFINE_REDUCE_CUDA(mean, Mean)
