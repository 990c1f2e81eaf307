// The elementary functions random numbers need (log, log1p, exp, sine and cosine of 2*pi*u,
// log k!), written once with the operations IEEE 754 rounds exactly: +, -, *, /, sqrt and fused
// multiply-adds written as such. The CPU backend and the kernels therefore compute the same bits,
// which the vendors' libraries (glibc's libm, CUDA's libdevice) do not promise each other. The
// kernels that use them are compiled with -fmad=false and the CPU backend with
// -ffp-contract=off, so that no compiler fuses a multiply and an add behind the code's back.
//
// Accuracy: within two units in the last place over the ranges random numbers use (the
// tests compare them with NumPy's libm on millions of arguments). The polynomial coefficients
// are Chebyshev fits made for numcu with mpmath, on the reduced ranges named at each.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "numcu/config.hpp"

#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

namespace numcu::rmath {

// x's bits as a To of the same size (C++20's std::bit_cast): the device's intrinsics in device
// code, memcpy (a register move) on the host.
template <class To, class From>
NUMCU_HD NUMCU_FORCEINLINE To bit_cast(From x) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast: the sizes differ");
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<From, double>) {
    return static_cast<To>(__double_as_longlong(x));
  } else if constexpr (std::is_same_v<To, double>) {
    return __longlong_as_double(static_cast<long long>(x));
  } else if constexpr (std::is_same_v<From, float>) {
    return __float_as_uint(x);
  } else {
    return __uint_as_float(x);
  }
#else
  To y;
  std::memcpy(&y, &x, sizeof y);
  return y;
#endif
}
NUMCU_HD NUMCU_FORCEINLINE std::uint64_t bits(double x) { return bit_cast<std::uint64_t>(x); }
NUMCU_HD NUMCU_FORCEINLINE std::uint32_t bits(float x) { return bit_cast<std::uint32_t>(x); }
NUMCU_HD NUMCU_FORCEINLINE double as_double(std::uint64_t u) { return bit_cast<double>(u); }
NUMCU_HD NUMCU_FORCEINLINE float as_float(std::uint32_t u) { return bit_cast<float>(u); }

// The operations IEEE 754 rounds exactly that are not operators: a * b + c rounded once (fma),
// the square root, floor. The device's intrinsics in device code (which no flag such as
// --use_fast_math changes), the host compiler's builtins elsewhere.
#if defined(__CUDA_ARCH__)
#define NUMCU_EXACT(device, host) device
#else
#define NUMCU_EXACT(device, host) host
#endif
NUMCU_HD NUMCU_FORCEINLINE double fma(double a, double b, double c) {
  return NUMCU_EXACT(__fma_rn, __builtin_fma)(a, b, c);
}
NUMCU_HD NUMCU_FORCEINLINE float fma(float a, float b, float c) {
  return NUMCU_EXACT(__fmaf_rn, __builtin_fmaf)(a, b, c);
}
NUMCU_HD NUMCU_FORCEINLINE double sqrt(double x) {
  return NUMCU_EXACT(__dsqrt_rn, __builtin_sqrt)(x);
}
NUMCU_HD NUMCU_FORCEINLINE float sqrt(float x) {
  return NUMCU_EXACT(__fsqrt_rn, __builtin_sqrtf)(x);
}
NUMCU_HD NUMCU_FORCEINLINE double floor(double x) {
  return NUMCU_EXACT(::floor, __builtin_floor)(x);
}
NUMCU_HD NUMCU_FORCEINLINE float floor(float x) {
  return NUMCU_EXACT(::floorf, __builtin_floorf)(x);
}
#undef NUMCU_EXACT

template <class T>
NUMCU_HD NUMCU_FORCEINLINE T infinity() {
  return std::numeric_limits<T>::infinity();
}

// Horner's scheme with fused multiply-adds: c0 + x * (c1 + x * (c2 + ...)). The coefficients
// are arguments, so that they are immediates in the kernels (a table at namespace scope is host
// memory, which device code cannot read).
template <class T>
NUMCU_HD NUMCU_FORCEINLINE T horner(T, T c) {
  return c;
}
template <class T, class... Rest>
NUMCU_HD NUMCU_FORCEINLINE T horner(T x, T c, Rest... rest) {
  return fma(horner(x, static_cast<T>(rest)...), x, c);
}

// ---------------------------------------------------------------------------------------------
// Natural logarithm. x = 2^k * m with m in [sqrt(1/2), sqrt(2)), f = m - 1, s = f / (2 + f):
// log(m) = 2 atanh(s) = f - (f^2/2 - s (f^2/2 + R(s^2))), where R(z) = z P(z) is the series of
// 2 atanh(s) / s - 2 (a Chebyshev fit of P on [0, 0.02944], the range of s^2). ln 2 is split so
// that k * ln2_hi is exact.

namespace detail {
constexpr double kLn2Hi64 = 0x1.62e42feep-1;
constexpr double kLn2Lo64 = 0x1.a39ef35793c76p-33;
constexpr float kLn2Hi32 = 0x1.62e3p-1f;
constexpr float kLn2Lo32 = 0x1.2fefa2p-17f;
}  // namespace detail

namespace detail {
// log(x) for x = 2^k * (bits i): the reduction and the polynomial, without special cases. The
// exponent is taken as a 32-bit arithmetic shift of the high word, so that the CPU backend's
// loops vectorize with AVX2 as well as AVX-512.
NUMCU_HD NUMCU_FORCEINLINE double log_bits(std::uint64_t i, int k) {
  const std::uint64_t t = i - 0x3FE6A09E667F3BCDull;
  const int e = static_cast<std::int32_t>(t >> 32) >> 20;
  const double f =
      as_double(i - (static_cast<std::uint64_t>(static_cast<std::int64_t>(e)) << 52)) - 1.0;
  const double s = f / (2.0 + f);
  const double z = s * s;
  const double r = z * horner(z, 0x1.5555555555558p-1, 0x1.9999999995288p-2, 0x1.2492492df9f94p-2,
                              0x1.c71c62dba6605p-3, 0x1.7462b73112de7p-3, 0x1.39fe142880193p-3,
                              0x1.2b5baa716e7eap-3);
  const double hfsq = 0.5 * f * f;
  const double dk = static_cast<double>(k + e);
  return dk * detail::kLn2Hi64 - ((hfsq - (s * (hfsq + r) + dk * detail::kLn2Lo64)) - f);
}
// float: log(m) = f Q(f) with Q(f) = log1p(f) / f a Chebyshev fit of degree 8 on
// [sqrt(1/2) - 1, sqrt(2) - 1], within 1.5e-7 of log(m) relatively: no division, which costs
// the kernels more than the polynomial's extra terms (the float normals' Box-Muller).
NUMCU_HD NUMCU_FORCEINLINE float log_bits(std::uint32_t i, int k) {
  const int e = static_cast<std::int32_t>(i - 0x3F3504F3u) >> 23;
  const float f = as_float(i - (static_cast<std::uint32_t>(e) << 23)) - 1.0f;
  const float q =
      horner(f, 0x1.000000p+0f, -0x1.fffff8p-2f, 0x1.555790p-2f, -0x1.0005a6p-2f, 0x1.98b80ap-3f,
             -0x1.5329bep-3f, 0x1.322850p-3f, -0x1.26729ep-3f, 0x1.6626eap-4f);
  const float dk = static_cast<float>(k + e);
  return dk * detail::kLn2Hi32 + fma(f, q, dk * detail::kLn2Lo32);
}
}  // namespace detail

// log(x) for a positive, finite, normal x (no special cases: the transforms' arguments are such),
// the same bits as log(x).
NUMCU_HD NUMCU_FORCEINLINE double log_normal(double x) { return detail::log_bits(bits(x), 0); }
NUMCU_HD NUMCU_FORCEINLINE float log_normal(float x) { return detail::log_bits(bits(x), 0); }

namespace detail {
template <class T>
using bits_t = decltype(bits(T()));

// log(x) with its special cases: 0, negative numbers, infinity and NaN, and subnormal x scaled
// into the normal range first (by 2^54, 2^25 for float).
template <class T>
NUMCU_HD NUMCU_FORCEINLINE T log_checked(T x, bits_t<T> infinity_bits,
                                         bits_t<T> smallest_normal_bits, int scale_exponent,
                                         T scale) {
  bits_t<T> i = bits(x);
  int k = 0;
  if (!(x > T(0)) || i >= infinity_bits) {
    if (x == T(0)) return -infinity<T>();
    if (x < T(0)) return std::numeric_limits<T>::quiet_NaN();
    return x + x;  // NaN or +inf
  }
  if (i < smallest_normal_bits) {
    x *= scale;
    i = bits(x);
    k = -scale_exponent;
  }
  return log_bits(i, k);
}
}  // namespace detail

NUMCU_HD inline double log(double x) {
  return detail::log_checked(x, 0x7FF0000000000000ull, 0x0010000000000000ull, 54, 0x1p54);
}
NUMCU_HD inline float log(float x) {
  return detail::log_checked(x, 0x7F800000u, 0x00800000u, 25, 0x1p25f);
}

// log(1 + x), accurate for small x: log(u) scaled by the rounding error of u = 1 + x.
NUMCU_HD inline double log1p(double x) {
  const double u = 1.0 + x;
  if (u == 1.0) return x;
  if (u == infinity<double>()) return u;
  return log(u) * (x / (u - 1.0));
}

// ---------------------------------------------------------------------------------------------
// Exponential. x = k ln2 + r with |r| <= ln2 / 2 and k the nearest integer to x / ln2;
// exp(r) = 1 + r + r^2 Q(r) (Q a Chebyshev fit on [-ln2/2, ln2/2]); then scaled by 2^k,
// in two steps where 2^k alone is not a normal number.

NUMCU_HD NUMCU_FORCEINLINE double pow2i(int k) {  // 2^k for k in [-1022, 1023]
  return as_double(static_cast<std::uint64_t>(k + 1023) << 52);
}
NUMCU_HD NUMCU_FORCEINLINE float pow2i_f(int k) {  // 2^k for k in [-126, 127]
  return as_float(static_cast<std::uint32_t>(k + 127) << 23);
}

NUMCU_HD inline double exp(double x) {
  if (x != x) return x;
  if (x > 0x1.62e42fefa39efp+9) return infinity<double>();  // past log(DBL_MAX)
  if (x < -0x1.74910d52d3052p+9) return 0.0;                // below log(smallest subnormal / 2)
  constexpr double kShift = 0x1.8p52;
  const double t = x * 0x1.71547652b82fep0;  // x / ln2
  const double kd = (t + kShift) - kShift;   // nearest integer
  const int k = static_cast<int>(kd);
  const double r = (x - kd * detail::kLn2Hi64) - kd * detail::kLn2Lo64;
  const double er =
      1.0 + fma(r * r,
                horner(r, 0x1.0000000000001p-1, 0x1.5555555555557p-3, 0x1.5555555553d67p-5,
                       0x1.11111111100dfp-7, 0x1.6c16c1788a24fp-10, 0x1.a01a01abe6549p-13,
                       0x1.a019b913e6e77p-16, 0x1.71de0236eabcbp-19, 0x1.28917d444b49fp-22,
                       0x1.af4dde4b9be8cp-26),
                r);
  if (k >= -1021 && k <= 1023) return er * pow2i(k);
  if (k > 1023) return er * pow2i(k - 1) * 2.0;
  return (er * pow2i(k + 54)) * 0x1p-54;
}

NUMCU_HD inline float exp(float x) {
  if (x != x) return x;
  if (x > 0x1.62e42ep+6f) return infinity<float>();  // past log(FLT_MAX)
  if (x < -0x1.9fe368p+6f) return 0.0f;              // below log(smallest subnormal / 2)
  constexpr float kShift = 0x1.8p23f;
  const float t = x * 0x1.715476p0f;
  const float kd = (t + kShift) - kShift;
  const int k = static_cast<int>(kd);
  const float r = (x - kd * 0x1.62e4p-1f) - kd * 0x1.7f7d1cp-20f;
  const float er = 1.0f + fma(r * r,
                              horner(r, 0x1.000000p-1f, 0x1.5554dcp-3f, 0x1.5554eap-5f,
                                     0x1.120b66p-7f, 0x1.6d431ap-10f),
                              r);
  if (k >= -125 && k <= 127) return er * pow2i_f(k);
  if (k > 127) return er * pow2i_f(k - 1) * 2.0f;
  return (er * pow2i_f(k + 25)) * 0x1p-25f;
}

// ---------------------------------------------------------------------------------------------
// sin(2 pi u) and cos(2 pi u) for u in [0, 1) (a multiple of a power of two, as random numbers
// are): 4u = q + f exactly, q an integer and |f| <= 1/2, then sin(pi f / 2) = f S(f^2) and
// cos(pi f / 2) = C(f^2) (Chebyshev fits on f^2 in [0, 1/4]), rotated by q quarter turns.

namespace detail {

template <class T>
NUMCU_HD NUMCU_FORCEINLINE void quarter_turns(T t, T& s, T& c) {
  // The nearest integer by adding and removing 1.5 * 2^52 (2^23) rather than floor(), which
  // compilers do not vectorize where floating-point exceptions are honoured.
  constexpr T kShift = sizeof(T) == 8 ? T(0x1.8p52) : T(0x1.8p23f);
  const T q = (t + kShift) - kShift;
  const T f = t - q;  // exact, in [-1/2, 1/2]
  const T x = f * f;
  T sf, cf;
  if constexpr (sizeof(T) == 8) {
    sf = f * horner(x, 0x1.921fb54442d18p+0, -0x1.4abbce625be53p-1, 0x1.466bc6775aad9p-4,
                    -0x1.32d2cce62ac23p-8, 0x1.50783485cbec4p-13, -0x1.e3074b501073bp-19,
                    0x1.e8eed144474edp-25, -0x1.6c5b8d7ac53f5p-31);
    cf = horner(x, 0x1.0000000000000p+0, -0x1.3bd3cc9be45dep+0, 0x1.03c1f081b5aacp-2,
                -0x1.55d3c7e3c90fbp-6, 0x1.e1f50683561dfp-11, -0x1.a6d1ec793338cp-16,
                0x1.f9cc413461d3ep-22, -0x1.b264c3523f016p-28);
  } else {
    sf = f * horner(x, 0x1.921fb6p+0f, -0x1.4abbbap-1f, 0x1.465ec4p-4f, -0x1.2d9b7cp-8f);
    cf = horner(x, 0x1.000000p+0f, -0x1.3bd392p+0f, 0x1.03af5ap-2f, -0x1.4e5e6ep-6f);
  }
  // The quarter turn, q mod 4, as a float (no integer lanes, so that the CPU backend's loops
  // vectorize): odd turns exchange sine and cosine; turns 2 and 3 negate the sine, 1 and 2 the
  // cosine.
  const T turn = q >= T(4) ? q - T(4) : q;  // q is 0 .. 4
  const bool odd = turn == T(1) || turn == T(3);
  const T ss = odd ? cf : sf;
  const T cc = odd ? sf : cf;
  s = turn >= T(2) ? -ss : ss;
  c = (turn == T(1) || turn == T(2)) ? -cc : cc;
}
}  // namespace detail

// s = sin(2 pi u), c = cos(2 pi u).
NUMCU_HD NUMCU_FORCEINLINE void sincos_2pi(double u, double& s, double& c) {
  detail::quarter_turns(4.0 * u, s, c);
}
NUMCU_HD NUMCU_FORCEINLINE void sincos_2pi(float u, float& s, float& c) {
  detail::quarter_turns(4.0f * u, s, c);
}

// ---------------------------------------------------------------------------------------------
// log(k!) for k >= 0: a table below 16, else Stirling's series for log Gamma(k + 1) to the
// term in x^-7 (its error below 1e-14 there).

namespace detail {
constexpr double kHalfLog2Pi = 0x1.d67f1c864beb5p-1;
}  // namespace detail

NUMCU_HD inline double log_factorial(double k) {
  if (k < 16.0) {
    // log(k!) rounded to double (mpmath), k = 0 .. 15.
    constexpr double table[16] = {0.0,
                                  0.0,
                                  0x1.62e42fefa39efp-1,
                                  0x1.cab0bfa2a2002p+0,
                                  0x1.96ca77c922cf9p+1,
                                  0x1.326643c4479c9p+2,
                                  0x1.a51273acf01cap+2,
                                  0x1.10ce1f32dcc30p+3,
                                  0x1.5358e82fcb70dp+3,
                                  0x1.99a8921a7f7cfp+3,
                                  0x1.e357590954d15p+3,
                                  0x1.180973f3a8d74p+4,
                                  0x1.3fcba16d50143p+4,
                                  0x1.68d5a9c3b32cep+4,
                                  0x1.930f3df162a42p+4,
                                  0x1.be636a63fd346p+4};
    return table[static_cast<int>(k)];
  }
  const double x = k + 1.0;
  const double r = 1.0 / x;
  const double r2 = r * r;
  const double series =
      r * (1.0 / 12.0 - r2 * (1.0 / 360.0 - r2 * (1.0 / 1260.0 - r2 * (1.0 / 1680.0))));
  return (x - 0.5) * log(x) - x + detail::kHalfLog2Pi + series;
}

}  // namespace numcu::rmath
