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
// Rounds once (one instruction from compute capability 9.0; before it, and on the host, through
// float32 rounded to odd, as below).
NUMCU_HD NUMCU_FORCEINLINE bfloat16 double_to_bfloat16(double d) { return __double2bfloat16(d); }
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
// Rounds once: float32 rounded to odd (toward zero, the last bit set where anything was lost),
// then to nearest even.
inline bfloat16 double_to_bfloat16(double d) {
  float f = static_cast<float>(d);
  const double back = f;
  if (back != d && d == d) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    if (back > d ? d > 0 : d < 0) --u;  // rounded away from zero (to infinity, maybe): step back
    u |= 1u;
    std::memcpy(&f, &u, sizeof f);
  }
  return float_to_bfloat16(f);
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

// A 64-bit integer rounded once to bfloat16: its magnitude rounded to odd at float32's 24 bits (the
// bits below folded into the last), which float32 then holds exactly, then to nearest even.
template <class I>
NUMCU_HD NUMCU_FORCEINLINE bfloat16 integer_to_bfloat16(I x) {
  std::uint64_t m = static_cast<std::uint64_t>(x);  // sign-extended where signed
  bool negative = false;
  if constexpr (std::is_signed_v<I>) {
    negative = x < 0;
    if (negative) m = std::uint64_t(0) - m;
  }
  float f;
  if (m < (std::uint64_t(1) << 24)) {
    f = static_cast<float>(m);
  } else {
#ifdef __CUDA_ARCH__
    const int width = 64 - __clzll(static_cast<long long>(m));
#else
    const int width = 64 - __builtin_clzll(m);
#endif
    const int shift = width - 24;
    const std::uint64_t lost = m & ((std::uint64_t(1) << shift) - 1);
    const std::uint64_t top = (m >> shift) | std::uint64_t(lost != 0);
    // top < 2^24 and a power of two scale: both exact.
    f = static_cast<float>(top) * static_cast<float>(std::uint64_t(1) << shift);
  }
  return float_to_bfloat16(negative ? -f : f);
}

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
// bfloat16 widens through float32, and a value is rounded to it once, as ml_dtypes (0.7 and later)
// rounds NumPy's casts: through float32 rounded to nearest, float64's 1 + 2^-8 + 2^-30 would
// lose its 2^-30, land on the tie between 1 and 1 + 2^-7 and go to the even 1, where the nearest
// is 1 + 2^-7; so float64 and the integers float32 cannot hold round to odd first.
template <class To, class From>
NUMCU_HD NUMCU_FORCEINLINE To convert(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (is_half_v<From>) {
    return convert<To>(half_to_float(x));
  } else if constexpr (is_bfloat16_v<From>) {
    return convert<To>(bfloat16_to_float(x));
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
  } else if constexpr (is_bfloat16_v<To>) {
    if constexpr (std::is_same_v<From, double>) {
      return double_to_bfloat16(x);
    } else if constexpr (std::is_integral_v<From> && sizeof(From) == 4) {
      // float64 holds every 32-bit integer: one rounding, two conversion instructions on a GPU.
      return double_to_bfloat16(static_cast<double>(x));
    } else if constexpr (std::is_integral_v<From> && sizeof(From) == 8) {
      return integer_to_bfloat16(x);
    } else {
      return float_to_bfloat16(static_cast<float>(x));
    }
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
