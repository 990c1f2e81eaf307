// Casts to the floating and complex dtypes.
#include "cuda_instantiate.cuh"

NUMCU_DEFINE_CAST_CUDA(float16, ::numcu::half)
NUMCU_DEFINE_CAST_CUDA(float32, float)
NUMCU_DEFINE_CAST_CUDA(float64, double)
NUMCU_DEFINE_CAST_CUDA(complex64, ::numcu::complex64)
NUMCU_DEFINE_CAST_CUDA(complex128, ::numcu::complex128)
NUMCU_DEFINE_CAST_CUDA(bfloat16, ::numcu::bfloat16)
