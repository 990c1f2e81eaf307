#include "reduce_cuda.cuh"

NUMCU_DEFINE_REDUCE_CUDA(any, Any, kernels::Paths::no_segmented)
NUMCU_DEFINE_REDUCE_CUDA(all, All, kernels::Paths::no_segmented)
NUMCU_DEFINE_REDUCE_CUDA(count_nonzero, CountNonzero, kernels::Paths::no_segmented)
