// Build configuration shared by the kernels, the CPU backend and the bindings.
#pragma once

#if defined(__CUDACC__)
#define NUMCU_HD __host__ __device__
#define NUMCU_DEVICE __device__
#else
#define NUMCU_HD
#define NUMCU_DEVICE
#endif

#define NUMCU_FORCEINLINE inline __attribute__((always_inline))

// A kernel parameter read where the launch put it (__grid_constant__: no copy to local memory
// when the kernel takes its address), which needs compute capability 7.0. A CUDA 12 build also
// targets Pascal (6.x), whose code copies the parameter instead: for sm_60 CUDA 12.4's compiler
// would emit an instruction (cvta.param) that its ptxas refuses.
#if defined(__CUDACC__) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700)
#define NUMCU_GRID_CONSTANT __grid_constant__
#else
#define NUMCU_GRID_CONSTANT
#endif

namespace numcu {

// NumPy's own limit on the number of dimensions.
constexpr int kMaxDims = 64;

}  // namespace numcu
