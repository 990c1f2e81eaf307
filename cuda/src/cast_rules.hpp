// Which loop runs a cast, on both backends. Casts that only move bits share the unsigned
// integers' loops: a copy within one dtype of up to 8 bytes copies unsigned integers of its size,
// an integer cast to a narrower or equally wide integer truncates the same bits whatever the
// signs (a widening one depends on the source's sign only), and bool becomes 0 or 1 of any
// integer type alike. 77 of the 196 dtype pairs run on the loops of 26 type pairs.
#pragma once

#include <cstdint>
#include <type_traits>

#include "numcu/dtype.hpp"
#include "numcu/errors.hpp"
#include "numcu/types.hpp"

namespace numcu {

// The unsigned integer of Size bytes.
template <int Size>
using bits_t = std::conditional_t<
    Size == 1, std::uint8_t,
    std::conditional_t<Size == 2, std::uint16_t,
                       std::conditional_t<Size == 4, std::uint32_t, std::uint64_t>>>;

template <class To, class From>
constexpr bool moves_bits =
    sizeof(To) <= 8 && (std::is_same_v<To, From> ||
                        (is_integer_v<To> && (is_integer_v<From> || std::is_same_v<From, bool>)));

// Whether a loop from From to To exists: cast_loop gives only these pairs.
template <class To, class From>
constexpr bool cast_loop_exists =
    !moves_bits<To, From> ||
    (std::is_same_v<To, bits_t<sizeof(To)>> &&
     (!(std::is_same_v<To, From> || (is_integer_v<From> && sizeof(From) >= sizeof(To))) ||
      std::is_same_v<From, bits_t<sizeof(From)>>));

struct CastLoop {
  DType to, from;
};

// The dtypes of the loop that casts `from` to `to`.
inline CastLoop cast_loop(DType to, DType from) {
  const auto bits = [](int size) {
    DType d = DType::uint64;
    dtype_from_kind('u', size, &d);
    return d;
  };
  const int size = itemsize(to);
  if (size > 8) return {to, from};
  if (from == to) return {bits(size), bits(size)};
  const char to_kind = dtype_kind(to), kind = dtype_kind(from);
  if ((to_kind == 'i' || to_kind == 'u') && (kind == 'i' || kind == 'u' || kind == 'b')) {
    const bool truncates = kind != 'b' && itemsize(from) >= size;
    return {bits(size), truncates ? bits(itemsize(from)) : from};
  }
  return {to, from};
}

[[noreturn]] inline void throw_no_cast_loop() {
  throw_value_error("numcu: internal error: a cast reached a loop that cast_loop does not give");
}

}  // namespace numcu
