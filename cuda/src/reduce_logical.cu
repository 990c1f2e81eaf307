// The reductions that test for non-zero elements (any and all share their kernels).
#include "reduce_cuda.cuh"

NUMCU_DEFINE_REDUCE_CUDA(any, Any)
NUMCU_DEFINE_REDUCE_CUDA(all, All)
NUMCU_DEFINE_REDUCE_CUDA(count_nonzero, CountNonzero)
