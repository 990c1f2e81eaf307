// Reducers that differ only in a flag share one GPU kernel: min, max, nanmin and nanmax run one
// kernel per dtype, argmin and argmax another, any and all another, and on inexact dtypes sum,
// nansum and mean one (float16 and bfloat16: mean apart), prod and nanprod one. The flag is a
// run-time member, uniform across the launch; it costs a select per element in kernels bound by
// memory, and halves the kernels the module holds and the build compiles. Results are the reducers'
// of reducers.hpp exactly (the CPU backend runs those); family_of maps each of those to its family
// and flags.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "numcu/reducers.hpp"

namespace numcu::reduce {

// sum, nansum, mean (multiply = false) or prod, nanprod (true) of an inexact dtype, stored as
// Out: the reducers' output type, which is the accumulator's except for float16 and bfloat16,
// whose sums and products are stored narrow and whose means (var's first pass) are not. Their
// means therefore have a kernel of their own; for every other dtype Out is the accumulator and
// sum and mean share one.
template <class T, bool Multiply, class Out_ = compute_t<T>>
struct InexactFamily : Base {
  using In = T;
  using Acc = compute_t<T>;
  using Out = Out_;
  bool skip_nan = false;
  bool mean = false;
  NUMCU_HD Acc identity() const { return Acc(Multiply ? 1 : 0); }
  NUMCU_HD Acc leaf(T x, std::int64_t, std::int64_t) const {
    const Acc v = convert<Acc>(x);
    return skip_nan && is_nan(v) ? identity() : v;
  }
  NUMCU_HD Acc operator()(Acc a, Acc b) const {
    if constexpr (Multiply) {
      return a * b;
    } else {
      return a + b;
    }
  }
  NUMCU_HD Out finalize(Acc a, std::int64_t) const {
    return convert<Out>(mean ? divide_by_count(a, static_cast<double>(this->p.n)) : a);
  }
};

// A value in the order a maximum walks: itself where `max`, else reversed (negated for floats and
// complex numbers, complemented for integers and bool). Its own inverse, NaN stays NaN, and no
// branch, so that min and max (argmin and argmax) share one comparison and the unrolled loops
// stay straight.
template <class V>
NUMCU_HD NUMCU_FORCEINLINE V direction_key(V v, bool max) {
  if constexpr (std::is_floating_point_v<V>) {
    return v * (max ? V(1) : V(-1));
  } else if constexpr (is_complex_v<V>) {
    return max ? v : -v;
  } else if constexpr (std::is_same_v<V, bool>) {
    return v != !max;
  } else {
    return static_cast<V>(v ^ (max ? V(0) : static_cast<V>(~V(0))));
  }
}

// min, max, nanmin, nanmax. The accumulator holds the value in the order max walks (the value
// itself for max and nanmax, reversed for min and nanmin: direction_key), so that one comparison
// serves both directions; finalize turns it back. Combinations are predicates, not branches.
template <class T>
struct ExtremeFamily : Base {
  using In = T;
  using Acc = compute_t<T>;
  using Out = T;
  bool max = false;
  bool skip_nan = false;
  NUMCU_HD Acc identity() const {
    if (skip_nan) return quiet_nan_or_zero();
    return extreme<Acc, false>();  // the lowest value, in either direction's order
  }
  NUMCU_HD Acc leaf(T x, std::int64_t, std::int64_t) const { return key(convert<Acc>(x)); }
  // NaN wins (min, max) or loses (nanmin, nanmax); otherwise the greater key.
  NUMCU_HD Acc operator()(Acc a, Acc b) const {
    bool take_b;
    if constexpr (std::is_floating_point_v<Acc>) {
      // !(a >= b): b greater, or either NaN
      take_b = skip_nan ? (is_nan(a) | (a < b)) : (!(a >= b) & !is_nan(a));
    } else {
      const bool a_nan = is_nan(a), b_nan = is_nan(b);
      const bool b_more = !a_nan & !b_nan & less(a, b);
      take_b = skip_nan ? (a_nan | b_more) : (!a_nan & (b_nan | b_more));
    }
    return take_b ? b : a;
  }
  NUMCU_HD Out finalize(Acc a, std::int64_t) const { return convert<Out>(key(a)); }

 private:
  NUMCU_HD Acc key(Acc v) const { return direction_key(v, max); }
  // nanmin/nanmax run on inexact dtypes only; exact ones never ask.
  NUMCU_HD Acc quiet_nan_or_zero() const {
    if constexpr (is_inexact_v<T>) {
      return quiet_nan<Acc>();
    } else {
      return Acc();
    }
  }
};

// argmin, argmax.
template <class T>
struct ArgFamily : Base {
  using In = T;
  using V = compute_t<T>;
  using Acc = IndexValue<V>;
  using Out = std::int64_t;
  bool max = false;
  NUMCU_HD Acc identity() const {
    return Acc{std::numeric_limits<std::int64_t>::max(),
               max ? extreme<V, false>() : extreme<V, true>()};
  }
  NUMCU_HD Acc leaf(T x, std::int64_t k, std::int64_t) const { return Acc{k, convert<V>(x)}; }
  // The kernel's lanes meet their elements in index order, so an element joins an accumulator
  // that holds only elements before it: it takes over when it is the first NaN or strictly
  // better (or the accumulator is empty), and the general combination's index comparison drops
  // out (as Arg::fold_next).
  NUMCU_HD Acc fold_next(Acc a, T x, std::int64_t k, std::int64_t) const {
    const V v = convert<V>(x);
    return takes_over(key(v), a) ? Acc{k, v} : a;
  }
  // A vector of N neighbouring elements from index k: its own winner first (in key order, with
  // a 32-bit position: no direction test and no index arithmetic per element), then one fold
  // into `a`. The same winner as N fold_next calls in order: the first NaN, else the first of
  // the best values.
  template <int N>
  NUMCU_HD Acc fold_vector(Acc a, const T (&x)[N], std::int64_t k, std::int64_t) const {
    V best = key(convert<V>(x[0]));
    int at = 0;
#ifdef __CUDA_ARCH__  // the host compiler knows no such pragma (and warnings are errors in CI)
#pragma unroll
#endif
    for (int j = 1; j < N; ++j) {
      const V v = key(convert<V>(x[j]));
      const bool take = beats(v, best);
      best = take ? v : best;
      at = take ? j : at;
    }
    return takes_over(best, a) ? Acc{k + at, key(best)} : a;
  }
  NUMCU_HD Acc operator()(Acc a, Acc b) const { return combine_arg(a, b, max); }
  NUMCU_HD Out finalize(Acc a, std::int64_t) const { return a.index; }

 private:
  NUMCU_HD V key(V v) const { return direction_key(v, max); }
  // Whether key v, which comes after key m, takes m's place: the first NaN, else strictly more.
  // Non-short-circuit operators, so that the tests are predicates, not branches. For floats,
  // !(m >= v) is v more than m or either NaN.
  NUMCU_HD static bool beats(V v, V m) {
    if constexpr (std::is_floating_point_v<V>) {
      return !(m >= v) & !is_nan(m);
    } else {
      return !is_nan(m) & (is_nan(v) | less(m, v));
    }
  }
  // Whether key v, after every element `a` holds, takes a's place.
  NUMCU_HD bool takes_over(V v, const Acc& a) const {
    return (a.index == std::numeric_limits<std::int64_t>::max()) | beats(v, key(a.value));
  }
};

// any, all: the reducer with a run-time flag.
template <class T>
using LogicalFamily = Logical<T, bool>;

template <class T>
using SumFamily = InexactFamily<T, false, typename Sum<T>::Out>;
template <class T>
using MeanFamily = InexactFamily<T, false, typename Mean<T>::Out>;
template <class T>
using ProdFamily = InexactFamily<T, true, typename Prod<T>::Out>;

// The kernel a reducer runs on: itself, or its family with the flags that make it behave alike.
template <class R, class = void>
struct family_of {
  using type = R;
  static type make(const R& r) { return r; }
};

#define NUMCU_FAMILY(Reducer, condition, Family, flags)                          \
  template <class T>                                                             \
  struct family_of<Reducer<T>, std::enable_if_t<(condition)>> {                  \
    using type = Family<T>;                                                      \
    static_assert(std::is_same_v<typename type::Out, typename Reducer<T>::Out>); \
    static type make(const Reducer<T>& r) {                                      \
      type f;                                                                    \
      f.p = r.p;                                                                 \
      flags;                                                                     \
      return f;                                                                  \
    }                                                                            \
  };

NUMCU_FAMILY(Sum, is_inexact_v<T>, SumFamily, )
NUMCU_FAMILY(NanSum, true, SumFamily, f.skip_nan = true)
NUMCU_FAMILY(Mean, is_inexact_v<T>, MeanFamily, f.mean = true)
NUMCU_FAMILY(Prod, is_inexact_v<T>, ProdFamily, )
NUMCU_FAMILY(NanProd, true, ProdFamily, f.skip_nan = true)
NUMCU_FAMILY(Min, true, ExtremeFamily, )
NUMCU_FAMILY(Max, true, ExtremeFamily, f.max = true)
NUMCU_FAMILY(NanMin, true, ExtremeFamily, f.skip_nan = true)
NUMCU_FAMILY(NanMax, true, ExtremeFamily, f.max = true; f.skip_nan = true)
NUMCU_FAMILY(ArgMin, true, ArgFamily, )
NUMCU_FAMILY(ArgMax, true, ArgFamily, f.max = true)
NUMCU_FAMILY(Any, true, LogicalFamily, )
NUMCU_FAMILY(All, true, LogicalFamily, f.all = true)
#undef NUMCU_FAMILY

}  // namespace numcu::reduce
