#include "cuda_instantiate.cuh"

NUMCU_DEFINE_BINARY_CUDA(multiply, ::numcu::ops::Multiply)
