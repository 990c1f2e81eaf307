#include "cuda_instantiate.cuh"

NUMCU_DEFINE_CAST_CUDA(complex64, ::numcu::complex64)
NUMCU_DEFINE_CAST_CUDA(complex128, ::numcu::complex128)
