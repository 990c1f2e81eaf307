// The C++ element types behind numcu's dtypes, and conversions between them.
//
// With the CUDA toolkit, float16 is the toolkit's __half and complex numbers are libcu++'s
// cuda::std::complex, in host and device code alike, so the CPU backend and the kernels share
// one set of types. A build without the toolkit (CPU only) falls back to the compiler's
// _Float16 and std::complex, which have the same layout.
#pragma once

#include <cstdint>
#include <type_traits>

#include "numcu/config.hpp"

#if NUMCU_WITH_CUDA
#include <cuda_fp16.h>

#include <cuda/std/complex>
#else
#include <complex>
#endif

namespace numcu {

#if NUMCU_WITH_CUDA
using half = __half;
template <class T>
using complex = cuda::std::complex<T>;
NUMCU_HD NUMCU_FORCEINLINE float half_to_float(half h) { return __half2float(h); }
NUMCU_HD NUMCU_FORCEINLINE half float_to_half(float f) { return __float2half_rn(f); }
NUMCU_HD NUMCU_FORCEINLINE half double_to_half(double d) { return __double2half(d); }
#else
using half = _Float16;
template <class T>
using complex = std::complex<T>;
inline float half_to_float(half h) { return static_cast<float>(h); }
inline half float_to_half(float f) { return static_cast<half>(f); }
inline half double_to_half(double d) { return static_cast<half>(d); }
#endif

using complex64 = complex<float>;
using complex128 = complex<double>;

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<complex<T>> : std::true_type {};
template <class T>
inline constexpr bool is_complex_v = is_complex<T>::value;

template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, half>;

template <class T>
inline constexpr bool is_floating_v = std::is_floating_point_v<T> || is_half_v<T>;

// Inexact types: floating or complex; integer and bool inputs to true division become float64.
template <class T>
inline constexpr bool is_inexact_v = is_floating_v<T> || is_complex_v<T>;

template <class T>
inline constexpr bool is_integer_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// The type arithmetic is done in: float16 is computed in float32, as NumPy does.
template <class T>
struct compute_type {
  using type = T;
};
template <>
struct compute_type<half> {
  using type = float;
};
template <class T>
using compute_t = typename compute_type<T>::type;

// Element conversion with NumPy's meaning: complex to real keeps the real part, anything to
// bool is "not zero", float16 goes through float32 (or float64 when the source is wider).
template <class To, class From>
NUMCU_HD NUMCU_FORCEINLINE To convert(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (is_half_v<From>) {
    return convert<To>(half_to_float(x));
  } else if constexpr (is_complex_v<From>) {
    if constexpr (is_complex_v<To>) {
      using V = typename To::value_type;
      return To(static_cast<V>(x.real()), static_cast<V>(x.imag()));
    } else if constexpr (std::is_same_v<To, bool>) {
      return x.real() != 0 || x.imag() != 0;
    } else {
      return convert<To>(x.real());
    }
  } else if constexpr (is_complex_v<To>) {
    using V = typename To::value_type;
    return To(convert<V>(x), V(0));
  } else if constexpr (is_half_v<To>) {
    if constexpr (std::is_same_v<From, float> || std::is_same_v<From, bool> ||
                  (std::is_integral_v<From> && sizeof(From) <= 2)) {
      return float_to_half(static_cast<float>(x));
    } else {
      return double_to_half(static_cast<double>(x));
    }
  } else if constexpr (std::is_same_v<To, bool>) {
    return x != From(0);
  } else {
    return static_cast<To>(x);
  }
}

}  // namespace numcu
