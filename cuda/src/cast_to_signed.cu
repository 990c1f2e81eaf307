#include "cuda_instantiate.cuh"

NUMCU_DEFINE_CAST_CUDA(bool_, bool)
NUMCU_DEFINE_CAST_CUDA(int8, std::int8_t)
NUMCU_DEFINE_CAST_CUDA(int16, std::int16_t)
NUMCU_DEFINE_CAST_CUDA(int32, std::int32_t)
NUMCU_DEFINE_CAST_CUDA(int64, std::int64_t)
