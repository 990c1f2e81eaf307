// The C++ element types behind numcu's dtypes, and conversions between them.
//
// With the CUDA toolkit, float16 is the toolkit's __half, bfloat16 its __nv_bfloat16 and complex
// numbers are libcu++'s cuda::std::complex, in host and device code alike, so the CPU backend and
// the kernels share one set of types. A build without the toolkit (CPU only) falls back to the
// compiler's _Float16, a 16-bit storage type for bfloat16 and std::complex, which have the same
// layout.
#pragma once

#include <cstdint>
#include <type_traits>

#include "numcu/config.hpp"

#if NUMCU_WITH_CUDA
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda/std/complex>
#else
#include <complex>
#include <cstring>
#endif

namespace numcu {

#if NUMCU_WITH_CUDA
using half = __half;
template <class T>
using complex = cuda::std::complex<T>;
NUMCU_HD NUMCU_FORCEINLINE float half_to_float(half h) { return __half2float(h); }
NUMCU_HD NUMCU_FORCEINLINE half float_to_half(float f) { return __float2half_rn(f); }
NUMCU_HD NUMCU_FORCEINLINE half double_to_half(double d) { return __double2half(d); }
using bfloat16 = __nv_bfloat16;
// bfloat16 is the upper half of a float32, so widening it is a shift, which is what the
// toolkit's conversion does too. Written out, the compiler takes both halves of a 32-bit word
// with a byte permute each, where the conversion extracts each half and multiplies it by 2^16
// (on the pipe the float adds use): a bfloat16 sum at 2^27 ran 2.7% faster on an H100.
NUMCU_HD NUMCU_FORCEINLINE float bfloat16_to_float(bfloat16 b) {
#ifdef __CUDA_ARCH__
  return __uint_as_float(static_cast<unsigned>(__bfloat16_as_ushort(b)) << 16);
#else
  return __bfloat162float(b);
#endif
}
NUMCU_HD NUMCU_FORCEINLINE bfloat16 float_to_bfloat16(float f) { return __float2bfloat16_rn(f); }
#else
using half = _Float16;
template <class T>
using complex = std::complex<T>;
inline float half_to_float(half h) { return static_cast<float>(h); }
inline half float_to_half(float f) { return static_cast<half>(f); }
inline half double_to_half(double d) { return static_cast<half>(d); }
// bfloat16 is the upper half of a float32: only storage, all arithmetic is in float32.
struct bfloat16 {
  std::uint16_t bits;
};
inline float bfloat16_to_float(bfloat16 b) {
  const std::uint32_t u = static_cast<std::uint32_t>(b.bits) << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
// Round to nearest, ties to even; NaN stays a (quiet) NaN of the same sign.
inline bfloat16 float_to_bfloat16(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  if ((u & 0x7fffffffu) > 0x7f800000u) return {static_cast<std::uint16_t>((u >> 16) | 0x40u)};
  u += 0x7fffu + ((u >> 16) & 1u);
  return {static_cast<std::uint16_t>(u >> 16)};
}
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
inline constexpr bool is_bfloat16_v = std::is_same_v<T, bfloat16>;

// The 16-bit floats: stored narrow, computed in float32.
template <class T>
inline constexpr bool is_narrow_float_v = is_half_v<T> || is_bfloat16_v<T>;

template <class T>
inline constexpr bool is_floating_v = std::is_floating_point_v<T> || is_narrow_float_v<T>;

// Inexact types: floating or complex; integer and bool inputs to true division become float64.
template <class T>
inline constexpr bool is_inexact_v = is_floating_v<T> || is_complex_v<T>;

template <class T>
inline constexpr bool is_integer_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// Whether T is one of U... (an op among a list of ops, say).
template <class T, class... U>
inline constexpr bool is_any_of_v = (std::is_same_v<T, U> || ...);

// The type arithmetic is done in: float16 is computed in float32, as NumPy does, and bfloat16
// too, as PyTorch and ml_dtypes do.
template <class T>
struct compute_type {
  using type = T;
};
template <>
struct compute_type<half> {
  using type = float;
};
template <>
struct compute_type<bfloat16> {
  using type = float;
};
template <class T>
using compute_t = typename compute_type<T>::type;

// Element conversion with NumPy's meaning: complex to real keeps the real part, anything to
// bool is "not zero", float16 goes through float32 (or float64 when the source is wider).
// bfloat16 goes through float32 both ways, whatever the source, as ml_dtypes and PyTorch round it.
template <class To, class From>
NUMCU_HD NUMCU_FORCEINLINE To convert(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (is_half_v<From>) {
    return convert<To>(half_to_float(x));
  } else if constexpr (is_bfloat16_v<From>) {
    return convert<To>(bfloat16_to_float(x));
  } else if constexpr (is_bfloat16_v<To>) {
    return float_to_bfloat16(convert<float>(x));
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
