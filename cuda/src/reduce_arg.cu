#include "reduce_cuda.cuh"

NUMCU_DEFINE_REDUCE_CUDA(argmin, ArgMin, kernels::Paths::no_segmented)
NUMCU_DEFINE_REDUCE_CUDA(argmax, ArgMax, kernels::Paths::no_segmented)
