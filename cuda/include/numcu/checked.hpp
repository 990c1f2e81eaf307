// Checked sizes: every element count, byte count, byte extent and offset numcu computes from
// what a user gave it (shapes, strides, lengths, foreign arrays' descriptions) goes through these
// helpers, so that an impossible size is an error and never a wrapped number. Views checked where
// they are made keep ArrayView::size() and byte_span() safe to use everywhere downstream.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include "numcu/array_view.hpp"
#include "numcu/dtype.hpp"
#include "numcu/errors.hpp"

namespace numcu::checked {

// The most bytes an array may have: NumPy's limit, the largest ssize_t.
constexpr std::int64_t kMaxBytes = std::numeric_limits<std::int64_t>::max();

// a * b and a + b into `out`; false (out unspecified) where the result does not fit in int64.
inline bool mul(std::int64_t a, std::int64_t b, std::int64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}
inline bool add(std::int64_t a, std::int64_t b, std::int64_t& out) {
  return !__builtin_add_overflow(a, b, &out);
}

enum class ShapeStatus { ok, negative, too_big };

// NumPy's rule for a shape: no negative extent, and the non-zero extents' product times the item
// size at most kMaxBytes. Zero extents are skipped, as NumPy skips them, so that (0, 2^62, 2^62)
// is refused like (2^62, 2^62) rather than passing as an empty array. A shape that passes has an
// element count and a byte count (`*bytes`, when given) that fit in int64.
inline ShapeStatus shape_status(const std::int64_t* shape, int ndim, std::int64_t itemsize,
                                std::int64_t* bytes = nullptr) {
  std::int64_t nonzero = itemsize;
  bool empty = false;
  for (int d = 0; d < ndim; ++d) {
    if (shape[d] < 0) return ShapeStatus::negative;
    if (shape[d] == 0) {
      empty = true;
    } else if (!mul(nonzero, shape[d], nonzero)) {
      return ShapeStatus::too_big;
    }
  }
  if (bytes != nullptr) *bytes = empty ? 0 : nonzero;
  return ShapeStatus::ok;
}

// The byte range a strided view's elements occupy relative to its data pointer (byte_span's
// result), false where it does not fit in int64. The shape must have passed shape_status.
inline bool span_of(const std::int64_t* shape, const std::int64_t* strides, int ndim,
                    std::int64_t itemsize, ByteSpan& span) {
  span = ByteSpan{};
  for (int d = 0; d < ndim; ++d) {
    if (shape[d] == 0) {
      span = ByteSpan{};
      return true;
    }
  }
  for (int d = 0; d < ndim; ++d) {
    std::int64_t extent;
    if (!mul(shape[d] - 1, strides[d], extent)) return false;
    if (!(extent < 0 ? add(span.lo, extent, span.lo) : add(span.hi, extent, span.hi))) return false;
  }
  std::int64_t width = 0;  // hi - lo, which can pass int64 with lo < 0
  return add(span.hi, itemsize, span.hi) && !__builtin_sub_overflow(span.hi, span.lo, &width);
}

// Whether [data + lo, data + hi) is a range of addresses that does not wrap around.
inline bool addresses_fit(const void* data, const ByteSpan& span) {
  const auto base = reinterpret_cast<std::uintptr_t>(data);
  const auto lo = static_cast<std::uintptr_t>(-span.lo);  // span.lo <= 0
  const auto hi = static_cast<std::uintptr_t>(span.hi);
  return base >= lo && base <= std::numeric_limits<std::uintptr_t>::max() - hi;
}

// "(3, 4)" for messages.
inline std::string shape_text(const std::int64_t* shape, int ndim) {
  std::string s = "(";
  for (int d = 0; d < ndim; ++d) {
    s += std::to_string(shape[d]);
    if (d + 1 < ndim || ndim == 1) s += ",";
    if (d + 1 < ndim) s += " ";
  }
  return s + ")";
}

inline std::string too_big_text(const std::int64_t* shape, int ndim, DType dtype) {
  return "array is too big: shape " + shape_text(shape, ndim) + " of " + dtype_name(dtype) +
         " needs more than 2**63 - 1 bytes";
}

// A new array's shape (creation functions, reshape and broadcast results, allocations):
// ValueError, naming `fname`, for a negative extent or a byte count beyond kMaxBytes. Returns the
// byte count.
inline std::int64_t check_shape(const char* fname, const std::int64_t* shape, int ndim,
                                DType dtype) {
  std::int64_t bytes = 0;
  switch (shape_status(shape, ndim, itemsize(dtype), &bytes)) {
    case ShapeStatus::ok:
      return bytes;
    case ShapeStatus::negative:
      throw_value_error(std::string(fname) + ": negative dimensions are not allowed");
    case ShapeStatus::too_big:
      break;
  }
  throw_value_error(std::string(fname) + ": " + too_big_text(shape, ndim, dtype));
}

// What is wrong with a view's shape (a negative extent, a size beyond kMaxBytes), or an empty
// string.
inline std::string shape_problem(const ArrayView& v) {
  switch (shape_status(v.shape, v.ndim, itemsize(v.dtype))) {
    case ShapeStatus::ok:
      return std::string();
    case ShapeStatus::negative:
      return "negative extent in shape " + shape_text(v.shape, v.ndim);
    case ShapeStatus::too_big:
      break;
  }
  return too_big_text(v.shape, v.ndim, v.dtype);
}

// C-contiguous byte strides for a view whose shape passed shape_problem.
inline void c_strides(ArrayView& v) {
  std::int64_t s = itemsize(v.dtype);
  for (int d = v.ndim - 1; d >= 0; --d) {
    v.strides[d] = s;
    if (v.shape[d] > 0) s *= v.shape[d];
  }
}

// Whether every element of a view starts at a multiple of its item size (all of numcu's element
// types need that alignment, complex128 16 bytes where NumPy promises only 8). Empty views are.
inline bool elements_aligned(const ArrayView& v) {
  const auto size = static_cast<std::int64_t>(itemsize(v.dtype));
  bool empty = false;
  for (int d = 0; d < v.ndim; ++d) empty = empty || v.shape[d] == 0;
  if (empty) return true;
  if (reinterpret_cast<std::uintptr_t>(v.data) % static_cast<std::uintptr_t>(size) != 0) {
    return false;
  }
  for (int d = 0; d < v.ndim; ++d) {
    if (v.shape[d] > 1 && v.strides[d] % size != 0) return false;
  }
  return true;
}

// Whether a view of memory numcu did not allocate is sound, and if not, the first rule it breaks:
// its shape passes shape_status (negative, too_big), its byte extent fits in int64
// (span_too_big) without wrapping the address space (wraps), and, with `aligned`, its elements
// are aligned (elements_aligned). Every operand of every call is asked: shape_status, span_of
// and addresses_fit in one pass over the dimensions.
enum class ViewStatus { ok, negative, too_big, span_too_big, wraps, misaligned };
inline ViewStatus view_status(const ArrayView& v, bool aligned) {
  const std::int64_t size = itemsize(v.dtype);
  std::int64_t nonzero = size;  // shape_status's product
  ByteSpan span;                // span_of's, meaningful while `spans` holds
  bool empty = false;
  bool spans = true;
  for (int d = 0; d < v.ndim; ++d) {
    const std::int64_t n = v.shape[d];
    if (n < 0) return ViewStatus::negative;
    if (n == 0) {
      empty = true;
      continue;
    }
    if (!mul(nonzero, n, nonzero)) return ViewStatus::too_big;
    std::int64_t extent = 0;
    spans = spans && mul(n - 1, v.strides[d], extent) &&
            (extent < 0 ? add(span.lo, extent, span.lo) : add(span.hi, extent, span.hi));
  }
  if (empty) return ViewStatus::ok;  // no element to reach, none to align
  std::int64_t width = 0;            // hi - lo, which can pass int64 with lo < 0
  if (!spans || !add(span.hi, size, span.hi) || __builtin_sub_overflow(span.hi, span.lo, &width)) {
    return ViewStatus::span_too_big;
  }
  if (!addresses_fit(v.data, span)) return ViewStatus::wraps;
  if (aligned && !elements_aligned(v)) return ViewStatus::misaligned;
  return ViewStatus::ok;
}

// The fast test of intake; view_problem says why not.
inline bool view_fits(const ArrayView& v, bool aligned) {
  return view_status(v, aligned) == ViewStatus::ok;
}

// What is wrong with a view of memory numcu did not allocate (a foreign interface, a buffer),
// or an empty string: view_status's finding, in words.
inline std::string view_problem(const ArrayView& v, bool aligned) {
  const std::int64_t size = itemsize(v.dtype);
  switch (view_status(v, aligned)) {
    case ViewStatus::ok:
      return std::string();
    case ViewStatus::negative:
    case ViewStatus::too_big:
      return shape_problem(v);
    case ViewStatus::span_too_big:
      return "strides " + shape_text(v.strides, v.ndim) + " with shape " +
             shape_text(v.shape, v.ndim) + " reach more than 2**63 - 1 bytes";
    case ViewStatus::wraps:
      return "the elements at data pointer " +
             std::to_string(reinterpret_cast<std::uintptr_t>(v.data)) + " with strides " +
             shape_text(v.strides, v.ndim) + " lie beyond the ends of the address space";
    case ViewStatus::misaligned:
      break;
  }
  if (reinterpret_cast<std::uintptr_t>(v.data) % static_cast<std::uintptr_t>(size) != 0) {
    return "data pointer " + std::to_string(reinterpret_cast<std::uintptr_t>(v.data)) +
           " is not a multiple of the item size " + std::to_string(size);
  }
  return "strides " + shape_text(v.strides, v.ndim) + " are not multiples of the item size " +
         std::to_string(size);
}

}  // namespace numcu::checked
