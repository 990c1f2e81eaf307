// Casts to every dtype. The casts that only move bits (see launch_cast) all run on the unsigned
// targets' kernels.
#include "cuda_instantiate.cuh"

NUMCU_DEFINE_CAST_CUDA(bool_, bool)
NUMCU_DEFINE_CAST_CUDA(int8, std::int8_t)
NUMCU_DEFINE_CAST_CUDA(int16, std::int16_t)
NUMCU_DEFINE_CAST_CUDA(int32, std::int32_t)
NUMCU_DEFINE_CAST_CUDA(int64, std::int64_t)
NUMCU_DEFINE_CAST_CUDA(uint8, std::uint8_t)
NUMCU_DEFINE_CAST_CUDA(uint16, std::uint16_t)
NUMCU_DEFINE_CAST_CUDA(uint32, std::uint32_t)
NUMCU_DEFINE_CAST_CUDA(uint64, std::uint64_t)
NUMCU_DEFINE_CAST_CUDA(float16, ::numcu::half)
NUMCU_DEFINE_CAST_CUDA(float32, float)
NUMCU_DEFINE_CAST_CUDA(float64, double)
NUMCU_DEFINE_CAST_CUDA(complex64, ::numcu::complex64)
NUMCU_DEFINE_CAST_CUDA(complex128, ::numcu::complex128)
NUMCU_DEFINE_CAST_CUDA(bfloat16, ::numcu::bfloat16)
