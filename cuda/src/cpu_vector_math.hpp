// glibc's vector math library (libmvec) for the CPU backend's loops of float functions.
//
// The functors call sin, exp, log ... (through <cmath> or libcu++'s <cuda/std/cmath>, both of
// which end in GCC's built-ins). glibc declares the vector variants of those functions only
// under -ffast-math, which would also drop NaN and infinity handling; declaring them here with
// GCC's `simd` attribute lets the vectoriser call _ZGVeN16v_sinf and its kin for 16 (AVX-512),
// 8 (AVX2) or 4 (SSE) floats at a time, with IEEE semantics kept. With -fno-math-errno the
// calls have no side effect that would stop vectorisation. libmvec's functions are within
// 4 ulp, handle NaN, infinities and huge arguments by falling back to the scalar functions,
// and ship with glibc (libm.so links libmvec as needed): nothing to install.
#pragma once

#include <cmath>

#if defined(__x86_64__) && defined(__GLIBC__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__CUDACC__)

#define NUMCU_VECTOR_VARIANT(name)                                               \
  extern "C" float name##f(float) noexcept __attribute__((simd("notinbranch"))); \
  extern "C" double name(double) noexcept __attribute__((simd("notinbranch")));
#define NUMCU_VECTOR_VARIANT2(name)                                                     \
  extern "C" float name##f(float, float) noexcept __attribute__((simd("notinbranch"))); \
  extern "C" double name(double, double) noexcept __attribute__((simd("notinbranch")));

// In libmvec since glibc 2.22.
NUMCU_VECTOR_VARIANT(sin)
NUMCU_VECTOR_VARIANT(cos)
NUMCU_VECTOR_VARIANT(exp)
NUMCU_VECTOR_VARIANT(log)
NUMCU_VECTOR_VARIANT2(pow)

// Since glibc 2.35 (not in a manylinux module for an older glibc:
// cuda/cmake/numcu_manylinux.cmake).
#if __GLIBC_PREREQ(2, 35) && \
    (!defined(NUMCU_GLIBC_BASELINE_MINOR) || NUMCU_GLIBC_BASELINE_MINOR >= 35)
NUMCU_VECTOR_VARIANT(tan)
NUMCU_VECTOR_VARIANT(asin)
NUMCU_VECTOR_VARIANT(acos)
NUMCU_VECTOR_VARIANT(atan)
NUMCU_VECTOR_VARIANT(sinh)
NUMCU_VECTOR_VARIANT(cosh)
NUMCU_VECTOR_VARIANT(tanh)
NUMCU_VECTOR_VARIANT(asinh)
NUMCU_VECTOR_VARIANT(acosh)
NUMCU_VECTOR_VARIANT(atanh)
NUMCU_VECTOR_VARIANT(exp2)
NUMCU_VECTOR_VARIANT(expm1)
NUMCU_VECTOR_VARIANT(log2)
NUMCU_VECTOR_VARIANT(log10)
NUMCU_VECTOR_VARIANT(log1p)
NUMCU_VECTOR_VARIANT(cbrt)
NUMCU_VECTOR_VARIANT2(atan2)
NUMCU_VECTOR_VARIANT2(hypot)
#endif

#undef NUMCU_VECTOR_VARIANT
#undef NUMCU_VECTOR_VARIANT2

#endif
