#include "cuda_instantiate.cuh"

NUMCU_DEFINE_CAST_CUDA(uint8, std::uint8_t)
NUMCU_DEFINE_CAST_CUDA(uint16, std::uint16_t)
NUMCU_DEFINE_CAST_CUDA(uint32, std::uint32_t)
NUMCU_DEFINE_CAST_CUDA(uint64, std::uint64_t)
