#include "reduce_cuda.cuh"

NUMCU_DEFINE_REDUCE_CUDA(nansum, NanSum, kernels::Paths::no_segmented)
NUMCU_DEFINE_REDUCE_CUDA(nanprod, NanProd, kernels::Paths::no_segmented)
NUMCU_DEFINE_REDUCE_CUDA(nanmean, NanMean, kernels::Paths::no_segmented)
NUMCU_DEFINE_REDUCE_CUDA(nanmin, NanMin, kernels::Paths::no_segmented)
NUMCU_DEFINE_REDUCE_CUDA(nanmax, NanMax, kernels::Paths::no_segmented)
NUMCU_DEFINE_REDUCE_CUDA(sqdev, SqDev, kernels::Paths::strided_only)
