#include "reduce_cuda.cuh"

NUMCU_DEFINE_REDUCE_CUDA(nansum, NanSum)
NUMCU_DEFINE_REDUCE_CUDA(nanprod, NanProd)
NUMCU_DEFINE_REDUCE_CUDA(nanmean, NanMean)
NUMCU_DEFINE_REDUCE_CUDA(nanmin, NanMin)
NUMCU_DEFINE_REDUCE_CUDA(nanmax, NanMax)
NUMCU_DEFINE_REDUCE_CUDA(sqdev, SqDev, true)
