#include "promotion.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "numcu/errors.hpp"

namespace numcu::python {
namespace {

// NumPy 2's promotion with NEP 50: a Python scalar ("weak") takes the other operand's dtype
// when that dtype can hold its kind, so int8 + 3 stays int8 and float32 + 2.5 stays float32.
Typed promote(Typed a, Typed b) {
  if (a.weak == b.weak) return {promote_types(a.dtype, b.dtype), a.weak};
  const DType weak = a.weak ? a.dtype : b.dtype;
  const DType strong = a.weak ? b.dtype : a.dtype;
  const char wk = dtype_kind(weak), sk = dtype_kind(strong);
  const bool strong_integral = sk == 'b' || sk == 'i' || sk == 'u';
  DType r;
  if (wk == 'b') {
    r = strong;
  } else if (wk == 'i' || wk == 'u') {
    r = sk == 'b' ? weak : strong;
  } else if (wk == 'f') {
    r = strong_integral ? DType::float64 : strong;
  } else if (strong_integral) {  // complex
    r = DType::complex128;
  } else if (sk == 'f') {
    r = strong == DType::float64 ? DType::complex128 : DType::complex64;
  } else {
    r = strong;
  }
  return {r, false};
}

// Every dtype from the least to the most it holds: by kind (bool, integers, floats, complex),
// then size, signed before unsigned, then NUMCU_DTYPES' order (float16 before bfloat16).
constexpr std::array<DType, kNumDTypes> dtypes_by_size() {
  auto key = [](DType d) {
    const char k = dtype_kind(d);
    const int group = k == 'b' ? 0 : k == 'f' ? 2 : k == 'c' ? 3 : 1;
    return (group * 32 + itemsize(d)) * 2 + (k == 'u' ? 1 : 0);
  };
  std::array<DType, kNumDTypes> a{};
  for (int i = 0; i < kNumDTypes; ++i) {
    int at = i;
    for (; at > 0 && key(a[at - 1]) > key(static_cast<DType>(i)); --at) a[at] = a[at - 1];
    a[at] = static_cast<DType>(i);
  }
  return a;
}
constexpr std::array<DType, kNumDTypes> kBySize = dtypes_by_size();
static_assert(kBySize[1] == DType::int8 && kBySize[2] == DType::uint8 &&
              kBySize[10] == DType::bfloat16 && kBySize[14] == DType::complex128);

// NumPy's result type of three or more dtypes: the smallest every one casts to safely, which
// pairwise promotion can miss (int8, uint8, float16 gives float16, not int16's float32).
DType common_dtype(const Typed* t, int n, DType pairwise) {
  for (DType c : kBySize) {
    if (c == pairwise) break;
    bool all = true;
    for (int i = 0; i < n && all; ++i) all = t[i].weak || promote_types(t[i].dtype, c) == c;
    if (all) return c;
  }
  return pairwise;
}

}  // namespace

// (bool array, 5, int8 array) gives int8 in any order, where promoting pairwise from the left
// would let 5 meet bool alone and make int64.
Typed promote_all(const Typed* t, int n) {
  Typed strong{}, weak{};
  int strongs = 0, weaks = 0;
  for (int i = 0; i < n; ++i) {
    Typed& acc = t[i].weak ? weak : strong;
    int& count = t[i].weak ? weaks : strongs;
    // A dtype meeting itself, the common case, promotes to itself.
    acc = count == 0 || (acc.dtype == t[i].dtype && acc.weak == t[i].weak) ? t[i]
                                                                           : promote(acc, t[i]);
    ++count;
  }
  if (strongs > 2) strong.dtype = common_dtype(t, n, strong.dtype);
  if (weaks == 0) return strong;
  if (strongs == 0) return weak;
  return promote(strong, weak);
}

int weak_int_side(const Operand& x, DType loop) {
  const char k = dtype_kind(loop);
  if (!x.weak || (k != 'i' && k != 'u')) return 0;
  const char xk = dtype_kind(x.view.dtype);
  if (xk != 'i' && xk != 'u') return 0;
  std::int64_t s = 0;
  std::uint64_t u = 0;
  const bool is_unsigned = xk == 'u';
  std::memcpy(is_unsigned ? static_cast<void*>(&u) : static_cast<void*>(&s), x.value, 8);
  return visit_dtype(loop, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (is_unsigned)
        return u <= static_cast<std::uint64_t>(std::numeric_limits<T>::max()) ? 0 : 1;
      if constexpr (std::is_unsigned_v<T>) {
        if (s < 0) return -1;
        return static_cast<std::uint64_t>(s) <= std::numeric_limits<T>::max() ? 0 : 1;
      } else {
        return s < std::numeric_limits<T>::min() ? -1 : (s > std::numeric_limits<T>::max() ? 1 : 0);
      }
    }
    return 0;
  });
}

void clamp_weak_int(Operand& x, DType loop, int side) {
  visit_dtype(loop, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (side == 0) {
        const std::int64_t one = 1;
        x.view.dtype = DType::int64;
        std::memcpy(x.value, &one, sizeof one);
      } else if (side > 0 && std::is_unsigned_v<T>) {
        const std::uint64_t v = std::numeric_limits<T>::max();
        x.view.dtype = DType::uint64;
        std::memcpy(x.value, &v, sizeof v);
      } else {
        const auto v = static_cast<std::int64_t>(side > 0 ? std::numeric_limits<T>::max()
                                                          : std::numeric_limits<T>::min());
        x.view.dtype = DType::int64;
        std::memcpy(x.value, &v, sizeof v);
      }
    }
  });
}

void check_weak_int(const Operand& x, DType loop, const char* fname) {
  if (weak_int_side(x, loop) == 0) return;
  std::int64_t s = 0;
  std::uint64_t u = 0;
  const bool is_unsigned = dtype_kind(x.view.dtype) == 'u';
  std::memcpy(is_unsigned ? static_cast<void*>(&u) : static_cast<void*>(&s), x.value, 8);
  const std::string value = is_unsigned ? std::to_string(u) : std::to_string(s);
  throw Error(ErrorKind::overflow_error, std::string(fname) + ": Python integer " + value +
                                             " out of bounds for " + dtype_name(loop));
}

DType result_dtype(const Operand* const* operands, int count) {
  std::vector<Typed> t(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) t[i] = Typed{operands[i]->view.dtype, operands[i]->weak};
  return promote_all(t.data(), count).dtype;
}

}  // namespace numcu::python
