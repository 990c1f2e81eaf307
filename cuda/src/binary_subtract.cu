#include "cuda_instantiate.cuh"

NUMCU_DEFINE_BINARY_CUDA(subtract, ::numcu::ops::Subtract)
