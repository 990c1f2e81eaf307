#include "cuda_instantiate.cuh"

NUMCU_DEFINE_BINARY_CUDA(divide, ::numcu::ops::Divide)
NUMCU_DEFINE_BINARY_CUDA(div_default, ::numcu::ops::DivDefault)
