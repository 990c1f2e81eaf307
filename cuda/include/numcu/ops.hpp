// The arithmetic, once, for the CUDA kernels and the CPU backend alike.
//
// Every ufunc is a functor with:
// - `name` (NumPy's) and `arity` (1, 2 or 3 inputs);
// - `loop_dtype(promoted)`: the dtype the loop runs on for inputs promoted to `promoted`
//   (sqrt(int16) runs on float32, floor_divide(bool) on int8, as NumPy's loop choice);
// - `supports<T>`: whether there is a loop for T (a TypeError otherwise);
// - `out_t<T>`: the element type it writes (bool for comparisons and predicates, the real type
//   for absolute of complex);
// - `condition_first`: input 0 is a condition cast to bool (where), the others run on T;
// - operator(), which takes the compute types (compute_t<T>: float16 computes in float32).
// The bases below give the common answers; a functor overrides what differs.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "numcu/config.hpp"
#include "numcu/dtype.hpp"
#include "numcu/types.hpp"

#if NUMCU_WITH_CUDA
#include <cuda/std/cmath>
#include <cuda/std/limits>
#else
#include <cmath>
#endif

namespace numcu {

// Run-time parameters some functors take (div's zero-division default).
struct OpParams {
  double real = 0;
  double imag = 0;
};

namespace ops {

// libcu++'s <cmath> and <complex> work in host and device code alike.
#if NUMCU_WITH_CUDA
namespace m = ::cuda::std;
#else
namespace m = ::std;
#endif

// Signed integer overflow wraps in NumPy; doing the arithmetic unsigned gives that without
// undefined behaviour. Types narrower than int are widened to unsigned int first, so that
// their product cannot overflow a signed int either.
template <class T>
using wrap_t =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <class T>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<complex<T>> {
  using type = T;
};
template <class T>
using real_t = typename real_of<T>::type;

template <class T>
inline constexpr bool is_signed_int_v = is_integer_v<T> && std::is_signed_v<T>;
template <class T>
inline constexpr bool is_real_v = !is_complex_v<T>;
template <class T>
inline constexpr bool is_int_or_bool_v = std::is_integral_v<T>;

template <class T>
NUMCU_HD NUMCU_FORCEINLINE T wrap_neg(T a) {
  return static_cast<T>(wrap_t<T>(0) - static_cast<wrap_t<T>>(a));
}

template <class T>
NUMCU_HD NUMCU_FORCEINLINE bool truthy(T a) {
  if constexpr (is_complex_v<T>) {
    return a.real() != 0 || a.imag() != 0;
  } else {
    return a != T(0);
  }
}

template <class T>
NUMCU_HD NUMCU_FORCEINLINE bool isnan_any(T a) {
  if constexpr (is_complex_v<T>) {
    return m::isnan(a.real()) || m::isnan(a.imag());
  } else if constexpr (std::is_floating_point_v<T>) {
    return m::isnan(a);
  } else {
    return false;
  }
}

// Products and sums rounded one by one, never contracted into a multiply-add. nvcc contracts
// x*y + z*w (-fmad=true, its default) into fma(x, y, z*w) or fma(z, w, x*y) as it sees fit at
// each place the code is inlined, and the two round differently: the same functor then gives
// other last bits in another kernel (sm_90, libcu++'s complex operator*: the ufunc kernel's
// imaginary part was fma(a, d, b*c), the fused interpreter's fma(b, c, a*d)). The device's
// round-to-nearest intrinsics are never contracted, so code built on these computes the same
// bits in every kernel, and the bits the CPU backend (-ffp-contract=off) computes.
#ifdef __CUDA_ARCH__
#define NUMCU_ROUNDED(name, op, f32, f64)       \
  template <class R>                            \
  NUMCU_HD NUMCU_FORCEINLINE R name(R a, R b) { \
    if constexpr (std::is_same_v<R, float>)     \
      return f32(a, b);                         \
    else                                        \
      return f64(a, b);                         \
  }
#else
#define NUMCU_ROUNDED(name, op, f32, f64)       \
  template <class R>                            \
  NUMCU_HD NUMCU_FORCEINLINE R name(R a, R b) { \
    return a op b;                              \
  }
#endif
NUMCU_ROUNDED(mul_rn, *, __fmul_rn, __dmul_rn)
NUMCU_ROUNDED(add_rn, +, __fadd_rn, __dadd_rn)
NUMCU_ROUNDED(sub_rn, -, __fsub_rn, __dsub_rn)
#undef NUMCU_ROUNDED

// Infinities to +-1 and finite values to +-0, NaN to +-0 (C99 Annex G's recovery below).
template <class R>
NUMCU_HD NUMCU_FORCEINLINE R unit_if_inf(R v) {
  return m::copysign(m::isinf(v) ? R(1) : R(0), v);
}
template <class R>
NUMCU_HD NUMCU_FORCEINLINE R zero_if_nan(R v) {
  return m::isnan(v) ? m::copysign(R(0), v) : v;
}

// The complex product (ac - bd) + (ad + bc)i, each product and sum rounded on its own (mul_rn),
// as libcu++'s operator* and C99's Annex G define it: where both parts come out NaN but a factor
// is infinite (or a partial product overflowed), the product is recomputed as an infinity of the
// right quadrant. Exact under exchange of the factors.
template <class T>
NUMCU_HD T complex_multiply(T z, T w) {
  using R = typename T::value_type;
  R a = z.real(), b = z.imag(), c = w.real(), d = w.imag();
  R ac = mul_rn(a, c), bd = mul_rn(b, d), ad = mul_rn(a, d), bc = mul_rn(b, c);
  R x = sub_rn(ac, bd), y = add_rn(ad, bc);
  if (m::isnan(x) && m::isnan(y)) {
    bool recalc = false;
    if (m::isinf(a) || m::isinf(b)) {
      a = unit_if_inf(a);
      b = unit_if_inf(b);
      c = zero_if_nan(c);
      d = zero_if_nan(d);
      recalc = true;
    }
    if (m::isinf(c) || m::isinf(d)) {
      c = unit_if_inf(c);
      d = unit_if_inf(d);
      a = zero_if_nan(a);
      b = zero_if_nan(b);
      recalc = true;
    }
    if (!recalc && (m::isinf(ac) || m::isinf(bd) || m::isinf(ad) || m::isinf(bc))) {
      a = zero_if_nan(a);
      b = zero_if_nan(b);
      c = zero_if_nan(c);
      d = zero_if_nan(d);
      recalc = true;
    }
    if (recalc) {
      const R inf = m::numeric_limits<R>::infinity();
      x = mul_rn(inf, sub_rn(mul_rn(a, c), mul_rn(b, d)));
      y = mul_rn(inf, add_rn(mul_rn(a, d), mul_rn(b, c)));
    }
  }
  return T(x, y);
}

// NumPy's ordering of complex numbers: lexicographic, with NaN comparing false.
template <class T>
NUMCU_HD NUMCU_FORCEINLINE bool less(T a, T b) {
  if constexpr (is_complex_v<T>) {
    return (a.real() < b.real() && !m::isnan(a.imag()) && !m::isnan(b.imag())) ||
           (a.real() == b.real() && a.imag() < b.imag());
  } else {
    return a < b;
  }
}
template <class T>
NUMCU_HD NUMCU_FORCEINLINE bool less_equal(T a, T b) {
  if constexpr (is_complex_v<T>) {
    return (a.real() < b.real() && !m::isnan(a.imag()) && !m::isnan(b.imag())) ||
           (a.real() == b.real() && a.imag() <= b.imag());
  } else {
    return a <= b;
  }
}

// NumPy's dtype mappings from the promoted input dtype to the loop's.
inline DType bool_as_int8(DType d) { return d == DType::bool_ ? DType::int8 : d; }
// The smallest float that holds the input: int8 -> float16, int16 -> float32, int32 -> float64.
inline DType as_inexact(DType d) { return is_inexact(d) ? d : promote_types(d, DType::float16); }

// Loops on the promoted dtype itself, writing it.
// Which Python signature a ufunc gets: NumPy's (x[, x2], /, out=None, *, device=None,
// stream=None); NumPy's plus AMYPAD NumCu's dev_id=, sync= and output= (add, subtract, multiply,
// divide); or a signature of its own, bound by hand (div's default=, where, clip).
enum class Binding { numpy, numcu, own };

struct SameLoop {
  static constexpr Binding binding = Binding::numpy;
  static constexpr bool condition_first = false;
  // NumPy picks the first loop every input casts to safely: for the float functions that is
  // each input's smallest float, promoted (int8 with uint8 runs on float16, not on
  // float32 as int16 would), for the others the promoted dtype's loop.
  static constexpr bool loop_per_input = false;
  static DType loop_dtype(DType d) { return d; }
  template <class T>
  using out_t = T;
};
// Integer arithmetic NumPy has no boolean loop for: bool runs on int8.
struct IntLoop : SameLoop {
  static DType loop_dtype(DType d) { return bool_as_int8(d); }
};
// Float functions: integers run on the smallest float that holds them.
struct FloatLoop : SameLoop {
  static constexpr bool loop_per_input = true;
  static DType loop_dtype(DType d) { return as_inexact(d); }
};
// Comparisons and predicates: any dtype in, bool out.
struct Predicate : SameLoop {
  template <class T>
  using out_t = bool;
};

// ---------------------------------------------------------------------------------------------
// Arithmetic

struct Add : SameLoop {
  static constexpr Binding binding = Binding::numcu;
  static constexpr int arity = 2;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      return static_cast<T>(static_cast<wrap_t<T>>(a) + static_cast<wrap_t<T>>(b));
    } else if constexpr (std::is_same_v<T, bool>) {
      return a || b;
    } else {
      return a + b;
    }
  }
};

struct Subtract : SameLoop {
  static constexpr Binding binding = Binding::numcu;
  static constexpr int arity = 2;
  // NumPy has no boolean subtract: it points to logical_xor instead.
  template <class T>
  static constexpr bool supports = !std::is_same_v<T, bool>;
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      return static_cast<T>(static_cast<wrap_t<T>>(a) - static_cast<wrap_t<T>>(b));
    } else {
      return a - b;
    }
  }
};

struct Multiply : SameLoop {
  static constexpr Binding binding = Binding::numcu;
  static constexpr int arity = 2;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      return static_cast<T>(static_cast<wrap_t<T>>(a) * static_cast<wrap_t<T>>(b));
    } else if constexpr (std::is_same_v<T, bool>) {
      return a && b;
    } else if constexpr (is_complex_v<T>) {
      return complex_multiply(a, b);
    } else {
      return a * b;
    }
  }
};

// True division: integers and bool divide in float64, as in NumPy.
struct Divide : SameLoop {
  static constexpr Binding binding = Binding::numcu;
  static constexpr int arity = 2;
  static DType loop_dtype(DType d) { return is_inexact(d) ? d : DType::float64; }
  template <class T>
  static constexpr bool supports = is_inexact_v<T>;
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) {
      return complex_divide(a, b);
    } else {
      return a / b;
    }
  }

  // Complex division as NumPy computes it: Smith's scaling by the larger part of the divisor,
  // and, for a zero divisor, division by its magnitude (+0), so that the infinities take the
  // numerator's signs whatever the zero's sign.
  template <class T>
  NUMCU_HD static T complex_divide(T a, T b) {
    using V = typename T::value_type;
    const V ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    const V abs_br = m::fabs(br), abs_bi = m::fabs(bi);
    if (abs_br >= abs_bi) {
      if (abs_br == V(0) && abs_bi == V(0)) return T(ar / abs_br, ai / abs_br);
      const V ratio = bi / br;
      const V scale = V(1) / (br + bi * ratio);
      return T((ar + ai * ratio) * scale, (ai - ar * ratio) * scale);
    }
    const V ratio = br / bi;
    const V scale = V(1) / (bi + br * ratio);
    return T((ar * ratio + ai) * scale, (ai * ratio - ar) * scale);
  }
};

// NumCu's div: the quotient where the divisor is not zero, `default` where it is.
struct DivDefault : Divide {
  static constexpr Binding binding = Binding::own;
  explicit DivDefault(const OpParams& p) : real(p.real), imag(p.imag) {}
  double real, imag;
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    if (b == T(0)) {
      if constexpr (is_complex_v<T>) {
        using V = typename T::value_type;
        return T(static_cast<V>(real), static_cast<V>(imag));
      } else {
        return static_cast<T>(real);
      }
    }
    return Divide::operator()(a, b);
  }
};

// Python's floor division and modulo on floats, as NumPy's npy_divmod computes them.
template <class F>
NUMCU_HD F float_floor_divide(F a, F b) {
  if (b == F(0)) return a / b;
  F mod = m::fmod(a, b);
  F div = (a - mod) / b;
  if (mod != F(0) && ((b < F(0)) != (mod < F(0)))) div -= F(1);
  if (div != F(0)) {
    F floor_div = m::floor(div);
    if (div - floor_div > F(0.5)) floor_div += F(1);
    return floor_div;
  }
  return m::copysign(F(0), a / b);
}

template <class F>
NUMCU_HD F float_remainder(F a, F b) {
  F mod = m::fmod(a, b);
  if (b == F(0)) return mod;
  if (mod != F(0)) {
    if ((b < F(0)) != (mod < F(0))) mod += b;
  } else {
    mod = m::copysign(F(0), b);
  }
  return mod;
}

// Integer x // 0 and x % 0 give 0 as in NumPy; x // -1 and x % -1 never reach the hardware
// divide, which traps on INT_MIN / -1.
struct FloorDivide : IntLoop {
  static constexpr int arity = 2;
  template <class T>
  static constexpr bool supports = is_real_v<T> && !std::is_same_v<T, bool>;
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return wrap_neg(a);
        const T q = static_cast<T>(a / b);
        return (a % b != 0 && ((a < 0) != (b < 0))) ? static_cast<T>(q - 1) : q;
      } else {
        return static_cast<T>(a / b);
      }
    } else {
      return float_floor_divide(a, b);
    }
  }
};

struct Remainder : IntLoop {
  static constexpr int arity = 2;
  template <class T>
  static constexpr bool supports = is_real_v<T> && !std::is_same_v<T, bool>;
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return 0;
        const T r = static_cast<T>(a % b);
        return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(r + b) : r;
      } else {
        return static_cast<T>(a % b);
      }
    } else {
      return float_remainder(a, b);
    }
  }
};

// Integer powers by squaring, wrapping like NumPy.
struct Power : IntLoop {
  static constexpr int arity = 2;
  template <class T>
  static constexpr bool supports = !std::is_same_v<T, bool>;
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      if constexpr (std::is_signed_v<T>) {
        // A negative exponent: 1 / a**-b truncated towards zero, which is what the host checks
        // refuse (NumPy's ValueError) and what device arrays, never checked (that would wait
        // for the GPU), give: 1 for a = 1, +-1 for a = -1, 0 otherwise (0 too for a = 0).
        if (b < 0) return a == 1 ? T(1) : a == T(-1) ? ((b & 1) ? T(-1) : T(1)) : T(0);
      }
      wrap_t<T> base = static_cast<wrap_t<T>>(a), result = 1;
      for (auto e = static_cast<std::make_unsigned_t<T>>(b); e != 0; e >>= 1) {
        if (e & 1u) result = static_cast<wrap_t<T>>(result * base);
        base = static_cast<wrap_t<T>>(base * base);
      }
      return static_cast<T>(result);
    } else if constexpr (is_complex_v<T>) {
      return complex_power(a, b);
    } else {
      return m::pow(a, b);
    }
  }

  // NumPy's complex power: exact for small integer exponents (repeated products, and for negative
  // ones the reciprocal by divide's formula, as NumPy's cdiv); 0 to a power with a positive real
  // part is 0, to any other power NaN.
  template <class T>
  NUMCU_HD static T complex_power(T a, T b) {
    using V = typename T::value_type;
    if (b.real() == V(0) && b.imag() == V(0)) return T(1);
    if (a.real() == V(0) && a.imag() == V(0)) {
      if (b.real() > V(0)) return T(0);
      const V nan = m::numeric_limits<V>::quiet_NaN();
      return T(nan, nan);
    }
    if (b.imag() == V(0) && b.real() > V(-100) && b.real() < V(100)) {
      const int n = static_cast<int>(b.real());
      if (static_cast<V>(n) == b.real()) {
        T result(1), base = a;
        for (unsigned e = static_cast<unsigned>(n < 0 ? -n : n); e != 0; e >>= 1) {
          if (e & 1u) result = complex_multiply(result, base);
          base = complex_multiply(base, base);
        }
        return n < 0 ? Divide::complex_divide(T(1), result) : result;
      }
    }
    // libcu++'s pow(a, b), exp(b * log(a)), with its product rounded as multiply's.
    return m::exp(complex_multiply(b, m::log(a)));
  }
};

struct Negative : SameLoop {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool supports = !std::is_same_v<T, bool>;
  template <class T>
  NUMCU_HD T operator()(T a) const {
    if constexpr (is_integer_v<T>) {
      return wrap_neg(a);
    } else {
      return -a;
    }
  }
};

struct Positive : SameLoop {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool supports = !std::is_same_v<T, bool>;
  template <class T>
  NUMCU_HD T operator()(T a) const {
    return a;
  }
};

// absolute of complex is real, as in NumPy (complex64 -> float32).
struct Absolute : SameLoop {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  using out_t = real_t<T>;
  template <class T>
  NUMCU_HD real_t<T> operator()(T a) const {
    if constexpr (is_signed_int_v<T>) {
      return a < 0 ? wrap_neg(a) : a;
    } else if constexpr (std::is_integral_v<T>) {
      return a;
    } else {
      return m::abs(a);
    }
  }
};

// sign of complex is z / |z| (NumPy 2).
struct Sign : SameLoop {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool supports = !std::is_same_v<T, bool>;
  template <class T>
  NUMCU_HD T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      const auto r = m::abs(a);
      if (r == 0) return T(0);
      if (m::isnan(r)) return T(r, r);
      return a / r;
    } else if constexpr (std::is_unsigned_v<T>) {
      return a > 0 ? 1 : 0;
    } else {
      return a > T(0) ? T(1) : a < T(0) ? T(-1) : a == T(0) ? T(0) : a;  // NaN stays; -0 is +0
    }
  }
};

// Integer reciprocal is 1 / x in integers; 1 / 0 gives 0 instead of trapping.
struct Reciprocal : IntLoop {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool supports = !std::is_same_v<T, bool>;
  template <class T>
  NUMCU_HD T operator()(T a) const {
    if constexpr (is_integer_v<T>) {
      if (a == 0) return 0;
      if constexpr (std::is_signed_v<T>) {
        if (a == -1) return -1;
      }
      return static_cast<T>(1 / a);
    } else {
      return T(1) / a;
    }
  }
};

struct Square : IntLoop {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool supports = !std::is_same_v<T, bool>;
  template <class T>
  NUMCU_HD T operator()(T a) const {
    return Multiply{}(a, a);
  }
};

// maximum/minimum propagate NaN; fmax/fmin ignore it.
struct Maximum : SameLoop {
  static constexpr int arity = 2;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    return (less_equal(b, a) || isnan_any(a)) ? a : b;
  }
};

struct Minimum : SameLoop {
  static constexpr int arity = 2;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    return (less_equal(a, b) || isnan_any(a)) ? a : b;
  }
};

struct Fmax : SameLoop {
  static constexpr int arity = 2;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    return (less_equal(b, a) || isnan_any(b)) ? a : b;
  }
};

struct Fmin : SameLoop {
  static constexpr int arity = 2;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    return (less_equal(a, b) || isnan_any(b)) ? a : b;
  }
};

// ---------------------------------------------------------------------------------------------
// Comparisons and logic: every dtype, bool out.

#define NUMCU_COMPARISON(Name, expr)           \
  struct Name : Predicate {                    \
    static constexpr int arity = 2;            \
    template <class T>                         \
    static constexpr bool supports = true;     \
    template <class T>                         \
    NUMCU_HD bool operator()(T a, T b) const { \
      return expr;                             \
    }                                          \
  };
NUMCU_COMPARISON(Equal, a == b)
NUMCU_COMPARISON(NotEqual, a != b)
NUMCU_COMPARISON(Less, less(a, b))
NUMCU_COMPARISON(LessEqual, less_equal(a, b))
NUMCU_COMPARISON(Greater, less(b, a))
NUMCU_COMPARISON(GreaterEqual, less_equal(b, a))
NUMCU_COMPARISON(LogicalAnd, truthy(a) && truthy(b))
NUMCU_COMPARISON(LogicalOr, truthy(a) || truthy(b))
NUMCU_COMPARISON(LogicalXor, truthy(a) != truthy(b))
#undef NUMCU_COMPARISON

// Elementwise predicates: bool out; integers are never NaN or infinite.
struct LogicalNot : Predicate {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  NUMCU_HD bool operator()(T a) const {
    return !truthy(a);
  }
};

struct IsNan : Predicate {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  NUMCU_HD bool operator()(T a) const {
    return isnan_any(a);
  }
};

struct IsInf : Predicate {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  NUMCU_HD bool operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      return m::isinf(a.real()) || m::isinf(a.imag());
    } else if constexpr (std::is_integral_v<T>) {
      return false;
    } else {
      return m::isinf(a);
    }
  }
};

struct IsFinite : Predicate {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  NUMCU_HD bool operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      return m::isfinite(a.real()) && m::isfinite(a.imag());
    } else if constexpr (std::is_integral_v<T>) {
      return true;
    } else {
      return m::isfinite(a);
    }
  }
};

struct SignBit : Predicate {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool supports = is_real_v<T>;
  template <class T>
  NUMCU_HD bool operator()(T a) const {
    if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) {
      return false;
    } else if constexpr (std::is_integral_v<T>) {
      return a < 0;
    } else {
      // copysign rather than signbit: GCC 12's vectoriser fails (an internal compiler error) on
      // signbit's integer shift of a float just widened from bfloat16's bits.
      return m::copysign(T(1), a) < T(0);
    }
  }
};

// ---------------------------------------------------------------------------------------------
// Bitwise: bool and integers.

#define NUMCU_BITWISE(Name, op)                           \
  struct Name : SameLoop {                                \
    static constexpr int arity = 2;                       \
    template <class T>                                    \
    static constexpr bool supports = is_int_or_bool_v<T>; \
    template <class T>                                    \
    NUMCU_HD T operator()(T a, T b) const {               \
      return static_cast<T>(a op b);                      \
    }                                                     \
  };
NUMCU_BITWISE(BitwiseAnd, &)
NUMCU_BITWISE(BitwiseOr, |)
NUMCU_BITWISE(BitwiseXor, ^)
#undef NUMCU_BITWISE

struct Invert : SameLoop {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool supports = is_int_or_bool_v<T>;
  template <class T>
  NUMCU_HD T operator()(T a) const {
    if constexpr (std::is_same_v<T, bool>) {
      return !a;
    } else {
      return static_cast<T>(~a);
    }
  }
};

// Shifts by the bit width or more (or by a negative count) give what NumPy gives: 0, or -1 for
// a negative value shifted right; C++ leaves those undefined.
struct LeftShift : IntLoop {
  static constexpr int arity = 2;
  template <class T>
  static constexpr bool supports = is_integer_v<T>;
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    if (static_cast<U>(b) >= sizeof(T) * 8) return 0;
    return static_cast<T>(static_cast<wrap_t<T>>(static_cast<U>(a)) << static_cast<U>(b));
  }
};

struct RightShift : IntLoop {
  static constexpr int arity = 2;
  template <class T>
  static constexpr bool supports = is_integer_v<T>;
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    if (static_cast<U>(b) >= sizeof(T) * 8) {
      if constexpr (std::is_signed_v<T>) return a < 0 ? T(-1) : T(0);
      return 0;
    }
    return static_cast<T>(a >> static_cast<U>(b));
  }
};

// ---------------------------------------------------------------------------------------------
// Float functions: integers run on the smallest float that holds them. `Complex` says whether
// NumPy has complex loops.

#define NUMCU_FLOAT_UNARY(Name, with_complex, real_expr, complex_expr)                        \
  struct Name : FloatLoop {                                                                   \
    static constexpr int arity = 1;                                                           \
    template <class T>                                                                        \
    static constexpr bool supports = is_floating_v<T> || ((with_complex) && is_complex_v<T>); \
    template <class T>                                                                        \
    NUMCU_HD T operator()(T a) const {                                                        \
      if constexpr (is_complex_v<T>) {                                                        \
        using V = typename T::value_type;                                                     \
        (void)V(0);                                                                           \
        return complex_expr;                                                                  \
      } else {                                                                                \
        return real_expr;                                                                     \
      }                                                                                       \
    }                                                                                         \
  };

// Inverse trigonometric functions of finite complex numbers by Kahan's formulas ("Branch cuts
// for complex elementary functions", 1987): built from square roots of 1 - z and 1 + z, they
// neither overflow nor cancel far from the origin, where libcu++'s acos(-4096+1j) is -inf j in
// float and its double acos loses three digits at |z| = 4e7. complex64 is computed in
// complex128. Infinities and NaNs keep libcu++'s (C99's) special values. Their sums of two
// products are rounded as complex_multiply's are (mul_rn), the same in every kernel.
template <class T>
NUMCU_HD auto in_double(T a) {
  return complex128(static_cast<double>(a.real()), static_cast<double>(a.imag()));
}

template <class T>
NUMCU_HD bool is_finite_complex(T a) {
  return m::isfinite(a.real()) && m::isfinite(a.imag());
}

struct KahanInverse {
  // The principal square root, exact where the root is (libcu++'s sqrt(-1+0j) has a real part
  // of 6e-17, which made acosh(0) 6e-17 + pi/2 j).
  static NUMCU_HD complex128 sqrt(complex128 z) {
    const double x = z.real(), y = z.imag();
    if (x == 0 && y == 0) return complex128(0.0, y);
    const double t = m::sqrt((m::fabs(x) + m::hypot(x, y)) * 0.5);
    if (x >= 0) return complex128(t, y / (2 * t));
    return complex128(m::fabs(y) / (2 * t), m::copysign(t, y));
  }
  static NUMCU_HD complex128 acos(complex128 z) {
    const complex128 a = sqrt(1.0 - z), b = sqrt(1.0 + z);
    return complex128(2.0 * m::atan2(a.real(), b.real()),
                      m::asinh(sub_rn(mul_rn(b.real(), a.imag()), mul_rn(b.imag(), a.real()))));
  }
  static NUMCU_HD complex128 asin(complex128 z) {
    const complex128 a = sqrt(1.0 - z), b = sqrt(1.0 + z);
    return complex128(
        m::atan2(z.real(), sub_rn(mul_rn(a.real(), b.real()), mul_rn(a.imag(), b.imag()))),
        m::asinh(sub_rn(mul_rn(a.real(), b.imag()), mul_rn(a.imag(), b.real()))));
  }
  static NUMCU_HD complex128 asinh(complex128 z) {  // -i asin(i z)
    const complex128 w = asin(complex128(-z.imag(), z.real()));
    return complex128(w.imag(), -w.real());
  }
  static NUMCU_HD complex128 acosh(complex128 z) {
    const complex128 c = sqrt(z - 1.0), d = sqrt(z + 1.0);
    return complex128(m::asinh(add_rn(mul_rn(c.real(), d.real()), mul_rn(c.imag(), d.imag()))),
                      2.0 * m::atan2(c.imag(), d.real()));
  }
};

// C99's and NumPy's special values where libcu++'s differ: tanh(+-0 + i inf) and
// tanh(+-0 + i NaN) are +-0 + i NaN, acosh(+-0 + i NaN) is NaN + i pi/2.
template <class T>
NUMCU_HD T complex_tanh(T a) {
  using V = typename T::value_type;
  if (a.real() == V(0) && !m::isfinite(a.imag())) {
    return T(a.real(), m::numeric_limits<V>::quiet_NaN());
  }
  return m::tanh(a);
}

template <class T>
NUMCU_HD T complex_acosh(T a) {
  using V = typename T::value_type;
  if (is_finite_complex(a)) return T(KahanInverse::acosh(in_double(a)));
  if (a.real() == V(0) && m::isnan(a.imag())) {
    return T(m::numeric_limits<V>::quiet_NaN(), V(1.57079632679489661923132169163975144));
  }
  return m::acosh(a);
}

#define NUMCU_KAHAN(fn, a) (is_finite_complex(a) ? T(KahanInverse::fn(in_double(a))) : T(m::fn(a)))

// ln 2 in the complex value type, pi/180 and 180/pi in the compute type.
#define NUMCU_LN2 V(0.693147180559945309417232121458176568)
#define NUMCU_PI_OVER_180 T(0.0174532925199432957692369076848861271)
#define NUMCU_180_OVER_PI T(57.2957795130823208767981548141051703)

// The principal square root of a complex number with C99's special values, which NumPy and the
// standard (2025.12's corrected list) have: x + inf i gives +inf + inf i for any x, NaN included;
// -inf + y i gives +0 + inf i and +inf + y i gives +inf + 0 i for finite y (signs following y);
// +-0 + 0 i gives +0 + 0 i. Finite values by the stable formula t = sqrt((|x| + |z|) / 2), exact
// where the root is (libcu++'s sqrt(-4 + 0i) has a real part of 1e-16, -9e-8 in float):
// complex64 in double, complex128 scaled by an even power of two away from overflow and from
// the subnormals.
template <class T>
NUMCU_HD T complex_sqrt(T a) {
  using V = typename T::value_type;
  const V x = a.real(), y = a.imag();
  const V inf = m::numeric_limits<V>::infinity();
  if (m::isinf(y)) return T(inf, y);
  if (m::isnan(x)) return T(x, x);
  if (m::isinf(x)) {
    if (x > V(0)) return T(x, m::isnan(y) ? y : m::copysign(V(0), y));
    return T(m::isnan(y) ? y : V(0), m::copysign(inf, y));
  }
  if (m::isnan(y)) return T(y, y);
  if constexpr (sizeof(V) < sizeof(double)) {
    return T(KahanInverse::sqrt(in_double(a)));
  } else {
    if (x == V(0) && y == V(0)) return T(V(0), y);
    double sx = x, sy = y, scale = 1.0;
    const double big = m::fmax(m::fabs(sx), m::fabs(sy));
    if (big > 0x1p1020) {
      sx *= 0x1p-2;
      sy *= 0x1p-2;
      scale = 0x1p1;
    } else if (big < 0x1p-1020) {
      sx *= 0x1p108;
      sy *= 0x1p108;
      scale = 0x1p-54;
    }
    const complex128 r = KahanInverse::sqrt(complex128(sx, sy));
    return T(r.real() * scale, r.imag() * scale);
  }
}

NUMCU_FLOAT_UNARY(Sqrt, true, m::sqrt(a), complex_sqrt(a))
NUMCU_FLOAT_UNARY(Cbrt, false, m::cbrt(a), a)
NUMCU_FLOAT_UNARY(Exp, true, m::exp(a), m::exp(a))
NUMCU_FLOAT_UNARY(Exp2, true, m::exp2(a), m::exp(a* NUMCU_LN2))
NUMCU_FLOAT_UNARY(Expm1, true, m::expm1(a), m::exp(a) - T(1))
NUMCU_FLOAT_UNARY(Log, true, m::log(a), m::log(a))
NUMCU_FLOAT_UNARY(Log2, true, m::log2(a), m::log(a) / NUMCU_LN2)
NUMCU_FLOAT_UNARY(Log10, true, m::log10(a), m::log10(a))
NUMCU_FLOAT_UNARY(Log1p, true, m::log1p(a), m::log(a + T(1)))
NUMCU_FLOAT_UNARY(Sin, true, m::sin(a), m::sin(a))
NUMCU_FLOAT_UNARY(Cos, true, m::cos(a), m::cos(a))
NUMCU_FLOAT_UNARY(Tan, true, m::tan(a), m::tan(a))
NUMCU_FLOAT_UNARY(Arcsin, true, m::asin(a), NUMCU_KAHAN(asin, a))
NUMCU_FLOAT_UNARY(Arccos, true, m::acos(a), NUMCU_KAHAN(acos, a))
NUMCU_FLOAT_UNARY(Arctan, true, m::atan(a), m::atan(a))
NUMCU_FLOAT_UNARY(Sinh, true, m::sinh(a), m::sinh(a))
NUMCU_FLOAT_UNARY(Cosh, true, m::cosh(a), m::cosh(a))
NUMCU_FLOAT_UNARY(Tanh, true, m::tanh(a), complex_tanh(a))
NUMCU_FLOAT_UNARY(Arcsinh, true, m::asinh(a), NUMCU_KAHAN(asinh, a))
NUMCU_FLOAT_UNARY(Arccosh, true, m::acosh(a), complex_acosh(a))
NUMCU_FLOAT_UNARY(Arctanh, true, m::atanh(a), m::atanh(a))
NUMCU_FLOAT_UNARY(Deg2rad, false, a* NUMCU_PI_OVER_180, a)
NUMCU_FLOAT_UNARY(Rad2deg, false, a* NUMCU_180_OVER_PI, a)
NUMCU_FLOAT_UNARY(Rint, true, m::rint(a), T(m::rint(a.real()), m::rint(a.imag())))
#undef NUMCU_LN2
#undef NUMCU_PI_OVER_180
#undef NUMCU_180_OVER_PI
#undef NUMCU_FLOAT_UNARY
#undef NUMCU_KAHAN

// floor, ceil and trunc keep integers as they are (NumPy 2.3+), and have no complex loop.
#define NUMCU_ROUNDING(Name, fn)                   \
  struct Name : SameLoop {                         \
    static constexpr int arity = 1;                \
    template <class T>                             \
    static constexpr bool supports = is_real_v<T>; \
    template <class T>                             \
    NUMCU_HD T operator()(T a) const {             \
      if constexpr (std::is_integral_v<T>) {       \
        return a;                                  \
      } else {                                     \
        return m::fn(a);                           \
      }                                            \
    }                                              \
  };
NUMCU_ROUNDING(Floor, floor)
NUMCU_ROUNDING(Ceil, ceil)
NUMCU_ROUNDING(Trunc, trunc)
#undef NUMCU_ROUNDING

// hypot. On the GPU, double's library hypot overflows when one side is near DBL_MAX and the
// other is small (hypot(1, DBL_MAX) gives inf); the scaled form max * sqrt(1 + (min/max)^2)
// stays finite, within 2 ulp. Infinities win over NaN, as C and NumPy specify.
template <class T>
NUMCU_HD T hypot_(T a, T b) {
#ifdef __CUDA_ARCH__
  if constexpr (std::is_same_v<T, double>) {
    a = m::fabs(a);
    b = m::fabs(b);
    if (m::isinf(a) || m::isinf(b)) return m::numeric_limits<T>::infinity();
    if (m::isnan(a) || m::isnan(b)) return a + b;
    const T hi = a > b ? a : b;
    const T lo = a > b ? b : a;
    if (hi == T(0)) return T(0);
    const T r = lo / hi;
    return hi * m::sqrt(T(1) + r * r);
  } else {
    return m::hypot(a, b);
  }
#else
  return m::hypot(a, b);
#endif
}

#define NUMCU_FLOAT_BINARY(Name, expr)                 \
  struct Name : FloatLoop {                            \
    static constexpr int arity = 2;                    \
    template <class T>                                 \
    static constexpr bool supports = is_floating_v<T>; \
    template <class T>                                 \
    NUMCU_HD T operator()(T a, T b) const {            \
      return expr;                                     \
    }                                                  \
  };
NUMCU_FLOAT_BINARY(Arctan2, m::atan2(a, b))
NUMCU_FLOAT_BINARY(Hypot, hypot_(a, b))
NUMCU_FLOAT_BINARY(Copysign, m::copysign(a, b))
NUMCU_FLOAT_BINARY(Heaviside, (a < T(0)) ? T(0) : (a > T(0)) ? T(1) : (a == T(0)) ? b : a)
#undef NUMCU_FLOAT_BINARY

// log(exp(a) + exp(b)) without overflow, as NumPy computes it (equal infinities stay).
struct Logaddexp : FloatLoop {
  static constexpr int arity = 2;
  template <class T>
  static constexpr bool supports = is_floating_v<T>;
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    if (a == b) return a + T(0.693147180559945309417232121458176568);
    const T d = a - b;
    if (d > 0) return a + m::log1p(m::exp(-d));
    if (d <= 0) return b + m::log1p(m::exp(d));
    return d;  // NaN
  }
};

// ---------------------------------------------------------------------------------------------
// Selection

// where(condition, x, y): the condition runs as bool, x and y on their promoted dtype.
struct Where : SameLoop {
  static constexpr Binding binding = Binding::own;
  static constexpr int arity = 3;
  static constexpr bool condition_first = true;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  NUMCU_HD T operator()(bool c, T x, T y) const {
    return c ? x : y;
  }
};

// clip(a, a_min, a_max) = minimum(maximum(a, a_min), a_max), NaN propagating, as NumPy's.
struct Clip : SameLoop {
  static constexpr Binding binding = Binding::own;
  static constexpr int arity = 3;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  NUMCU_HD T operator()(T a, T lo, T hi) const {
    return Minimum{}(Maximum{}(a, lo), hi);
  }
};

// The identity: with a conversion on store it is the cast kernel, and with a scalar input it
// is fill.
struct Copy : SameLoop {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  NUMCU_HD T operator()(T a) const {
    return a;
  }
};

// The element type input I of functor F reads on a loop of dtype T.
template <class F, class T, int I>
using input_t = std::conditional_t<(I == 0 && F::condition_first), bool, T>;

// The functor, built with its run-time parameters where it takes any.
template <class F>
F make_op(const OpParams& params) {
  if constexpr (std::is_constructible_v<F, const OpParams&>) {
    return F(params);
  } else {
    return F{};
  }
}

}  // namespace ops

// What one element of a ufunc costs, as the placement model counts it: about its loads and
// stores (elementwise), or more (transcendental: the float functions and integer division).
enum class CostClass { elementwise, transcendental };

// The ufunc table: X(name, functor, group, cost, doc), one line per ufunc, from which the enum,
// the kernels and CPU loops, the bindings and their docstrings, numcu.UFUNCS, __all__, the stubs,
// the tests' lists and the placement model's cost class derive. `name` is NumPy's (AMYPAD
// NumCu's for div). `group` names the compile unit that instantiates its kernels (ufunc_<group>.cu
// or a .cu file that takes several groups; the CPU files take several groups each): groups of
// similar compile time, so that the cores of a small machine build in parallel. `cost` is its
// CostClass. `doc` is the docstring's first line: what it computes (the dtypes it takes follow
// from the functor's supports<T>). The functor's `binding` trait chooses the Python signature
// (ops::Binding).
#define NUMCU_UNARY_OPS(X)                                                                    \
  X(negative, ::numcu::ops::Negative, arith, elementwise, "Numerical negative, -x.")          \
  X(positive, ::numcu::ops::Positive, arith, elementwise, "Numerical positive, +x (a copy).") \
  X(absolute, ::numcu::ops::Absolute, arith, elementwise,                                     \
    "Absolute value; |z| of complex is real.")                                                \
  X(sign, ::numcu::ops::Sign, arith, elementwise,                                             \
    "-1, 0 or 1 (NaN stays NaN; z/|z| for complex).")                                         \
  X(reciprocal, ::numcu::ops::Reciprocal, arith, elementwise,                                 \
    "1/x (integer division for integers, 1/0 gives 0).")                                      \
  X(square, ::numcu::ops::Square, arith, elementwise, "x*x (integers wrap).")                 \
  X(sqrt, ::numcu::ops::Sqrt, arith, elementwise,                                             \
    "Square root. Integers compute in the smallest float that holds them.")                   \
  X(cbrt, ::numcu::ops::Cbrt, exp, transcendental,                                            \
    "Cube root. Integers compute in the smallest float that holds them.")                     \
  X(logical_not, ::numcu::ops::LogicalNot, logic, elementwise, "NOT x, as bool.")             \
  X(invert, ::numcu::ops::Invert, logic, elementwise, "Bitwise NOT (logical NOT for bool).")  \
  X(exp, ::numcu::ops::Exp, exp, transcendental, "e**x.")                                     \
  X(exp2, ::numcu::ops::Exp2, exp, transcendental, "2**x.")                                   \
  X(expm1, ::numcu::ops::Expm1, exp, transcendental, "e**x - 1, accurate for small x.")       \
  X(log, ::numcu::ops::Log, log, transcendental, "Natural logarithm.")                        \
  X(log2, ::numcu::ops::Log2, log, transcendental, "Base-2 logarithm.")                       \
  X(log10, ::numcu::ops::Log10, log, transcendental, "Base-10 logarithm.")                    \
  X(log1p, ::numcu::ops::Log1p, log, transcendental, "log(1 + x), accurate for small x.")     \
  X(sin, ::numcu::ops::Sin, trig, transcendental, "Sine.")                                    \
  X(cos, ::numcu::ops::Cos, trig, transcendental, "Cosine.")                                  \
  X(tan, ::numcu::ops::Tan, trig, transcendental, "Tangent.")                                 \
  X(arcsin, ::numcu::ops::Arcsin, atrig, transcendental, "Inverse sine.")                     \
  X(arccos, ::numcu::ops::Arccos, atrig, transcendental, "Inverse cosine.")                   \
  X(arctan, ::numcu::ops::Arctan, atrig, transcendental, "Inverse tangent.")                  \
  X(sinh, ::numcu::ops::Sinh, hyp, transcendental, "Hyperbolic sine.")                        \
  X(cosh, ::numcu::ops::Cosh, hyp, transcendental, "Hyperbolic cosine.")                      \
  X(tanh, ::numcu::ops::Tanh, hyp, transcendental, "Hyperbolic tangent.")                     \
  X(arcsinh, ::numcu::ops::Arcsinh, hyp, transcendental, "Inverse hyperbolic sine.")          \
  X(arccosh, ::numcu::ops::Arccosh, hyp, transcendental, "Inverse hyperbolic cosine.")        \
  X(arctanh, ::numcu::ops::Arctanh, hyp, transcendental, "Inverse hyperbolic tangent.")       \
  X(deg2rad, ::numcu::ops::Deg2rad, round, elementwise, "Degrees to radians.")                \
  X(rad2deg, ::numcu::ops::Rad2deg, round, elementwise, "Radians to degrees.")                \
  X(floor, ::numcu::ops::Floor, round, elementwise,                                           \
    "Largest integer <= x; integers stay as they are.")                                       \
  X(ceil, ::numcu::ops::Ceil, round, elementwise,                                             \
    "Smallest integer >= x; integers stay as they are.")                                      \
  X(trunc, ::numcu::ops::Trunc, round, elementwise,                                           \
    "x rounded towards zero; integers stay as they are.")                                     \
  X(rint, ::numcu::ops::Rint, round, elementwise,                                             \
    "x rounded to the nearest integer, halves to even.")                                      \
  X(isnan, ::numcu::ops::IsNan, logic, elementwise, "Whether x is NaN, as bool.")             \
  X(isinf, ::numcu::ops::IsInf, logic, elementwise, "Whether x is infinite, as bool.")        \
  X(isfinite, ::numcu::ops::IsFinite, logic, elementwise, "Whether x is finite, as bool.")    \
  X(signbit, ::numcu::ops::SignBit, logic, elementwise, "Whether the sign bit is set, as bool.")

#define NUMCU_BINARY_OPS(X)                                                                        \
  X(add, ::numcu::ops::Add, addsub, elementwise,                                                   \
    "Addition x1 + x2 (integers wrap; logical OR for bool).")                                      \
  X(subtract, ::numcu::ops::Subtract, addsub, elementwise, "Subtraction x1 - x2 (integers wrap).") \
  X(multiply, ::numcu::ops::Multiply, muldiv, elementwise,                                         \
    "Multiplication x1 * x2 (integers wrap; logical AND for bool).")                               \
  X(divide, ::numcu::ops::Divide, muldiv, elementwise,                                             \
    "True division x1 / x2. Integers and bool divide in float64.")                                 \
  X(div, ::numcu::ops::DivDefault, muldiv, elementwise,                                            \
    "AMYPAD NumCu's division: x1 / x2 where x2 is not zero, `default` where it is.")               \
  X(floor_divide, ::numcu::ops::FloorDivide, intdiv, transcendental,                               \
    "Floor division x1 // x2, Python's signs; integer x // 0 gives 0.")                            \
  X(remainder, ::numcu::ops::Remainder, intdiv, transcendental,                                    \
    "x1 % x2 with the sign of x2 (Python's); integer x % 0 gives 0.")                              \
  X(power, ::numcu::ops::Power, intdiv, transcendental,                                            \
    "x1 ** x2; integers wrap, and negative integer exponents raise ValueError.")                   \
  X(maximum, ::numcu::ops::Maximum, minmax, elementwise, "Elementwise maximum; NaN propagates.")   \
  X(minimum, ::numcu::ops::Minimum, minmax, elementwise, "Elementwise minimum; NaN propagates.")   \
  X(fmax, ::numcu::ops::Fmax, minmax, elementwise, "Elementwise maximum ignoring NaN.")            \
  X(fmin, ::numcu::ops::Fmin, minmax, elementwise, "Elementwise minimum ignoring NaN.")            \
  X(equal, ::numcu::ops::Equal, compare, elementwise, "x1 == x2, as bool.")                        \
  X(not_equal, ::numcu::ops::NotEqual, compare, elementwise, "x1 != x2, as bool.")                 \
  X(less, ::numcu::ops::Less, compare, elementwise, "x1 < x2, as bool (complex: lexicographic).")  \
  X(less_equal, ::numcu::ops::LessEqual, compare, elementwise,                                     \
    "x1 <= x2, as bool (complex: lexicographic).")                                                 \
  X(greater, ::numcu::ops::Greater, compare, elementwise,                                          \
    "x1 > x2, as bool (complex: lexicographic).")                                                  \
  X(greater_equal, ::numcu::ops::GreaterEqual, compare, elementwise,                               \
    "x1 >= x2, as bool (complex: lexicographic).")                                                 \
  X(logical_and, ::numcu::ops::LogicalAnd, logic, elementwise, "x1 AND x2, as bool.")              \
  X(logical_or, ::numcu::ops::LogicalOr, logic, elementwise, "x1 OR x2, as bool.")                 \
  X(logical_xor, ::numcu::ops::LogicalXor, logic, elementwise, "x1 XOR x2, as bool.")              \
  X(bitwise_and, ::numcu::ops::BitwiseAnd, logic, elementwise, "Bitwise AND.")                     \
  X(bitwise_or, ::numcu::ops::BitwiseOr, logic, elementwise, "Bitwise OR.")                        \
  X(bitwise_xor, ::numcu::ops::BitwiseXor, logic, elementwise, "Bitwise XOR.")                     \
  X(left_shift, ::numcu::ops::LeftShift, logic, elementwise,                                       \
    "x1 << x2; shifts by the bit width or more give 0.")                                           \
  X(right_shift, ::numcu::ops::RightShift, logic, elementwise,                                     \
    "x1 >> x2 (arithmetic for signed); shifts by the bit width or more give 0 or -1.")             \
  X(logaddexp, ::numcu::ops::Logaddexp, log, transcendental,                                       \
    "log(exp(x1) + exp(x2)) without overflow.")                                                    \
  X(arctan2, ::numcu::ops::Arctan2, atrig, transcendental,                                         \
    "The angle of the point (x2, x1), quadrant-aware.")                                            \
  X(hypot, ::numcu::ops::Hypot, trig, transcendental, "sqrt(x1**2 + x2**2) without overflow.")     \
  X(copysign, ::numcu::ops::Copysign, round, elementwise, "x1 with the sign of x2.")               \
  X(heaviside, ::numcu::ops::Heaviside, round, elementwise,                                        \
    "Heaviside step: 0 where x1 < 0, x2 where x1 is 0, 1 where x1 > 0.")

#define NUMCU_TERNARY_OPS(X)                                    \
  X(where, ::numcu::ops::Where, select, elementwise,            \
    "Elements of x1 where condition is true, of x2 elsewhere.") \
  X(clip, ::numcu::ops::Clip, select, elementwise, "a limited to [a_min, a_max], NaN propagating.")

#define NUMCU_UFUNCS(X) NUMCU_UNARY_OPS(X) NUMCU_BINARY_OPS(X) NUMCU_TERNARY_OPS(X)

enum class Ufunc {
#define NUMCU_ENUM(e, F, group, cost, doc) e,
  NUMCU_UFUNCS(NUMCU_ENUM)
#undef NUMCU_ENUM
};

constexpr int kNumUfuncs = 0
#define NUMCU_COUNT(e, F, group, cost, doc) +1
    NUMCU_UFUNCS(NUMCU_COUNT)
#undef NUMCU_COUNT
    ;

// A ufunc's functor, at compile time.
template <Ufunc Op>
struct ufunc_traits;
#define NUMCU_TRAITS(e, F, group, cost, doc) \
  template <>                                \
  struct ufunc_traits<Ufunc::e> {            \
    using functor = F;                       \
  };
NUMCU_UFUNCS(NUMCU_TRAITS)
#undef NUMCU_TRAITS

// NumPy's name of a functor's ufunc, from the table (for kernels' error messages).
template <class F>
struct ufunc_name;
#define NUMCU_NAME(e, F, group, cost, doc)            \
  template <>                                         \
  struct ufunc_name<F> {                              \
    static constexpr const char* value = #e;          \
    static constexpr const char* fname = "numcu." #e; \
  };
NUMCU_UFUNCS(NUMCU_NAME)
#undef NUMCU_NAME

// Run-time questions about a ufunc, answered from its table line and functor: the one place
// dtypes resolve.
struct UfuncInfo {
  const char* name;   // NumPy's name ("div" for NumCu's div)
  const char* fname;  // "numcu.add", for messages
  const char* doc;    // the table's docstring line
  int arity;
  bool condition_first;
  bool loop_per_input;  // map each input through ufunc_loop_dtype before promoting
  ops::Binding binding;
  CostClass cost;
};
const UfuncInfo& ufunc_info(Ufunc op);
// The dtype the loop runs on for inputs promoted to `promoted`.
DType ufunc_loop_dtype(Ufunc op, DType promoted);
// Whether `op` has a loop for `loop`.
bool ufunc_supports(Ufunc op, DType loop);
// The dtype a loop on `loop` writes.
DType ufunc_out_dtype(Ufunc op, DType loop);

}  // namespace numcu
