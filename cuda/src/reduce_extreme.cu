// The reductions that compare (see reduce_families.hpp for the kernels they share).
#include "reduce_cuda.cuh"

NUMCU_DEFINE_REDUCE_CUDA(min, Min)
NUMCU_DEFINE_REDUCE_CUDA(max, Max)
NUMCU_DEFINE_REDUCE_CUDA(nanmin, NanMin)
NUMCU_DEFINE_REDUCE_CUDA(nanmax, NanMax)
NUMCU_DEFINE_REDUCE_CUDA(argmin, ArgMin)
NUMCU_DEFINE_REDUCE_CUDA(argmax, ArgMax)
