// The reductions that compare, and those that test for non-zero elements (see
// reduce_families.hpp for the kernels they share; any and all share theirs).
#include "reduce_cuda.cuh"

NUMCU_DEFINE_REDUCE_CUDA(min, Min)
NUMCU_DEFINE_REDUCE_CUDA(max, Max)
NUMCU_DEFINE_REDUCE_CUDA(nanmin, NanMin)
NUMCU_DEFINE_REDUCE_CUDA(nanmax, NanMax)
NUMCU_DEFINE_REDUCE_CUDA(argmin, ArgMin)
NUMCU_DEFINE_REDUCE_CUDA(argmax, ArgMax)
NUMCU_DEFINE_REDUCE_CUDA(any, Any)
NUMCU_DEFINE_REDUCE_CUDA(all, All)
NUMCU_DEFINE_REDUCE_CUDA(count_nonzero, CountNonzero)
