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

namespace numcu {

// NumPy's own limit on the number of dimensions.
constexpr int kMaxDims = 64;

}  // namespace numcu
