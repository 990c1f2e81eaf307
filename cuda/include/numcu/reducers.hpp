// The reductions' arithmetic, once, for CUB, numcu's own kernels and the CPU backend.
//
// A reducer R for input type In has an accumulator type Acc and an output type Out:
//   identity()        the neutral accumulator (what an empty reduction finalises)
//   leaf(x, k, o)     one input element as an accumulator; k is its index along the reduced
//                     elements, o the output it goes to
//   operator()(a, b)  combines two accumulators; associative and commutative (argmin/argmax
//                     break ties by index), so every order of combination gives one answer
//   finalize(a, o)    the output value
// and the traits the reduction table's run-time questions read (Base gives the common answers):
//   supports<U>       whether there is a loop for input type U (a TypeError otherwise)
//   skips_nan         a nan-function (NanFunction): integers and bool run exact<U>'s loops
//   nan_stand_in      what a skipped NaN becomes where the input is converted first
//   no_identity       NumPy's name in its error for an empty reduction, where there is no identity
//   ufunc             the NumPy ufunc whose reduce (a scan: accumulate) this is, or nullptr
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "numcu/config.hpp"
#include "numcu/ops.hpp"
#include "numcu/reduce.hpp"
#include "numcu/types.hpp"

namespace numcu::reduce {

template <class V>
NUMCU_HD NUMCU_FORCEINLINE bool is_nan(V x) {
  if constexpr (is_complex_v<V>) {
    return x.real() != x.real() || x.imag() != x.imag();
  } else if constexpr (std::is_floating_point_v<V>) {
    return x != x;
  } else {
    return false;
  }
}

// Lexicographic for complex numbers, as NumPy orders them.
template <class V>
NUMCU_HD NUMCU_FORCEINLINE bool less(V a, V b) {
  if constexpr (is_complex_v<V>) {
    return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
  } else {
    return a < b;
  }
}

// NumPy's accumulators for sum and prod: bool and signed integers narrower than int64 go to
// int64, unsigned ones to uint64; float16 and bfloat16 are accumulated in float32.
template <class T>
using sum_acc_t =
    std::conditional_t<std::is_same_v<T, bool> || (std::is_signed_v<T> && std::is_integral_v<T>),
                       std::int64_t,
                       std::conditional_t<std::is_unsigned_v<T> && std::is_integral_v<T>,
                                          std::uint64_t, compute_t<T>>>;

// mean and var of integers and bool are computed in float64.
template <class T>
using mean_acc_t = std::conditional_t<is_inexact_v<T>, compute_t<T>, double>;

template <class A>
NUMCU_HD NUMCU_FORCEINLINE A wrap_add(A a, A b) {
  if constexpr (is_integer_v<A>) {
    return static_cast<A>(static_cast<ops::wrap_t<A>>(a) + static_cast<ops::wrap_t<A>>(b));
  } else {
    return a + b;
  }
}

template <class A>
NUMCU_HD NUMCU_FORCEINLINE A wrap_mul(A a, A b) {
  if constexpr (is_integer_v<A>) {
    return static_cast<A>(static_cast<ops::wrap_t<A>>(a) * static_cast<ops::wrap_t<A>>(b));
  } else {
    return a * b;
  }
}

template <class V>
NUMCU_HD NUMCU_FORCEINLINE V quiet_nan() {
  if constexpr (is_complex_v<V>) {
    using R = typename V::value_type;
    return V(std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::quiet_NaN());
  } else {
    return std::numeric_limits<V>::quiet_NaN();
  }
}

// The largest (Max = true) or smallest value of V, infinities included.
template <class V, bool Max>
NUMCU_HD NUMCU_FORCEINLINE V extreme() {
  if constexpr (is_complex_v<V>) {
    using R = typename V::value_type;
    return V(extreme<R, Max>(), extreme<R, Max>());
  } else if constexpr (std::is_same_v<V, bool>) {
    return Max;
  } else if constexpr (std::is_floating_point_v<V>) {
    return Max ? std::numeric_limits<V>::infinity() : -std::numeric_limits<V>::infinity();
  } else {
    return Max ? std::numeric_limits<V>::max() : std::numeric_limits<V>::lowest();
  }
}

template <class V>
NUMCU_HD NUMCU_FORCEINLINE V divide_by_count(V a, double n) {
  if constexpr (is_complex_v<V>) {
    using R = typename V::value_type;
    return V(a.real() / static_cast<R>(n), a.imag() / static_cast<R>(n));
  } else {
    return a / static_cast<V>(n);
  }
}

// Members every reducer has.
struct Base {
  ReduceParams p;
  template <class T>
  static constexpr bool supports = true;
  static constexpr bool skips_nan = false;
  static constexpr double nan_stand_in = 0;
  static constexpr const char* no_identity = nullptr;
  static constexpr const char* ufunc = nullptr;
  // Whether the CPU backend's pairwise block may hold its eight accumulators in one vector
  // (Accumulate's float reductions).
  static constexpr bool lanewise = false;
};

// A nan-function of `Plain`: its loops skip NaN, and exist for inexact dtypes only; integers and
// bool, which hold no NaN, run Plain's (so nansum of int8 is sum's loop, int64 out).
template <template <class> class Plain, class Reducer>
struct NanFunction : Reducer {
  template <class U>
  static constexpr bool supports = is_inexact_v<U>;
  template <class U>
  using exact = Plain<U>;
  static constexpr bool skips_nan = true;
};

// The reducer (or scanner) R runs for input type T: R<T>, or a nan-function's exact reducer on
// the dtypes it has no loop for.
template <template <class> class R, class T, bool = R<T>::skips_nan && !R<T>::template supports<T>>
struct loop_of {
  using type = R<T>;
};
template <template <class> class R, class T>
struct loop_of<R, T, true> {
  using type = typename R<T>::template exact<T>;
};
template <template <class> class R, class T>
using loop_t = typename loop_of<R, T>::type;

// sum, prod and their nan-functions. float16 and bfloat16 accumulate in float32 and are rounded
// to their own dtype once, when stored: no float32 result to cast afterwards.
template <class T, class A, int Identity, bool Nan, bool Multiply>
struct Accumulate : Base {
  using In = T;
  using Acc = A;
  using Out = std::conditional_t<is_narrow_float_v<T>, T, A>;
  NUMCU_HD Acc identity() const { return Acc(Identity); }
  NUMCU_HD Acc leaf(T x, std::int64_t, std::int64_t) const {
    const Acc v = convert<Acc>(x);
    if constexpr (Nan) {
      if (is_nan(v)) return Acc(Identity);
    }
    return v;
  }
  NUMCU_HD Acc operator()(Acc a, Acc b) const {
    if constexpr (Multiply) {
      return wrap_mul(a, b);
    } else {
      return wrap_add(a, b);
    }
  }
  NUMCU_HD Out finalize(Acc a, std::int64_t) const { return convert<Out>(a); }
  static constexpr double nan_stand_in = Identity;
  static constexpr const char* ufunc = Nan ? nullptr : Multiply ? "multiply" : "add";
  // A float reduction whose leaf is the element itself: its accumulators combine lane by lane.
  static constexpr bool lanewise = !Nan && std::is_same_v<T, A> && std::is_floating_point_v<A>;
  template <class V>
  static NUMCU_FORCEINLINE void lanes(V& a, const V& b) {
    if constexpr (Multiply) {
      a = a * b;
    } else {
      a = a + b;
    }
  }
};

template <class T>
struct Sum : Accumulate<T, sum_acc_t<T>, 0, false, false> {};
template <class T>
struct Prod : Accumulate<T, sum_acc_t<T>, 1, false, true> {};
template <class T>
struct NanSum : NanFunction<Sum, Accumulate<T, sum_acc_t<T>, 0, true, false>> {};
template <class T>
struct NanProd : NanFunction<Prod, Accumulate<T, sum_acc_t<T>, 1, true, true>> {};

template <class T>
struct Mean : Accumulate<T, mean_acc_t<T>, 0, false, false> {
  static constexpr const char* ufunc = nullptr;
  using Acc = mean_acc_t<T>;
  // var and std read the means of their first pass in the accumulator's dtype.
  using Out = Acc;
  NUMCU_HD Acc finalize(Acc a, std::int64_t) const {
    return divide_by_count(a, static_cast<double>(this->p.n));
  }
};

template <class M>
struct SumCount {
  M sum;
  std::int64_t count;
};

// The mean of the elements that are not NaN; a NaN converted away stays a NaN, and skipped.
template <class T>
struct MeanOfNumbers : Base {
  static constexpr double nan_stand_in = std::numeric_limits<double>::quiet_NaN();
  using In = T;
  using M = mean_acc_t<T>;
  using Acc = SumCount<M>;
  using Out = M;
  NUMCU_HD Acc identity() const { return Acc{M(0), 0}; }
  NUMCU_HD Acc leaf(T x, std::int64_t, std::int64_t) const {
    const M v = convert<M>(x);
    return is_nan(v) ? Acc{M(0), 0} : Acc{v, 1};
  }
  NUMCU_HD Acc operator()(Acc a, Acc b) const { return Acc{a.sum + b.sum, a.count + b.count}; }
  NUMCU_HD Out finalize(Acc a, std::int64_t) const {
    return divide_by_count(a.sum, static_cast<double>(a.count));
  }
};
template <class T>
struct NanMean : NanFunction<Mean, MeanOfNumbers<T>> {};

// min and max propagate NaN (the first met, in NumPy's words "the first NaN"); nanmin and
// nanmax skip it, so that NaN is their identity and an all-NaN slice gives NaN.
template <class T, bool Max, bool SkipNan>
struct Extreme : Base {
  using In = T;
  using Acc = compute_t<T>;
  using Out = T;
  static constexpr const char* no_identity =
      SkipNan ? (Max ? "fmax" : "fmin") : (Max ? "maximum" : "minimum");
  static constexpr const char* ufunc = no_identity;
  NUMCU_HD Acc identity() const {
    if constexpr (SkipNan) {
      return quiet_nan<Acc>();
    } else {
      return extreme<Acc, !Max>();
    }
  }
  NUMCU_HD Acc leaf(T x, std::int64_t, std::int64_t) const { return convert<Acc>(x); }
  // The combination below with one select: x replaces `a` when it is better, or a NaN that
  // propagates into an `a` that is not one yet (nanmin/nanmax: when `a` is NaN).
  NUMCU_HD Acc fold_next(Acc a, T x, std::int64_t, std::int64_t) const {
    const Acc v = convert<Acc>(x);
    const bool better = Max ? less(a, v) : less(v, a);
    const bool take = SkipNan ? (is_nan(a) || better) : (!is_nan(a) && (better || is_nan(v)));
    return take ? v : a;
  }
  NUMCU_HD Acc operator()(Acc a, Acc b) const {
    if (is_nan(a)) return SkipNan ? b : a;
    if (is_nan(b)) return SkipNan ? a : b;
    if constexpr (Max) {
      return less(a, b) ? b : a;
    } else {
      return less(b, a) ? b : a;
    }
  }
  NUMCU_HD Out finalize(Acc a, std::int64_t) const { return convert<Out>(a); }
};

template <class T>
struct Min : Extreme<T, false, false> {};
template <class T>
struct Max : Extreme<T, true, false> {};
template <class T>
struct NanMin : NanFunction<Min, Extreme<T, false, true>> {};
template <class T>
struct NanMax : NanFunction<Max, Extreme<T, true, true>> {};

// ptp: max - min in the input's dtype, as NumPy computes it (integers wrap, NaN propagates).
// NumPy cannot subtract bools; its error for an empty reduction is maximum's.
template <class T>
struct Ptp : Base {
  template <class U>
  static constexpr bool supports = !std::is_same_v<U, bool>;
  static constexpr const char* no_identity = "maximum";
  using In = T;
  using V = compute_t<T>;
  struct Acc {
    V lo, hi;
  };
  using Out = T;
  NUMCU_HD Acc identity() const { return Acc{Min<T>{}.identity(), Max<T>{}.identity()}; }
  NUMCU_HD Acc leaf(T x, std::int64_t, std::int64_t) const {
    return Acc{convert<V>(x), convert<V>(x)};
  }
  NUMCU_HD Acc operator()(Acc a, Acc b) const {
    return Acc{Min<T>{}(a.lo, b.lo), Max<T>{}(a.hi, b.hi)};
  }
  NUMCU_HD Out finalize(Acc a, std::int64_t) const {
    return convert<Out>(ops::Subtract{}(a.hi, a.lo));
  }
};

template <class V>
struct IndexValue {
  std::int64_t index;
  V value;
};

// argmin's (max false) or argmax's combination, which the CPU's reducer (Arg, max a constant)
// and the GPU's (ArgFamily, max a run-time flag) share: the first NaN, else the better value,
// ties to the lower index.
template <class V>
NUMCU_HD NUMCU_FORCEINLINE IndexValue<V> combine_arg(IndexValue<V> a, IndexValue<V> b, bool max) {
  const bool a_nan = is_nan(a.value), b_nan = is_nan(b.value);
  const bool b_first = b.index < a.index;
  bool take_b;
  if (a_nan || b_nan) {
    take_b = b_nan && (!a_nan || b_first);
  } else {
    const V& low = max ? a.value : b.value;
    const V& high = max ? b.value : a.value;
    // b is better when it is beyond a in the reducer's direction, a when a is.
    const bool b_better = less(low, high);
    const bool a_better = less(high, low);
    take_b = b_better || (!a_better && b_first);
  }
  return take_b ? b : a;
}

// argmin/argmax: the first index of the extreme value, or of the first NaN when there is one.
template <class T, bool Max>
struct Arg : Base {
  using In = T;
  using V = compute_t<T>;
  using Acc = IndexValue<V>;
  using Out = std::int64_t;
  static constexpr const char* no_identity = Max ? "argmax" : "argmin";
  // Loses to every element: the worst value, at an index after all others.
  NUMCU_HD Acc identity() const {
    return Acc{std::numeric_limits<std::int64_t>::max(), extreme<V, !Max>()};
  }
  NUMCU_HD Acc leaf(T x, std::int64_t k, std::int64_t) const { return Acc{k, convert<V>(x)}; }
  // Folds element x at index k into `a`, whose elements all come before k (the GPU kernel's
  // lanes walk their elements in order): x takes over only when strictly better or the first
  // NaN, so the index comparison of the general combination drops out.
  NUMCU_HD Acc fold_next(Acc a, T x, std::int64_t k, std::int64_t) const {
    const V v = convert<V>(x);
    const bool better = Max ? less(a.value, v) : less(v, a.value);
    const bool empty = a.index == std::numeric_limits<std::int64_t>::max();
    const bool take = !is_nan(a.value) && (is_nan(v) || better || empty);
    return take ? Acc{k, v} : a;
  }
  NUMCU_HD Acc operator()(Acc a, Acc b) const { return combine_arg(a, b, Max); }
  NUMCU_HD Out finalize(Acc a, std::int64_t) const { return a.index; }
};

template <class T>
struct ArgMin : Arg<T, false> {};
template <class T>
struct ArgMax : Arg<T, true> {};

// any (AllFlag std::false_type) and all (std::true_type); with a run-time bool, either, which is
// how the GPU runs both as one kernel (reduce_families.hpp).
template <class T, class AllFlag>
struct Logical : Base {
  using In = T;
  using Acc = bool;
  using Out = bool;
  AllFlag all{};
  static constexpr const char* ufunc = AllFlag{} ? "logical_and" : "logical_or";
  NUMCU_HD Acc identity() const { return static_cast<bool>(all); }
  NUMCU_HD Acc leaf(T x, std::int64_t, std::int64_t) const { return convert<bool>(x); }
  NUMCU_HD Acc operator()(Acc a, Acc b) const { return all ? (a && b) : (a || b); }
  NUMCU_HD Out finalize(Acc a, std::int64_t) const { return a; }
};

template <class T>
struct Any : Logical<T, std::false_type> {};
template <class T>
struct All : Logical<T, std::true_type> {};

template <class T>
struct CountNonzero : Base {
  using In = T;
  using Acc = std::int64_t;
  using Out = std::int64_t;
  NUMCU_HD Acc identity() const { return 0; }
  NUMCU_HD Acc leaf(T x, std::int64_t, std::int64_t) const { return convert<bool>(x) ? 1 : 0; }
  NUMCU_HD Acc operator()(Acc a, Acc b) const { return a + b; }
  NUMCU_HD Out finalize(Acc a, std::int64_t) const { return a; }
};

// var's second pass: the sum of |x - mean[o]|^2, divided by max(n - ddof, 0); std's root.
template <class T>
struct SqDev : Base {
  using In = T;
  using M = mean_acc_t<T>;
  using Acc = ops::real_t<M>;
  using Out = Acc;
  NUMCU_HD Acc identity() const { return Acc(0); }
  NUMCU_HD Acc leaf(T x, std::int64_t, std::int64_t o) const {
    const M d = convert<M>(x) - static_cast<const M*>(this->p.mean)[o];
    if constexpr (is_complex_v<M>) {
      return d.real() * d.real() + d.imag() * d.imag();
    } else {
      return d * d;
    }
  }
  NUMCU_HD Acc operator()(Acc a, Acc b) const { return a + b; }
  NUMCU_HD Out finalize(Acc a, std::int64_t) const {
    const double dof = static_cast<double>(this->p.n) - this->p.ddof;
    const Acc v = a / static_cast<Acc>(dof > 0 ? dof : 0);
    if (!this->p.root) return v;
    if constexpr (std::is_same_v<Acc, float>) {
      return sqrtf(v);
    } else {
      return sqrt(v);
    }
  }
};

// Scans: cumsum and cumprod accumulate as sum and prod do (Accumulate), and store the input's type
// for float16 and bfloat16, the accumulator's otherwise. nancumsum and nancumprod take a NaN (a
// complex number with a NaN part) as the identity; they have loops for inexact dtypes only, as
// the nan-reductions do.
template <class T, int Identity, bool Multiply, bool Nan = false>
struct Scan : Accumulate<T, sum_acc_t<T>, Identity, Nan, Multiply> {
  using Reducer = Accumulate<T, sum_acc_t<T>, Identity, Nan, Multiply>;
  using typename Reducer::Acc;
  using typename Reducer::Out;
  static constexpr bool multiply = Multiply;
  NUMCU_HD Acc leaf(T x) const { return Reducer::leaf(x, 0, 0); }
  NUMCU_HD Out finalize(Acc a) const { return Reducer::finalize(a, 0); }
};

template <class T>
struct CumSum : Scan<T, 0, false> {};
template <class T>
struct CumProd : Scan<T, 1, true> {};
template <class T>
struct NanCumSum : NanFunction<CumSum, Scan<T, 0, false, true>> {};
template <class T>
struct NanCumProd : NanFunction<CumProd, Scan<T, 1, true, true>> {};

// Calls f(S{}) with S the scanner that scan `op` runs for input dtype `dtype` (a nan-scan's
// exact one on integers and bool).
template <class F>
decltype(auto) visit_scan(ScanOp op, DType dtype, F&& f) {
  return visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (op) {
#define NUMCU_CASE(e, S, summary, returns) \
  case ScanOp::e:                          \
    return f(loop_t<S, T>{});
      NUMCU_SCANS(NUMCU_CASE)
#undef NUMCU_CASE
    }
    return f(loop_t<CumSum, T>{});  // unreachable: every scan has a case
  });
}

}  // namespace numcu::reduce
