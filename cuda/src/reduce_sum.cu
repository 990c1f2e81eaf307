// The reductions that add or multiply (see reduce_families.hpp for the kernels they share).
#include "reduce_cuda.cuh"

NUMCU_DEFINE_REDUCE_CUDA(sum, Sum)
NUMCU_DEFINE_REDUCE_CUDA(nansum, NanSum)
NUMCU_DEFINE_REDUCE_CUDA(mean, Mean)
NUMCU_DEFINE_REDUCE_CUDA(prod, Prod)
NUMCU_DEFINE_REDUCE_CUDA(nanprod, NanProd)
NUMCU_DEFINE_REDUCE_CUDA(nanmean, NanMean)
NUMCU_DEFINE_REDUCE_CUDA(sqdev, SqDev)
