#include "cuda_instantiate.cuh"

NUMCU_DEFINE_BINARY_CUDA(add, ::numcu::ops::Add)
