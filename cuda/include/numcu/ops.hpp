// The arithmetic, once, for the CUDA kernels and the CPU backend alike.
//
// A functor's operator() takes and returns its compute type (compute_t<T>: float16 is
// computed in float32). `supports<T>` says which dtypes have a loop; `result_dtype` maps the
// promoted input dtype to the dtype the loop runs on (true division of integers runs on
// float64, as in NumPy).
#pragma once

#include <type_traits>

#include "numcu/config.hpp"
#include "numcu/dtype.hpp"
#include "numcu/types.hpp"

namespace numcu {

// Run-time parameters some functors take (div's zero-division default).
struct OpParams {
  double real = 0;
  double imag = 0;
};

namespace ops {

// Signed integer overflow wraps in NumPy; doing the arithmetic unsigned gives that without
// undefined behaviour. Types narrower than int are widened to unsigned int first, so that
// their product cannot overflow a signed int either.
template <class T>
using wrap_t = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

struct Add {
  static constexpr const char* name = "add";
  template <class T>
  static constexpr bool supports = true;
  static DType result_dtype(DType d) { return d; }
  explicit Add(const OpParams& = {}) {}
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

struct Subtract {
  static constexpr const char* name = "subtract";
  // NumPy has no boolean subtract: it points to logical_xor instead.
  template <class T>
  static constexpr bool supports = !std::is_same_v<T, bool>;
  static DType result_dtype(DType d) { return d; }
  explicit Subtract(const OpParams& = {}) {}
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      return static_cast<T>(static_cast<wrap_t<T>>(a) - static_cast<wrap_t<T>>(b));
    } else {
      return a - b;
    }
  }
};

struct Multiply {
  static constexpr const char* name = "multiply";
  template <class T>
  static constexpr bool supports = true;
  static DType result_dtype(DType d) { return d; }
  explicit Multiply(const OpParams& = {}) {}
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      return static_cast<T>(static_cast<wrap_t<T>>(a) * static_cast<wrap_t<T>>(b));
    } else if constexpr (std::is_same_v<T, bool>) {
      return a && b;
    } else {
      return a * b;
    }
  }
};

struct Divide {
  static constexpr const char* name = "divide";
  template <class T>
  static constexpr bool supports = is_inexact_v<T>;
  static DType result_dtype(DType d) { return is_inexact(d) ? d : DType::float64; }
  explicit Divide(const OpParams& = {}) {}
  template <class T>
  NUMCU_HD T operator()(T a, T b) const {
    return a / b;
  }
};

// NumCu's div: the quotient where the divisor is not zero, `default` where it is.
struct DivDefault {
  static constexpr const char* name = "div";
  template <class T>
  static constexpr bool supports = is_inexact_v<T>;
  static DType result_dtype(DType d) { return is_inexact(d) ? d : DType::float64; }
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
    return a / b;
  }
};

// The identity: with a conversion on store it is the cast kernel, and with a scalar input it
// is fill.
struct Copy {
  static constexpr const char* name = "copy";
  template <class T>
  static constexpr bool supports = true;
  explicit Copy(const OpParams& = {}) {}
  template <class T>
  NUMCU_HD T operator()(T a) const {
    return a;
  }
};

}  // namespace ops

// X(enumerator, functor): every binary operation numcu has a loop for.
#define NUMCU_BINARY_OPS(X)   \
  X(add, ::numcu::ops::Add)   \
  X(subtract, ::numcu::ops::Subtract) \
  X(multiply, ::numcu::ops::Multiply) \
  X(divide, ::numcu::ops::Divide)     \
  X(div_default, ::numcu::ops::DivDefault)

enum class BinaryOp {
#define NUMCU_ENUM(e, F) e,
  NUMCU_BINARY_OPS(NUMCU_ENUM)
#undef NUMCU_ENUM
};

// The dtype the loop runs on for inputs promoted to `promoted`.
DType binary_loop_dtype(BinaryOp op, DType promoted);
// Whether `op` has a loop for `dtype`.
bool binary_supports(BinaryOp op, DType dtype);

}  // namespace numcu
