#include "numcu/dtype.hpp"

#include <algorithm>

namespace numcu {
namespace {

// dtype_from_kind finds every dtype by its own kind and size, but bfloat16, whose ('f', 2) is
// float16's.
constexpr bool kind_size_lookups_hold() {
  for (int i = 0; i < kNumDTypes; ++i) {
    const auto d = static_cast<DType>(i);
    DType found{};
    if (!dtype_from_kind(dtype_kind(d), itemsize(d), &found)) return false;
    if (found != (d == DType::bfloat16 ? DType::float16 : d)) return false;
  }
  DType none{};
  return !dtype_from_kind('f', 1, &none) && !dtype_from_kind('c', 4, &none) &&
         !dtype_from_kind('V', 2, &none) && !dtype_from_kind('i', 3, &none);
}
static_assert(kind_size_lookups_hold());

int kind_rank(char kind) {
  switch (kind) {
    case 'b':
      return 0;
    case 'u':
      return 1;
    case 'i':
      return 2;
    case 'f':
      return 3;
    default:
      return 4;  // 'c'
  }
}

// float16, never bfloat16, for ('f', 2).
DType make(char kind, int size) {
  DType d = DType::float64;
  dtype_from_kind(kind, size, &d);
  return d;
}

// The smallest float that holds every value of an integer of `size` bytes the way NumPy
// decides it: 8-bit integers fit float16, 16-bit float32, wider ones float64.
int float_size_for_int(int size) { return size == 1 ? 2 : size == 2 ? 4 : 8; }

// bfloat16 with another dtype, as ml_dtypes promotes it where it does (bool and 8-bit
// integers stay bfloat16, float32 and wider floats and complex win) and otherwise, as NumPy
// would, to the smallest dtype both cast to safely: float16 and 16-bit integers meet it in
// float32, wider integers in float64 (PyTorch and JAX also give float32 for float16).
DType promote_bfloat16(DType other) {
  const char k = dtype_kind(other);
  const int size = itemsize(other);
  if (k == 'b' || ((k == 'i' || k == 'u') && size == 1)) return DType::bfloat16;
  if (k == 'i' || k == 'u') return size == 2 ? DType::float32 : DType::float64;
  if (other == DType::float16) return DType::float32;
  return other;
}

}  // namespace

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::bfloat16) return promote_bfloat16(b);
  if (b == DType::bfloat16) return promote_bfloat16(a);
  char ka = dtype_kind(a), kb = dtype_kind(b);
  if (kind_rank(ka) > kind_rank(kb)) {
    std::swap(a, b);
    std::swap(ka, kb);
  }
  const int sa = itemsize(a), sb = itemsize(b);
  if (ka == 'b') return b;
  if (ka == kb) return sa >= sb ? a : b;
  if (ka == 'u' && kb == 'i') {
    if (sb > sa) return b;
    return sa < 8 ? make('i', 2 * sa) : DType::float64;
  }
  if (ka == 'u' || ka == 'i') {
    const int needed = float_size_for_int(sa);
    if (kb == 'f') return make('f', std::max(sb, needed));
    return make('c', 2 * std::max({sb / 2, needed, 4}));
  }
  // float with complex
  return make('c', 2 * std::max({sa, sb / 2, 4}));
}

bool can_cast_same_kind(DType from, DType to) {
  if (from == to || promote_types(from, to) == to) return true;
  return kind_rank(dtype_kind(to)) >= kind_rank(dtype_kind(from));
}

}  // namespace numcu
