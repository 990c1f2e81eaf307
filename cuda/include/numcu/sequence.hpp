// Arithmetic sequences: the values of numcu.arange and numcu.linspace, computed the way NumPy
// computes them (the same formula, in the same type, rounded after the same operations) so that
// the CPU and the GPU give NumPy's values. On the GPU the operations are the explicitly rounded
// intrinsics, which the compiler cannot fuse into a multiply-add.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "numcu/backend.hpp"
#include "numcu/config.hpp"
#include "numcu/dtype.hpp"
#include "numcu/types.hpp"

namespace numcu {

enum class SequenceKind : std::uint8_t {
  // NumPy's arange: out[0] = a, out[1] = b, and out[i] = a + i * (b - a) for i >= 2, in the
  // array's type (float16 in float32, integers wrapping).
  arange,
  // NumPy's linspace: out[i] = i * b + a in the array's type, rounded after each operation
  // (float16 to float16), or (i / divisor) * b + a when `divide` is set (the step underflowed,
  // and b is the whole distance); then out[n - 1] = last when `has_last`, and floor() of every
  // value when `floor` is set (integer results).
  linspace,
};

// A sequence's description, its values held as bytes of the array's element type.
struct SequenceParams {
  SequenceKind kind = SequenceKind::arange;
  std::int64_t n = 0;
  bool has_last = false;
  bool divide = false;
  bool floor = false;
  alignas(16) unsigned char a[16] = {};
  alignas(16) unsigned char b[16] = {};
  alignas(16) unsigned char divisor[16] = {};
  alignas(16) unsigned char last[16] = {};
};

// out[0..p.n) = the sequence, in a dense array of `dtype`.
void sequence_cpu(DType dtype, const SequenceParams& p, void* out);
void sequence_cuda(DType dtype, const SequenceParams& p, void* out, Stream stream);

namespace sequence {

// Correctly rounded float and double operations, never contracted into a fused multiply-add.
#if defined(__CUDA_ARCH__)
#define NUMCU_ROUNDED(name, op, f32, f64)       \
  template <class R>                            \
  NUMCU_HD NUMCU_FORCEINLINE R name(R x, R y) { \
    if constexpr (std::is_same_v<R, float>) {   \
      return f32(x, y);                         \
    } else {                                    \
      return f64(x, y);                         \
    }                                           \
  }
#else
#define NUMCU_ROUNDED(name, op, f32, f64)       \
  template <class R>                            \
  NUMCU_HD NUMCU_FORCEINLINE R name(R x, R y) { \
    return x op y;                              \
  }
#endif
NUMCU_ROUNDED(add, +, __fadd_rn, __dadd_rn)
NUMCU_ROUNDED(mul, *, __fmul_rn, __dmul_rn)
NUMCU_ROUNDED(div, /, __fdiv_rn, __ddiv_rn)
#undef NUMCU_ROUNDED

NUMCU_HD NUMCU_FORCEINLINE float floor_of(float x) { return ::floorf(x); }
NUMCU_HD NUMCU_FORCEINLINE double floor_of(double x) { return ::floor(x); }

// A float16 (or bfloat16) operation as NumPy does it: in float32, rounded back to 16 bits.
template <class T>
NUMCU_HD NUMCU_FORCEINLINE T round_narrow(float x) {
  return convert<T>(x);
}
template <class T>
NUMCU_HD NUMCU_FORCEINLINE float widen(T x) {
  return convert<float>(x);
}

template <class T>
struct Sequence {
  SequenceKind kind;
  std::int64_t n;
  bool has_last;
  bool divide;
  bool floor;
  T a, b, divisor, last;

  static Sequence from(const SequenceParams& p) {
    Sequence s;
    s.kind = p.kind;
    s.n = p.n;
    s.has_last = p.has_last;
    s.divide = p.divide;
    s.floor = p.floor;
    std::memcpy(static_cast<void*>(&s.a), p.a, sizeof(T));
    std::memcpy(static_cast<void*>(&s.b), p.b, sizeof(T));
    std::memcpy(static_cast<void*>(&s.divisor), p.divisor, sizeof(T));
    std::memcpy(static_cast<void*>(&s.last), p.last, sizeof(T));
    return s;
  }

  NUMCU_HD T operator()(std::int64_t i) const {
    if (kind == SequenceKind::arange) return arange(i);
    T v = has_last && i == n - 1 ? last : linspace(i);
    if constexpr (is_narrow_float_v<T>) {
      if (floor) v = round_narrow<T>(floor_of(widen(v)));
    } else if constexpr (std::is_floating_point_v<T>) {
      if (floor) v = floor_of(v);
    }
    return v;
  }

 private:
  NUMCU_HD T arange(std::int64_t i) const {
    if (i == 0) return a;
    if (i == 1) return b;
    if constexpr (std::is_same_v<T, bool>) {
      return b;  // not reached: boolean sequences have at most two elements
    } else if constexpr (std::is_integral_v<T>) {
      // Modular arithmetic: the low bits are those of NumPy's wrapping sum.
      const std::uint64_t start = static_cast<std::uint64_t>(a);
      const std::uint64_t delta = static_cast<std::uint64_t>(b) - start;
      return static_cast<T>(start + static_cast<std::uint64_t>(i) * delta);
    } else if constexpr (is_narrow_float_v<T>) {
      const float start = widen(a);
      const float delta = widen(b) - start;
      return round_narrow<T>(add(start, mul(static_cast<float>(i), delta)));
    } else if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      const R x = static_cast<R>(i);
      return T(add(a.real(), mul(x, R(b.real() - a.real()))),
               add(a.imag(), mul(x, R(b.imag() - a.imag()))));
    } else {
      return add(a, mul(static_cast<T>(i), T(b - a)));
    }
  }

  NUMCU_HD T linspace(std::int64_t i) const {
    if constexpr (is_narrow_float_v<T>) {
      float x = widen(round_narrow<T>(static_cast<float>(i)));
      if (divide) x = widen(round_narrow<T>(div(x, widen(divisor))));
      x = widen(round_narrow<T>(mul(x, widen(b))));
      return round_narrow<T>(add(x, widen(a)));
    } else if constexpr (is_complex_v<T>) {
      // (i + 0j) * b + a, part by part; dividing by a real divisor is NumPy's multiplication
      // by its reciprocal.
      using R = typename T::value_type;
      R x = static_cast<R>(i);
      if (divide) x = mul(x, div(R(1), divisor.real()));
      return T(add(mul(x, b.real()), a.real()), add(mul(x, b.imag()), a.imag()));
    } else if constexpr (std::is_floating_point_v<T>) {
      T x = static_cast<T>(i);
      if (divide) x = div(x, divisor);
      return add(mul(x, b), a);
    } else {
      return a;  // not reached: linspace computes in an inexact type
    }
  }
};

}  // namespace sequence
}  // namespace numcu
