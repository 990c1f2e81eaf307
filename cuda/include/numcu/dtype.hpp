// numcu's dtypes: the one list everything else derives from, and the one dispatch point that
// turns a run-time dtype into a C++ type.
#pragma once

#include <cstdint>
#include <type_traits>

#include "numcu/types.hpp"

namespace numcu {

// X(enumerator, C++ type, NumPy name, kind character, itemsize)
// bfloat16 counts as a float ('f') for promotion and casting; NumPy knows it only through the
// ml_dtypes package, as a 2-byte void ('V2'), and lookups by kind and size find float16 first.
#define NUMCU_DTYPES(X)                                     \
  X(bool_, bool, "bool", 'b', 1)                            \
  X(int8, std::int8_t, "int8", 'i', 1)                      \
  X(int16, std::int16_t, "int16", 'i', 2)                   \
  X(int32, std::int32_t, "int32", 'i', 4)                   \
  X(int64, std::int64_t, "int64", 'i', 8)                   \
  X(uint8, std::uint8_t, "uint8", 'u', 1)                   \
  X(uint16, std::uint16_t, "uint16", 'u', 2)                \
  X(uint32, std::uint32_t, "uint32", 'u', 4)                \
  X(uint64, std::uint64_t, "uint64", 'u', 8)                \
  X(float16, ::numcu::half, "float16", 'f', 2)              \
  X(float32, float, "float32", 'f', 4)                      \
  X(float64, double, "float64", 'f', 8)                     \
  X(complex64, ::numcu::complex64, "complex64", 'c', 8)     \
  X(complex128, ::numcu::complex128, "complex128", 'c', 16) \
  X(bfloat16, ::numcu::bfloat16, "bfloat16", 'f', 2)

enum class DType : std::uint8_t {
#define NUMCU_ENUM(e, T, name, kind, size) e,
  NUMCU_DTYPES(NUMCU_ENUM)
#undef NUMCU_ENUM
};

constexpr int kNumDTypes = 0
#define NUMCU_COUNT(e, T, name, kind, size) +1
    NUMCU_DTYPES(NUMCU_COUNT)
#undef NUMCU_COUNT
    ;

template <class T>
struct type_tag {
  using type = T;
};

template <class T>
struct dtype_of;
#define NUMCU_DTYPE_OF(e, T, name, kind, size) \
  template <>                                  \
  struct dtype_of<T> {                         \
    static constexpr DType value = DType::e;   \
  };
NUMCU_DTYPES(NUMCU_DTYPE_OF)
#undef NUMCU_DTYPE_OF
template <class T>
inline constexpr DType dtype_of_v = dtype_of<T>::value;

// The one dispatch point: calls f(type_tag<T>{}) with T the C++ type of `dtype`.
template <class F>
decltype(auto) visit_dtype(DType dtype, F&& f) {
  switch (dtype) {
#define NUMCU_CASE(e, T, name, kind, size) \
  case DType::e:                           \
    return f(type_tag<T>{});
    NUMCU_DTYPES(NUMCU_CASE)
#undef NUMCU_CASE
  }
  return f(type_tag<bool>{});  // unreachable: every enumerator has a case
}

namespace detail {
struct DTypeFacts {
  const char* name;
  char kind;
  int size;
};
// Every dtype's, then a last entry for a value that is no dtype.
inline constexpr DTypeFacts kDTypeFacts[] = {
#define NUMCU_FACTS(e, T, name, kind, size) {name, kind, size},
    NUMCU_DTYPES(NUMCU_FACTS)
#undef NUMCU_FACTS
        {"?", '?', 0}};
constexpr const DTypeFacts& facts(DType d) {
  const auto i = static_cast<unsigned>(d);
  constexpr auto kNone = static_cast<unsigned>(kNumDTypes);
  return kDTypeFacts[i < kNone ? i : kNone];
}
}  // namespace detail

constexpr const char* dtype_name(DType d) { return detail::facts(d).name; }

// NumPy's kind character: 'b' bool, 'i' signed, 'u' unsigned, 'f' float, 'c' complex.
constexpr char dtype_kind(DType d) { return detail::facts(d).kind; }

constexpr int itemsize(DType d) { return detail::facts(d).size; }

// One value per dtype, indexed by the dtype.
template <class V>
struct PerDType {
  V at[kNumDTypes];
  constexpr V operator[](DType d) const { return at[static_cast<int>(d)]; }
};

// f(type_tag<T>{}) for every dtype's type T: a question about types answered for all dtypes at
// once (at compile time where f is constexpr), so that asking it at run time is a table read.
template <class F>
constexpr auto per_dtype(F f) {
  PerDType<decltype(f(type_tag<bool>{}))> t{};
#define NUMCU_SET(e, T, name, kind, size) t.at[static_cast<int>(DType::e)] = f(type_tag<T>{});
  NUMCU_DTYPES(NUMCU_SET)
#undef NUMCU_SET
  return t;
}

constexpr bool is_inexact(DType d) { return dtype_kind(d) == 'f' || dtype_kind(d) == 'c'; }

namespace detail {
// Rows and columns of the table dtype_from_kind reads; -1 for a kind or size no dtype has.
constexpr int kind_slot(char kind) {
  switch (kind) {
    case 'b':
      return 0;
    case 'i':
      return 1;
    case 'u':
      return 2;
    case 'f':
      return 3;
    case 'c':
      return 4;
    default:
      return -1;
  }
}
constexpr int size_slot(int size) {
  switch (size) {
    case 1:
      return 0;
    case 2:
      return 1;
    case 4:
      return 2;
    case 8:
      return 3;
    case 16:
      return 4;
    default:
      return -1;
  }
}
// The dtype of each (kind, size), the first of NUMCU_DTYPES where two share one (float16
// before bfloat16); -1 where none. Built from NUMCU_DTYPES at compile time: a dtype with a kind
// or size outside the slots above stops the build here.
struct KindSizeTable {
  signed char dtype[5][5];
};
constexpr KindSizeTable make_kind_size_table() {
  KindSizeTable t{};
  for (auto& row : t.dtype) {
    for (auto& cell : row) cell = -1;
  }
#define NUMCU_SLOT(e, T, name, k, s)                                          \
  if (t.dtype[kind_slot(k)][size_slot(s)] < 0) {                              \
    t.dtype[kind_slot(k)][size_slot(s)] = static_cast<signed char>(DType::e); \
  }
  NUMCU_DTYPES(NUMCU_SLOT)
#undef NUMCU_SLOT
  return t;
}
inline constexpr KindSizeTable kKindSizeTable = make_kind_size_table();
}  // namespace detail

// Looks a dtype up by kind character and itemsize (as the buffer protocol and
// __cuda_array_interface__ describe one); false if numcu has no such dtype. One table read: every
// NumPy operand's intake asks.
constexpr bool dtype_from_kind(char kind, int size, DType* out) {
  const int k = detail::kind_slot(kind);
  const int s = detail::size_slot(size);
  if (k < 0 || s < 0 || detail::kKindSizeTable.dtype[k][s] < 0) return false;
  *out = static_cast<DType>(detail::kKindSizeTable.dtype[k][s]);
  return true;
}

// NumPy 2 promotion of two (strong) dtypes.
DType promote_types(DType a, DType b);

// NumPy's casting='same_kind' rule.
bool can_cast_same_kind(DType from, DType to);

}  // namespace numcu
