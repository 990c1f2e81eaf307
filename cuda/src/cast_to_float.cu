#include "cuda_instantiate.cuh"

NUMCU_DEFINE_CAST_CUDA(float16, ::numcu::half)
NUMCU_DEFINE_CAST_CUDA(float32, float)
NUMCU_DEFINE_CAST_CUDA(float64, double)
